; gold encoding of sudoku-4a (sudoku-mini)
(declare-const cell_1_1 Int)
(declare-const cell_1_2 Int)
(declare-const cell_1_3 Int)
(declare-const cell_1_4 Int)
(declare-const cell_2_1 Int)
(declare-const cell_2_2 Int)
(declare-const cell_2_3 Int)
(declare-const cell_2_4 Int)
(declare-const cell_3_1 Int)
(declare-const cell_3_2 Int)
(declare-const cell_3_3 Int)
(declare-const cell_3_4 Int)
(declare-const cell_4_1 Int)
(declare-const cell_4_2 Int)
(declare-const cell_4_3 Int)
(declare-const cell_4_4 Int)
; rule 1
(assert (and (and (>= cell_1_1 1) (<= cell_1_1 4)) (and (>= cell_1_2 1) (<= cell_1_2 4)) (and (>= cell_1_3 1) (<= cell_1_3 4)) (and (>= cell_1_4 1) (<= cell_1_4 4)) (and (>= cell_2_1 1) (<= cell_2_1 4)) (and (>= cell_2_2 1) (<= cell_2_2 4)) (and (>= cell_2_3 1) (<= cell_2_3 4)) (and (>= cell_2_4 1) (<= cell_2_4 4)) (and (>= cell_3_1 1) (<= cell_3_1 4)) (and (>= cell_3_2 1) (<= cell_3_2 4)) (and (>= cell_3_3 1) (<= cell_3_3 4)) (and (>= cell_3_4 1) (<= cell_3_4 4)) (and (>= cell_4_1 1) (<= cell_4_1 4)) (and (>= cell_4_2 1) (<= cell_4_2 4)) (and (>= cell_4_3 1) (<= cell_4_3 4)) (and (>= cell_4_4 1) (<= cell_4_4 4))))
; rule 2
(assert (distinct cell_1_1 cell_1_2 cell_1_3 cell_1_4))
; rule 3
(assert (distinct cell_2_1 cell_2_2 cell_2_3 cell_2_4))
; rule 4
(assert (distinct cell_3_1 cell_3_2 cell_3_3 cell_3_4))
; rule 5
(assert (distinct cell_4_1 cell_4_2 cell_4_3 cell_4_4))
; rule 6
(assert (distinct cell_1_1 cell_2_1 cell_3_1 cell_4_1))
; rule 7
(assert (distinct cell_1_2 cell_2_2 cell_3_2 cell_4_2))
; rule 8
(assert (distinct cell_1_3 cell_2_3 cell_3_3 cell_4_3))
; rule 9
(assert (distinct cell_1_4 cell_2_4 cell_3_4 cell_4_4))
; rule 10
(assert (distinct cell_1_1 cell_1_2 cell_2_1 cell_2_2))
; rule 11
(assert (distinct cell_1_3 cell_1_4 cell_2_3 cell_2_4))
; rule 12
(assert (distinct cell_3_1 cell_3_2 cell_4_1 cell_4_2))
; rule 13
(assert (distinct cell_3_3 cell_3_4 cell_4_3 cell_4_4))
; rule 14
(assert (= cell_1_2 4))
; rule 15
(assert (= cell_2_2 3))
; rule 16
(assert (= cell_2_3 4))
; rule 17
(assert (= cell_3_1 3))
; rule 18
(assert (= cell_4_4 1))
(check-sat)
(get-model)
