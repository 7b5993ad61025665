"""One writer per run folder and per study folder (`experiment._lock`).

A lock held by another process is simulated with a second open of the lock file and flock on
it: flock locks belong to an open file, so this process's own open conflicts with it exactly as
another process's would.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from countermem.core import ConfigError
from countermem.experiment import RunConfig, RunDir
from countermem.experiment._lock import LOCK_NAME, hold_folder, release_folder
from countermem.experiment._study import MANIFEST, run_study
from countermem.experiment._study_config import parse_study_config

CONFIG = RunConfig(benchmark="toy-add", backbone="scripted", model="m")


@contextmanager
def held_elsewhere(folder: Path, pid: int = 4242) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, json.dumps({"pid": pid, "host": "elsewhere", "started_at": "2030-01-01T00:00:00"}).encode())
        yield
    finally:
        os.close(fd)


def test_a_run_folder_another_process_writes_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with held_elsewhere(tmp_path), pytest.raises(ConfigError) as caught:
        RunDir(tmp_path).check(CONFIG, resume=True)
    message = str(caught.value)
    assert "\n" not in message and "pid 4242 on elsewhere since 2030-01-01T00:00:00" in message
    assert not (tmp_path / "manifest.json").exists()


def test_a_lock_left_by_a_dead_process_does_not_block(tmp_path: Path) -> None:
    with held_elsewhere(tmp_path):
        pass  # the holder is gone; its lock file stays
    finished = RunDir(tmp_path).prepare(CONFIG, seed=0, resume=False)
    assert finished == [] and (tmp_path / "manifest.json").is_file()
    release_folder(tmp_path)


def test_the_holder_names_itself_and_may_open_its_folder_again(tmp_path: Path) -> None:
    hold_folder(tmp_path)
    try:
        RunDir(tmp_path).check(CONFIG, resume=False)  # the folder holds only the lock file: still empty
        RunDir(tmp_path / "epoch-1").check(CONFIG, resume=False)  # beneath a held folder: covered
        holder = json.loads((tmp_path / LOCK_NAME).read_text())
        assert holder["pid"] == os.getpid() and holder["host"] and holder["started_at"]
    finally:
        release_folder(tmp_path)


def test_a_run_inside_a_folder_another_process_holds_is_refused(tmp_path: Path) -> None:
    with held_elsewhere(tmp_path), pytest.raises(ConfigError, match=r"through .*which holds it"):
        RunDir(tmp_path / "inner").check(CONFIG, resume=False)


def test_a_study_folder_another_process_writes_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    config = parse_study_config({
        "name": "t", "benchmarks": ["sql-shop"], "methods": ["none"], "seeds": [1],
        "backbones": {"b": {"kind": "scripted"}}, "split": {"construct": 2, "train": 1, "heldout": 2},
        "memory": {"embedder": "lexical"},
    })
    with held_elsewhere(tmp_path), pytest.raises(ConfigError, match="pid 4242"):
        run_study(config, tmp_path, write_report=False)
    assert not (tmp_path / MANIFEST).exists()
