; gold encoding of ages-2a (ages)
(declare-const age_dan Int)
(declare-const age_eve Int)
(declare-const age_fin Int)
(declare-const age_gil Int)
; rule 1
(assert (and (>= age_dan 1) (>= age_eve 1) (>= age_fin 1) (>= age_gil 1)))
; rule 2
(assert (= (+ age_dan age_eve) 52))
; rule 3
(assert (= (+ age_eve (* -1 age_fin)) 4))
; rule 4
(assert (= (+ age_gil (* -1 age_fin)) 2))
; rule 5
(assert (= (+ age_dan (* -1 age_gil)) 10))
(check-sat)
(get-model)
