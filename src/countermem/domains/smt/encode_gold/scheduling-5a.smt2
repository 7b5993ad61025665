; gold encoding of scheduling-5a (scheduling)
(declare-const start_intro Int)
(declare-const start_chase Int)
(declare-const start_dialogue Int)
(declare-const start_finale Int)
; rule 1
(assert (and (and (>= start_intro 0) (<= (+ start_intro 1) 11)) (and (>= start_chase 0) (<= (+ start_chase 4) 11)) (and (>= start_dialogue 0) (<= (+ start_dialogue 2) 11)) (and (>= start_finale 0) (<= (+ start_finale 3) 11))))
; rule 2
(assert (and (or (<= (+ start_intro 1) start_chase) (<= (+ start_chase 4) start_intro)) (or (<= (+ start_intro 1) start_dialogue) (<= (+ start_dialogue 2) start_intro)) (or (<= (+ start_intro 1) start_finale) (<= (+ start_finale 3) start_intro)) (or (<= (+ start_chase 4) start_dialogue) (<= (+ start_dialogue 2) start_chase)) (or (<= (+ start_chase 4) start_finale) (<= (+ start_finale 3) start_chase)) (or (<= (+ start_dialogue 2) start_finale) (<= (+ start_finale 3) start_dialogue))))
; rule 3
(assert (<= (+ start_intro 1) start_dialogue))
; rule 4
(assert (<= (+ start_chase 4) start_finale))
; rule 5
(assert (<= (+ start_dialogue 2) start_finale))
; rule 6
(assert (>= start_chase 2))
(check-sat)
(get-model)
