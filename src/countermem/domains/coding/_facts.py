"""Observable facts of a coding decision, for applicability conditions.

Task facts come only from what the agent is shown (HumanEval's signature and docstring, MBPP's
description and example asserts), never from the hidden reference solution; action facts come
from the candidate source alone, without running it.
"""

from __future__ import annotations

import ast
import re

from countermem.core import FactValue
from countermem.domains.coding._source import calls_to, find_function, parse

_MENTIONS: dict[str, re.Pattern[str]] = {
    "mentions_sort": re.compile(r"\bsort", re.IGNORECASE),
    "mentions_string": re.compile(r"\bstr(ing)?s?\b|\bcharacters?\b|\bwords?\b", re.IGNORECASE),
    "mentions_list": re.compile(r"\blists?\b|\barrays?\b", re.IGNORECASE),
    "mentions_dict": re.compile(r"\bdict(ionary|ionaries)?\b", re.IGNORECASE),
    "mentions_recursion": re.compile(r"\brecurs", re.IGNORECASE),
}
_LIST_TYPE = re.compile(r"^(typing\.)?(List|list)\b")


def mention_facts(text: str) -> dict[str, FactValue]:
    return {name: bool(pattern.search(text)) for name, pattern in _MENTIONS.items()}


def signature_facts(prompt: str, entry_point: str) -> dict[str, FactValue]:
    """Facts of `def entry_point` as written in a HumanEval-style prompt."""
    tree = parse(prompt)
    function = find_function(tree, entry_point) if tree else None
    if function is None:
        return {"function_name": entry_point}
    args = function.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    types = tuple(ast.unparse(p.annotation) if p.annotation else "" for p in params)
    returns = ast.unparse(function.returns) if function.returns else ""
    return {
        "function_name": entry_point,
        "n_params": len(params),
        "param_types": types,
        "return_type": returns,
        "returns_list": bool(_LIST_TYPE.match(returns)),
        **mention_facts(ast.get_docstring(function) or ""),
    }


def example_facts(text: str, asserts: list[str], entry_point: str) -> dict[str, FactValue]:
    """Facts of an MBPP task: what its description and its first example assert show."""
    facts: dict[str, FactValue] = {"function_name": entry_point, "param_types": (), **mention_facts(text)}
    first = parse(asserts[0]) if asserts else None
    for node in ast.walk(first) if first else []:
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call):
            call = node.left
            if isinstance(call.func, ast.Name) and call.func.id == entry_point:
                facts["n_params"] = len(call.args) + len(call.keywords)
                facts["returns_list"] = isinstance(node.comparators[0], ast.List)
                break
    return facts


def action_facts(source: str, entry_point: str) -> dict[str, FactValue]:
    tree = parse(source)
    if tree is None:
        return {"action_parses": False}
    imports: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports.add(node.module.split(".")[0])
    function = find_function(tree, entry_point)
    return {
        "action_parses": True,
        "defines_entry_point": function is not None,
        "uses_loop": any(isinstance(n, ast.For | ast.While | ast.AsyncFor) for n in ast.walk(tree)),
        "uses_comprehension": any(
            isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) for n in ast.walk(tree)
        ),
        "uses_recursion": function is not None and calls_to(function, entry_point) > 0,
        "imports": tuple(sorted(imports)),
        "action_lines": len(source.strip().splitlines()),
    }


_RAISED = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Exit|Interrupt))\b")


def error_kind(status: str, details: str) -> str | None:
    """What kind of mistake a failed test run reports (`check_error`), or None for a pass: the
    solution does not compile, lacks the function, raises on load (`load_NameError`), returns a
    wrong value under an assert (`wrong_value`), raises under one (`raises_TypeError`), or runs out
    of time. Exception names carry over to any task; the asserts' values do not."""
    if status == "passed":
        return None
    if status == "timeout":
        return "timeout"
    if details.startswith("the solution does not compile"):
        return "syntax_error"
    if details.startswith("the solution defines no top-level function"):
        return "no_entry_point"
    if details.startswith("running the solution failed") or details.startswith("running the task's prompt code failed"):
        raised = _RAISED.search(details)
        return f"load_{raised.group(1)}" if raised else "load_error"
    if "outside any assert: " in details:
        raised = _RAISED.search(details.split("outside any assert: ", 1)[1])
        return f"raises_{raised.group(1)}" if raised else "raises_error"
    if "first failing assert" in details:
        after = details.rsplit(" -> ", 1)[-1]
        raised = _RAISED.match(after)
        return f"raises_{raised.group(1)}" if raised else "wrong_value"
    return status
