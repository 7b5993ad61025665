; gold encoding of knapsack-5a (knapsack)
(declare-const take_rice Bool)
(declare-const take_beans Bool)
(declare-const take_oil Bool)
(declare-const take_flour Bool)
(declare-const take_milk Bool)
(declare-const take_eggs Bool)
(declare-const take_apples Bool)
(declare-const take_soap Bool)
; rule 1
(assert (<= (+ (ite take_rice 5 0) (ite take_beans 4 0) (ite take_oil 3 0) (ite take_flour 5 0) (ite take_milk 2 0) (ite take_eggs 1 0) (ite take_apples 3 0) (ite take_soap 2 0)) 15))
; rule 2
(assert (>= (+ (ite take_rice 8 0) (ite take_beans 7 0) (ite take_oil 6 0) (ite take_flour 7 0) (ite take_milk 4 0) (ite take_eggs 3 0) (ite take_apples 4 0) (ite take_soap 2 0)) 26))
; rule 3
(assert take_milk)
; rule 4
(assert take_rice)
; rule 5
(assert (<= (+ (ite take_rice 1 0) (ite take_beans 1 0) (ite take_oil 1 0) (ite take_flour 1 0) (ite take_milk 1 0) (ite take_eggs 1 0) (ite take_apples 1 0) (ite take_soap 1 0)) 5))
(check-sat)
(get-model)
