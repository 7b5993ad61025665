"""Generator settings added after runs were recorded change a stage's hash only when set."""

from __future__ import annotations

import json
from pathlib import Path

from countermem.experiment._stages import MemorySettings
from countermem.memory._generator import GeneratorSettings


def _generator(generator: GeneratorSettings) -> dict[str, object]:
    return json.loads(str(MemorySettings(store=Path("store.sqlite"), generator=generator).flat()["generator"]))


def test_later_generator_settings_at_their_defaults_are_left_out() -> None:
    plain = _generator(GeneratorSettings())
    assert "portable" not in plain and "max_situation_share" not in plain
    portable = _generator(GeneratorSettings(portable=True))
    assert portable["portable"] is True and "max_situation_share" not in portable, "the portable study keeps its hash"
    bounded = _generator(GeneratorSettings(portable=True, max_situation_share=0.5))
    assert bounded["max_situation_share"] == 0.5
    assert {k: v for k, v in bounded.items() if k != "max_situation_share"} == portable


def test_check_error_atoms_change_the_hash_only_when_on() -> None:
    assert "check_error_atoms" not in _generator(GeneratorSettings())
    assert "check_error_situation" not in _generator(GeneratorSettings(check_error_atoms=True))
    assert _generator(GeneratorSettings(check_error_atoms=True))["check_error_atoms"] is True
