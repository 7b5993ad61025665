"""The `smt-encode` problems: 54 look-alike pairs (108 problems), written for this project.

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

    for more in (_seating_pairs, _scheduling_pairs, _assignment_pairs, _sudoku_pairs, _knapsack_pairs,
                 _coloring_pairs, _coins_pairs, _ages_pairs, _binpack_pairs, _queens_roster_magic_pairs):
        problems += more()

    ids = [p.id for p in problems]
    if len(set(ids)) != len(ids):
        raise AssertionError("duplicate problem ids in the smt-encode catalog")
    return problems


def _seating_pairs() -> list[Problem]:
    problems: list[Problem] = []
    plane = ["Lia", "Mo", "Nell", "Omar"]
    story3 = "Four passengers share one row of a small plane, seats numbered 1 (left window) to 4 (right window)."
    common3 = [("next", "Lia", "Omar"), ("not_end", "Mo"), ("apart", "Mo", "Lia")]
    problems += _pair(
        seating("seating-3a", "seating-3b", story3, plane, [*common3, ("left", "Nell", "Omar")]),
        seating("seating-3b", "seating-3a", story3, plane, [*common3, ("right", "Nell", "Omar")]),
    )
    choir = ["Pia", "Quinn", "Rhea", "Sol", "Tess", "Uma", "Vik"]
    story4 = "Seven choir members sit on one long bench for the group photo, places numbered 1 (left) to 7 (right)."
    common4 = [("seat", "Rhea", "4"), ("next", "Pia", "Quinn"), ("apart", "Rhea", "Sol"), ("end", "Tess"),
               ("left", "Uma", "Vik"), ("not_end", "Vik"), ("next", "Sol", "Tess")]
    problems += _pair(
        seating("seating-4a", "seating-4b", story4, choir, [*common4[:3], ("left", "Pia", "Rhea"), *common4[3:]]),
        seating("seating-4b", "seating-4a", story4, choir, [*common4[:3], ("right", "Pia", "Rhea"), *common4[3:]]),
    )
    guests = ["Wes", "Xia", "Yara", "Zeno", "Amir"]
    story5 = "Five guests sit on a row of five folding chairs at a concert in the park, chairs numbered 1 (left) to 5 (right)."
    problems += _pair(
        seating("seating-5a", "seating-5b", story5, guests,
                [("left", "Wes", "Yara"), ("next", "Wes", "Amir"), ("apart", "Xia", "Zeno"), ("right", "Amir", "Xia")]),
        seating("seating-5b", "seating-5a", story5, guests,
                [("left", "Wes", "Yara"), ("apart", "Wes", "Amir"), ("apart", "Xia", "Zeno"), ("right", "Amir", "Xia")]),
    )
    jury = ["Bea", "Cole", "Dora", "Emil", "Fern", "Gil"]
    story6 = "Six jurors sit in the front row of the jury box, seats numbered 1 (left) to 6 (right)."
    common6 = [("right", "Cole", "Dora"), ("next", "Emil", "Fern"), ("apart", "Bea", "Cole"), ("end", "Gil"),
               ("not_end", "Emil"), ("left", "Fern", "Dora")]
    problems += _pair(
        seating("seating-6a", "seating-6b", story6, jury, [("seat", "Bea", "2"), *common6]),
        seating("seating-6b", "seating-6a", story6, jury, [("seat", "Bea", "4"), *common6]),
    )
    return problems


def _scheduling_pairs() -> list[Problem]:
    problems: list[Problem] = []
    orders = [("flyers", 2), ("posters", 3), ("cards", 1), ("banners", 4)]
    story3 = "A print shop's single press handles one order at a time, without pause, starting at time 0."
    problems += _pair(
        schedule("scheduling-3a", "scheduling-3b", story3, orders, 10, [("cards", "flyers")], {"banners": 3},
                 {"posters": 5}),
        schedule("scheduling-3b", "scheduling-3a", story3, orders, 10, [("flyers", "cards")], {"banners": 3},
                 {"posters": 5}),
    )
    loads = [("sheets", 3), ("towels", 2), ("uniforms", 2), ("curtains", 4), ("aprons", 1), ("napkins", 1)]
    story4 = "A hotel laundry has one industrial washer that runs one load at a time, starting at time 0."
    before4 = [("towels", "napkins"), ("sheets", "curtains")]
    problems += _pair(
        schedule("scheduling-4a", "scheduling-4b", story4, loads, 14, before4, {"aprons": 2, "uniforms": 6},
                 {"curtains": 12}),
        schedule("scheduling-4b", "scheduling-4a", story4, loads, 14, before4, {"aprons": 2},
                 {"uniforms": 6, "curtains": 12}),
    )
    scenes = [("intro", 1), ("chase", 4), ("dialogue", 2), ("finale", 3)]
    story5 = "A film crew has one camera unit and shoots its scenes one after another, starting at hour 0."
    problems += _pair(
        schedule("scheduling-5a", "scheduling-5b", story5, scenes, 11,
                 [("intro", "dialogue"), ("chase", "finale"), ("dialogue", "finale")], {"chase": 2}, {}),
        schedule("scheduling-5b", "scheduling-5a", story5, scenes, 11,
                 [("intro", "dialogue"), ("finale", "chase"), ("dialogue", "finale")], {"chase": 2}, {}),
    )
    assays = [("thaw", 2), ("mix", 1), ("spin", 3), ("heat", 2), ("stain", 2), ("scan", 1), ("log", 1)]
    story6 = "A lab robot runs seven steps of an assay one at a time, never two at once, starting at hour 0."
    before6 = [("thaw", "mix"), ("mix", "spin"), ("stain", "scan"), ("scan", "log")]
    problems += _pair(
        schedule("scheduling-6a", "scheduling-6b", story6, assays, 12, [*before6, ("heat", "stain")],
                 {"heat": 3}, {"spin": 7}),
        schedule("scheduling-6b", "scheduling-6a", story6, assays, 12, [*before6, ("stain", "heat")],
                 {"heat": 3}, {"spin": 7}),
    )
    return problems


def _assignment_pairs() -> list[Problem]:
    problems: list[Problem] = []
    fair = ["Tom", "Uri", "Vera"]
    tasks3 = ["tickets", "raffle", "cakes"]
    cost3 = [[2, 4, 3], [3, 1, 5], [4, 2, 2]]
    story3 = "Three volunteers split the three stalls of a charity fair, one stall each."
    problems += _pair(
        assignment("assignment-3a", "assignment-3b", story3, fair, tasks3, cost3, 9, [("Uri", 2)], []),
        assignment("assignment-3b", "assignment-3a", story3, fair, tasks3, cost3, 9, [], [("Uri", 2)]),
    )
    crew = ["Abe", "Bria", "Cato", "Dina", "Eko", "Flo"]
    posts = ["lights", "sound", "props", "curtain", "tickets", "makeup"]
    cost4 = [[2, 5, 4, 6, 3, 7], [6, 2, 5, 3, 4, 4], [4, 6, 2, 5, 7, 3], [5, 3, 6, 2, 4, 6], [3, 4, 5, 4, 2, 5],
             [7, 5, 3, 6, 5, 2]]
    story4 = "A theatre gives each of six crew members one of six posts for opening night."
    problems += _pair(
        assignment("assignment-4a", "assignment-4b", story4, crew, posts, cost4, 21, [("Abe", 1), ("Dina", 4)],
                   [("Cato", 3)]),
        assignment("assignment-4b", "assignment-4a", story4, crew, posts, cost4, 21, [("Abe", 1), ("Dina", 4)],
                   [("Cato", 6)]),
    )
    drivers = ["Gail", "Hugo", "Ines", "Jak"]
    routes = ["north loop", "harbour", "airport", "old town"]
    cost5 = [[3, 5, 2, 4], [4, 3, 6, 2], [2, 4, 5, 3], [5, 2, 3, 6]]
    story5 = "A courier firm gives each of four drivers one of four delivery routes for the day."
    problems += _pair(
        assignment("assignment-5a", "assignment-5b", story5, drivers, routes, cost5, 12,
                   [("Hugo", 3), ("Ines", 3), ("Jak", 2)], []),
        assignment("assignment-5b", "assignment-5a", story5, drivers, routes, cost5, 12,
                   [("Hugo", 3), ("Ines", 3)], [("Jak", 2)]),
    )
    return problems


def _sudoku_pairs() -> list[Problem]:
    problems: list[Problem] = []
    story3 = "A puzzle page prints a 4x4 sudoku: fill the grid so that every row, column and 2x2 box holds 1 to 4."
    givens3 = {(1, 1): 2, (1, 2): 1, (3, 3): 1, (4, 1): 1}
    problems += _pair(
        sudoku4("sudoku-3a", "sudoku-3b", story3, {**givens3, (3, 4): 3}),
        sudoku4("sudoku-3b", "sudoku-3a", story3, {**givens3, (3, 4): 4}),
    )
    story4 = "A children's magazine has a 4x4 number grid: each row, column and 2x2 box holds 1, 2, 3 and 4 once."
    givens4 = {(1, 2): 4, (2, 2): 3, (2, 3): 4, (3, 1): 3}
    problems += _pair(
        sudoku4("sudoku-4a", "sudoku-4b", story4, {**givens4, (4, 4): 1}),
        sudoku4("sudoku-4b", "sudoku-4a", story4, {**givens4, (4, 4): 2}),
    )
    story5 = "Complete a 4x4 sudoku from six clues; every row, column and 2x2 box holds 1, 2, 3 and 4."
    givens5 = {(2, 1): 2, (2, 2): 4, (2, 4): 1, (3, 2): 3, (4, 3): 1}
    problems += _pair(
        sudoku4("sudoku-5a", "sudoku-5b", story5, {**givens5, (1, 4): 2}),
        sudoku4("sudoku-5b", "sudoku-5a", story5, {**givens5, (1, 4): 4}),
    )
    return problems


def _knapsack_pairs() -> list[Problem]:
    problems: list[Problem] = []
    locker = [("flare", 1, 4), ("radio", 2, 7), ("bailer", 1, 2), ("compass", 1, 5), ("jacket", 3, 6),
              ("sandwiches", 2, 3), ("water", 3, 8)]
    story3 = "A sailor stocks the small locker of a dinghy for a day race."
    problems += _pair(
        knapsack("knapsack-3a", "knapsack-3b", story3, locker, 8, 22, must_take=["water"], max_items=4),
        knapsack("knapsack-3b", "knapsack-3a", story3, locker, 8, 22, must_take=["water"], min_items=5),
    )
    pieces = [("vase", 4, 11), ("mask", 2, 6), ("scroll", 1, 4), ("bowl", 3, 7), ("statuette", 5, 13),
              ("necklace", 1, 5), ("helmet", 6, 12)]
    story4 = "A museum courier chooses which loans travel in one climate-controlled case to an exhibition."
    problems += _pair(
        knapsack("knapsack-4a", "knapsack-4b", story4, pieces, 12, 33, must_take=["vase"], must_leave=["helmet"]),
        knapsack("knapsack-4b", "knapsack-4a", story4, pieces, 12, 33, must_leave=["vase", "helmet"]),
    )
    cargo = [("rice", 5, 8), ("beans", 4, 7), ("oil", 3, 6), ("flour", 5, 7), ("milk", 2, 4), ("eggs", 1, 3),
             ("apples", 3, 4), ("soap", 2, 2)]
    story5 = "A food-bank volunteer loads a cargo bike for one delivery round."
    problems += _pair(
        knapsack("knapsack-5a", "knapsack-5b", story5, cargo, 15, 26, must_take=["milk", "rice"], max_items=5),
        knapsack("knapsack-5b", "knapsack-5a", story5, cargo, 15, 26, must_take=["milk"], must_leave=["rice"],
                 max_items=5),
    )
    return problems


def _coloring_pairs() -> list[Problem]:
    problems: list[Problem] = []
    islands = ["Ash", "Bay", "Cove", "Dune", "Reef"]
    borders3 = [("Ash", "Bay"), ("Ash", "Cove"), ("Bay", "Cove"), ("Bay", "Dune"), ("Cove", "Dune"), ("Dune", "Reef"),
                ("Cove", "Reef")]
    story3 = "A board game's map shows five islands; islands that share a border get different colours."
    problems += _pair(
        coloring("coloring-3a", "coloring-3b", story3, islands, borders3, 3, {"Ash": 1, "Reef": 2}),
        coloring("coloring-3b", "coloring-3a", story3, islands, borders3, 3, {"Ash": 1, "Reef": 3}),
    )
    districts = ["Docks", "Market", "Castle", "Harbour", "Mill", "Abbey", "Forum", "Quay"]
    borders4 = [("Docks", "Harbour"), ("Docks", "Quay"), ("Harbour", "Quay"), ("Harbour", "Market"),
                ("Market", "Castle"), ("Market", "Forum"), ("Castle", "Forum"), ("Castle", "Abbey"),
                ("Abbey", "Mill"), ("Mill", "Forum"), ("Quay", "Market"), ("Abbey", "Forum")]
    story4 = "A city planner colours eight districts on a transit map; districts that touch differ in colour."
    problems += _pair(
        coloring("coloring-4a", "coloring-4b", story4, districts, borders4, 3, {"Castle": 1, "Docks": 2},
                 same=[("Harbour", "Mill")]),
        coloring("coloring-4b", "coloring-4a", story4, districts, borders4, 3, {"Castle": 1, "Docks": 2},
                 differ=[("Harbour", "Mill")]),
    )
    wheel = ["Hub", "Ring1", "Ring2", "Ring3", "Ring4", "Ring5"]
    borders5 = [("Hub", "Ring1"), ("Hub", "Ring2"), ("Hub", "Ring3"), ("Hub", "Ring4"), ("Hub", "Ring5"),
                ("Ring1", "Ring2"), ("Ring2", "Ring3"), ("Ring3", "Ring4"), ("Ring4", "Ring5"), ("Ring5", "Ring1")]
    story5 = ("A round fairground is split into a central hub and five ring sectors around it; touching parts "
              "of the ground plan get different colours.")
    problems += _pair(
        coloring("coloring-5a", "coloring-5b", story5, wheel, borders5, 4, {"Hub": 4, "Ring1": 1},
                 same=[("Ring2", "Ring4")]),
        coloring("coloring-5b", "coloring-5a", story5, wheel, borders5, 4, {"Hub": 4, "Ring1": 1},
                 differ=[("Ring2", "Ring4")]),
    )
    return problems


def _coins_pairs() -> list[Problem]:
    problems: list[Problem] = []
    game = [("pip", 1), ("bit", 3), ("crown", 7), ("sovereign", 20)]
    story2 = "In a board game the bank pays out in game coins whose values are counted in cents."
    problems += _pair(
        coins("coins-2a", "coins-2b", story2, game, 47, 7, {"bit": 1, "crown": 2}),
        coins("coins-2b", "coins-2a", story2, game, 47, 7, {"bit": 1}, at_most={"crown": 1}),
    )
    euro = [("cent1", 1), ("cent2", 2), ("cent5", 5), ("cent10", 10), ("cent20", 20), ("cent50", 50)]
    story3 = "A bus driver gives change in euro coins, named here by their value in cents."
    problems += _pair(
        coins("coins-3a", "coins-3b", story3, euro, 64, 6, {"cent2": 1}),
        coins("coins-3b", "coins-3a", story3, euro, 46, 6, {"cent2": 1}),
    )
    fair = [("copper", 2), ("silver", 5), ("gold", 12)]
    story4 = "A fair's token booth pays a prize in three kinds of token coins."
    problems += _pair(
        coins("coins-4a", "coins-4b", story4, fair, 41, 9, {"silver": 1}, at_most={"gold": 1}),
        coins("coins-4b", "coins-4a", story4, fair, 41, 9, {"silver": 1, "gold": 2}),
    )
    return problems


def _ages_pairs() -> list[Problem]:
    problems: list[Problem] = []
    story3 = "Mia is Leo's mother."
    gap: Linear = ("Mia is 26 years older than Leo.", {"Mia": 1, "Leo": -1}, "=", 26)
    problems += _pair(
        ages("ages-3a", "ages-3b", story3, ["Mia", "Leo"],
             [gap, ("In 4 years Mia will be three times as old as Leo.", {"Mia": 1, "Leo": -3}, "=", 8)]),
        ages("ages-3b", "ages-3a", story3, ["Mia", "Leo"],
             [gap, ("In 4 years Mia will be twice as old as Leo.", {"Mia": 1, "Leo": -2}, "=", 4)]),
    )
    club = ["Ola", "Pam", "Rex", "Sid", "Tia"]
    story4 = "Five members of a chess club compare their ages."
    shared4: list[Linear] = [
        ("The five ages add up to 181.", {"Ola": 1, "Pam": 1, "Rex": 1, "Sid": 1, "Tia": 1}, "=", 181),
        ("Ola's age is the sum of Pam's and Rex's.", {"Ola": 1, "Pam": -1, "Rex": -1}, "=", 0),
        ("Sid is 5 years older than Tia.", {"Sid": 1, "Tia": -1}, "=", 5),
        ("Tia is at least 18.", {"Tia": 1}, ">=", 18),
        ("Pam is at least 10 years older than Rex.", {"Pam": 1, "Rex": -1}, ">=", 10),
    ]
    problems += _pair(
        ages("ages-4a", "ages-4b", story4, club, [*shared4, ("Rex is older than Sid.", {"Rex": 1, "Sid": -1}, ">=", 1)]),
        ages("ages-4b", "ages-4a", story4, club,
             [*shared4, ("Rex is younger than Sid.", {"Rex": 1, "Sid": -1}, "<=", -1)]),
    )
    trio = ["Hana", "Ivo", "Jude"]
    story5 = "Hana, Ivo and Jude are neighbours who talk about their ages now and five years ago."
    shared5: list[Linear] = [
        ("Five years ago Hana was twice as old as Ivo was then.", {"Hana": 1, "Ivo": -2}, "=", -5),
        ("Jude is 4 years younger than Hana.", {"Hana": 1, "Jude": -1}, "=", 4),
    ]
    problems += _pair(
        ages("ages-5a", "ages-5b", story5, trio,
             [*shared5, ("Together the three are 71 years old.", {"Hana": 1, "Ivo": 1, "Jude": 1}, "=", 71)]),
        ages("ages-5b", "ages-5a", story5, trio,
             [*shared5, ("Together the three are 96 years old.", {"Hana": 1, "Ivo": 1, "Jude": 1}, "=", 96)]),
    )
    return problems


def _binpack_pairs() -> list[Problem]:
    problems: list[Problem] = []
    books = [("atlas", 5), ("bible", 3), ("cookbook", 2), ("diary", 1), ("encyclopedia", 6), ("folio", 4)]
    story2 = "A family moving house packs six heavy books into two boxes."
    problems += _pair(
        binpack("binpack-2a", "binpack-2b", story2, books, 2, 11, together=[("atlas", "folio")]),
        binpack("binpack-2b", "binpack-2a", story2, books, 2, 11, apart=[("atlas", "folio")]),
    )
    kit = [("amp", 7), ("bass", 4), ("cymbals", 3), ("drums", 8), ("guitar", 3), ("keyboard", 6), ("mixer", 5),
           ("stands", 2), ("cables", 2)]
    story3 = "A touring band loads its gear into three numbered transport boxes."
    problems += _pair(
        binpack("binpack-3a", "binpack-3b", story3, kit, 3, 14, together=[("bass", "guitar"), ("amp", "mixer")],
                apart=[("drums", "keyboard")]),
        binpack("binpack-3b", "binpack-3a", story3, kit, 3, 14, together=[("bass", "guitar")],
                apart=[("amp", "mixer"), ("drums", "keyboard")]),
    )
    parcels = [("p1", 9), ("p2", 7), ("p3", 6), ("p4", 5), ("p5", 5), ("p6", 4), ("p7", 3), ("p8", 3), ("p9", 2),
               ("p10", 2)]
    story4 = "A post office sorts ten parcels, named p1 to p10, into four numbered mail boxes."
    problems += _pair(
        binpack("binpack-4a", "binpack-4b", story4, parcels, 4, 13, together=[("p4", "p5")],
                apart=[("p6", "p7"), ("p1", "p9")]),
        binpack("binpack-4b", "binpack-4a", story4, parcels, 4, 13, together=[("p4", "p5"), ("p6", "p7")],
                apart=[("p1", "p9")]),
    )
    return problems


def _queens_roster_magic_pairs() -> list[Problem]:
    problems: list[Problem] = []
    story_q5 = "Place five queens on a 5x5 board, one per column, so that none attacks another."
    problems += _pair(
        queens("queens-2a", "queens-2b", story_q5, 5, {2: 4, 4: 5}),
        queens("queens-2b", "queens-2a", story_q5, 5, {2: 4, 4: 3}),
    )
    story_q8 = "Place eight queens on a chessboard, one per column, so that none attacks another."
    problems += _pair(
        queens("queens-3a", "queens-3b", story_q8, 8, {1: 1, 2: 5}),
        queens("queens-3b", "queens-3a", story_q8, 8, {1: 1, 2: 7}),
    )

    village = ["Eva", "Fox", "Gia"]
    days4 = ["Mon", "Tue", "Wed", "Thu"]
    story_r2 = "A village surgery needs one nurse on duty each morning from Monday to Thursday."
    off2 = [("Eva", "Tue"), ("Gia", "Mon")]
    problems += _pair(
        roster("roster-2a", "roster-2b", story_r2, village, days4, 1, 2, off2, [("Fox", "Thu"), ("Eva", "Wed")]),
        roster("roster-2b", "roster-2a", story_r2, village, days4, 1, 2, [*off2, ("Fox", "Thu")], [("Eva", "Wed")]),
    )
    ward = ["Ines", "Joe", "Kai", "Lu", "Mara"]
    days6 = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    story_r3 = "A hospital ward plans six days of night shifts, three nurses a night."
    off3 = [("Ines", "Sat"), ("Joe", "Mon"), ("Kai", "Wed"), ("Lu", "Thu"), ("Mara", "Tue")]
    problems += _pair(
        roster("roster-3a", "roster-3b", story_r3, ward, days6, 3, 4, off3, [("Lu", "Fri"), ("Joe", "Sat")]),
        roster("roster-3b", "roster-3a", story_r3, ward, days6, 3, 4, [*off3, ("Lu", "Fri")], [("Joe", "Sat")]),
    )

    story_m2 = "Complete a 3x3 magic square with the numbers 1 to 9, each once; every line adds up to 15."
    problems += _pair(
        magic("magic-2a", "magic-2b", story_m2, {(2, 1): 3}),
        magic("magic-2b", "magic-2a", story_m2, {(2, 1): 7}),
    )
    story_m3 = "A puzzle box opens when its 3x3 dial grid is a magic square of the numbers 1 to 9."
    problems += _pair(
        magic("magic-3a", "magic-3b", story_m3, {(3, 3): 8, (2, 3): 1}),
        magic("magic-3b", "magic-3a", story_m3, {(3, 3): 8, (2, 3): 3}),
    )
    return problems
