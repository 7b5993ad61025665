"""`reuse_checks` from the command line and the study file to the run, without breaking old runs."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from countermem.cli import app
from countermem.experiment import RunConfig
from countermem.experiment._rundir import config_hash
from countermem.experiment._study_config import parse_study_config

runner = CliRunner()


def test_off_leaves_the_config_and_its_hash_as_before() -> None:
    plain = RunConfig(benchmark="sql-shop", backbone="local", model="m")
    assert "reuse_checks" not in plain.model_dump_json()
    on = plain.model_copy(update={"reuse_checks": True})
    assert json.loads(on.model_dump_json())["reuse_checks"] is True
    assert config_hash(on) != config_hash(plain)


def test_a_study_file_sets_it() -> None:
    data = {"name": "s", "benchmarks": ["sql-shop"], "methods": ["none"], "agent": {"reuse_checks": True},
            "backbones": {"b": {"kind": "scripted"}}}
    assert parse_study_config(data).agent.reuse_checks is True
    data["agent"] = {}
    assert parse_study_config(data).agent.reuse_checks is False


def test_the_run_command_records_it_and_refuses_a_resume_without_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "1", "--out", str(out)]
    result = runner.invoke(app, [*args, "--reuse-checks"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "manifest.json").read_text())["config"]["reuse_checks"] is True
    again = runner.invoke(app, [*args, "--resume"])
    assert again.exit_code != 0 and "different config" in " ".join(again.output.split())
