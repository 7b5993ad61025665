; gold encoding of seating-6b (seating)
(declare-const seat_bea Int)
(declare-const seat_cole Int)
(declare-const seat_dora Int)
(declare-const seat_emil Int)
(declare-const seat_fern Int)
(declare-const seat_gil Int)
; rule 1
(assert (and (and (>= seat_bea 1) (<= seat_bea 6)) (and (>= seat_cole 1) (<= seat_cole 6)) (and (>= seat_dora 1) (<= seat_dora 6)) (and (>= seat_emil 1) (<= seat_emil 6)) (and (>= seat_fern 1) (<= seat_fern 6)) (and (>= seat_gil 1) (<= seat_gil 6))))
; rule 2
(assert (distinct seat_bea seat_cole seat_dora seat_emil seat_fern seat_gil))
; rule 3
(assert (= seat_bea 4))
; rule 4
(assert (> seat_cole seat_dora))
; rule 5
(assert (or (= (- seat_emil seat_fern) 1) (= (- seat_fern seat_emil) 1)))
; rule 6
(assert (not (or (= (- seat_bea seat_cole) 1) (= (- seat_cole seat_bea) 1))))
; rule 7
(assert (or (= seat_gil 1) (= seat_gil 6)))
; rule 8
(assert (and (distinct seat_emil 1) (distinct seat_emil 6)))
; rule 9
(assert (< seat_fern seat_dora))
(check-sat)
(get-model)
