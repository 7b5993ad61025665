; gold encoding of ages-1a (ages)
(declare-const age_ann Int)
(declare-const age_bob Int)
(declare-const age_cat Int)
; rule 1
(assert (and (>= age_ann 1) (>= age_bob 1) (>= age_cat 1)))
; rule 2
(assert (= (+ age_ann (* -1 age_bob)) 3))
; rule 3
(assert (= (+ age_cat (* -2 age_bob)) 0))
; rule 4
(assert (= (+ age_ann age_bob age_cat) 31))
(check-sat)
(get-model)
