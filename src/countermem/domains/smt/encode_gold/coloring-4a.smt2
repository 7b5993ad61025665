; gold encoding of coloring-4a (map-coloring)
(declare-const color_docks Int)
(declare-const color_market Int)
(declare-const color_castle Int)
(declare-const color_harbour Int)
(declare-const color_mill Int)
(declare-const color_abbey Int)
(declare-const color_forum Int)
(declare-const color_quay Int)
; rule 1
(assert (and (and (>= color_docks 1) (<= color_docks 3)) (and (>= color_market 1) (<= color_market 3)) (and (>= color_castle 1) (<= color_castle 3)) (and (>= color_harbour 1) (<= color_harbour 3)) (and (>= color_mill 1) (<= color_mill 3)) (and (>= color_abbey 1) (<= color_abbey 3)) (and (>= color_forum 1) (<= color_forum 3)) (and (>= color_quay 1) (<= color_quay 3))))
; rule 2
(assert (distinct color_docks color_harbour))
; rule 3
(assert (distinct color_docks color_quay))
; rule 4
(assert (distinct color_harbour color_quay))
; rule 5
(assert (distinct color_harbour color_market))
; rule 6
(assert (distinct color_market color_castle))
; rule 7
(assert (distinct color_market color_forum))
; rule 8
(assert (distinct color_castle color_forum))
; rule 9
(assert (distinct color_castle color_abbey))
; rule 10
(assert (distinct color_abbey color_mill))
; rule 11
(assert (distinct color_mill color_forum))
; rule 12
(assert (distinct color_quay color_market))
; rule 13
(assert (distinct color_abbey color_forum))
; rule 14
(assert (= color_harbour color_mill))
; rule 15
(assert (= color_castle 1))
; rule 16
(assert (= color_docks 2))
(check-sat)
(get-model)
