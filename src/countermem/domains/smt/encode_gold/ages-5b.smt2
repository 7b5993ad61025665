; gold encoding of ages-5b (ages)
(declare-const age_hana Int)
(declare-const age_ivo Int)
(declare-const age_jude Int)
; rule 1
(assert (and (>= age_hana 1) (>= age_ivo 1) (>= age_jude 1)))
; rule 2
(assert (= (+ age_hana (* -2 age_ivo)) (- 5)))
; rule 3
(assert (= (+ age_hana (* -1 age_jude)) 4))
; rule 4
(assert (= (+ age_hana age_ivo age_jude) 96))
(check-sat)
(get-model)
