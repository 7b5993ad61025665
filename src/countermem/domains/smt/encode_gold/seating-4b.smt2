; gold encoding of seating-4b (seating)
(declare-const seat_pia Int)
(declare-const seat_quinn Int)
(declare-const seat_rhea Int)
(declare-const seat_sol Int)
(declare-const seat_tess Int)
(declare-const seat_uma Int)
(declare-const seat_vik Int)
; rule 1
(assert (and (and (>= seat_pia 1) (<= seat_pia 7)) (and (>= seat_quinn 1) (<= seat_quinn 7)) (and (>= seat_rhea 1) (<= seat_rhea 7)) (and (>= seat_sol 1) (<= seat_sol 7)) (and (>= seat_tess 1) (<= seat_tess 7)) (and (>= seat_uma 1) (<= seat_uma 7)) (and (>= seat_vik 1) (<= seat_vik 7))))
; rule 2
(assert (distinct seat_pia seat_quinn seat_rhea seat_sol seat_tess seat_uma seat_vik))
; rule 3
(assert (= seat_rhea 4))
; rule 4
(assert (or (= (- seat_pia seat_quinn) 1) (= (- seat_quinn seat_pia) 1)))
; rule 5
(assert (not (or (= (- seat_rhea seat_sol) 1) (= (- seat_sol seat_rhea) 1))))
; rule 6
(assert (> seat_pia seat_rhea))
; rule 7
(assert (or (= seat_tess 1) (= seat_tess 7)))
; rule 8
(assert (< seat_uma seat_vik))
; rule 9
(assert (and (distinct seat_vik 1) (distinct seat_vik 7)))
; rule 10
(assert (or (= (- seat_sol seat_tess) 1) (= (- seat_tess seat_sol) 1)))
(check-sat)
(get-model)
