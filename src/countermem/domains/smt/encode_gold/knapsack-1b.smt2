; gold encoding of knapsack-1b (knapsack)
(declare-const take_tent Bool)
(declare-const take_stove Bool)
(declare-const take_lamp Bool)
(declare-const take_food Bool)
(declare-const take_rope Bool)
(declare-const take_book Bool)
; rule 1
(assert (<= (+ (ite take_tent 5 0) (ite take_stove 3 0) (ite take_lamp 1 0) (ite take_food 4 0) (ite take_rope 2 0) (ite take_book 1 0)) 10))
; rule 2
(assert (>= (+ (ite take_tent 10 0) (ite take_stove 6 0) (ite take_lamp 2 0) (ite take_food 9 0) (ite take_rope 3 0) (ite take_book 1 0)) 20))
; rule 3
(assert (not take_tent))
(check-sat)
(get-model)
