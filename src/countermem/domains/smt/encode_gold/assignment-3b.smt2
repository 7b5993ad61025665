; gold encoding of assignment-3b (assignment)
(declare-const job_tom Int)
(declare-const job_uri Int)
(declare-const job_vera Int)
; rule 1
(assert (and (and (>= job_tom 1) (<= job_tom 3)) (and (>= job_uri 1) (<= job_uri 3)) (and (>= job_vera 1) (<= job_vera 3))))
; rule 2
(assert (distinct job_tom job_uri job_vera))
; rule 3
(assert (= job_uri 2))
; rule 4
(assert (<= (+ (ite (= job_tom 1) 2 (ite (= job_tom 2) 4 3)) (ite (= job_uri 1) 3 (ite (= job_uri 2) 1 5)) (ite (= job_vera 1) 4 (ite (= job_vera 2) 2 2))) 9))
(check-sat)
(get-model)
