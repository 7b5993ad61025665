"""Deterministic, disjoint splits into construction / selector-training / held-out tasks.

Where tasks name an environment (a database, an import set), whole environments go to one
split, so that no held-out task shares an environment with a task memory was built on; this
follows the paper's 35 construction and 34 non-overlapping evaluation databases. Groups are
placed largest first (ties in a seeded order), each into the split furthest below its target
share, so that coarse environments (a handful of large groups) still give every split tasks
whenever there are at least three groups.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from countermem.core import ConfigError, Task

SPLIT_NAMES = ("construct", "train", "heldout")


@dataclass(frozen=True)
class Splits:
    construct: tuple[Task, ...]
    train: tuple[Task, ...]
    heldout: tuple[Task, ...]

    def by_name(self, name: str) -> tuple[Task, ...]:
        if name not in SPLIT_NAMES:
            raise ConfigError(f"unknown split {name!r}; choose one of {', '.join(SPLIT_NAMES)}")
        return getattr(self, name)  # type: ignore[no-any-return]

    def counts(self) -> dict[str, int]:
        return {name: len(self.by_name(name)) for name in SPLIT_NAMES}


def split_tasks(
    tasks: list[Task],
    seed: int,
    fractions: tuple[float, float, float] = (0.4, 0.2, 0.4),
    by_environment: bool = True,
) -> Splits:
    if any(f < 0 for f in fractions) or abs(sum(fractions) - 1.0) > 1e-9:
        raise ConfigError(f"split fractions must be non-negative and sum to 1, got {fractions}")
    rng = random.Random(seed)
    groups: dict[str, list[Task]] = defaultdict(list)
    for task in tasks:
        key = task.environment if (by_environment and task.environment) else f"task:{task.id}"
        groups[key].append(task)
    keys = sorted(groups)
    rng.shuffle(keys)
    keys.sort(key=lambda k: len(groups[k]), reverse=True)
    total = len(tasks)
    targets = [f * total for f in fractions]
    out: tuple[list[Task], list[Task], list[Task]] = ([], [], [])
    for key in keys:
        deficits = [targets[i] - len(out[i]) for i in range(3)]
        index = max(range(3), key=lambda i: (deficits[i], -i))
        out[index].extend(groups[key])
    return Splits(construct=tuple(out[0]), train=tuple(out[1]), heldout=tuple(out[2]))
