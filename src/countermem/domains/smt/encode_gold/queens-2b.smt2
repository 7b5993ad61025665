; gold encoding of queens-2b (queens)
(declare-const queen_col1 Int)
(declare-const queen_col2 Int)
(declare-const queen_col3 Int)
(declare-const queen_col4 Int)
(declare-const queen_col5 Int)
; rule 1
(assert (and (and (>= queen_col1 1) (<= queen_col1 5)) (and (>= queen_col2 1) (<= queen_col2 5)) (and (>= queen_col3 1) (<= queen_col3 5)) (and (>= queen_col4 1) (<= queen_col4 5)) (and (>= queen_col5 1) (<= queen_col5 5))))
; rule 2
(assert (distinct queen_col1 queen_col2 queen_col3 queen_col4 queen_col5))
; rule 3
(assert (and (and (distinct (- queen_col2 queen_col1) 1) (distinct (- queen_col1 queen_col2) 1)) (and (distinct (- queen_col3 queen_col1) 2) (distinct (- queen_col1 queen_col3) 2)) (and (distinct (- queen_col4 queen_col1) 3) (distinct (- queen_col1 queen_col4) 3)) (and (distinct (- queen_col5 queen_col1) 4) (distinct (- queen_col1 queen_col5) 4)) (and (distinct (- queen_col3 queen_col2) 1) (distinct (- queen_col2 queen_col3) 1)) (and (distinct (- queen_col4 queen_col2) 2) (distinct (- queen_col2 queen_col4) 2)) (and (distinct (- queen_col5 queen_col2) 3) (distinct (- queen_col2 queen_col5) 3)) (and (distinct (- queen_col4 queen_col3) 1) (distinct (- queen_col3 queen_col4) 1)) (and (distinct (- queen_col5 queen_col3) 2) (distinct (- queen_col3 queen_col5) 2)) (and (distinct (- queen_col5 queen_col4) 1) (distinct (- queen_col4 queen_col5) 1))))
; rule 4
(assert (= queen_col2 4))
; rule 5
(assert (= queen_col4 3))
(check-sat)
(get-model)
