; gold encoding of magic-3a (magic-square)
(declare-const sq_1_1 Int)
(declare-const sq_1_2 Int)
(declare-const sq_1_3 Int)
(declare-const sq_2_1 Int)
(declare-const sq_2_2 Int)
(declare-const sq_2_3 Int)
(declare-const sq_3_1 Int)
(declare-const sq_3_2 Int)
(declare-const sq_3_3 Int)
; rule 1
(assert (and (and (>= sq_1_1 1) (<= sq_1_1 9)) (and (>= sq_1_2 1) (<= sq_1_2 9)) (and (>= sq_1_3 1) (<= sq_1_3 9)) (and (>= sq_2_1 1) (<= sq_2_1 9)) (and (>= sq_2_2 1) (<= sq_2_2 9)) (and (>= sq_2_3 1) (<= sq_2_3 9)) (and (>= sq_3_1 1) (<= sq_3_1 9)) (and (>= sq_3_2 1) (<= sq_3_2 9)) (and (>= sq_3_3 1) (<= sq_3_3 9))))
; rule 2
(assert (distinct sq_1_1 sq_1_2 sq_1_3 sq_2_1 sq_2_2 sq_2_3 sq_3_1 sq_3_2 sq_3_3))
; rule 3
(assert (= (+ sq_1_1 sq_1_2 sq_1_3) 15))
; rule 4
(assert (= (+ sq_2_1 sq_2_2 sq_2_3) 15))
; rule 5
(assert (= (+ sq_3_1 sq_3_2 sq_3_3) 15))
; rule 6
(assert (= (+ sq_1_1 sq_2_1 sq_3_1) 15))
; rule 7
(assert (= (+ sq_1_2 sq_2_2 sq_3_2) 15))
; rule 8
(assert (= (+ sq_1_3 sq_2_3 sq_3_3) 15))
; rule 9
(assert (= (+ sq_1_1 sq_2_2 sq_3_3) 15))
; rule 10
(assert (= (+ sq_1_3 sq_2_2 sq_3_1) 15))
; rule 11
(assert (= sq_3_3 8))
; rule 12
(assert (= sq_2_3 1))
(check-sat)
(get-model)
