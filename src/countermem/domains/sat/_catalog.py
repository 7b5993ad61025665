"""The sat-encode problems (41, all satisfiable) and their look-alike pairs.

Each look-alike pair has the same shape and differs in ONE constraint that the two sides state
in opposite ways (a vertex pinned to another colour, a pair together versus apart, a precedence
reversed, a queen forced to a neighbouring square), so a CNF that is right for one side is
wrong for the other, in both directions: a correction memorised on one must not be replayed on
the other. The tests check this for every pair.
"""

from __future__ import annotations

from countermem.domains.sat._problems import (
    EncodeProblem,
    GraphColouring,
    LatinSquare,
    Pair,
    Placement,
    Queens,
    Scheduling,
)

_C5 = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 0))
_PETERSEN = (
    *((i, (i + 1) % 5) for i in range(5)),
    *((i, i + 5) for i in range(5)),
    (5, 7),
    (7, 9),
    (9, 6),
    (6, 8),
    (8, 5),
)
_WHEEL6 = (*((0, i) for i in range(1, 7)), *((i, i % 6 + 1) for i in range(1, 7)))
_K4 = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_GRID3 = (
    *((r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)),
    *((r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)),
)
_PRISM = ((0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5))
_AUSTRALIA_NAMES = ("WA", "NT", "SA", "Q", "NSW", "V", "T")
_AUSTRALIA = ((0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (4, 5))


def _colouring() -> list[EncodeProblem]:
    return [
        GraphColouring(
            "cycle5-pin-0", "3-colour a 5-cycle, vertex 0 coloured 0", 5, _C5, 3, pinned=((0, 0),)
        ),
        GraphColouring(
            "cycle5-pin-1", "3-colour a 5-cycle, vertex 0 coloured 1", 5, _C5, 3, pinned=((0, 1),)
        ),
        GraphColouring(
            "petersen-same", "3-colour the Petersen graph, 0 and 7 alike", 10, _PETERSEN, 3, same=((0, 7),)
        ),
        GraphColouring(
            "petersen-bridge", "3-colour the Petersen graph plus edge 0-7", 10, (*_PETERSEN, (0, 7)), 3
        ),
        GraphColouring(
            "wheel6-hub-0", "3-colour a 6-spoke wheel, hub coloured 0", 7, _WHEEL6, 3, pinned=((0, 0),)
        ),
        GraphColouring(
            "wheel6-hub-2", "3-colour a 6-spoke wheel, hub coloured 2", 7, _WHEEL6, 3, pinned=((0, 2),)
        ),
        GraphColouring("k4-4", "4-colour the complete graph K4", 4, _K4, 4),
        GraphColouring(
            "grid3-corner-0", "2-colour a 3x3 grid, corner coloured 0", 9, _GRID3, 2, pinned=((0, 0),)
        ),
        GraphColouring(
            "grid3-corner-1", "2-colour a 3x3 grid, corner coloured 1", 9, _GRID3, 2, pinned=((0, 1),)
        ),
        GraphColouring("prism-3", "3-colour the triangular prism", 6, _PRISM, 3),
        GraphColouring(
            "australia-same",
            "Map colouring: Australia, Tasmania like Victoria",
            7,
            _AUSTRALIA,
            3,
            same=((6, 5),),
            vertex_names=_AUSTRALIA_NAMES,
        ),
        GraphColouring(
            "australia-bridge",
            "Map colouring: Australia, Tasmania bordering Victoria",
            7,
            (*_AUSTRALIA, (5, 6)),
            3,
            vertex_names=_AUSTRALIA_NAMES,
        ),
    ]


def _queens() -> list[EncodeProblem]:
    return [
        Queens("queens4", "4 queens", 4),
        Queens("queens4-block-01", "4 queens, square (0,1) blocked", 4, blocked=((0, 1),)),
        Queens("queens4-block-02", "4 queens, square (0,2) blocked", 4, blocked=((0, 2),)),
        Queens("queens5", "5 queens", 5),
        Queens("queens5-at-00", "5 queens, one on (0,0)", 5, placed=((0, 0),)),
        Queens("queens5-at-01", "5 queens, one on (0,1)", 5, placed=((0, 1),)),
        Queens("queens6", "6 queens", 6),
        Queens("queens6-at-01", "6 queens, one on (0,1)", 6, placed=((0, 1),)),
        Queens("queens6-at-02", "6 queens, one on (0,2)", 6, placed=((0, 2),)),
    ]


def _latin() -> list[EncodeProblem]:
    latin4 = ((0, 0, 1), (0, 1, 2))
    shidoku = ((0, 0, 1), (1, 2, 1), (3, 0, 4))
    latin5 = ((0, 0, 1), (1, 1, 3), (2, 4, 2), (4, 2, 5))
    return [
        LatinSquare("latin3", "Complete a 3x3 Latin square", 3, givens=((0, 0, 1), (1, 1, 3))),
        LatinSquare("latin4-a", "Complete a 4x4 Latin square (a)", 4, givens=(*latin4, (1, 1, 1))),
        LatinSquare("latin4-b", "Complete a 4x4 Latin square (b)", 4, givens=(*latin4, (1, 1, 4))),
        LatinSquare("latin4-diagonal", "A 4x4 diagonal Latin square", 4, givens=((0, 0, 1),), diagonals=True),
        LatinSquare("shidoku-a", "Solve a 4x4 Sudoku (a)", 4, givens=(*shidoku, (2, 1, 1)), box=(2, 2)),
        LatinSquare("shidoku-b", "Solve a 4x4 Sudoku (b)", 4, givens=(*shidoku, (2, 1, 3)), box=(2, 2)),
        LatinSquare("latin5-a", "Complete a 5x5 Latin square (a)", 5, givens=(*latin5, (3, 3, 1))),
        LatinSquare("latin5-b", "Complete a 5x5 Latin square (b)", 5, givens=(*latin5, (3, 3, 2))),
    ]


def _placement() -> list[EncodeProblem]:
    pigeons = ("Ada", "Bo", "Cy", "Di")
    holes = ("north", "east", "south", "west")
    base: tuple[Pair, ...] = ((0, 0), (0, 3), (1, 1), (2, 2), (3, 0))
    items = ("lamp", "desk", "chair", "shelf", "rug")
    guests = ("Ana", "Ben", "Cal", "Dee", "Eli", "Fay")
    tables = ("red", "green", "blue")
    seating_story = "Seat six guests at three tables of two."
    seating_apart: tuple[Pair, ...] = ((0, 1), (2, 4), (3, 5))
    return [
        Placement(
            "pigeons-a",
            "Pigeons in holes (a)",
            "Four pigeons, four holes, one pigeon per hole.",
            pigeons,
            holes,
            (1, 1, 1, 1),
            forbidden=(*base, (0, 1)),
        ),
        Placement(
            "pigeons-b",
            "Pigeons in holes (b)",
            "Four pigeons, four holes, one pigeon per hole.",
            pigeons,
            holes,
            (1, 1, 1, 1),
            forbidden=(*base, (0, 2)),
        ),
        Placement(
            "rooms-together",
            "Furniture in rooms, lamp with desk",
            "Five pieces of furniture go into three rooms of limited space.",
            items,
            ("hall", "study", "attic"),
            (2, 2, 1),
            apart=((0, 2),),
            together=((0, 1),),
        ),
        Placement(
            "rooms-apart",
            "Furniture in rooms, lamp away from desk",
            "Five pieces of furniture go into three rooms of limited space.",
            items,
            ("hall", "study", "attic"),
            (2, 2, 1),
            apart=((0, 2), (0, 1)),
        ),
        Placement(
            "seating-together",
            "Seating plan, Cal next to Dee",
            seating_story,
            guests,
            tables,
            (2, 2, 2),
            apart=seating_apart,
            together=((2, 3),),
        ),
        Placement(
            "seating-apart",
            "Seating plan, Cal away from Dee",
            seating_story,
            guests,
            tables,
            (2, 2, 2),
            apart=(*seating_apart, (2, 3)),
        ),
    ]


def _scheduling() -> list[EncodeProblem]:
    exams = ("algebra", "biology", "chemistry", "drama", "economics")
    exam_conflicts: tuple[Pair, ...] = ((0, 2), (1, 2), (2, 3), (3, 4), (1, 4))
    jobs = ("fetch", "build", "lint", "test", "docs", "release")
    chain: tuple[Pair, ...] = ((0, 1), (1, 3), (2, 3), (3, 5))
    meetings = ("m0", "m1", "m2", "m3", "m4", "m5", "m6")
    ring: tuple[Pair, ...] = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 0), (0, 3))
    exam_story = "Five exams share three time slots; students sit conflicting exams, so those must differ."
    pipeline_story = (
        "A build pipeline of six jobs runs in four time steps; a job may only use finished results."
    )
    meeting_story = "Seven meetings share three hour-long slots; meetings with a shared member conflict."
    return [
        Scheduling(
            "exams-a", "Exam timetable, algebra first", exam_story, exams, 3, exam_conflicts, before=((0, 1),)
        ),
        Scheduling(
            "exams-b", "Exam timetable, biology first", exam_story, exams, 3, exam_conflicts, before=((1, 0),)
        ),
        Scheduling(
            "pipeline-a",
            "Pipeline, lint before docs",
            pipeline_story,
            jobs,
            4,
            conflicts=((2, 4), (4, 5)),
            before=(*chain, (2, 4)),
        ),
        Scheduling(
            "pipeline-b",
            "Pipeline, docs before lint",
            pipeline_story,
            jobs,
            4,
            conflicts=((2, 4), (4, 5)),
            before=(*chain, (4, 2)),
        ),
        Scheduling(
            "meetings-same",
            "Meetings, m0 and m5 together",
            meeting_story,
            meetings,
            3,
            conflicts=ring,
            same_slot=((0, 5),),
            forbidden=((2, 0),),
        ),
        Scheduling(
            "meetings-apart",
            "Meetings, m0 and m5 apart",
            meeting_story,
            meetings,
            3,
            conflicts=(*ring, (0, 5)),
            forbidden=((2, 0),),
        ),
    ]


