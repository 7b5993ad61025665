; gold encoding of coins-2a (coins)
(declare-const count_pip Int)
(declare-const count_bit Int)
(declare-const count_crown Int)
(declare-const count_sovereign Int)
; rule 1
(assert (and (>= count_pip 0) (>= count_bit 0) (>= count_crown 0) (>= count_sovereign 0)))
; rule 2
(assert (= (+ (* 1 count_pip) (* 3 count_bit) (* 7 count_crown) (* 20 count_sovereign)) 47))
; rule 3
(assert (<= (+ count_pip count_bit count_crown count_sovereign) 7))
; rule 4
(assert (>= count_bit 1))
; rule 5
(assert (>= count_crown 2))
(check-sat)
(get-model)
