; gold encoding of coins-3a (coins)
(declare-const count_cent1 Int)
(declare-const count_cent2 Int)
(declare-const count_cent5 Int)
(declare-const count_cent10 Int)
(declare-const count_cent20 Int)
(declare-const count_cent50 Int)
; rule 1
(assert (and (>= count_cent1 0) (>= count_cent2 0) (>= count_cent5 0) (>= count_cent10 0) (>= count_cent20 0) (>= count_cent50 0)))
; rule 2
(assert (= (+ (* 1 count_cent1) (* 2 count_cent2) (* 5 count_cent5) (* 10 count_cent10) (* 20 count_cent20) (* 50 count_cent50)) 64))
; rule 3
(assert (<= (+ count_cent1 count_cent2 count_cent5 count_cent10 count_cent20 count_cent50) 6))
; rule 4
(assert (>= count_cent2 1))
(check-sat)
(get-model)
