"""Paired outcomes kept beside the code, so seeds run on different machines pool into one test.

Why: a study folder lives on the machine that ran it (its reply cache, stores and transcripts are
hundreds of megabytes), and a later session may start on a new machine without it. The pooled
paired test of issue 24 (seeds summed per cell) needs, per task, only whether each arm solved it
and what it spent, plus the paired measures read once from the transcripts (harmful use,
coverage, reach). An entry keeps exactly that, with where it came from (study, config hash,
commits, versions), in a file small enough to commit: one seed's pair measured in one session
and the next seed's measured in another are then pooled exactly as if both folders were here.

Pooling refuses what would count a task twice: two entries of the same cell, seed, condition and
arms (for instance the same `none` run replayed by two studies) that share a task.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from countermem.agents import TaskOutcome
from countermem.core import ConfigError
from countermem.experiment._paired import PairedMeasures, paired_measures
from countermem.experiment._rundir import RunDir, write_json_atomic
from countermem.experiment._self_repair import RunPair, pool_outcomes

LEDGER_VERSION = 1
KeepStatus = Literal["new", "unchanged", "replaced"]


class PairEntry(BaseModel):
    """One method run and its twin (`against`, by default the no-memory run) on the same tasks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = LEDGER_VERSION
    study: str
    """The study's name (its config's `name`)."""
    config_sha256: str
    git_commits: list[str]
    """The commit the study started at, then the commit of each resume."""
    versions: dict[str, str]
    condition: str
    backbone: str
    agent: str
    benchmark: str
    seed: int
    method: str
    against: str
    baseline: list[TaskOutcome]
    """The `against` run's finished tasks."""
    memory: list[TaskOutcome]
    """The method run's finished tasks."""
    measures: PairedMeasures | None
    """Harmful use, coverage and reach, read from the transcripts; only against `none`."""
    kept_at: str

    @property
    def name(self) -> str:
        """The entry's file name: what it pairs, never where it ran."""
        parts = [self.study, self.condition, self.backbone, self.agent, self.benchmark, f"seed-{self.seed}",
                 f"{self.method}-vs-{self.against}"]
        return "--".join(re.sub(r"[^A-Za-z0-9._-]+", "_", p) for p in parts) + ".json"

    @property
    def twin_key(self) -> tuple[str, ...]:
        """Entries with the same key and a shared task would pool one task twice."""
        return (self.backbone, self.agent, self.benchmark, str(self.seed), self.condition, self.method, self.against)


