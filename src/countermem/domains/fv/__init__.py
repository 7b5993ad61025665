"""Formal verification: Coq proofs checked by `coqc` (benchmarks minif2f-coq and coq-basics).

An action is the proof of the task's fixed theorem, `Proof. ... Qed.`; see `_script.py` for the
contract and `_check.py` for how a proof is judged.
"""

from countermem.domains.fv._basics import CoqBasics
from countermem.domains.fv._benchmark import INSTRUCTIONS, CoqBenchmark
from countermem.domains.fv._check import check_proof
from countermem.domains.fv._coqc import CoqcLimits, CoqcRun, CoqcRunner, coqc_path, coqc_version, run_coqc
from countermem.domains.fv._facts import coq_facts, imports_of
from countermem.domains.fv._minif2f import MiniF2FCoq, parse_statement_file
from countermem.domains.fv._problem import AxiomPolicy, CoqProblem
from countermem.domains.fv._sandboxed import coq_sandbox_availability, run_coqc_sandboxed
from countermem.domains.fv._script import ProofScript, Refusal, parse_proof
from countermem.domains.fv._worldmodel import CoqWorldModel

__all__ = [
    "INSTRUCTIONS",
    "AxiomPolicy",
    "CoqBasics",
    "CoqBenchmark",
    "CoqProblem",
    "CoqWorldModel",
    "CoqcLimits",
    "CoqcRun",
    "CoqcRunner",
    "MiniF2FCoq",
    "ProofScript",
    "Refusal",
    "check_proof",
    "coq_facts",
    "coq_sandbox_availability",
    "coqc_path",
    "coqc_version",
    "imports_of",
    "parse_proof",
    "parse_statement_file",
    "run_coqc",
    "run_coqc_sandboxed",
]
