"""The README a newcomer copies from: its quick starts run as written and its commands exist."""

from __future__ import annotations

import re
import runpy
import shlex
from pathlib import Path

import pytest
import typer.main

from countermem.cli import app
from countermem.experiment._study_config import load_study_config, parse_study_config

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 250


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.S | re.M)


def _section(heading: str) -> str:
    text = README.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _after_docstring(source: str) -> str:
    end = source.index('"""', source.index('"""') + 3) + 3
    return source[end:].lstrip("\n")


def test_readme_fits_one_screenful_of_sections() -> None:
    assert len(README.read_text().splitlines()) <= MAX_LINES


def test_public_api_quick_start_is_examples_plain_agent_word_for_word() -> None:
    (block,) = _blocks(_section("Quick start 1: your own agent loop"), "python")
    assert block == _after_docstring((ROOT / "examples" / "plain_agent.py").read_text())


def test_public_api_quick_start_runs_as_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = _blocks(_section("Quick start 1: your own agent loop"), "python")
    script = tmp_path / "quick_start.py"
    script.write_text(block)
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "price-0: answer 10.00, passed=False, advice=False"
    assert out[1].startswith("  learned: admitted record r-")
    assert out[2] == "price-1: answer 30.00, passed=True, advice=True"


def _commands() -> list[list[str]]:
    """Every `countermem ...` line of the README's shell blocks, shell variables expanded."""
    found = []
    for block in _blocks(README.read_text(), "bash"):
        variables: dict[str, str] = {}
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            assignment = re.fullmatch(r'([A-Z_]+)="(.*)"', line)
            if assignment:
                variables[assignment.group(1)] = assignment.group(2)
                continue
            for name, value in variables.items():
                line = line.replace(f"${name}", value)
            if line.startswith("countermem "):
                found.append(shlex.split(line)[1:])
    return found


def test_readme_shows_commands_of_every_quick_start() -> None:
    subcommands = {words[0] for words in _commands()}
    assert {"run", "construct", "train", "evaluate", "study", "report"} <= subcommands


@pytest.mark.parametrize("words", _commands(), ids=lambda w: " ".join(w[:2]))
def test_readme_command_names_a_real_command_and_its_options(words: list[str]) -> None:
    command = typer.main.get_command(app)
    rest = list(words)
    while hasattr(command, "commands") and rest and not rest[0].startswith("-"):
        name = rest.pop(0)
        assert name in command.commands, f"`countermem {' '.join(words)}`: no command {name!r}"
        command = command.commands[name]
    options = {opt for param in command.params for opt in [*param.opts, *param.secondary_opts]}
    for word in rest:
        if word.startswith("--"):
            assert word.split("=")[0] in options, f"`countermem {' '.join(words)}`: no option {word}"


def test_readme_make_targets_exist() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in re.findall(r"^make (\w+)", "\n".join(_blocks(README.read_text(), "bash")), flags=re.M):
        assert re.search(rf"^{target}:", makefile, flags=re.M), f"make {target} is not a Makefile target"


def test_readme_study_file_is_a_valid_study_config() -> None:
    (block,) = _blocks(_section("Quick start 3: a study"), "toml")
    import tomllib

    config = parse_study_config(tomllib.loads(block), source="README quick start 3")
    assert config.backbones["my-server"].kind == "openai"


def test_example_configs_the_readme_names_exist_and_load() -> None:
    named = set(re.findall(r"examples/[\w.-]+\.toml", README.read_text()))
    assert named
    for path in named:
        load_study_config(ROOT / path)


def test_every_cell_of_the_results_table_links_to_its_details() -> None:
    section = _section("What has been measured")
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| what")]
    assert len(rows) >= 5
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")][1:]
        for cell in cells:
            assert re.fullmatch(r"\[.+\]\(docs/results\.md#[a-z0-9-]+\)", cell), f"cell without a link: {cell}"
