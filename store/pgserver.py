"""A throwaway PostgreSQL + PostGIS server in a temporary folder, for the tests and the benchmark.

It needs Debian's ``postgresql`` and ``postgis`` packages (``make store-deps`` installs them). ``initdb`` refuses to
run as root, so under root the server runs as the ``postgres`` user the package creates. It listens on 127.0.0.1 on
a free port with trust authentication (nothing but this machine can reach it) and is removed when stopped.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class NoPostgis(RuntimeError):
    """The machine has no PostgreSQL server binaries or no PostGIS extension (the reason says which)."""


def _bindir() -> Path:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if Path(d, "initdb").exists() and Path(d, "pg_ctl").exists():
            return Path(d)
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise NoPostgis("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql (make store-deps)")


def _has_postgis(bindir: Path) -> bool:
    version = bindir.parent.name
    return bool(glob.glob(f"/usr/share/postgresql/{version}/extension/postgis.control"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgisServer:
    """``with PostgisServer() as url:`` a ``postgresql://`` URL of a fresh database with PostGIS available."""

    def __init__(self):
        self.bindir = _bindir()
        if not _has_postgis(self.bindir):
            raise NoPostgis(f"PostgreSQL {self.bindir.parent.name} has no PostGIS extension: install Debian's "
                            "postgis (make store-deps)")
        self.dir = Path(tempfile.mkdtemp(prefix="airspace-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.started = False

    def _run(self, *args: str) -> None:
        r = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed: {(r.stderr or r.stdout).strip()[-500:]}")

    def start(self) -> str:
        if self._as:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.dir} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w",
                  "-t", "60", "start")
        self.started = True
        url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        deadline = time.time() + 30
        import psycopg

        while True:
            try:
                with psycopg.connect(url, autocommit=True) as con:
                    con.execute("CREATE DATABASE zones")
                break
            except psycopg.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        return f"postgresql://postgres@127.0.0.1:{self.port}/zones"

    def stop(self) -> None:
        if self.started:
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> str:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
