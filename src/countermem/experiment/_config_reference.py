"""The study TOML reference (docs/configuration.md), written from the config models themselves.

Unknown keys are errors, so a user needs the full list of keys; a hand-written list drifts the
day someone adds a field. Every key, its type, default and description come from the pydantic
models (`StudyConfig` and what it nests; descriptions are the fields' docstrings), and a test
regenerates the file and compares, so the reference cannot go stale and no key can go
undocumented. Regenerate with `countermem config-reference --out docs/configuration.md`.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from countermem.domains import BENCHMARKS
from countermem.experiment._methods import BUILTIN_METHODS
from countermem.experiment._study_config import StudyConfig

REGENERATE = "countermem config-reference --out docs/configuration.md"
UNDOCUMENTED = "**undocumented**"


@dataclass(frozen=True)
class KeyDoc:
    """One TOML key as the reference shows it."""

    key: str
    """Dotted path from the top of the file, e.g. `memory.generator.samples`."""
    type: str
    default: str
    description: str


@dataclass(frozen=True)
class SectionDoc:
    """One TOML table (`[memory.generator]`) and its keys; the top level has the name ''."""

    name: str
    description: str
    keys: tuple[KeyDoc, ...]


def config_sections(model: type[BaseModel] = StudyConfig) -> list[SectionDoc]:
    """Every table of the study file, depth first, each with its own keys."""
    sections: list[SectionDoc] = []
    _walk(model, "", model.__doc__ or "", sections)
    return sections


def undocumented_keys(model: type[BaseModel] = StudyConfig) -> list[str]:
    """Keys and tables without a description: each must get a field docstring."""
    missing = []
    for section in config_sections(model):
        if section.name and not section.description:
            missing.append(f"[{section.name}]")
        missing.extend(k.key for k in section.keys if not k.description)
    return missing


def config_reference() -> str:
    """docs/configuration.md: the Markdown reference of every study TOML key."""
    lines = [
        "# Study configuration reference",
        "",
        f"Generated from the config models by `{REGENERATE}`; do not edit by hand "
        "(`tests/experiment/test_config_reference.py` fails when this file is stale or a key has no "
        "description). A study is one TOML file (`countermem study FILE.toml`; examples in "
        "[examples/](../examples/)). **Unknown keys are errors**, so a typo never falls back to a "
        "default silently. Every key but `benchmarks` and one `[backbones.<name>]` table may be left out.",
        "",
        "```toml",
        'name = "my-study"',
        'benchmarks = ["sql-shop"]',
        'methods = ["none", "countermem"]',
        "",
        "[backbones.qwen]",
        'kind = "local"',
        'model = "qwen2.5-coder-0.5b"',
        "",
        "[split]",
        "construct = 30",
        "train = 10",
        "heldout = 40",
        "",
        "[memory]",
        'selector = "top1"',
        "```",
        "",
    ]
    for section in config_sections():
        title = "Top-level keys" if not section.name else f"`[{section.name}]`"
        lines += [f"## {title}", ""]
        if section.description:
            lines += [_one_line(section.description), ""]
        lines += ["| key | type | default | description |", "|---|---|---|---|"]
        for key in section.keys:
            name = key.key.rsplit(".", 1)[-1] if section.name else key.key
            lines.append(
                f"| `{name}` | {_cell(key.type)} | {_cell(key.default)} | {_cell(key.description or UNDOCUMENTED)} |"
            )
        lines.append("")
    lines += [
        "## Methods",
        "",
        "Names for `methods`, `analyses.transfer_methods`, `analyses.accumulation_methods` and "
        "`analyses.budget_methods`.",
        "",
        "| method | what it is |",
        "|---|---|",
        *(f"| `{name}` | {_cell(spec.description)} |" for name, spec in BUILTIN_METHODS.items()),
        "",
        "## Benchmarks",
        "",
        "Names for `benchmarks` (`countermem benchmarks` shows which have their data and checker here).",
        "",
        "| benchmark | domain |",
        "|---|---|",
        *(f"| `{entry.name}` | {entry.domain} |" for entry in BENCHMARKS),
        "",
    ]
    return "\n".join(lines)


def write_config_reference(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(config_reference())


def _walk(model: type[BaseModel], prefix: str, description: str, out: list[SectionDoc]) -> None:
    keys: list[KeyDoc] = []
    nested: list[tuple[str, type[BaseModel], str]] = []
    for field_name, info in model.model_fields.items():
        name = info.alias or field_name
        path = f"{prefix}.{name}" if prefix else name
        table = _model_of(info.annotation)
        mapping = _mapping_model(info.annotation)
        if table is not None:
            nested.append((path, table, info.description or table.__doc__ or ""))
        elif mapping is not None:
            nested.append((f"{path}.<name>", mapping, info.description or mapping.__doc__ or ""))
        else:
            keys.append(KeyDoc(path, _type_name(info.annotation) + _bounds(info), _default(info),
                               info.description or ""))
    out.append(SectionDoc(prefix, _one_line(description), tuple(keys)))
    for path, table, text in nested:
        _walk(table, path, text, out)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _mapping_model(annotation: Any) -> type[BaseModel] | None:
    if get_origin(annotation) is dict:
        return _model_of(get_args(annotation)[1])
    return None


def _type_name(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin is Literal:
        return " | ".join(_toml_value(v) for v in get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in get_args(annotation) if a is not type(None)]
        name = " | ".join(_type_name(a) for a in parts)
        return f"{name} (optional)" if len(parts) < len(get_args(annotation)) else name
    if origin in (list, tuple):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        return f"list of {_type_name(args[0])}" if args else "list"
    if annotation is Path:
        return "path"
    names = {str: "string", int: "integer", float: "float", bool: "boolean"}
    if annotation in names:
        return names[annotation]
    return getattr(annotation, "__name__", str(annotation))


def _bounds(info: FieldInfo) -> str:
    found = []
    for item in info.metadata:
        if isinstance(item, annotated_types.Ge):
            found.append(f">= {item.ge}")
        elif isinstance(item, annotated_types.Gt):
            found.append(f"> {item.gt}")
        elif isinstance(item, annotated_types.Le):
            found.append(f"<= {item.le}")
        elif isinstance(item, annotated_types.Lt):
            found.append(f"< {item.lt}")
    return f", {', '.join(found)}" if found else ""


def _default(info: FieldInfo) -> str:
    if info.default is PydanticUndefined and info.default_factory is None:
        return "required"
    value = info.get_default(call_default_factory=True)
    return "not set" if value is None else _toml_value(value)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | Path):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{}" if not value else str(value)
    return str(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "\\|")