def entry_from_runs(study: Path, twin: Path, run: Path, *, condition: str, against: str = "none") -> PairEntry:
    """The entry for one pair of run folders of a study (`.../<method>/<agent>/<benchmark>/seed-N`)."""
    manifest_path = study / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ConfigError(f"{manifest_path} cannot be read ({error}): give a folder written by `countermem study`") from error
    method, agent, benchmark, seed_name = run.parts[-4:]
    backbone = _backbone_of(study, run)
    baseline, memory = RunDir(twin).finished(), RunDir(run).finished()
    if not baseline or not memory:
        empty = twin if not baseline else run
        raise ConfigError(f"{empty} has no finished task (results.jsonl); finish the study before keeping its pairs")
    commits = [manifest.get("git_commit")] + [r.get("git_commit") for r in manifest.get("resumed", [])]
    return PairEntry(
        study=str(manifest.get("name", study.name)),
        config_sha256=str(manifest.get("config_sha256", "")),
        git_commits=[str(c) for c in commits if c],
        versions={str(k): str(v) for k, v in (manifest.get("versions") or {}).items()},
        condition=condition,
        backbone=backbone,
        agent=agent,
        benchmark=benchmark,
        seed=int(seed_name.removeprefix("seed-")),
        method=method,
        against=against,
        baseline=baseline,
        memory=memory,
        measures=paired_measures(run, twin) if against == "none" else None,
        kept_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def _backbone_of(study: Path, run: Path) -> str:
    """`results/<backbone>/...` or `analyses/<backbone>/transfer/<condition>/...`."""
    relative = run.relative_to(study).parts
    if len(relative) < 6 or relative[0] not in ("results", "analyses"):
        raise ConfigError(f"{run} is not a run folder of the study {study}")
    return relative[1]


def keep_entry(entry: PairEntry, folder: Path) -> tuple[Path, KeepStatus]:
    """Write the entry (atomically) unless the same pair is kept already. `replaced` says a kept
    entry of the same name had other outcomes: the runs were made again and came out otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / entry.name
    status: KeepStatus = "new"
    if path.is_file():
        old = read_entry(path)
        if (old.baseline, old.memory, old.measures) == (entry.baseline, entry.memory, entry.measures):
            return path, "unchanged"
        status = "replaced"
    write_json_atomic(path, json.loads(entry.model_dump_json()))
    return path, status


def read_entry(path: Path) -> PairEntry:
    try:
        entry = PairEntry.model_validate_json(path.read_bytes())
    except OSError as error:
        raise ConfigError(f"{path} cannot be read ({error})") from error
    except ValidationError as error:
        raise ConfigError(
            f"{path} is not a kept pair (version {LEDGER_VERSION}): {error.errors()[0]['msg']} at "
            f"{'.'.join(str(x) for x in error.errors()[0]['loc'])}; keep it again with pooled_pairs.py --keep"
        ) from error
    if entry.version != LEDGER_VERSION:
        raise ConfigError(f"{path} is a kept pair of version {entry.version}; this countermem reads {LEDGER_VERSION}")
    return entry


def check_independent(entries: Sequence[PairEntry]) -> None:
    """Refuse entries that pair the same runs' tasks twice (a run replayed by two studies, or one
    entry given twice): the pooled test would count those tasks as independent pairs."""
    seen: dict[tuple[str, ...], tuple[PairEntry, set[str]]] = {}
    for entry in entries:
        tasks = {o.task_id for o in entry.baseline}
        other, other_tasks = seen.get(entry.twin_key, (entry, set()))
        shared = tasks & other_tasks
        if shared:
            raise ConfigError(
                f"{entry.name} and {other.name} pair {len(shared)} of the same tasks (e.g. {sorted(shared)[0]}) "
                f"of one cell and seed ({entry.benchmark}, seed {entry.seed}, {entry.condition}): pooling them "
                "would count each twice; give one of them"
            )
        seen[entry.twin_key] = (other, other_tasks | tasks)


def pool_entries(entries: Sequence[PairEntry]) -> RunPair:
    """The pooled paired comparison of kept pairs, as `pool_pairs` gives it for run folders."""
    check_independent(entries)
    return pool_outcomes([(e.baseline, e.memory, e.name) for e in entries])


def match_versus(entries: Sequence[PairEntry], others: Sequence[PairEntry]) -> list[tuple[PairEntry, PairEntry]]:
    """(other, entry) for each entry whose cell, seed and condition the other studies also ran.

    Why: two studies that differ in how memory was built (more source tasks, another generator)
    and replay one `none` run evaluate the same held-out tasks, so their memory arms pair per task
    directly. Both entries must pair the same `against` outcomes there, or they did not run the
    same tasks in the same way and the comparison is refused.
    """
    check_independent(entries)
    check_independent(others)
    matched: list[tuple[PairEntry, PairEntry]] = []
    for entry in entries:
        mine = {o.task_id: o.solved for o in entry.baseline}
        for other in (o for o in others if o.twin_key == entry.twin_key):
            if other == entry:
                raise ConfigError(f"{entry.name} is given on both sides of --versus: it cannot be compared with itself")
            theirs = {o.task_id: o.solved for o in other.baseline}
            shared = set(mine) & set(theirs)
            differ = sorted(t for t in shared if mine[t] != theirs[t])
            if differ:
                raise ConfigError(
                    f"{entry.name} and {other.name} pair different {entry.against} outcomes on {len(differ)} tasks "
                    f"(e.g. {differ[0]}): their {entry.against} runs are not the same run, so their memory arms "
                    "are not paired on equal terms; compare each against its own twin instead"
                )
            if shared:
                matched.append((other, entry))
    if not matched:
        raise ConfigError("no kept pair has a counterpart of the same cell, seed, condition and twin in the --versus "
                          "sources: give studies (or kept pairs) that ran the same tasks")
    return matched


def pool_versus(matched: Sequence[tuple[PairEntry, PairEntry]]) -> RunPair:
    """Each entry's memory arm against its counterpart's (first: the counterpart), pooled."""
    return pool_outcomes([(other.memory, entry.memory, f"{other.name} vs {entry.name}") for other, entry in matched])
