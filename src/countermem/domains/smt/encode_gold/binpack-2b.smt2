; gold encoding of binpack-2b (bin-packing)
(declare-const box_atlas Int)
(declare-const box_bible Int)
(declare-const box_cookbook Int)
(declare-const box_diary Int)
(declare-const box_encyclopedia Int)
(declare-const box_folio Int)
; rule 1
(assert (and (and (>= box_atlas 1) (<= box_atlas 2)) (and (>= box_bible 1) (<= box_bible 2)) (and (>= box_cookbook 1) (<= box_cookbook 2)) (and (>= box_diary 1) (<= box_diary 2)) (and (>= box_encyclopedia 1) (<= box_encyclopedia 2)) (and (>= box_folio 1) (<= box_folio 2))))
; rule 2
(assert (<= (+ (ite (= box_atlas 1) 5 0) (ite (= box_bible 1) 3 0) (ite (= box_cookbook 1) 2 0) (ite (= box_diary 1) 1 0) (ite (= box_encyclopedia 1) 6 0) (ite (= box_folio 1) 4 0)) 11))
; rule 3
(assert (<= (+ (ite (= box_atlas 2) 5 0) (ite (= box_bible 2) 3 0) (ite (= box_cookbook 2) 2 0) (ite (= box_diary 2) 1 0) (ite (= box_encyclopedia 2) 6 0) (ite (= box_folio 2) 4 0)) 11))
; rule 4
(assert (distinct box_atlas box_folio))
(check-sat)
(get-model)
