; gold encoding of coloring-3b (map-coloring)
(declare-const color_ash Int)
(declare-const color_bay Int)
(declare-const color_cove Int)
(declare-const color_dune Int)
(declare-const color_reef Int)
; rule 1
(assert (and (and (>= color_ash 1) (<= color_ash 3)) (and (>= color_bay 1) (<= color_bay 3)) (and (>= color_cove 1) (<= color_cove 3)) (and (>= color_dune 1) (<= color_dune 3)) (and (>= color_reef 1) (<= color_reef 3))))
; rule 2
(assert (distinct color_ash color_bay))
; rule 3
(assert (distinct color_ash color_cove))
; rule 4
(assert (distinct color_bay color_cove))
; rule 5
(assert (distinct color_bay color_dune))
; rule 6
(assert (distinct color_cove color_dune))
; rule 7
(assert (distinct color_dune color_reef))
; rule 8
(assert (distinct color_cove color_reef))
; rule 9
(assert (= color_ash 1))
; rule 10
(assert (= color_reef 3))
(check-sat)
(get-model)
