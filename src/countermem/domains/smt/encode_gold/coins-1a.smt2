; gold encoding of coins-1a (coins)
(declare-const count_penny Int)
(declare-const count_nickel Int)
(declare-const count_dime Int)
(declare-const count_quarter Int)
; rule 1
(assert (and (>= count_penny 0) (>= count_nickel 0) (>= count_dime 0) (>= count_quarter 0)))
; rule 2
(assert (= (+ (* 1 count_penny) (* 5 count_nickel) (* 10 count_dime) (* 25 count_quarter)) 87))
; rule 3
(assert (<= (+ count_penny count_nickel count_dime count_quarter) 8))
; rule 4
(assert (>= count_nickel 1))
(check-sat)
(get-model)
