"""Reading a proof script as text: comments, sentences, the action contract, and refusals.

`coqc` exits 0 on `admit. Admitted.` and on a new `Axiom`, so a textual screen runs before
`coqc` and `Print Assumptions` runs after it; neither alone is enough (`Print Assumptions`
cannot see a `Require` that loads a file, text cannot see what a tactic unfolds to).

The action contract: an action is the proof of the task's theorem, `Proof. ... Qed.`. Small
models often echo the theorem first, so an action may also start with the theorem exactly as
the task states it (and, before that, lines copied from the task's fixed context); anything
that changes the statement is refused, because only the proof is the agent's. A missing
`Proof.` is added in front and a missing final `Qed.` at the end: that changes no meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n(.*?)\n\s*```\s*$", re.S)
_HEADER_KEYWORDS = ("Theorem", "Lemma", "Example", "Fact", "Remark", "Corollary", "Proposition")
_HEADER = re.compile(r"(?<![\w'.])(" + "|".join(_HEADER_KEYWORDS) + r")\s+([A-Za-z_][\w']*)")
_TERMINATORS = ("Qed", "Defined")

_CHEAT_WORDS: dict[str, str] = {
    "admit": "`admit` leaves a goal unproved",
    "Admitted": "`Admitted` accepts the theorem without a proof",
    "Admit": "`Admit Obligations` accepts goals without a proof",
    "Axiom": "`Axiom` assumes a fact instead of proving it",
    "Axioms": "`Axioms` assumes facts instead of proving them",
    "Parameter": "`Parameter` assumes an object without defining it",
    "Parameters": "`Parameters` assumes objects without defining them",
    "Conjecture": "`Conjecture` assumes a fact instead of proving it",
    "Hypothesis": "`Hypothesis` assumes a fact instead of proving it",
    "Hypotheses": "`Hypotheses` assumes facts instead of proving them",
    "Variable": "`Variable` adds an assumption to the context",
    "Variables": "`Variables` adds assumptions to the context",
    "Context": "`Context` adds assumptions to the context",
    "bypass_check": "`bypass_check` turns off the kernel's checks",
}
_FORBIDDEN_COMMANDS: dict[str, str] = {
    "Abort": "ends the proof without proving it",
    "Reset": "undoes the task's definitions",
    "Back": "undoes commands",
    "BackTo": "undoes commands",
    "Require": "loads libraries; the task's imports are fixed",
    "Import": "changes the task's imports",
    "Export": "changes the task's imports",
    "Load": "reads another file",
    "Declare": "loads plugins",
    "Redirect": "writes files",
    "Drop": "leaves the checker",
    "Cd": "changes folder",
    "Extraction": "writes files",
    "Module": "opens a module",
    "Section": "opens a section",
    "Notation": "changes how the statement parses",
    "Infix": "changes how the statement parses",
    "Set": "changes checker settings",
    "Unset": "changes checker settings",
    "Local": "changes checker settings",
    "Global": "changes checker settings",
    "Save": "ends the proof under another name",
    "Definition": "starts a new definition inside the proof (use `assert` or `pose`)",
    "Fixpoint": "starts a new definition inside the proof (use `assert` or `fix`)",
    "Inductive": "starts a new definition inside the proof",
    **{
        keyword: "starts a new definition or proof inside the proof"
        for keyword in ("CoInductive", "CoFixpoint", "Record", "Structure", "Class", "Instance",
                        "Program", "Function", "Let", "Goal")
    },
    **{keyword: "starts another theorem inside the proof (use `assert`)" for keyword in _HEADER_KEYWORDS},
}


@dataclass(frozen=True)
class Sentence:
    text: str
    """The sentence without comments, without its final period, stripped."""
    line: int
    """1-based line of the proof script where the sentence starts."""


@dataclass(frozen=True)
class ProofScript:
    """A proof that passed the textual screen, ready to be appended after the statement."""

    text: str
    sentences: tuple[Sentence, ...]
    notes: tuple[str, ...] = ()
    """What normalisation did (added `Proof.`, dropped an echoed statement), for the details."""


@dataclass(frozen=True)
class Refusal:
    reason: str
    syntax: bool = False
    """True when the text is malformed (unclosed comment or string) rather than a cheat."""


def strip_code_fence(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text


def blank_comments_and_strings(text: str) -> tuple[str, str | None]:
    """Replace comments (nested) and string literals by spaces, keeping offsets and newlines.

    Returns the blanked text and an error when a comment or string is not closed (which
    would swallow the commands the checker appends after the proof).
    """
    out: list[str] = []
    depth = 0
    in_string = False
    i = 0
    n = len(text)
    while i < n:
        two = text[i : i + 2]
        ch = text[i]
        if in_string:
            if ch == '"':
                if text[i + 1 : i + 2] == '"':
                    out.append("  ")
                    i += 2
                    continue
                in_string = False
            out.append("\n" if ch == "\n" else " ")
            i += 1
        elif depth > 0:
            if two == "(*":
                depth += 1
                out.append("  ")
                i += 2
            elif two == "*)":
                depth -= 1
                out.append("  ")
                i += 2
            else:
                out.append("\n" if ch == "\n" else " ")
                i += 1
        elif two == "(*":
            depth = 1
            out.append("  ")
            i += 2
        elif ch == '"':
            in_string = True
            out.append(" ")
            i += 1
        else:
            out.append(ch)
            i += 1
    if depth > 0:
        return "".join(out), "a comment `(*` is never closed with `*)`"
    if in_string:
        return "".join(out), 'a string `"` is never closed'
    return "".join(out), None


_SENTENCE_END = re.compile(r"\.(?=\s|$)")
_BULLETS = re.compile(r"(?:[-+*]+|[{}]|\d+\s*:\s*\{?)")


def split_sentences(blanked: str) -> list[Sentence]:
    """Split comment-free text at periods followed by blank space or the end.

    Bullets and braces in front of a sentence are dropped from its text, so the first word of
    a sentence is the command or tactic. `..` and qualified names (`Nat.add_0_r`) are not ends.
    """
    sentences: list[Sentence] = []
    start = 0
    for match in _SENTENCE_END.finditer(blanked):
        end = match.start()
        if end > 0 and blanked[end - 1] == ".":
            continue
        _append(sentences, blanked, start, end)
        start = match.end()
    _append(sentences, blanked, start, len(blanked))
    return sentences


def _append(sentences: list[Sentence], blanked: str, start: int, end: int) -> None:
    position = start
    while True:
        while position < end and blanked[position].isspace():
            position += 1
        bullet = _BULLETS.match(blanked, position, end)
        if bullet is None or bullet.end() == position:
            break
        position = bullet.end()
    body = blanked[position:end].strip()
    if body:
        sentences.append(Sentence(text=" ".join(body.split()), line=blanked.count("\n", 0, position) + 1))


def normalise_text(text: str) -> str:
    blanked, _ = blank_comments_and_strings(text)
    return " ".join(blanked.split())


def _first_word(sentence: Sentence) -> str:
    match = re.match(r"#?\[?[A-Za-z_][\w']*", sentence.text)
    return match.group(0) if match else ""


def _screen(sentences: list[Sentence], blanked: str) -> Refusal | None:
    for word, why in _CHEAT_WORDS.items():
        if re.search(rf"(?<![\w'.]){re.escape(word)}(?![\w'])", blanked):
            return Refusal(f"refused: {why}; only a complete proof counts")
    if "#[" in blanked:
        return Refusal("refused: attributes `#[...]` are not allowed in a proof")
    body = sentences[1:-1]
    for sentence in body:
        word = _first_word(sentence)
        if word in _TERMINATORS:
            return Refusal(
                f"refused: `{word}.` at line {sentence.line} ends the proof before the script does; "
                "put exactly one `Qed.` at the end"
            )
        if word in _FORBIDDEN_COMMANDS:
            return Refusal(
                f"refused: `{word}` at line {sentence.line} {_FORBIDDEN_COMMANDS[word]}; "
                "write only tactics between `Proof.` and `Qed.`"
            )
    return None


def parse_proof(action: str, statement: str, preamble: str) -> ProofScript | Refusal:
    """Apply the action contract to `action` for a theorem fixed as `statement`."""
    text = strip_code_fence(action).strip()
    notes: list[str] = []
    if not text:
        return Refusal("the action is empty: write the proof, `Proof.` ... `Qed.`", syntax=True)
    blanked, unclosed = blank_comments_and_strings(text)
    if unclosed:
        return Refusal(f"malformed proof: {unclosed}", syntax=True)
    header = _HEADER.search(blanked)
    proof_start = _find_proof_start(blanked)
    if header is not None and (proof_start is None or header.start() < proof_start):
        period = _SENTENCE_END.search(blanked, header.start())
        statement_end = period.end() if period is not None else len(blanked)
        echoed = _check_echo(blanked, header.start(), statement_end, statement, preamble)
        if isinstance(echoed, Refusal):
            return echoed
        text = text[statement_end:].strip()
        notes.append("dropped the restated theorem (it matches the task)")
        blanked, _ = blank_comments_and_strings(text)
        if not text.strip():
            return Refusal("the action restates the theorem but has no proof after it", syntax=True)
    sentences = split_sentences(blanked)
    if not sentences or _first_word(sentences[0]) != "Proof":
        text = "Proof.\n" + text
        notes.append("added `Proof.` in front")
    if not sentences or _first_word(sentences[-1]) not in _TERMINATORS:
        last = _first_word(sentences[-1]) if sentences else ""
        if last in ("Admitted", "Abort", "Save"):
            return Refusal(f"refused: the proof ends with `{last}`; only a complete proof ending in `Qed.` counts")
        text = text.rstrip() + "\nQed."
        notes.append("added `Qed.` at the end")
    blanked, _ = blank_comments_and_strings(text)
    sentences = split_sentences(blanked)
    refusal = _screen(sentences, blanked)
    if refusal is not None:
        return refusal
    return ProofScript(text=text, sentences=tuple(sentences), notes=tuple(notes))


def _find_proof_start(blanked: str) -> int | None:
    match = re.search(r"(?<![\w'.])Proof(?![\w'])", blanked)
    return match.start() if match else None


def _check_echo(
    blanked: str, header_at: int, statement_end: int, statement: str, preamble: str
) -> Refusal | None:
    given = " ".join(blanked[header_at:statement_end].split())
    wanted = normalise_text(statement)
    if _unify_keyword(given) != _unify_keyword(wanted):
        return Refusal(
            "refused: the action changes the theorem statement; it must be exactly\n"
            f"  {wanted}\nbut the action states\n  {given}\nWrite only the proof, `Proof.` ... `Qed.`."
        )
    before = split_sentences(blanked[:header_at])
    allowed = {s.text for s in split_sentences(blank_comments_and_strings(preamble)[0])}
    for sentence in before:
        if sentence.text not in allowed:
            return Refusal(
                f"refused: `{sentence.text}.` before the theorem is not part of the task's fixed "
                "context; write only the proof, `Proof.` ... `Qed.`"
            )
    return None


def _unify_keyword(header: str) -> str:
    return re.sub(r"^(" + "|".join(_HEADER_KEYWORDS) + r")\b", "Theorem", header)


_TACTICS = (
    "intros", "intro", "induction", "destruct", "case", "elim", "simpl", "cbn", "unfold", "rewrite",
    "reflexivity", "symmetry", "transitivity", "apply", "eapply", "exact", "assumption", "assert",
    "pose", "specialize", "replace", "subst", "f_equal", "injection", "inversion", "discriminate",
    "congruence", "split", "left", "right", "exists", "eexists", "constructor", "exfalso",
    "contradiction", "lia", "nia", "lra", "nra", "psatz", "ring", "ring_simplify", "field",
    "field_simplify", "auto", "eauto", "trivial", "easy", "tauto", "intuition", "firstorder",
    "compute", "vm_compute", "native_compute", "cbv", "lazy", "omega", "decide", "now", "repeat", "try",
)
_TACTIC_PATTERN = re.compile(r"(?<![\w'.])(" + "|".join(_TACTICS) + r")(?![\w'])")


def tactics_used(blanked_proof: str) -> tuple[str, ...]:
    """Known tactic names that occur in the proof, sorted; a coarse fact for conditions."""
    return tuple(sorted({m.group(1) for m in _TACTIC_PATTERN.finditer(blanked_proof)}))
