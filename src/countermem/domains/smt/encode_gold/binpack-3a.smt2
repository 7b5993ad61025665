; gold encoding of binpack-3a (bin-packing)
(declare-const box_amp Int)
(declare-const box_bass Int)
(declare-const box_cymbals Int)
(declare-const box_drums Int)
(declare-const box_guitar Int)
(declare-const box_keyboard Int)
(declare-const box_mixer Int)
(declare-const box_stands Int)
(declare-const box_cables Int)
; rule 1
(assert (and (and (>= box_amp 1) (<= box_amp 3)) (and (>= box_bass 1) (<= box_bass 3)) (and (>= box_cymbals 1) (<= box_cymbals 3)) (and (>= box_drums 1) (<= box_drums 3)) (and (>= box_guitar 1) (<= box_guitar 3)) (and (>= box_keyboard 1) (<= box_keyboard 3)) (and (>= box_mixer 1) (<= box_mixer 3)) (and (>= box_stands 1) (<= box_stands 3)) (and (>= box_cables 1) (<= box_cables 3))))
; rule 2
(assert (<= (+ (ite (= box_amp 1) 7 0) (ite (= box_bass 1) 4 0) (ite (= box_cymbals 1) 3 0) (ite (= box_drums 1) 8 0) (ite (= box_guitar 1) 3 0) (ite (= box_keyboard 1) 6 0) (ite (= box_mixer 1) 5 0) (ite (= box_stands 1) 2 0) (ite (= box_cables 1) 2 0)) 14))
; rule 3
(assert (<= (+ (ite (= box_amp 2) 7 0) (ite (= box_bass 2) 4 0) (ite (= box_cymbals 2) 3 0) (ite (= box_drums 2) 8 0) (ite (= box_guitar 2) 3 0) (ite (= box_keyboard 2) 6 0) (ite (= box_mixer 2) 5 0) (ite (= box_stands 2) 2 0) (ite (= box_cables 2) 2 0)) 14))
; rule 4
(assert (<= (+ (ite (= box_amp 3) 7 0) (ite (= box_bass 3) 4 0) (ite (= box_cymbals 3) 3 0) (ite (= box_drums 3) 8 0) (ite (= box_guitar 3) 3 0) (ite (= box_keyboard 3) 6 0) (ite (= box_mixer 3) 5 0) (ite (= box_stands 3) 2 0) (ite (= box_cables 3) 2 0)) 14))
; rule 5
(assert (= box_bass box_guitar))
; rule 6
(assert (= box_amp box_mixer))
; rule 7
(assert (distinct box_drums box_keyboard))
(check-sat)
(get-model)
