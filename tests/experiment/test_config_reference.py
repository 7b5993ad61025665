"""docs/configuration.md is generated from the config models: every key documented, never stale."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from countermem.cli import app
from countermem.experiment import config_reference, config_sections, undocumented_keys
from countermem.experiment._config_reference import REGENERATE
from countermem.experiment._study_config import parse_study_config

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_every_study_key_and_table_has_a_description() -> None:
    assert undocumented_keys() == [], f"give these fields a docstring, then run `{REGENERATE}`"


def test_a_key_without_a_docstring_is_reported() -> None:
    class Inner(BaseModel):
        model_config = ConfigDict(use_attribute_docstrings=True)

        told: int = 1
        """Documented."""
        untold: int = 2

    class Outer(BaseModel):
        model_config = ConfigDict(use_attribute_docstrings=True)

        inner: Inner
        plain: bool = False
        """Documented too."""

    assert undocumented_keys(Outer) == ["[inner]", "inner.untold"]


def test_docs_configuration_md_is_the_generated_reference() -> None:
    assert DOC.is_file(), f"docs/configuration.md is missing; run `{REGENERATE}`"
    assert DOC.read_text() == config_reference(), f"docs/configuration.md is stale; run `{REGENERATE}`"


def test_the_reference_lists_exactly_the_keys_a_study_file_accepts() -> None:
    # keys left out of the dump at their default (so that older studies keep their hash) are set here
    config = parse_study_config({
        "benchmarks": ["sql-shop"], "backbones": {"b": {"kind": "local", "model": "qwen2.5-coder-0.5b"}},
        "agent": {"after_failure": "focused", "reuse_checks": True, "show_utility": False, "one_action": True}, "split": {"sources": "with-lookalike"},
        "analyses": {"transfer_tasks": 1, "transfer": ["look-alike"]},
        "memory": {"generator": {"model": "qwen2.5-coder-1.5b"}}, "baselines": {"strategy_model": "generator"},
    })
    accepted: set[str] = set()

    def walk(value: object, path: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{path}.{key}" if path else key)
        else:
            accepted.add(path)

    dumped = config.model_dump(by_alias=True)
    for key, value in dumped.items():
        if key == "backbones":
            accepted.update(f"backbones.<name>.{k}" for k in value["b"])
        else:
            walk(value, key)
    documented = {k.key for s in config_sections() for k in s.keys}
    assert documented == accepted
    text = DOC.read_text()
    for section in config_sections():
        if section.name:
            assert f"## `[{section.name}]`" in text
        for key in section.keys:
            assert f"| `{key.key.rsplit('.', 1)[-1] if section.name else key.key}` |" in text


def test_the_reference_shows_type_default_and_bounds() -> None:
    text = config_reference()
    assert '| `samples` | integer, >= 0, <= 32 | 4 |' in text
    assert '| `construct` | integer (optional) | 20 |' in text
    assert '| `benchmarks` | list of string | required |' in text
    assert '| `malformed_draws` | boolean \\| "without_block" | true |' in text
    assert "| `countermem-lesson` |" in text and "| `sat-encode` | sat |" in text


def test_config_reference_command_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "configuration.md"
    result = CliRunner().invoke(app, ["config-reference", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == config_reference()
    printed = CliRunner().invoke(app, ["config-reference"])
    assert printed.exit_code == 0 and printed.output == config_reference()
