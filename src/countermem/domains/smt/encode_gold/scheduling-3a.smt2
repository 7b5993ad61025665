; gold encoding of scheduling-3a (scheduling)
(declare-const start_flyers Int)
(declare-const start_posters Int)
(declare-const start_cards Int)
(declare-const start_banners Int)
; rule 1
(assert (and (and (>= start_flyers 0) (<= (+ start_flyers 2) 10)) (and (>= start_posters 0) (<= (+ start_posters 3) 10)) (and (>= start_cards 0) (<= (+ start_cards 1) 10)) (and (>= start_banners 0) (<= (+ start_banners 4) 10))))
; rule 2
(assert (and (or (<= (+ start_flyers 2) start_posters) (<= (+ start_posters 3) start_flyers)) (or (<= (+ start_flyers 2) start_cards) (<= (+ start_cards 1) start_flyers)) (or (<= (+ start_flyers 2) start_banners) (<= (+ start_banners 4) start_flyers)) (or (<= (+ start_posters 3) start_cards) (<= (+ start_cards 1) start_posters)) (or (<= (+ start_posters 3) start_banners) (<= (+ start_banners 4) start_posters)) (or (<= (+ start_cards 1) start_banners) (<= (+ start_banners 4) start_cards))))
; rule 3
(assert (<= (+ start_cards 1) start_flyers))
; rule 4
(assert (>= start_banners 3))
; rule 5
(assert (<= (+ start_posters 3) 5))
(check-sat)
(get-model)
