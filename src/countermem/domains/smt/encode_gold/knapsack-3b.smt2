; gold encoding of knapsack-3b (knapsack)
(declare-const take_flare Bool)
(declare-const take_radio Bool)
(declare-const take_bailer Bool)
(declare-const take_compass Bool)
(declare-const take_jacket Bool)
(declare-const take_sandwiches Bool)
(declare-const take_water Bool)
; rule 1
(assert (<= (+ (ite take_flare 1 0) (ite take_radio 2 0) (ite take_bailer 1 0) (ite take_compass 1 0) (ite take_jacket 3 0) (ite take_sandwiches 2 0) (ite take_water 3 0)) 8))
; rule 2
(assert (>= (+ (ite take_flare 4 0) (ite take_radio 7 0) (ite take_bailer 2 0) (ite take_compass 5 0) (ite take_jacket 6 0) (ite take_sandwiches 3 0) (ite take_water 8 0)) 22))
; rule 3
(assert take_water)
; rule 4
(assert (>= (+ (ite take_flare 1 0) (ite take_radio 1 0) (ite take_bailer 1 0) (ite take_compass 1 0) (ite take_jacket 1 0) (ite take_sandwiches 1 0) (ite take_water 1 0)) 5))
(check-sat)
(get-model)
