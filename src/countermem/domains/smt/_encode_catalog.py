"""The `smt-encode` problems: 19 look-alike pairs (38 problems), written for this project.

In each pair `Xa`/`Xb` the story and every rule but one are the same; the changed rule
contradicts its counterpart (left of / right of, must / must not, a different given), so an
encoding that was right for one problem answers the other one wrongly.
"""

from __future__ import annotations

from countermem.domains.smt._encode_problems import (
    Linear,
    Problem,
    ages,
    assignment,
    binpack,
    coins,
    coloring,
    knapsack,
    magic,
    queens,
    roster,
    schedule,
    seating,
    sudoku4,
)


def _pair(a: Problem, b: Problem) -> list[Problem]:
    return [a, b]


def build_catalog() -> list[Problem]:
    problems: list[Problem] = []

    people5 = ["Ana", "Ben", "Cai", "Dee", "Eli"]
    story5 = "Five friends take the five seats of one row at the cinema, numbered 1 (left) to 5 (right)."
    common5 = [("next", "Cai", "Dee"), ("apart", "Ana", "Eli"), ("end", "Eli"), ("not_end", "Cai")]
    problems += _pair(
        seating("seating-1a", "seating-1b", story5, people5, [("left", "Ana", "Ben"), *common5]),
        seating("seating-1b", "seating-1a", story5, people5, [("right", "Ana", "Ben"), *common5]),
    )
    people6 = ["Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
    story6 = "Six colleagues sit along one side of a long table, in seats numbered 1 (left) to 6 (right)."
    common6 = [("end", "Fay"), ("next", "Gus", "Hal"), ("not_end", "Ivy"), ("left", "Jon", "Kim"), ("apart", "Fay", "Gus")]
    problems += _pair(
        seating("seating-2a", "seating-2b", story6, people6, [*common6, ("seat", "Hal", "4")]),
        seating("seating-2b", "seating-2a", story6, people6, [*common6, ("seat", "Hal", "3")]),
    )

    jobs1 = [("cut", 3), ("drill", 2), ("weld", 4), ("paint", 1), ("pack", 2)]
    story_s1 = "A workshop has one machine that does one job at a time, without interruption, starting at time 0."
    problems += _pair(
        schedule("scheduling-1a", "scheduling-1b", story_s1, jobs1, 12, [("cut", "weld"), ("drill", "paint")],
                 {"pack": 5}, {"paint": 6}),
        schedule("scheduling-1b", "scheduling-1a", story_s1, jobs1, 12, [("weld", "cut"), ("drill", "paint")],
                 {"pack": 5}, {"paint": 6}),
    )
    jobs2 = [("plan", 2), ("buy", 3), ("cook", 4), ("serve", 1), ("clean", 2)]
    story_s2 = "One cook prepares a dinner party alone, doing one job at a time, starting at time 0."
    problems += _pair(
        schedule("scheduling-2a", "scheduling-2b", story_s2, jobs2, 14,
                 [("plan", "buy"), ("buy", "cook"), ("cook", "serve"), ("serve", "clean")], {"cook": 4}, {"serve": 12}),
        schedule("scheduling-2b", "scheduling-2a", story_s2, jobs2, 14,
                 [("plan", "buy"), ("buy", "cook"), ("cook", "serve"), ("clean", "cook")], {"cook": 4}, {"serve": 12}),
    )

    workers1 = ["Kit", "Lee", "Max", "Noa"]
    jobs_a1 = ["welding", "painting", "wiring", "packing"]
    cost1 = [[4, 2, 7, 5], [3, 6, 2, 4], [5, 4, 3, 2], [2, 5, 6, 3]]
    story_a1 = "A small factory gives each of four workers exactly one of four jobs for the day."
    problems += _pair(
        assignment("assignment-1a", "assignment-1b", story_a1, workers1, jobs_a1, cost1, 13, [("Kit", 2)], []),
        assignment("assignment-1b", "assignment-1a", story_a1, workers1, jobs_a1, cost1, 13, [], [("Kit", 2)]),
    )
    workers2 = ["Olga", "Pete", "Quin", "Rosa", "Sam"]
    jobs_a2 = ["reception", "kitchen", "bar", "cleaning", "garden"]
    cost2 = [[3, 5, 4, 6, 2], [4, 2, 5, 3, 6], [5, 4, 2, 4, 3], [2, 6, 3, 5, 4], [6, 3, 4, 2, 5]]
    story_a2 = "A hotel gives each of five staff exactly one of five duties for the weekend."
    problems += _pair(
        assignment("assignment-2a", "assignment-2b", story_a2, workers2, jobs_a2, cost2, 18,
                   [("Sam", 1), ("Olga", 5)], [("Rosa", 3)]),
        assignment("assignment-2b", "assignment-2a", story_a2, workers2, jobs_a2, cost2, 18,
                   [("Sam", 1), ("Olga", 5)], [("Rosa", 4)]),
    )

    story_q = "Fill a 4x4 grid so that every row, every column and every 2x2 box holds 1, 2, 3 and 4."
    givens1 = {(1, 4): 4, (2, 2): 4, (3, 3): 4, (4, 1): 4, (4, 4): 1}
    problems += _pair(
        sudoku4("sudoku-1a", "sudoku-1b", story_q, {**givens1, (1, 1): 1}),
        sudoku4("sudoku-1b", "sudoku-1a", story_q, {**givens1, (1, 1): 2}),
    )
    givens2 = {(1, 2): 1, (2, 1): 4, (2, 4): 1, (4, 4): 4}
    problems += _pair(
        sudoku4("sudoku-2a", "sudoku-2b", story_q, {**givens2, (3, 3): 3}),
        sudoku4("sudoku-2b", "sudoku-2a", story_q, {**givens2, (3, 3): 1}),
    )

    camping = [("tent", 5, 10), ("stove", 3, 6), ("lamp", 1, 2), ("food", 4, 9), ("rope", 2, 3), ("book", 1, 1)]
    story_k1 = "A hiker packs a rucksack for a weekend trip."
    problems += _pair(
        knapsack("knapsack-1a", "knapsack-1b", story_k1, camping, 10, 20, must_take=["tent"]),
        knapsack("knapsack-1b", "knapsack-1a", story_k1, camping, 10, 20, must_leave=["tent"]),
    )
    gear = [("camera", 4, 9), ("tripod", 6, 8), ("laptop", 5, 12), ("drone", 7, 14), ("lens", 2, 6), ("charger", 1, 3)]
    story_k2 = "A photographer fills a carry-on bag for a shoot abroad."
    problems += _pair(
        knapsack("knapsack-2a", "knapsack-2b", story_k2, gear, 15, 30, max_items=3),
        knapsack("knapsack-2b", "knapsack-2a", story_k2, gear, 15, 30, min_items=4),
    )

    regions1 = ["North", "South", "East", "West", "Centre", "Coast"]
    borders1 = [("North", "Centre"), ("South", "Centre"), ("East", "Centre"), ("West", "Centre"),
                ("North", "East"), ("North", "West"), ("South", "East"), ("South", "Coast"), ("East", "Coast")]
    story_c1 = "A school atlas colours six provinces so that neighbours never look alike."
    problems += _pair(
        coloring("coloring-1a", "coloring-1b", story_c1, regions1, borders1, 3, {"Centre": 1, "North": 2}),
        coloring("coloring-1b", "coloring-1a", story_c1, regions1, borders1, 3, {"Centre": 1, "North": 3}),
    )
    regions2 = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Gum"]
    borders2 = [("Alder", "Birch"), ("Alder", "Cedar"), ("Birch", "Cedar"), ("Birch", "Dogwood"),
                ("Cedar", "Dogwood"), ("Cedar", "Elm"), ("Dogwood", "Elm"), ("Elm", "Fir"), ("Fir", "Gum"),
                ("Dogwood", "Gum")]
    story_c2 = "A park map colours seven garden beds, named after their trees; beds that touch differ in colour."
    problems += _pair(
        coloring("coloring-2a", "coloring-2b", story_c2, regions2, borders2, 3, {"Alder": 1}, same=[("Alder", "Fir")]),
        coloring("coloring-2b", "coloring-2a", story_c2, regions2, borders2, 3, {"Alder": 1}, differ=[("Alder", "Fir")]),
    )

    kinds = [("penny", 1), ("nickel", 5), ("dime", 10), ("quarter", 25)]
    story_m = "A cashier hands out change using as few coins as the rules allow."
    problems += _pair(
        coins("coins-1a", "coins-1b", story_m, kinds, 87, 8, {"nickel": 1}),
        coins("coins-1b", "coins-1a", story_m, kinds, 78, 8, {"nickel": 1}),
    )

    story_g1 = "Three siblings, Ann, Bob and Cat, compare their ages."
    sum31: Linear = ("The three ages add up to 31.", {"Ann": 1, "Bob": 1, "Cat": 1}, "=", 31)
    twice: Linear = ("Cat is twice as old as Bob.", {"Cat": 1, "Bob": -2}, "=", 0)
    problems += _pair(
        ages("ages-1a", "ages-1b", story_g1, ["Ann", "Bob", "Cat"],
             [("Ann is 3 years older than Bob.", {"Ann": 1, "Bob": -1}, "=", 3), twice, sum31]),
        ages("ages-1b", "ages-1a", story_g1, ["Ann", "Bob", "Cat"],
             [("Ann is 7 years older than Bob.", {"Ann": 1, "Bob": -1}, "=", 7), twice, sum31]),
    )
    story_g2 = "Four cousins, Dan, Eve, Fin and Gil, meet at a family reunion."
    shared2: list[Linear] = [
        ("Dan's and Eve's ages add up to 52.", {"Dan": 1, "Eve": 1}, "=", 52),
        ("Eve is 4 years older than Fin.", {"Eve": 1, "Fin": -1}, "=", 4),
        ("Fin is 2 years younger than Gil.", {"Gil": 1, "Fin": -1}, "=", 2),
    ]
    problems += _pair(
        ages("ages-2a", "ages-2b", story_g2, ["Dan", "Eve", "Fin", "Gil"],
             [*shared2, ("Gil is 10 years younger than Dan.", {"Dan": 1, "Gil": -1}, "=", 10)]),
        ages("ages-2b", "ages-2a", story_g2, ["Dan", "Eve", "Fin", "Gil"],
             [*shared2, ("Gil is 6 years younger than Dan.", {"Dan": 1, "Gil": -1}, "=", 6)]),
    )

    things = [("anvil", 6), ("bell", 5), ("clock", 4), ("drum", 3), ("easel", 3), ("flute", 2), ("globe", 4), ("harp", 3)]
    story_b = "Movers pack eight heavy items into three crates."
    problems += _pair(
        binpack("binpack-1a", "binpack-1b", story_b, things, 3, 10, together=[("anvil", "clock")]),
        binpack("binpack-1b", "binpack-1a", story_b, things, 3, 10, apart=[("anvil", "clock")]),
    )

    story_n = "Place six queens on a 6x6 board so that none attacks another."
    problems += _pair(
        queens("queens-1a", "queens-1b", story_n, 6, {1: 2}),
        queens("queens-1b", "queens-1a", story_n, 6, {1: 3}),
    )

    nurses = ["Ada", "Bo", "Cy", "Di"]
    days = ["Mon", "Tue", "Wed", "Thu", "Fri"]
    story_r = "A small clinic plans one week of day shifts."
    off = [("Ada", "Mon"), ("Bo", "Wed"), ("Cy", "Fri")]
    problems += _pair(
        roster("roster-1a", "roster-1b", story_r, nurses, days, 2, 3, off, [("Di", "Mon")]),
        roster("roster-1b", "roster-1a", story_r, nurses, days, 2, 3, [*off, ("Di", "Mon")], []),
    )

    story_q3 = "Fill a 3x3 square with the numbers 1 to 9, each once, so that it is magic."
    problems += _pair(
        magic("magic-1a", "magic-1b", story_q3, {(1, 1): 2}),
        magic("magic-1b", "magic-1a", story_q3, {(1, 1): 4}),
    )

    ids = [p.id for p in problems]
    if len(set(ids)) != len(ids):
        raise AssertionError("duplicate problem ids in the smt-encode catalog")
    return problems
