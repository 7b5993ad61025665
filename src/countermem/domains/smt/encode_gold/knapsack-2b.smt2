; gold encoding of knapsack-2b (knapsack)
(declare-const take_camera Bool)
(declare-const take_tripod Bool)
(declare-const take_laptop Bool)
(declare-const take_drone Bool)
(declare-const take_lens Bool)
(declare-const take_charger Bool)
; rule 1
(assert (<= (+ (ite take_camera 4 0) (ite take_tripod 6 0) (ite take_laptop 5 0) (ite take_drone 7 0) (ite take_lens 2 0) (ite take_charger 1 0)) 15))
; rule 2
(assert (>= (+ (ite take_camera 9 0) (ite take_tripod 8 0) (ite take_laptop 12 0) (ite take_drone 14 0) (ite take_lens 6 0) (ite take_charger 3 0)) 30))
; rule 3
(assert (>= (+ (ite take_camera 1 0) (ite take_tripod 1 0) (ite take_laptop 1 0) (ite take_drone 1 0) (ite take_lens 1 0) (ite take_charger 1 0)) 4))
(check-sat)
(get-model)
