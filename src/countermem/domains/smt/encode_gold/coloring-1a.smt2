; gold encoding of coloring-1a (map-coloring)
(declare-const color_north Int)
(declare-const color_south Int)
(declare-const color_east Int)
(declare-const color_west Int)
(declare-const color_centre Int)
(declare-const color_coast Int)
; rule 1
(assert (and (and (>= color_north 1) (<= color_north 3)) (and (>= color_south 1) (<= color_south 3)) (and (>= color_east 1) (<= color_east 3)) (and (>= color_west 1) (<= color_west 3)) (and (>= color_centre 1) (<= color_centre 3)) (and (>= color_coast 1) (<= color_coast 3))))
; rule 2
(assert (distinct color_north color_centre))
; rule 3
(assert (distinct color_south color_centre))
; rule 4
(assert (distinct color_east color_centre))
; rule 5
(assert (distinct color_west color_centre))
; rule 6
(assert (distinct color_north color_east))
; rule 7
(assert (distinct color_north color_west))
; rule 8
(assert (distinct color_south color_east))
; rule 9
(assert (distinct color_south color_coast))
; rule 10
(assert (distinct color_east color_coast))
; rule 11
(assert (= color_centre 1))
; rule 12
(assert (= color_north 2))
(check-sat)
(get-model)
