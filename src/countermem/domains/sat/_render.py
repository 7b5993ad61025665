"""How formulas and check outcomes read to an agent.

A check observation must tell a ReAct agent what to fix, so a wrong assignment lists the
clauses it violates (the first `VIOLATED_SHOWN`, numbered as in the rendered formula). A large
formula is cut at `RENDER_CHAR_LIMIT` characters at a line boundary, with statistics that say
how much is hidden, rather than overflowing the prompt.
"""

from __future__ import annotations

from collections import Counter

from countermem.domains.sat._cnf import CNF

RENDER_CHAR_LIMIT = 16_000
"""Most characters of DIMACS text shown in a task; every shipped SATLIB instance fits."""
VIOLATED_SHOWN = 10
"""Most violated clauses (or problem constraints) a check result lists."""


def cnf_statistics(cnf: CNF) -> str:
    lengths = Counter(len(clause) for clause in cnf.clauses)
    histogram = ", ".join(f"{count} of length {length}" for length, count in sorted(lengths.items()))
    ratio = cnf.n_clauses / cnf.n_vars if cnf.n_vars else 0.0
    return (
        f"{cnf.n_vars} variables, {cnf.n_clauses} clauses ({histogram or 'none'}), "
        f"clause/variable ratio {ratio:.2f}"
    )


def render_cnf(cnf: CNF, limit: int = RENDER_CHAR_LIMIT) -> str:
    """Canonical DIMACS, cut at a line boundary after `limit` characters with a note on what is hidden."""
    text = cnf.to_dimacs()
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    shown_clauses = max(len(kept) - 1, 0)
    hidden = cnf.n_clauses - shown_clauses
    kept.append(
        f"c [truncated: clauses 1..{shown_clauses} of {cnf.n_clauses} shown; {hidden} clauses "
        f"({len(text) - used} characters) not shown]"
    )
    return "\n".join(kept) + "\n"


def violated_clauses_report(cnf: CNF, satisfied: list[bool], shown: int = VIOLATED_SHOWN) -> str:
    violated = [index for index, ok in enumerate(satisfied) if not ok]
    total = len(satisfied)
    head = f"{total - len(violated)} of {total} clauses satisfied"
    if not violated:
        return head + "."
    listing = "; ".join(
        f"#{index + 1}: " + " ".join(str(lit) for lit in cnf.clauses[index]) for index in violated[:shown]
    )
    more = f" (first {shown} shown)" if len(violated) > shown else ""
    return (
        f"{head}. {len(violated)} violated clauses{more}, numbered from 1 in the order of the formula: "
        f"{listing}"
    )


def listed_with_limit(items: list[str], shown: int = VIOLATED_SHOWN) -> str:
    more = f" (first {shown} of {len(items)} shown)" if len(items) > shown else ""
    return "; ".join(items[:shown]) + more
