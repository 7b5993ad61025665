"""The coding domain: HumanEval and MBPP, judged by running their asserts in the sandbox."""

from countermem.domains.coding._benchmark import DEFAULT_TIMEOUT_S, CodingBenchmark
from countermem.domains.coding._humaneval import HumanEval
from countermem.domains.coding._instrument import AssertSite, InstrumentedTest, instrument_asserts
from countermem.domains.coding._lookalike import TRANSFORMS, Transform
from countermem.domains.coding._mbpp import MBPP
from countermem.domains.coding._spec import TestSpec
from countermem.domains.coding._worldmodel import CodingWorldModel

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "MBPP",
    "TRANSFORMS",
    "AssertSite",
    "CodingBenchmark",
    "CodingWorldModel",
    "HumanEval",
    "InstrumentedTest",
    "TestSpec",
    "Transform",
    "instrument_asserts",
]
