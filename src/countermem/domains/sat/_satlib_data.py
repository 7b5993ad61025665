"""SATLIB instances, read straight from the checksum-verified family tarballs.

The archives are never unpacked to disk: every member is parsed in memory, in member-name
order, so the task order is stable across machines.
"""

from __future__ import annotations

import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from countermem.core import DataUnavailableError, ParseError
from countermem.domains._data import dataset_dir, verified_file
from countermem.domains.sat._cnf import CNF, parse_dimacs

DATASET = "satlib"


@dataclass(frozen=True)
class SatlibFamily:
    archive: str
    environment: str
    """SATLIB's short family name, used as the task environment (uf20, uf50, uuf50, flat100)."""
    shape: str
    """A name for the instance shape that does not reveal satisfiability (uf50 and uuf50 share it)."""
    satisfiable: bool
    """As SATLIB declares the family (and SOURCE.md confirms with minisat); verified again at load."""


FAMILIES: tuple[SatlibFamily, ...] = (
    SatlibFamily("uf20-91.tar.gz", "uf20", "random-3sat-20-91", True),
    SatlibFamily("uf50-218.tar.gz", "uf50", "random-3sat-50-218", True),
    SatlibFamily("uuf50-218.tar.gz", "uuf50", "random-3sat-50-218", False),
    SatlibFamily("flat100-239.tar.gz", "flat100", "flat-colouring-100-239", True),
)


@dataclass(frozen=True)
class SatlibInstance:
    family: SatlibFamily
    member: str
    """File name inside the archive, without folders (e.g. `uuf50-0101.cnf`)."""
    cnf: CNF

    @property
    def stem(self) -> str:
        return self.member.removesuffix(".cnf")


def satlib_root(data_dir: Path | None) -> Path:
    if data_dir is None:
        return dataset_dir(DATASET)
    folder = data_dir / DATASET
    if not (folder / "SOURCE.md").is_file():
        raise DataUnavailableError(f"{folder} has no SOURCE.md: benchmark {DATASET!r} data is missing")
    return folder


def load_family(folder: Path, family: SatlibFamily) -> list[SatlibInstance]:
    archive = verified_file(folder, family.archive)
    instances: list[SatlibInstance] = []
    with tarfile.open(archive, mode="r:gz") as tar:
        members = sorted((m for m in tar.getmembers() if m.isfile()), key=lambda m: m.name)
        for member in members:
            handle = tar.extractfile(member)
            if handle is None:
                raise DataUnavailableError(f"{archive}: member {member.name} cannot be read")
            text = handle.read().decode("ascii")
            try:
                cnf = parse_dimacs(text, allow_satlib_trailer=True, require_header=True)
            except ParseError as error:
                raise DataUnavailableError(
                    f"{archive}: member {member.name} is not DIMACS: {error}"
                ) from error
            name = PurePosixPath(member.name).name
            instances.append(SatlibInstance(family=family, member=name, cnf=cnf))
    if not instances:
        raise DataUnavailableError(f"{archive} holds no instances")
    return instances
