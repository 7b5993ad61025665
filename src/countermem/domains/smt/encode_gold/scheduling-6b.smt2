; gold encoding of scheduling-6b (scheduling)
(declare-const start_thaw Int)
(declare-const start_mix Int)
(declare-const start_spin Int)
(declare-const start_heat Int)
(declare-const start_stain Int)
(declare-const start_scan Int)
(declare-const start_log Int)
; rule 1
(assert (and (and (>= start_thaw 0) (<= (+ start_thaw 2) 12)) (and (>= start_mix 0) (<= (+ start_mix 1) 12)) (and (>= start_spin 0) (<= (+ start_spin 3) 12)) (and (>= start_heat 0) (<= (+ start_heat 2) 12)) (and (>= start_stain 0) (<= (+ start_stain 2) 12)) (and (>= start_scan 0) (<= (+ start_scan 1) 12)) (and (>= start_log 0) (<= (+ start_log 1) 12))))
; rule 2
(assert (and (or (<= (+ start_thaw 2) start_mix) (<= (+ start_mix 1) start_thaw)) (or (<= (+ start_thaw 2) start_spin) (<= (+ start_spin 3) start_thaw)) (or (<= (+ start_thaw 2) start_heat) (<= (+ start_heat 2) start_thaw)) (or (<= (+ start_thaw 2) start_stain) (<= (+ start_stain 2) start_thaw)) (or (<= (+ start_thaw 2) start_scan) (<= (+ start_scan 1) start_thaw)) (or (<= (+ start_thaw 2) start_log) (<= (+ start_log 1) start_thaw)) (or (<= (+ start_mix 1) start_spin) (<= (+ start_spin 3) start_mix)) (or (<= (+ start_mix 1) start_heat) (<= (+ start_heat 2) start_mix)) (or (<= (+ start_mix 1) start_stain) (<= (+ start_stain 2) start_mix)) (or (<= (+ start_mix 1) start_scan) (<= (+ start_scan 1) start_mix)) (or (<= (+ start_mix 1) start_log) (<= (+ start_log 1) start_mix)) (or (<= (+ start_spin 3) start_heat) (<= (+ start_heat 2) start_spin)) (or (<= (+ start_spin 3) start_stain) (<= (+ start_stain 2) start_spin)) (or (<= (+ start_spin 3) start_scan) (<= (+ start_scan 1) start_spin)) (or (<= (+ start_spin 3) start_log) (<= (+ start_log 1) start_spin)) (or (<= (+ start_heat 2) start_stain) (<= (+ start_stain 2) start_heat)) (or (<= (+ start_heat 2) start_scan) (<= (+ start_scan 1) start_heat)) (or (<= (+ start_heat 2) start_log) (<= (+ start_log 1) start_heat)) (or (<= (+ start_stain 2) start_scan) (<= (+ start_scan 1) start_stain)) (or (<= (+ start_stain 2) start_log) (<= (+ start_log 1) start_stain)) (or (<= (+ start_scan 1) start_log) (<= (+ start_log 1) start_scan))))
; rule 3
(assert (<= (+ start_thaw 2) start_mix))
; rule 4
(assert (<= (+ start_mix 1) start_spin))
; rule 5
(assert (<= (+ start_stain 2) start_scan))
; rule 6
(assert (<= (+ start_scan 1) start_log))
; rule 7
(assert (<= (+ start_stain 2) start_heat))
; rule 8
(assert (>= start_heat 3))
; rule 9
(assert (<= (+ start_spin 3) 7))
(check-sat)
(get-model)
