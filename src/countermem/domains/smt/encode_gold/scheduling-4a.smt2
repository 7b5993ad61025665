; gold encoding of scheduling-4a (scheduling)
(declare-const start_sheets Int)
(declare-const start_towels Int)
(declare-const start_uniforms Int)
(declare-const start_curtains Int)
(declare-const start_aprons Int)
(declare-const start_napkins Int)
; rule 1
(assert (and (and (>= start_sheets 0) (<= (+ start_sheets 3) 14)) (and (>= start_towels 0) (<= (+ start_towels 2) 14)) (and (>= start_uniforms 0) (<= (+ start_uniforms 2) 14)) (and (>= start_curtains 0) (<= (+ start_curtains 4) 14)) (and (>= start_aprons 0) (<= (+ start_aprons 1) 14)) (and (>= start_napkins 0) (<= (+ start_napkins 1) 14))))
; rule 2
(assert (and (or (<= (+ start_sheets 3) start_towels) (<= (+ start_towels 2) start_sheets)) (or (<= (+ start_sheets 3) start_uniforms) (<= (+ start_uniforms 2) start_sheets)) (or (<= (+ start_sheets 3) start_curtains) (<= (+ start_curtains 4) start_sheets)) (or (<= (+ start_sheets 3) start_aprons) (<= (+ start_aprons 1) start_sheets)) (or (<= (+ start_sheets 3) start_napkins) (<= (+ start_napkins 1) start_sheets)) (or (<= (+ start_towels 2) start_uniforms) (<= (+ start_uniforms 2) start_towels)) (or (<= (+ start_towels 2) start_curtains) (<= (+ start_curtains 4) start_towels)) (or (<= (+ start_towels 2) start_aprons) (<= (+ start_aprons 1) start_towels)) (or (<= (+ start_towels 2) start_napkins) (<= (+ start_napkins 1) start_towels)) (or (<= (+ start_uniforms 2) start_curtains) (<= (+ start_curtains 4) start_uniforms)) (or (<= (+ start_uniforms 2) start_aprons) (<= (+ start_aprons 1) start_uniforms)) (or (<= (+ start_uniforms 2) start_napkins) (<= (+ start_napkins 1) start_uniforms)) (or (<= (+ start_curtains 4) start_aprons) (<= (+ start_aprons 1) start_curtains)) (or (<= (+ start_curtains 4) start_napkins) (<= (+ start_napkins 1) start_curtains)) (or (<= (+ start_aprons 1) start_napkins) (<= (+ start_napkins 1) start_aprons))))
; rule 3
(assert (<= (+ start_towels 2) start_napkins))
; rule 4
(assert (<= (+ start_sheets 3) start_curtains))
; rule 5
(assert (>= start_aprons 2))
; rule 6
(assert (>= start_uniforms 6))
; rule 7
(assert (<= (+ start_curtains 4) 12))
(check-sat)
(get-model)
