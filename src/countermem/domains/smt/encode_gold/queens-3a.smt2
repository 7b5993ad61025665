; gold encoding of queens-3a (queens)
(declare-const queen_col1 Int)
(declare-const queen_col2 Int)
(declare-const queen_col3 Int)
(declare-const queen_col4 Int)
(declare-const queen_col5 Int)
(declare-const queen_col6 Int)
(declare-const queen_col7 Int)
(declare-const queen_col8 Int)
; rule 1
(assert (and (and (>= queen_col1 1) (<= queen_col1 8)) (and (>= queen_col2 1) (<= queen_col2 8)) (and (>= queen_col3 1) (<= queen_col3 8)) (and (>= queen_col4 1) (<= queen_col4 8)) (and (>= queen_col5 1) (<= queen_col5 8)) (and (>= queen_col6 1) (<= queen_col6 8)) (and (>= queen_col7 1) (<= queen_col7 8)) (and (>= queen_col8 1) (<= queen_col8 8))))
; rule 2
(assert (distinct queen_col1 queen_col2 queen_col3 queen_col4 queen_col5 queen_col6 queen_col7 queen_col8))
; rule 3
(assert (and (and (distinct (- queen_col2 queen_col1) 1) (distinct (- queen_col1 queen_col2) 1)) (and (distinct (- queen_col3 queen_col1) 2) (distinct (- queen_col1 queen_col3) 2)) (and (distinct (- queen_col4 queen_col1) 3) (distinct (- queen_col1 queen_col4) 3)) (and (distinct (- queen_col5 queen_col1) 4) (distinct (- queen_col1 queen_col5) 4)) (and (distinct (- queen_col6 queen_col1) 5) (distinct (- queen_col1 queen_col6) 5)) (and (distinct (- queen_col7 queen_col1) 6) (distinct (- queen_col1 queen_col7) 6)) (and (distinct (- queen_col8 queen_col1) 7) (distinct (- queen_col1 queen_col8) 7)) (and (distinct (- queen_col3 queen_col2) 1) (distinct (- queen_col2 queen_col3) 1)) (and (distinct (- queen_col4 queen_col2) 2) (distinct (- queen_col2 queen_col4) 2)) (and (distinct (- queen_col5 queen_col2) 3) (distinct (- queen_col2 queen_col5) 3)) (and (distinct (- queen_col6 queen_col2) 4) (distinct (- queen_col2 queen_col6) 4)) (and (distinct (- queen_col7 queen_col2) 5) (distinct (- queen_col2 queen_col7) 5)) (and (distinct (- queen_col8 queen_col2) 6) (distinct (- queen_col2 queen_col8) 6)) (and (distinct (- queen_col4 queen_col3) 1) (distinct (- queen_col3 queen_col4) 1)) (and (distinct (- queen_col5 queen_col3) 2) (distinct (- queen_col3 queen_col5) 2)) (and (distinct (- queen_col6 queen_col3) 3) (distinct (- queen_col3 queen_col6) 3)) (and (distinct (- queen_col7 queen_col3) 4) (distinct (- queen_col3 queen_col7) 4)) (and (distinct (- queen_col8 queen_col3) 5) (distinct (- queen_col3 queen_col8) 5)) (and (distinct (- queen_col5 queen_col4) 1) (distinct (- queen_col4 queen_col5) 1)) (and (distinct (- queen_col6 queen_col4) 2) (distinct (- queen_col4 queen_col6) 2)) (and (distinct (- queen_col7 queen_col4) 3) (distinct (- queen_col4 queen_col7) 3)) (and (distinct (- queen_col8 queen_col4) 4) (distinct (- queen_col4 queen_col8) 4)) (and (distinct (- queen_col6 queen_col5) 1) (distinct (- queen_col5 queen_col6) 1)) (and (distinct (- queen_col7 queen_col5) 2) (distinct (- queen_col5 queen_col7) 2)) (and (distinct (- queen_col8 queen_col5) 3) (distinct (- queen_col5 queen_col8) 3)) (and (distinct (- queen_col7 queen_col6) 1) (distinct (- queen_col6 queen_col7) 1)) (and (distinct (- queen_col8 queen_col6) 2) (distinct (- queen_col6 queen_col8) 2)) (and (distinct (- queen_col8 queen_col7) 1) (distinct (- queen_col7 queen_col8) 1))))
; rule 4
(assert (= queen_col1 1))
; rule 5
(assert (= queen_col2 5))
(check-sat)
(get-model)
