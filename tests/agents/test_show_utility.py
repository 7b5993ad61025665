"""`AgentLimits.show_utility`: the observation after a check, with and without its utility number."""

from countermem.agents import AgentLimits, ReActAgent
from countermem.llm import ScriptedLLM

REPLIES = ["Action: check 3", "Action: submit 2"]


def _observations(bench, **limits) -> list[str]:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(REPLIES)
    agent = ReActAgent(llm, bench, bench.world_model(), limits=AgentLimits(max_steps=4, **limits))
    assert agent.run(bench.tasks()[0]).solved
    return [llm.calls[1][-1].content]  # the prompt after the failed check ends with its observation


def test_the_observation_drops_only_the_utility_when_it_is_hidden(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    shown = _observations(toy_benchmark)
    hidden = _observations(toy_benchmark, show_utility=False)
    assert shown[0].startswith("Observation: check FAILED (status wrong, utility 0.00).")
    assert hidden[0].startswith("Observation: check FAILED (status wrong).") and "utility" not in hidden[0]
    assert hidden[0].split("\n", 1)[1:] == shown[0].split("\n", 1)[1:]  # the checker's details stay


def test_hiding_it_is_recorded_and_the_default_keeps_old_configs_and_hashes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    from countermem.cli import app
    from countermem.experiment import RunConfig
    from countermem.experiment._rundir import config_hash
    from countermem.experiment._study_config import parse_study_config

    plain = RunConfig(benchmark="sql-shop", backbone="local", model="m")
    assert "show_utility" not in plain.model_dump_json()
    assert config_hash(plain.model_copy(update={"show_utility": False})) != config_hash(plain)
    study = {"name": "s", "benchmarks": ["sql-shop"], "methods": ["none"], "agent": {"show_utility": False},
             "backbones": {"b": {"kind": "scripted"}}}
    assert parse_study_config(study).agent.show_utility is False
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", "--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "1",
                                      "--hide-utility", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "manifest.json").read_text())["config"]["show_utility"] is False
