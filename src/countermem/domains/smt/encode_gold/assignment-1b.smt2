; gold encoding of assignment-1b (assignment)
(declare-const job_kit Int)
(declare-const job_lee Int)
(declare-const job_max Int)
(declare-const job_noa Int)
; rule 1
(assert (and (and (>= job_kit 1) (<= job_kit 4)) (and (>= job_lee 1) (<= job_lee 4)) (and (>= job_max 1) (<= job_max 4)) (and (>= job_noa 1) (<= job_noa 4))))
; rule 2
(assert (distinct job_kit job_lee job_max job_noa))
; rule 3
(assert (= job_kit 2))
; rule 4
(assert (<= (+ (ite (= job_kit 1) 4 (ite (= job_kit 2) 2 (ite (= job_kit 3) 7 5))) (ite (= job_lee 1) 3 (ite (= job_lee 2) 6 (ite (= job_lee 3) 2 4))) (ite (= job_max 1) 5 (ite (= job_max 2) 4 (ite (= job_max 3) 3 2))) (ite (= job_noa 1) 2 (ite (= job_noa 2) 5 (ite (= job_noa 3) 6 3)))) 13))
(check-sat)
(get-model)
