"""Reading the `.v` files that ship our own lemmas and proofs as package data.

Keeping them as plain Coq files (not JSON strings) means each whole file compiles with `coqc`
as it stands, and a person can read and edit the proofs in a Coq editor. Structure is given by
comments only: `(* @preamble *)` ... `(* @end-preamble *)` for a file's context, and
`(* @lemma key=value ... *)` in front of each theorem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources

from countermem.core import DataUnavailableError

_PACKAGE = "countermem.domains.fv"
_PREAMBLE = re.compile(r"\(\* @preamble \*\)\n(.*?)\(\* @end-preamble \*\)", re.S)
_LEMMA = re.compile(r"\(\* @lemma([^*]*)\*\)\s*\n(.*?)(?=\(\* @lemma|\Z)", re.S)
_HEADER = re.compile(r"^(Theorem|Lemma)\s+([A-Za-z_][\w']*)", re.M)
_PROOF = re.compile(r"^Proof\.", re.M)
_QED = re.compile(r"^Qed\.", re.M)


@dataclass(frozen=True)
class ShippedLemma:
    name: str
    statement: str
    proof: str
    tags: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class LemmaFile:
    stem: str
    preamble: str
    lemmas: tuple[ShippedLemma, ...]


def read_data_text(filename: str) -> str:
    try:
        return resources.files(_PACKAGE).joinpath("data", filename).read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DataUnavailableError(
            f"package data file data/{filename} of {_PACKAGE} is missing; reinstall countermem"
        ) from error


def data_files(prefix: str) -> list[str]:
    folder = resources.files(_PACKAGE).joinpath("data")
    return sorted(
        entry.name for entry in folder.iterdir() if entry.name.startswith(prefix) and entry.name.endswith(".v")
    )


def parse_lemma_file(stem: str, text: str) -> LemmaFile:
    preamble_match = _PREAMBLE.search(text)
    if preamble_match is None:
        raise DataUnavailableError(f"{stem}.v has no (* @preamble *) ... (* @end-preamble *) block")
    lemmas: list[ShippedLemma] = []
    for match in _LEMMA.finditer(text, preamble_match.end()):
        tags = dict(item.split("=", 1) for item in match.group(1).split() if "=" in item)
        block = match.group(2)
        header, proof, qed = _HEADER.search(block), _PROOF.search(block), _QED.search(block)
        if header is None or proof is None or qed is None or not header.start() < proof.start() < qed.start():
            raise DataUnavailableError(f"{stem}.v: a @lemma block lacks `Theorem`, `Proof.` or `Qed.`")
        lemmas.append(
            ShippedLemma(
                name=header.group(2),
                statement=block[header.start() : proof.start()].strip(),
                proof=block[proof.start() : qed.end()].strip(),
                tags=tags,
            )
        )
    return LemmaFile(stem=stem, preamble=preamble_match.group(1).strip() + "\n", lemmas=tuple(lemmas))
