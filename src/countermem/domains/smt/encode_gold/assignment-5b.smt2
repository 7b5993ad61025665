; gold encoding of assignment-5b (assignment)
(declare-const job_gail Int)
(declare-const job_hugo Int)
(declare-const job_ines Int)
(declare-const job_jak Int)
; rule 1
(assert (and (and (>= job_gail 1) (<= job_gail 4)) (and (>= job_hugo 1) (<= job_hugo 4)) (and (>= job_ines 1) (<= job_ines 4)) (and (>= job_jak 1) (<= job_jak 4))))
; rule 2
(assert (distinct job_gail job_hugo job_ines job_jak))
; rule 3
(assert (distinct job_hugo 3))
; rule 4
(assert (distinct job_ines 3))
; rule 5
(assert (= job_jak 2))
; rule 6
(assert (<= (+ (ite (= job_gail 1) 3 (ite (= job_gail 2) 5 (ite (= job_gail 3) 2 4))) (ite (= job_hugo 1) 4 (ite (= job_hugo 2) 3 (ite (= job_hugo 3) 6 2))) (ite (= job_ines 1) 2 (ite (= job_ines 2) 4 (ite (= job_ines 3) 5 3))) (ite (= job_jak 1) 5 (ite (= job_jak 2) 2 (ite (= job_jak 3) 3 6)))) 12))
(check-sat)
(get-model)
