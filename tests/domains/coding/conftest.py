"""Fixtures for the coding domain: the two benchmarks, skipped with the reason when unusable.

The sandbox is checked first, so that a broken one fails where the run requires the tools
(`required_tools`); only missing data is then a skip.
"""

from __future__ import annotations

import pytest

from countermem.domains.coding import MBPP, HumanEval
from required_tools import require_sandbox


@pytest.fixture(scope="session")
def humaneval() -> HumanEval:
    require_sandbox()
    benchmark = HumanEval()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"HumanEval unavailable: {availability.reason}")
    return benchmark


@pytest.fixture(scope="session")
def mbpp() -> MBPP:
    require_sandbox()
    benchmark = MBPP()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"MBPP unavailable: {availability.reason}")
    return benchmark
