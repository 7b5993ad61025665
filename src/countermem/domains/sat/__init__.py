"""The SAT domain: SATLIB formulas to satisfy or refute, and small problems to encode as CNF.

Both benchmarks are judged by MiniSat 2.2 (python-sat) under a conflict budget, so a check is
deterministic; see `_satlib` and `_encode` for what each world model scores.
"""

from countermem.domains.sat._answer import Assignment, SatAnswer, UnsatClaim, is_unsat_claim, parse_answer
from countermem.domains.sat._catalog import LOOKALIKE_PAIRS, PROBLEMS, problem_by_id
from countermem.domains.sat._cnf import (
    CNF,
    MAX_CNF_CHARS,
    MAX_CNF_CLAUSES,
    MAX_CNF_VARIABLES,
    parse_dimacs,
    strip_fence,
)
from countermem.domains.sat._encode import SATEncode, SATEncodeWorldModel
from countermem.domains.sat._problems import (
    Constraint,
    EncodeProblem,
    GraphColouring,
    LatinSquare,
    Placement,
    Queens,
    Scheduling,
)
from countermem.domains.sat._render import RENDER_CHAR_LIMIT, VIOLATED_SHOWN
from countermem.domains.sat._satlib import UNSAT, SATLib, SATLibWorldModel
from countermem.domains.sat._solver import (
    DEFAULT_CONFLICT_BUDGET,
    DEFAULT_TIMEOUT_S,
    SolveOutcome,
    SolverBudget,
    solve,
)

__all__ = [
    "CNF",
    "DEFAULT_CONFLICT_BUDGET",
    "DEFAULT_TIMEOUT_S",
    "LOOKALIKE_PAIRS",
    "MAX_CNF_CHARS",
    "MAX_CNF_CLAUSES",
    "MAX_CNF_VARIABLES",
    "PROBLEMS",
    "RENDER_CHAR_LIMIT",
    "UNSAT",
    "VIOLATED_SHOWN",
    "Assignment",
    "Constraint",
    "EncodeProblem",
    "GraphColouring",
    "LatinSquare",
    "Placement",
    "Queens",
    "SATEncode",
    "SATEncodeWorldModel",
    "SATLib",
    "SATLibWorldModel",
    "SatAnswer",
    "Scheduling",
    "SolveOutcome",
    "SolverBudget",
    "UnsatClaim",
    "is_unsat_claim",
    "parse_answer",
    "parse_dimacs",
    "problem_by_id",
    "solve",
    "strip_fence",
]
