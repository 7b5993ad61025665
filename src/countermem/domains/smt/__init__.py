"""SMT domain: `smtlib` (choose a z3 strategy for a real SMT-LIB instance) and `smt-encode`
(encode a word problem in SMT-LIB 2). Every check runs z3 in a fresh, hard-limited process."""

from countermem.domains.smt._base import DEFAULT_TIMEOUT_S, EFFORT_PER_SECOND, HARD_MARGIN_S
from countermem.domains.smt._encode import SMTEncode, SMTEncodeWorldModel, judge_encoding
from countermem.domains.smt._encode_problems import AnswerVar, Problem, Rule
from countermem.domains.smt._encode_script import EncodingScript, read_encoding
from countermem.domains.smt._process import ProcessOutcome, RunnerReply, run_runner
from countermem.domains.smt._smtlib import (
    GoldUnknownError,
    SMTLib,
    SMTLibWorldModel,
    judge_strategy_reply,
)
from countermem.domains.smt._strategy import Strategy, parse_strategy

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "EFFORT_PER_SECOND",
    "HARD_MARGIN_S",
    "AnswerVar",
    "EncodingScript",
    "GoldUnknownError",
    "Problem",
    "ProcessOutcome",
    "Rule",
    "RunnerReply",
    "SMTEncode",
    "SMTEncodeWorldModel",
    "SMTLib",
    "SMTLibWorldModel",
    "Strategy",
    "judge_encoding",
    "judge_strategy_reply",
    "parse_strategy",
    "read_encoding",
    "run_runner",
]
