; gold encoding of roster-1a (rostering)
(declare-const on_ada_mon Bool)
(declare-const on_ada_tue Bool)
(declare-const on_ada_wed Bool)
(declare-const on_ada_thu Bool)
(declare-const on_ada_fri Bool)
(declare-const on_bo_mon Bool)
(declare-const on_bo_tue Bool)
(declare-const on_bo_wed Bool)
(declare-const on_bo_thu Bool)
(declare-const on_bo_fri Bool)
(declare-const on_cy_mon Bool)
(declare-const on_cy_tue Bool)
(declare-const on_cy_wed Bool)
(declare-const on_cy_thu Bool)
(declare-const on_cy_fri Bool)
(declare-const on_di_mon Bool)
(declare-const on_di_tue Bool)
(declare-const on_di_wed Bool)
(declare-const on_di_thu Bool)
(declare-const on_di_fri Bool)
; rule 1
(assert (= (+ (ite on_ada_mon 1 0) (ite on_bo_mon 1 0) (ite on_cy_mon 1 0) (ite on_di_mon 1 0)) 2))
; rule 2
(assert (= (+ (ite on_ada_tue 1 0) (ite on_bo_tue 1 0) (ite on_cy_tue 1 0) (ite on_di_tue 1 0)) 2))
; rule 3
(assert (= (+ (ite on_ada_wed 1 0) (ite on_bo_wed 1 0) (ite on_cy_wed 1 0) (ite on_di_wed 1 0)) 2))
; rule 4
(assert (= (+ (ite on_ada_thu 1 0) (ite on_bo_thu 1 0) (ite on_cy_thu 1 0) (ite on_di_thu 1 0)) 2))
; rule 5
(assert (= (+ (ite on_ada_fri 1 0) (ite on_bo_fri 1 0) (ite on_cy_fri 1 0) (ite on_di_fri 1 0)) 2))
; rule 6
(assert (<= (+ (ite on_ada_mon 1 0) (ite on_ada_tue 1 0) (ite on_ada_wed 1 0) (ite on_ada_thu 1 0) (ite on_ada_fri 1 0)) 3))
; rule 7
(assert (<= (+ (ite on_bo_mon 1 0) (ite on_bo_tue 1 0) (ite on_bo_wed 1 0) (ite on_bo_thu 1 0) (ite on_bo_fri 1 0)) 3))
; rule 8
(assert (<= (+ (ite on_cy_mon 1 0) (ite on_cy_tue 1 0) (ite on_cy_wed 1 0) (ite on_cy_thu 1 0) (ite on_cy_fri 1 0)) 3))
; rule 9
(assert (<= (+ (ite on_di_mon 1 0) (ite on_di_tue 1 0) (ite on_di_wed 1 0) (ite on_di_thu 1 0) (ite on_di_fri 1 0)) 3))
; rule 10
(assert (not on_ada_mon))
; rule 11
(assert (not on_bo_wed))
; rule 12
(assert (not on_cy_fri))
; rule 13
(assert on_di_mon)
(check-sat)
(get-model)
