"""Fixtures for the coding domain: the two benchmarks, skipped with the reason when unusable."""

from __future__ import annotations

import pytest

from countermem.domains.coding import MBPP, HumanEval
from countermem.domains.sandbox import sandbox_availability


@pytest.fixture(scope="session")
def humaneval() -> HumanEval:
    benchmark = HumanEval()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"HumanEval unavailable: {availability.reason}")
    return benchmark


@pytest.fixture(scope="session")
def mbpp() -> MBPP:
    benchmark = MBPP()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"MBPP unavailable: {availability.reason}")
    return benchmark


@pytest.fixture(scope="session")
def sandbox() -> None:
    availability = sandbox_availability()
    if not availability.available:
        pytest.skip(f"sandbox unavailable: {availability.reason}")
