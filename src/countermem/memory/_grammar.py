"""GBNF grammars that hold a generator's answer to the sampled edit contract.

Why: a small model asked for "one line `Fix:` then the action in a code block" sometimes writes
prose after the block, two blocks, or no fence at all, and such a draw is lost. Under a grammar
the sampler can only produce the contract, so every draw that ends inside its token budget parses.
It constrains the form, never the content: what the action says is still the model's, and the
checker still judges it. llama.cpp reads GBNF (the embedded backend, and `grammar` in a
llama.cpp server's request body); other servers need their own mechanism and get no grammar.

The edit contract (`parse_single` reads it)::

    Condition: <one line>          (only when the model writes conditions)
    Fix: <one line>
    ```<tag>
    <action lines: none starts with three backticks>
    ```
"""

from __future__ import annotations

import re

FIX_CHAR_LIMIT = 200
"""Most characters of the `Fix:` (and `Condition:`) line, so a rambling model reaches its block."""

_LINE = r'( [^`\n] [^\n]* | "`" [^`\n] [^\n]* | "``" [^`\n] [^\n]* )? "\n"'


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def edit_grammar(fence_tag: str, *, with_condition: bool = False) -> str:
    """The GBNF grammar of one sampled edit answer with a ```<fence_tag> block."""
    if not re.fullmatch(r"[A-Za-z0-9_+.-]*", fence_tag):
        raise ValueError(f"a fence tag holds letters, digits and _+.- only, got {fence_tag!r}")
    head = 'condition fix' if with_condition else 'fix'
    rules = [
        f'root ::= {head} "```" {_literal(fence_tag)} "\\n" body "```"',
        f'condition ::= "Condition: " [^\\n]{{1,{FIX_CHAR_LIMIT}}} "\\n"',
        f'fix ::= "Fix: " [^\\n]{{1,{FIX_CHAR_LIMIT}}} "\\n"',
        "body ::= line+",
        f"line ::= {_LINE}",
    ]
    return "\n".join(rules) + "\n"