PROBLEMS: tuple[EncodeProblem, ...] = (*_colouring(), *_queens(), *_latin(), *_placement(), *_scheduling())

LOOKALIKE_PAIRS: tuple[tuple[str, str], ...] = (
    ("cycle5-pin-0", "cycle5-pin-1"),
    ("petersen-same", "petersen-bridge"),
    ("wheel6-hub-0", "wheel6-hub-2"),
    ("grid3-corner-0", "grid3-corner-1"),
    ("australia-same", "australia-bridge"),
    ("queens4-block-01", "queens4-block-02"),
    ("queens5-at-00", "queens5-at-01"),
    ("queens6-at-01", "queens6-at-02"),
    ("latin4-a", "latin4-b"),
    ("shidoku-a", "shidoku-b"),
    ("latin5-a", "latin5-b"),
    ("pigeons-a", "pigeons-b"),
    ("rooms-together", "rooms-apart"),
    ("seating-together", "seating-apart"),
    ("exams-a", "exams-b"),
    ("pipeline-a", "pipeline-b"),
    ("meetings-same", "meetings-apart"),
)


def problem_by_id(pid: str) -> EncodeProblem | None:
    return next((p for p in PROBLEMS if p.pid == pid), None)


def partners(pid: str) -> list[str]:
    return [b if a == pid else a for a, b in LOOKALIKE_PAIRS if pid in (a, b)]
