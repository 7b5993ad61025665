; gold encoding of binpack-4a (bin-packing)
(declare-const box_p1 Int)
(declare-const box_p2 Int)
(declare-const box_p3 Int)
(declare-const box_p4 Int)
(declare-const box_p5 Int)
(declare-const box_p6 Int)
(declare-const box_p7 Int)
(declare-const box_p8 Int)
(declare-const box_p9 Int)
(declare-const box_p10 Int)
; rule 1
(assert (and (and (>= box_p1 1) (<= box_p1 4)) (and (>= box_p2 1) (<= box_p2 4)) (and (>= box_p3 1) (<= box_p3 4)) (and (>= box_p4 1) (<= box_p4 4)) (and (>= box_p5 1) (<= box_p5 4)) (and (>= box_p6 1) (<= box_p6 4)) (and (>= box_p7 1) (<= box_p7 4)) (and (>= box_p8 1) (<= box_p8 4)) (and (>= box_p9 1) (<= box_p9 4)) (and (>= box_p10 1) (<= box_p10 4))))
; rule 2
(assert (<= (+ (ite (= box_p1 1) 9 0) (ite (= box_p2 1) 7 0) (ite (= box_p3 1) 6 0) (ite (= box_p4 1) 5 0) (ite (= box_p5 1) 5 0) (ite (= box_p6 1) 4 0) (ite (= box_p7 1) 3 0) (ite (= box_p8 1) 3 0) (ite (= box_p9 1) 2 0) (ite (= box_p10 1) 2 0)) 13))
; rule 3
(assert (<= (+ (ite (= box_p1 2) 9 0) (ite (= box_p2 2) 7 0) (ite (= box_p3 2) 6 0) (ite (= box_p4 2) 5 0) (ite (= box_p5 2) 5 0) (ite (= box_p6 2) 4 0) (ite (= box_p7 2) 3 0) (ite (= box_p8 2) 3 0) (ite (= box_p9 2) 2 0) (ite (= box_p10 2) 2 0)) 13))
; rule 4
(assert (<= (+ (ite (= box_p1 3) 9 0) (ite (= box_p2 3) 7 0) (ite (= box_p3 3) 6 0) (ite (= box_p4 3) 5 0) (ite (= box_p5 3) 5 0) (ite (= box_p6 3) 4 0) (ite (= box_p7 3) 3 0) (ite (= box_p8 3) 3 0) (ite (= box_p9 3) 2 0) (ite (= box_p10 3) 2 0)) 13))
; rule 5
(assert (<= (+ (ite (= box_p1 4) 9 0) (ite (= box_p2 4) 7 0) (ite (= box_p3 4) 6 0) (ite (= box_p4 4) 5 0) (ite (= box_p5 4) 5 0) (ite (= box_p6 4) 4 0) (ite (= box_p7 4) 3 0) (ite (= box_p8 4) 3 0) (ite (= box_p9 4) 2 0) (ite (= box_p10 4) 2 0)) 13))
; rule 6
(assert (= box_p4 box_p5))
; rule 7
(assert (distinct box_p6 box_p7))
; rule 8
(assert (distinct box_p1 box_p9))
(check-sat)
(get-model)
