; gold encoding of seating-3a (seating)
(declare-const seat_lia Int)
(declare-const seat_mo Int)
(declare-const seat_nell Int)
(declare-const seat_omar Int)
; rule 1
(assert (and (and (>= seat_lia 1) (<= seat_lia 4)) (and (>= seat_mo 1) (<= seat_mo 4)) (and (>= seat_nell 1) (<= seat_nell 4)) (and (>= seat_omar 1) (<= seat_omar 4))))
; rule 2
(assert (distinct seat_lia seat_mo seat_nell seat_omar))
; rule 3
(assert (or (= (- seat_lia seat_omar) 1) (= (- seat_omar seat_lia) 1)))
; rule 4
(assert (and (distinct seat_mo 1) (distinct seat_mo 4)))
; rule 5
(assert (not (or (= (- seat_mo seat_lia) 1) (= (- seat_lia seat_mo) 1))))
; rule 6
(assert (< seat_nell seat_omar))
(check-sat)
(get-model)
