; gold encoding of queens-1b (queens)
(declare-const queen_col1 Int)
(declare-const queen_col2 Int)
(declare-const queen_col3 Int)
(declare-const queen_col4 Int)
(declare-const queen_col5 Int)
(declare-const queen_col6 Int)
; rule 1
(assert (and (and (>= queen_col1 1) (<= queen_col1 6)) (and (>= queen_col2 1) (<= queen_col2 6)) (and (>= queen_col3 1) (<= queen_col3 6)) (and (>= queen_col4 1) (<= queen_col4 6)) (and (>= queen_col5 1) (<= queen_col5 6)) (and (>= queen_col6 1) (<= queen_col6 6))))
; rule 2
(assert (distinct queen_col1 queen_col2 queen_col3 queen_col4 queen_col5 queen_col6))
; rule 3
(assert (and (and (distinct (- queen_col2 queen_col1) 1) (distinct (- queen_col1 queen_col2) 1)) (and (distinct (- queen_col3 queen_col1) 2) (distinct (- queen_col1 queen_col3) 2)) (and (distinct (- queen_col4 queen_col1) 3) (distinct (- queen_col1 queen_col4) 3)) (and (distinct (- queen_col5 queen_col1) 4) (distinct (- queen_col1 queen_col5) 4)) (and (distinct (- queen_col6 queen_col1) 5) (distinct (- queen_col1 queen_col6) 5)) (and (distinct (- queen_col3 queen_col2) 1) (distinct (- queen_col2 queen_col3) 1)) (and (distinct (- queen_col4 queen_col2) 2) (distinct (- queen_col2 queen_col4) 2)) (and (distinct (- queen_col5 queen_col2) 3) (distinct (- queen_col2 queen_col5) 3)) (and (distinct (- queen_col6 queen_col2) 4) (distinct (- queen_col2 queen_col6) 4)) (and (distinct (- queen_col4 queen_col3) 1) (distinct (- queen_col3 queen_col4) 1)) (and (distinct (- queen_col5 queen_col3) 2) (distinct (- queen_col3 queen_col5) 2)) (and (distinct (- queen_col6 queen_col3) 3) (distinct (- queen_col3 queen_col6) 3)) (and (distinct (- queen_col5 queen_col4) 1) (distinct (- queen_col4 queen_col5) 1)) (and (distinct (- queen_col6 queen_col4) 2) (distinct (- queen_col4 queen_col6) 2)) (and (distinct (- queen_col6 queen_col5) 1) (distinct (- queen_col5 queen_col6) 1))))
; rule 4
(assert (= queen_col1 3))
(check-sat)
(get-model)
