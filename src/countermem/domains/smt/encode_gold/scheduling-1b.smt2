; gold encoding of scheduling-1b (scheduling)
(declare-const start_cut Int)
(declare-const start_drill Int)
(declare-const start_weld Int)
(declare-const start_paint Int)
(declare-const start_pack Int)
; rule 1
(assert (and (and (>= start_cut 0) (<= (+ start_cut 3) 12)) (and (>= start_drill 0) (<= (+ start_drill 2) 12)) (and (>= start_weld 0) (<= (+ start_weld 4) 12)) (and (>= start_paint 0) (<= (+ start_paint 1) 12)) (and (>= start_pack 0) (<= (+ start_pack 2) 12))))
; rule 2
(assert (and (or (<= (+ start_cut 3) start_drill) (<= (+ start_drill 2) start_cut)) (or (<= (+ start_cut 3) start_weld) (<= (+ start_weld 4) start_cut)) (or (<= (+ start_cut 3) start_paint) (<= (+ start_paint 1) start_cut)) (or (<= (+ start_cut 3) start_pack) (<= (+ start_pack 2) start_cut)) (or (<= (+ start_drill 2) start_weld) (<= (+ start_weld 4) start_drill)) (or (<= (+ start_drill 2) start_paint) (<= (+ start_paint 1) start_drill)) (or (<= (+ start_drill 2) start_pack) (<= (+ start_pack 2) start_drill)) (or (<= (+ start_weld 4) start_paint) (<= (+ start_paint 1) start_weld)) (or (<= (+ start_weld 4) start_pack) (<= (+ start_pack 2) start_weld)) (or (<= (+ start_paint 1) start_pack) (<= (+ start_pack 2) start_paint))))
; rule 3
(assert (<= (+ start_weld 4) start_cut))
; rule 4
(assert (<= (+ start_drill 2) start_paint))
; rule 5
(assert (>= start_pack 5))
; rule 6
(assert (<= (+ start_paint 1) 6))
(check-sat)
(get-model)
