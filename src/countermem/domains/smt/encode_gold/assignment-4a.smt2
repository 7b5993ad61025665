; gold encoding of assignment-4a (assignment)
(declare-const job_abe Int)
(declare-const job_bria Int)
(declare-const job_cato Int)
(declare-const job_dina Int)
(declare-const job_eko Int)
(declare-const job_flo Int)
; rule 1
(assert (and (and (>= job_abe 1) (<= job_abe 6)) (and (>= job_bria 1) (<= job_bria 6)) (and (>= job_cato 1) (<= job_cato 6)) (and (>= job_dina 1) (<= job_dina 6)) (and (>= job_eko 1) (<= job_eko 6)) (and (>= job_flo 1) (<= job_flo 6))))
; rule 2
(assert (distinct job_abe job_bria job_cato job_dina job_eko job_flo))
; rule 3
(assert (distinct job_abe 1))
; rule 4
(assert (distinct job_dina 4))
; rule 5
(assert (= job_cato 3))
; rule 6
(assert (<= (+ (ite (= job_abe 1) 2 (ite (= job_abe 2) 5 (ite (= job_abe 3) 4 (ite (= job_abe 4) 6 (ite (= job_abe 5) 3 7))))) (ite (= job_bria 1) 6 (ite (= job_bria 2) 2 (ite (= job_bria 3) 5 (ite (= job_bria 4) 3 (ite (= job_bria 5) 4 4))))) (ite (= job_cato 1) 4 (ite (= job_cato 2) 6 (ite (= job_cato 3) 2 (ite (= job_cato 4) 5 (ite (= job_cato 5) 7 3))))) (ite (= job_dina 1) 5 (ite (= job_dina 2) 3 (ite (= job_dina 3) 6 (ite (= job_dina 4) 2 (ite (= job_dina 5) 4 6))))) (ite (= job_eko 1) 3 (ite (= job_eko 2) 4 (ite (= job_eko 3) 5 (ite (= job_eko 4) 4 (ite (= job_eko 5) 2 5))))) (ite (= job_flo 1) 7 (ite (= job_flo 2) 5 (ite (= job_flo 3) 3 (ite (= job_flo 4) 6 (ite (= job_flo 5) 5 2)))))) 21))
(check-sat)
(get-model)
