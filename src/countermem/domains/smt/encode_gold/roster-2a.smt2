; gold encoding of roster-2a (rostering)
(declare-const on_eva_mon Bool)
(declare-const on_eva_tue Bool)
(declare-const on_eva_wed Bool)
(declare-const on_eva_thu Bool)
(declare-const on_fox_mon Bool)
(declare-const on_fox_tue Bool)
(declare-const on_fox_wed Bool)
(declare-const on_fox_thu Bool)
(declare-const on_gia_mon Bool)
(declare-const on_gia_tue Bool)
(declare-const on_gia_wed Bool)
(declare-const on_gia_thu Bool)
; rule 1
(assert (= (+ (ite on_eva_mon 1 0) (ite on_fox_mon 1 0) (ite on_gia_mon 1 0)) 1))
; rule 2
(assert (= (+ (ite on_eva_tue 1 0) (ite on_fox_tue 1 0) (ite on_gia_tue 1 0)) 1))
; rule 3
(assert (= (+ (ite on_eva_wed 1 0) (ite on_fox_wed 1 0) (ite on_gia_wed 1 0)) 1))
; rule 4
(assert (= (+ (ite on_eva_thu 1 0) (ite on_fox_thu 1 0) (ite on_gia_thu 1 0)) 1))
; rule 5
(assert (<= (+ (ite on_eva_mon 1 0) (ite on_eva_tue 1 0) (ite on_eva_wed 1 0) (ite on_eva_thu 1 0)) 2))
; rule 6
(assert (<= (+ (ite on_fox_mon 1 0) (ite on_fox_tue 1 0) (ite on_fox_wed 1 0) (ite on_fox_thu 1 0)) 2))
; rule 7
(assert (<= (+ (ite on_gia_mon 1 0) (ite on_gia_tue 1 0) (ite on_gia_wed 1 0) (ite on_gia_thu 1 0)) 2))
; rule 8
(assert (not on_eva_tue))
; rule 9
(assert (not on_gia_mon))
; rule 10
(assert on_fox_thu)
; rule 11
(assert on_eva_wed)
(check-sat)
(get-model)
