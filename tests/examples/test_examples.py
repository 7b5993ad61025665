import runpy
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_plain_agent_example_learns_then_uses_a_record(capsys) -> None:  # type: ignore[no-untyped-def]
    runpy.run_path(str(EXAMPLES / "plain_agent.py"), run_name="__main__")
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("price-0: answer 10.00, passed=False, advice=False")
    assert out[1].startswith("  learned: admitted record r-")
    assert out[2] == "price-1: answer 30.00, passed=True, advice=True"
