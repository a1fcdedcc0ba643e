"""A real PostgreSQL server for the tests: made with `initdb` in a temporary folder and
started with `pg_ctl` on a free loopback port, then removed.

The server programs are found on the PATH or in Debian's `/usr/lib/postgresql/N/bin`;
without them the tests that need a database are skipped with the reason. PostgreSQL
refuses to run as root, so as root the cluster belongs to the `postgres` system user (or
`nobody`) and its programs run as that user through `runuser`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SUPERUSER = "abstracts"


def server_programs() -> Path | None:
    """The folder of `initdb`, `pg_ctl` and `postgres`, if PostgreSQL is installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    folders = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2] or 0)
    )
    for folder in reversed(folders):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def run_as() -> list[str]:
    """What runs a command as a user PostgreSQL accepts: nothing unless we are root."""
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            return ["runuser", "-u", user, "--"]
    pytest.skip("PostgreSQL will not run as root, and there is no postgres or nobody user")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """A PostgreSQL server of the tests' own; `url(name)` is a database on it."""

    folder: Path
    bin: Path
    prefix: list[str]
    port: int = 0

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.prefix, *command],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.folder,
        )

    def init(self) -> None:
        done = self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        )
        if done.returncode != 0:
            pytest.skip(f"initdb failed here: {done.stderr.strip()[-300:]}")

    def start(self) -> None:
        """Start the server (again, on the same port once it has one)."""
        for _ in range(5):
            self.port = self.port or free_port()
            options = (
                f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c full_page_writes=off -c max_connections=200"
            )
            done = self._run(
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.folder / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            )
            if done.returncode == 0:
                return
            self.port = 0  # taken meanwhile: another one
        log = (self.folder / "server.log").read_text(errors="replace")[-500:]
        raise AssertionError(f"PostgreSQL did not start: {done.stderr}\n{log}")

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def processes(self) -> list[int]:
        """The server's processes: its postmaster and every child of it (each backend
        leads a process group of its own, so they are found by their parent)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        found = [postmaster]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == postmaster:
                    found.append(int(stat.parent.name))
        return found

    def pause(self) -> None:
        """Stop every process of the server (SIGSTOP): it answers nothing until `go_on`,
        and no connection is closed meanwhile (a database that hangs)."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def go_on(self) -> None:
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL server started for the caller, stopped and removed after; skips the
    test (with the reason) where PostgreSQL or psycopg is missing."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install '.[test]')")
    programs = server_programs()
    if programs is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    prefix = run_as()
    folder = Path(tempfile.mkdtemp(prefix="abstracts-pg-"))
    if prefix:
        shutil.chown(folder, user=prefix[2])
    server = Cluster(folder, programs, prefix)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def wait_until_down(url: str, timeout: float = 30) -> None:
    """Wait until nothing answers at `url` any more."""
    import psycopg

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            psycopg.connect(url, connect_timeout=2).close()
        except psycopg.OperationalError:
            return
        time.sleep(0.1)
