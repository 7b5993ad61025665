; gold encoding of scheduling-2b (scheduling)
(declare-const start_plan Int)
(declare-const start_buy Int)
(declare-const start_cook Int)
(declare-const start_serve Int)
(declare-const start_clean Int)
; rule 1
(assert (and (and (>= start_plan 0) (<= (+ start_plan 2) 14)) (and (>= start_buy 0) (<= (+ start_buy 3) 14)) (and (>= start_cook 0) (<= (+ start_cook 4) 14)) (and (>= start_serve 0) (<= (+ start_serve 1) 14)) (and (>= start_clean 0) (<= (+ start_clean 2) 14))))
; rule 2
(assert (and (or (<= (+ start_plan 2) start_buy) (<= (+ start_buy 3) start_plan)) (or (<= (+ start_plan 2) start_cook) (<= (+ start_cook 4) start_plan)) (or (<= (+ start_plan 2) start_serve) (<= (+ start_serve 1) start_plan)) (or (<= (+ start_plan 2) start_clean) (<= (+ start_clean 2) start_plan)) (or (<= (+ start_buy 3) start_cook) (<= (+ start_cook 4) start_buy)) (or (<= (+ start_buy 3) start_serve) (<= (+ start_serve 1) start_buy)) (or (<= (+ start_buy 3) start_clean) (<= (+ start_clean 2) start_buy)) (or (<= (+ start_cook 4) start_serve) (<= (+ start_serve 1) start_cook)) (or (<= (+ start_cook 4) start_clean) (<= (+ start_clean 2) start_cook)) (or (<= (+ start_serve 1) start_clean) (<= (+ start_clean 2) start_serve))))
; rule 3
(assert (<= (+ start_plan 2) start_buy))
; rule 4
(assert (<= (+ start_buy 3) start_cook))
; rule 5
(assert (<= (+ start_cook 4) start_serve))
; rule 6
(assert (<= (+ start_clean 2) start_cook))
; rule 7
(assert (>= start_cook 4))
; rule 8
(assert (<= (+ start_serve 1) 12))
(check-sat)
(get-model)
