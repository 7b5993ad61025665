; gold encoding of coloring-2b (map-coloring)
(declare-const color_alder Int)
(declare-const color_birch Int)
(declare-const color_cedar Int)
(declare-const color_dogwood Int)
(declare-const color_elm Int)
(declare-const color_fir Int)
(declare-const color_gum Int)
; rule 1
(assert (and (and (>= color_alder 1) (<= color_alder 3)) (and (>= color_birch 1) (<= color_birch 3)) (and (>= color_cedar 1) (<= color_cedar 3)) (and (>= color_dogwood 1) (<= color_dogwood 3)) (and (>= color_elm 1) (<= color_elm 3)) (and (>= color_fir 1) (<= color_fir 3)) (and (>= color_gum 1) (<= color_gum 3))))
; rule 2
(assert (distinct color_alder color_birch))
; rule 3
(assert (distinct color_alder color_cedar))
; rule 4
(assert (distinct color_birch color_cedar))
; rule 5
(assert (distinct color_birch color_dogwood))
; rule 6
(assert (distinct color_cedar color_dogwood))
; rule 7
(assert (distinct color_cedar color_elm))
; rule 8
(assert (distinct color_dogwood color_elm))
; rule 9
(assert (distinct color_elm color_fir))
; rule 10
(assert (distinct color_fir color_gum))
; rule 11
(assert (distinct color_dogwood color_gum))
; rule 12
(assert (distinct color_alder color_fir))
; rule 13
(assert (= color_alder 1))
(check-sat)
(get-model)
