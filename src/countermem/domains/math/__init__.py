"""Math domain: GSM8K and MATH-500, judged by exact numbers or math-verify under a deadline."""

from countermem.domains.math._answer import (
    MAX_ANSWER_CHARS,
    FinalAnswer,
    answer_form,
    extract_final_answer,
    plain_number,
)
from countermem.domains.math._base import MathBenchmark
from countermem.domains.math._gsm8k import GSM8K
from countermem.domains.math._judge import AnswerJudge, Judgement
from countermem.domains.math._math500 import Math500
from countermem.domains.math._replay import ReplayPlan, Unsupported, analyse
from countermem.domains.math._world import MathWorldModel

__all__ = [
    "GSM8K",
    "MAX_ANSWER_CHARS",
    "AnswerJudge",
    "FinalAnswer",
    "Judgement",
    "Math500",
    "MathBenchmark",
    "MathWorldModel",
    "ReplayPlan",
    "Unsupported",
    "analyse",
    "answer_form",
    "extract_final_answer",
    "plain_number",
]
