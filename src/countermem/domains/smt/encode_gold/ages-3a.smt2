; gold encoding of ages-3a (ages)
(declare-const age_mia Int)
(declare-const age_leo Int)
; rule 1
(assert (and (>= age_mia 1) (>= age_leo 1)))
; rule 2
(assert (= (+ age_mia (* -1 age_leo)) 26))
; rule 3
(assert (= (+ age_mia (* -3 age_leo)) 8))
(check-sat)
(get-model)
