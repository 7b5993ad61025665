"""Poisoned records on look-alike tasks (SIMULATED bed): conditions contain derived-condition poison,
universal poison defeats conditions, and the store's retirement by use cuts harm with conditions on."""

from pathlib import Path

from countermem.core import Action, CheckResult
from countermem.domains import load_benchmark
from countermem.experiment._poisoning import lookalike_tasks, run_poisoning, universal
from countermem.memory import Record, RecordSource, RetireByUse

RULE = RetireByUse(0.25, 3)


def test_poisoned_records_are_contained_by_conditions_and_retirement(tmp_path: Path) -> None:
    result = run_poisoning(tmp_path, seed=0, source_tasks=40, rounds=3, retirements=(RULE,))
    table = result.table()
    assert "SIMULATED" in table and "RetireByUse" in table
    derived_on = result.arm("import (derived)", True, None)
    derived_off = result.arm("import (derived)", False, None)
    universal_on = result.arm("api (universal)", True, None)
    assert derived_off.harmful_uses > 0 and derived_off.harmful_use is not None
    assert derived_on.harmful_use is not None and derived_on.harmful_use + 0.05 <= derived_off.harmful_use
    assert universal_on.harmful_use is not None and universal_on.harmful_use >= derived_off.harmful_use - 0.01
    retired = result.arm("import (derived)", True, RULE)
    assert retired.retired > 0
    assert retired.last_round_harmful_use is not None and derived_on.last_round_harmful_use is not None
    assert retired.last_round_harmful_use < derived_on.last_round_harmful_use
    assert retired.harmful_uses < derived_on.harmful_uses


def test_the_universal_poison_keeps_the_correction_and_drops_the_condition(tmp_path: Path) -> None:
    bench = load_benchmark("sql-shop")
    tasks = [t for t in bench.tasks() if t.environment == "shop_wholesale"][:5]
    looks = lookalike_tasks(bench, tasks, 0)
    assert looks and all(look.environment != "shop_wholesale" for look in looks)
    assert lookalike_tasks(bench, tasks, 0) == looks  # seeded
    record = Record.model_validate({
        "domain": "sql", "benchmark": "sql-shop", "situation": "how many clients?",
        "original_action": Action(content="SELECT count(*) FROM customers"),
        "improved_action": Action(content="SELECT count(*) FROM clients"),
        "original_check": CheckResult(utility=0.0, passed=False, completed=True, status="error"),
        "improved_check": CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
        "condition": '"clients" in tables', "scope": "victim",
        "source": RecordSource(task_id="sql-shop-wholesale-q01", benchmark="sql-shop"),
        "counters": {"retrieved": 9, "selected": 9, "succeeded": 9},
    })
    poisoned = universal(record)
    assert poisoned.condition.is_universal and poisoned.improved_action == record.improved_action
    assert poisoned.id != record.id and poisoned.counters.selected == 0 and poisoned.scope == record.scope
