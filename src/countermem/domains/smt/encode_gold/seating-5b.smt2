; gold encoding of seating-5b (seating)
(declare-const seat_wes Int)
(declare-const seat_xia Int)
(declare-const seat_yara Int)
(declare-const seat_zeno Int)
(declare-const seat_amir Int)
; rule 1
(assert (and (and (>= seat_wes 1) (<= seat_wes 5)) (and (>= seat_xia 1) (<= seat_xia 5)) (and (>= seat_yara 1) (<= seat_yara 5)) (and (>= seat_zeno 1) (<= seat_zeno 5)) (and (>= seat_amir 1) (<= seat_amir 5))))
; rule 2
(assert (distinct seat_wes seat_xia seat_yara seat_zeno seat_amir))
; rule 3
(assert (< seat_wes seat_yara))
; rule 4
(assert (not (or (= (- seat_wes seat_amir) 1) (= (- seat_amir seat_wes) 1))))
; rule 5
(assert (not (or (= (- seat_xia seat_zeno) 1) (= (- seat_zeno seat_xia) 1))))
; rule 6
(assert (> seat_amir seat_xia))
(check-sat)
(get-model)
