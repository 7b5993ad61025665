; gold encoding of ages-4b (ages)
(declare-const age_ola Int)
(declare-const age_pam Int)
(declare-const age_rex Int)
(declare-const age_sid Int)
(declare-const age_tia Int)
; rule 1
(assert (and (>= age_ola 1) (>= age_pam 1) (>= age_rex 1) (>= age_sid 1) (>= age_tia 1)))
; rule 2
(assert (= (+ age_ola age_pam age_rex age_sid age_tia) 181))
; rule 3
(assert (= (+ age_ola (* -1 age_pam) (* -1 age_rex)) 0))
; rule 4
(assert (= (+ age_sid (* -1 age_tia)) 5))
; rule 5
(assert (>= age_tia 18))
; rule 6
(assert (>= (+ age_pam (* -1 age_rex)) 10))
; rule 7
(assert (<= (+ age_rex (* -1 age_sid)) (- 1)))
(check-sat)
(get-model)
