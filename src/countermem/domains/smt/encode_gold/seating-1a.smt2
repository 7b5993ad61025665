; gold encoding of seating-1a (seating)
(declare-const seat_ana Int)
(declare-const seat_ben Int)
(declare-const seat_cai Int)
(declare-const seat_dee Int)
(declare-const seat_eli Int)
; rule 1
(assert (and (and (>= seat_ana 1) (<= seat_ana 5)) (and (>= seat_ben 1) (<= seat_ben 5)) (and (>= seat_cai 1) (<= seat_cai 5)) (and (>= seat_dee 1) (<= seat_dee 5)) (and (>= seat_eli 1) (<= seat_eli 5))))
; rule 2
(assert (distinct seat_ana seat_ben seat_cai seat_dee seat_eli))
; rule 3
(assert (< seat_ana seat_ben))
; rule 4
(assert (or (= (- seat_cai seat_dee) 1) (= (- seat_dee seat_cai) 1)))
; rule 5
(assert (not (or (= (- seat_ana seat_eli) 1) (= (- seat_eli seat_ana) 1))))
; rule 6
(assert (or (= seat_eli 1) (= seat_eli 5)))
; rule 7
(assert (and (distinct seat_cai 1) (distinct seat_cai 5)))
(check-sat)
(get-model)
