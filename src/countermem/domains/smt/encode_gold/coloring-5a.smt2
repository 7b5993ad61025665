; gold encoding of coloring-5a (map-coloring)
(declare-const color_hub Int)
(declare-const color_ring1 Int)
(declare-const color_ring2 Int)
(declare-const color_ring3 Int)
(declare-const color_ring4 Int)
(declare-const color_ring5 Int)
; rule 1
(assert (and (and (>= color_hub 1) (<= color_hub 4)) (and (>= color_ring1 1) (<= color_ring1 4)) (and (>= color_ring2 1) (<= color_ring2 4)) (and (>= color_ring3 1) (<= color_ring3 4)) (and (>= color_ring4 1) (<= color_ring4 4)) (and (>= color_ring5 1) (<= color_ring5 4))))
; rule 2
(assert (distinct color_hub color_ring1))
; rule 3
(assert (distinct color_hub color_ring2))
; rule 4
(assert (distinct color_hub color_ring3))
; rule 5
(assert (distinct color_hub color_ring4))
; rule 6
(assert (distinct color_hub color_ring5))
; rule 7
(assert (distinct color_ring1 color_ring2))
; rule 8
(assert (distinct color_ring2 color_ring3))
; rule 9
(assert (distinct color_ring3 color_ring4))
; rule 10
(assert (distinct color_ring4 color_ring5))
; rule 11
(assert (distinct color_ring5 color_ring1))
; rule 12
(assert (= color_ring2 color_ring4))
; rule 13
(assert (= color_hub 4))
; rule 14
(assert (= color_ring1 1))
(check-sat)
(get-model)
