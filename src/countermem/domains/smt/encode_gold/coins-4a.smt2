; gold encoding of coins-4a (coins)
(declare-const count_copper Int)
(declare-const count_silver Int)
(declare-const count_gold Int)
; rule 1
(assert (and (>= count_copper 0) (>= count_silver 0) (>= count_gold 0)))
; rule 2
(assert (= (+ (* 2 count_copper) (* 5 count_silver) (* 12 count_gold)) 41))
; rule 3
(assert (<= (+ count_copper count_silver count_gold) 9))
; rule 4
(assert (>= count_silver 1))
; rule 5
(assert (<= count_gold 1))
(check-sat)
(get-model)
