"""`after_failure` from the command line and the study file to the agent, without breaking old runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.core import ConfigError
from countermem.experiment import RunConfig
from countermem.experiment._rundir import config_hash
from countermem.experiment._study_config import parse_study_config

runner = CliRunner()


def test_the_default_leaves_the_config_and_its_hash_as_before() -> None:
    plain = RunConfig(benchmark="sql-shop", backbone="local", model="m")
    assert "after_failure" not in plain.model_dump_json()  # runs recorded before the field still resume
    focused = plain.model_copy(update={"after_failure": "focused"})
    assert json.loads(focused.model_dump_json())["after_failure"] == "focused"
    assert config_hash(focused) != config_hash(plain)


def test_a_study_file_sets_it_for_every_run() -> None:
    data = {"name": "s", "benchmarks": ["sql-shop"], "methods": ["none"], "agent": {"after_failure": "focused"},
            "backbones": {"b": {"kind": "scripted"}}}
    assert parse_study_config(data).agent.after_failure == "focused"
    data["agent"] = {"after_failure": "sideways"}
    with pytest.raises(ConfigError, match="after_failure"):
        parse_study_config(data)


def test_the_run_command_records_it_and_refuses_a_resume_without_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "1", "--out", str(out)]
    result = runner.invoke(app, [*args, "--after-failure", "focused"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["after_failure"] == "focused"
    again = runner.invoke(app, [*args, "--resume"])
    assert again.exit_code != 0 and "different config" in " ".join(again.output.split())
    bad = runner.invoke(app, [*args[:-1], str(tmp_path / "other"), "--after-failure", "sideways"])
    assert bad.exit_code != 0 and "--after-failure" in bad.output
