; gold encoding of knapsack-4a (knapsack)
(declare-const take_vase Bool)
(declare-const take_mask Bool)
(declare-const take_scroll Bool)
(declare-const take_bowl Bool)
(declare-const take_statuette Bool)
(declare-const take_necklace Bool)
(declare-const take_helmet Bool)
; rule 1
(assert (<= (+ (ite take_vase 4 0) (ite take_mask 2 0) (ite take_scroll 1 0) (ite take_bowl 3 0) (ite take_statuette 5 0) (ite take_necklace 1 0) (ite take_helmet 6 0)) 12))
; rule 2
(assert (>= (+ (ite take_vase 11 0) (ite take_mask 6 0) (ite take_scroll 4 0) (ite take_bowl 7 0) (ite take_statuette 13 0) (ite take_necklace 5 0) (ite take_helmet 12 0)) 33))
; rule 3
(assert take_vase)
; rule 4
(assert (not take_helmet))
(check-sat)
(get-model)
