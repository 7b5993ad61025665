; gold encoding of seating-2b (seating)
(declare-const seat_fay Int)
(declare-const seat_gus Int)
(declare-const seat_hal Int)
(declare-const seat_ivy Int)
(declare-const seat_jon Int)
(declare-const seat_kim Int)
; rule 1
(assert (and (and (>= seat_fay 1) (<= seat_fay 6)) (and (>= seat_gus 1) (<= seat_gus 6)) (and (>= seat_hal 1) (<= seat_hal 6)) (and (>= seat_ivy 1) (<= seat_ivy 6)) (and (>= seat_jon 1) (<= seat_jon 6)) (and (>= seat_kim 1) (<= seat_kim 6))))
; rule 2
(assert (distinct seat_fay seat_gus seat_hal seat_ivy seat_jon seat_kim))
; rule 3
(assert (or (= seat_fay 1) (= seat_fay 6)))
; rule 4
(assert (or (= (- seat_gus seat_hal) 1) (= (- seat_hal seat_gus) 1)))
; rule 5
(assert (and (distinct seat_ivy 1) (distinct seat_ivy 6)))
; rule 6
(assert (< seat_jon seat_kim))
; rule 7
(assert (not (or (= (- seat_fay seat_gus) 1) (= (- seat_gus seat_fay) 1))))
; rule 8
(assert (= seat_hal 3))
(check-sat)
(get-model)
