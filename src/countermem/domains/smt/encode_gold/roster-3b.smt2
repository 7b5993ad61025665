; gold encoding of roster-3b (rostering)
(declare-const on_ines_mon Bool)
(declare-const on_ines_tue Bool)
(declare-const on_ines_wed Bool)
(declare-const on_ines_thu Bool)
(declare-const on_ines_fri Bool)
(declare-const on_ines_sat Bool)
(declare-const on_joe_mon Bool)
(declare-const on_joe_tue Bool)
(declare-const on_joe_wed Bool)
(declare-const on_joe_thu Bool)
(declare-const on_joe_fri Bool)
(declare-const on_joe_sat Bool)
(declare-const on_kai_mon Bool)
(declare-const on_kai_tue Bool)
(declare-const on_kai_wed Bool)
(declare-const on_kai_thu Bool)
(declare-const on_kai_fri Bool)
(declare-const on_kai_sat Bool)
(declare-const on_lu_mon Bool)
(declare-const on_lu_tue Bool)
(declare-const on_lu_wed Bool)
(declare-const on_lu_thu Bool)
(declare-const on_lu_fri Bool)
(declare-const on_lu_sat Bool)
(declare-const on_mara_mon Bool)
(declare-const on_mara_tue Bool)
(declare-const on_mara_wed Bool)
(declare-const on_mara_thu Bool)
(declare-const on_mara_fri Bool)
(declare-const on_mara_sat Bool)
; rule 1
(assert (= (+ (ite on_ines_mon 1 0) (ite on_joe_mon 1 0) (ite on_kai_mon 1 0) (ite on_lu_mon 1 0) (ite on_mara_mon 1 0)) 3))
; rule 2
(assert (= (+ (ite on_ines_tue 1 0) (ite on_joe_tue 1 0) (ite on_kai_tue 1 0) (ite on_lu_tue 1 0) (ite on_mara_tue 1 0)) 3))
; rule 3
(assert (= (+ (ite on_ines_wed 1 0) (ite on_joe_wed 1 0) (ite on_kai_wed 1 0) (ite on_lu_wed 1 0) (ite on_mara_wed 1 0)) 3))
; rule 4
(assert (= (+ (ite on_ines_thu 1 0) (ite on_joe_thu 1 0) (ite on_kai_thu 1 0) (ite on_lu_thu 1 0) (ite on_mara_thu 1 0)) 3))
; rule 5
(assert (= (+ (ite on_ines_fri 1 0) (ite on_joe_fri 1 0) (ite on_kai_fri 1 0) (ite on_lu_fri 1 0) (ite on_mara_fri 1 0)) 3))
; rule 6
(assert (= (+ (ite on_ines_sat 1 0) (ite on_joe_sat 1 0) (ite on_kai_sat 1 0) (ite on_lu_sat 1 0) (ite on_mara_sat 1 0)) 3))
; rule 7
(assert (<= (+ (ite on_ines_mon 1 0) (ite on_ines_tue 1 0) (ite on_ines_wed 1 0) (ite on_ines_thu 1 0) (ite on_ines_fri 1 0) (ite on_ines_sat 1 0)) 4))
; rule 8
(assert (<= (+ (ite on_joe_mon 1 0) (ite on_joe_tue 1 0) (ite on_joe_wed 1 0) (ite on_joe_thu 1 0) (ite on_joe_fri 1 0) (ite on_joe_sat 1 0)) 4))
; rule 9
(assert (<= (+ (ite on_kai_mon 1 0) (ite on_kai_tue 1 0) (ite on_kai_wed 1 0) (ite on_kai_thu 1 0) (ite on_kai_fri 1 0) (ite on_kai_sat 1 0)) 4))
; rule 10
(assert (<= (+ (ite on_lu_mon 1 0) (ite on_lu_tue 1 0) (ite on_lu_wed 1 0) (ite on_lu_thu 1 0) (ite on_lu_fri 1 0) (ite on_lu_sat 1 0)) 4))
; rule 11
(assert (<= (+ (ite on_mara_mon 1 0) (ite on_mara_tue 1 0) (ite on_mara_wed 1 0) (ite on_mara_thu 1 0) (ite on_mara_fri 1 0) (ite on_mara_sat 1 0)) 4))
; rule 12
(assert (not on_ines_sat))
; rule 13
(assert (not on_joe_mon))
; rule 14
(assert (not on_kai_wed))
; rule 15
(assert (not on_lu_thu))
; rule 16
(assert (not on_mara_tue))
; rule 17
(assert (not on_lu_fri))
; rule 18
(assert on_joe_sat)
(check-sat)
(get-model)
