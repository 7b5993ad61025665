; gold encoding of assignment-2a (assignment)
(declare-const job_olga Int)
(declare-const job_pete Int)
(declare-const job_quin Int)
(declare-const job_rosa Int)
(declare-const job_sam Int)
; rule 1
(assert (and (and (>= job_olga 1) (<= job_olga 5)) (and (>= job_pete 1) (<= job_pete 5)) (and (>= job_quin 1) (<= job_quin 5)) (and (>= job_rosa 1) (<= job_rosa 5)) (and (>= job_sam 1) (<= job_sam 5))))
; rule 2
(assert (distinct job_olga job_pete job_quin job_rosa job_sam))
; rule 3
(assert (distinct job_sam 1))
; rule 4
(assert (distinct job_olga 5))
; rule 5
(assert (= job_rosa 3))
; rule 6
(assert (<= (+ (ite (= job_olga 1) 3 (ite (= job_olga 2) 5 (ite (= job_olga 3) 4 (ite (= job_olga 4) 6 2)))) (ite (= job_pete 1) 4 (ite (= job_pete 2) 2 (ite (= job_pete 3) 5 (ite (= job_pete 4) 3 6)))) (ite (= job_quin 1) 5 (ite (= job_quin 2) 4 (ite (= job_quin 3) 2 (ite (= job_quin 4) 4 3)))) (ite (= job_rosa 1) 2 (ite (= job_rosa 2) 6 (ite (= job_rosa 3) 3 (ite (= job_rosa 4) 5 4)))) (ite (= job_sam 1) 6 (ite (= job_sam 2) 3 (ite (= job_sam 3) 4 (ite (= job_sam 4) 2 5))))) 18))
(check-sat)
(get-model)
