"""Small AST helpers over Python source that the coding domain needs in several places."""

from __future__ import annotations

import ast
import builtins
import copy
import symtable
import warnings
from functools import lru_cache


def quiet_parse(source: str) -> ast.Module:
    """ast.parse without the SyntaxWarnings (invalid escapes) that benchmark code is full of."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


def parse(source: str) -> ast.Module | None:
    try:
        return quiet_parse(source)
    except (SyntaxError, ValueError):
        return None


def compile_error(source: str) -> str | None:
    """Why `source` does not compile (as CPython would say it), or None when it does."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, "solution.py", "exec", dont_inherit=True)
    except SyntaxError as error:
        return f"{type(error).__name__}: {error.msg} (solution.py line {error.lineno})"
    except ValueError as error:
        return f"ValueError: {error}"
    return None


def top_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds at top level (defs, classes, assignments, imports)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


@lru_cache(maxsize=2048)
def free_globals(source: str) -> tuple[str, ...]:
    """Global names `source` reads but never binds itself and that are not builtins.

    The tests of a task read such names from the code that ran before them (MBPP's tests build
    the solution's `Pair` objects, its setup code the solution's `Node` tree); the judge asks
    the solution's process for exactly these. Raises SyntaxError if `source` does not parse.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        top = symtable.symtable(source, "test.py", "exec")
    bound = {
        s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()
    }
    read = {s.get_name() for s in top.get_symbols() if s.is_referenced()}
    scopes = list(top.get_children())
    while scopes:
        scope = scopes.pop()
        for symbol in scope.get_symbols():
            if symbol.is_global():
                (bound if symbol.is_assigned() else read).add(symbol.get_name())
        scopes.extend(scope.get_children())
    return tuple(sorted(read - bound - set(dir(builtins))))


def find_function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    """The last top-level `def name` (the one Python keeps)."""
    found = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            found = node
    return found


def with_body_returning_none(source: str, name: str) -> str:
    """`source` with the body of `def name` replaced by its docstring and `return None`."""
    tree = parse(source)
    function = find_function(tree, name) if tree else None
    if tree is None or function is None:
        return f"{source}\n\n\ndef {name}(*args, **kwargs):\n    return None\n"
    docstring = ast.get_docstring(function, clean=False)
    body: list[ast.stmt] = [ast.Expr(ast.Constant(docstring))] if docstring is not None else []
    function.body = [*body, ast.Return(ast.Constant(None))]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def renamed(source: str, old: str, new: str) -> str:
    """`source` with every binding and use of the global name `old` renamed to `new`."""
    tree = parse(source)
    if tree is None:
        raise ValueError(f"cannot rename {old!r} in source that does not parse")
    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == old:
            node.name = new
        elif isinstance(node, ast.Name) and node.id == old:
            node.id = new
    return ast.unparse(tree) + "\n"


def calls_to(tree: ast.AST, name: str) -> int:
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    )
