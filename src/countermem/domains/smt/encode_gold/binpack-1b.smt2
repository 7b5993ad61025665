; gold encoding of binpack-1b (bin-packing)
(declare-const box_anvil Int)
(declare-const box_bell Int)
(declare-const box_clock Int)
(declare-const box_drum Int)
(declare-const box_easel Int)
(declare-const box_flute Int)
(declare-const box_globe Int)
(declare-const box_harp Int)
; rule 1
(assert (and (and (>= box_anvil 1) (<= box_anvil 3)) (and (>= box_bell 1) (<= box_bell 3)) (and (>= box_clock 1) (<= box_clock 3)) (and (>= box_drum 1) (<= box_drum 3)) (and (>= box_easel 1) (<= box_easel 3)) (and (>= box_flute 1) (<= box_flute 3)) (and (>= box_globe 1) (<= box_globe 3)) (and (>= box_harp 1) (<= box_harp 3))))
; rule 2
(assert (<= (+ (ite (= box_anvil 1) 6 0) (ite (= box_bell 1) 5 0) (ite (= box_clock 1) 4 0) (ite (= box_drum 1) 3 0) (ite (= box_easel 1) 3 0) (ite (= box_flute 1) 2 0) (ite (= box_globe 1) 4 0) (ite (= box_harp 1) 3 0)) 10))
; rule 3
(assert (<= (+ (ite (= box_anvil 2) 6 0) (ite (= box_bell 2) 5 0) (ite (= box_clock 2) 4 0) (ite (= box_drum 2) 3 0) (ite (= box_easel 2) 3 0) (ite (= box_flute 2) 2 0) (ite (= box_globe 2) 4 0) (ite (= box_harp 2) 3 0)) 10))
; rule 4
(assert (<= (+ (ite (= box_anvil 3) 6 0) (ite (= box_bell 3) 5 0) (ite (= box_clock 3) 4 0) (ite (= box_drum 3) 3 0) (ite (= box_easel 3) 3 0) (ite (= box_flute 3) 2 0) (ite (= box_globe 3) 4 0) (ite (= box_harp 3) 3 0)) 10))
; rule 5
(assert (distinct box_anvil box_clock))
(check-sat)
(get-model)
