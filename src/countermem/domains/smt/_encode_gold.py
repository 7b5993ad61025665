"""Write the shipped gold encodings: `python -m countermem.domains.smt._encode_gold`.

The files are generated from the problem definitions (each rule's SMT-LIB side) and then
kept as package data, so a reader can see every gold encoding as plain text; a test fails
when a problem changes and its file was not regenerated.
"""

from __future__ import annotations

from pathlib import Path

from countermem.domains.smt._encode import GOLD_FOLDER, catalog


def write_gold_files(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    for problem in catalog().values():
        (folder / f"{problem.id}.smt2").write_text(problem.gold_encoding(), encoding="utf-8")
    return len(catalog())


if __name__ == "__main__":
    count = write_gold_files(Path(__file__).with_name(GOLD_FOLDER))
    print(f"wrote {count} gold encodings")
