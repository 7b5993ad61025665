"""Another countermem study on the same machine is named before a study with local models starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import _study, app
from countermem.cli._neighbours import crowding_warning, other_countermem_processes


def _proc(root: Path, pid: int, argv: list[str], parent: int = 1) -> None:
    folder = root / str(pid)
    folder.mkdir(parents=True)
    (folder / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
    (folder / "stat").write_text(f"{pid} ({argv[0][:15]}) S {parent} 0 0")


def test_other_studies_are_found_but_not_this_process_or_its_parents(tmp_path: Path) -> None:
    _proc(tmp_path, 10, ["/bin/bash", "./run.sh"])
    _proc(tmp_path, 11, ["/venv/bin/python", "/venv/bin/countermem", "study", "a.toml"], parent=10)  # me
    _proc(tmp_path, 20, ["/venv/bin/python", "/venv/bin/countermem", "study", "b.toml", "--workers", "1"])
    _proc(tmp_path, 21, ["python", "-m", "countermem", "run", "--benchmark", "spider"])
    _proc(tmp_path, 22, ["/venv/bin/python", "/venv/bin/countermem", "memory", "list", "s.sqlite"])
    _proc(tmp_path, 23, ["python", "-m", "pytest", "tests/", "-k", "countermem", "study"])
    (tmp_path / "self").mkdir()
    found = other_countermem_processes(tmp_path, me=11)
    assert [pid for pid, _ in found] == [20, 21]
    assert found[0][1] == "/venv/bin/python /venv/bin/countermem study b.toml --workers 1"


def test_the_warning_names_the_other_process_and_what_to_do() -> None:
    assert crowding_warning([], threads=2, cores=2) is None
    text = crowding_warning([(20, "countermem study b.toml"), (21, "countermem run")], threads=2, cores=2)
    assert text is not None and "pid 20: countermem study b.toml" in text and "and 1 more" in text
    assert "2 llama.cpp thread(s) on 2 core(s)" in text and "--job-threads" in text


def test_no_proc_folder_means_no_warning(tmp_path: Path) -> None:
    assert other_countermem_processes(tmp_path / "missing") == []


def test_a_study_with_local_models_warns_of_another_one_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stop(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_study, "run_study", stop)
    monkeypatch.setattr(_study, "other_countermem_processes", lambda: [(20, "countermem study b.toml")])
    for kind, warned in (("local", True), ("scripted", False)):
        toml = tmp_path / f"{kind}.toml"
        model = '\nmodel = "qwen2.5-coder-0.5b"' if kind == "local" else ""
        toml.write_text(f'benchmarks = ["sql-shop"]\n[backbones.b]\nkind = "{kind}"{model}\n')
        result = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / kind)])
        text = " ".join(result.output.split())
        assert result.exit_code == 130, result.output
        assert ("pid 20: countermem study b.toml" in text) is warned
