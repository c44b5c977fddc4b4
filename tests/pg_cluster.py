"""A throwaway PostgreSQL cluster for the tests and the benchmark: Debian's server, a temporary directory.

initdb and pg_ctl come from /usr/lib/postgresql/*/bin (`make postgres` installs the package). PostgreSQL
refuses to run as root, and CI runs as root: there the server runs as the system user `taihu-pg` (made by
`make postgres`; else `nobody`) through runuser. It listens on a Unix socket in its own directory only
(no TCP port at all), and `stop()` removes the directory.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

RUN_AS = ("taihu-pg", "nobody")  # the non-root user when we are root, the first that exists
PORT = 5432  # only names the socket file (.s.PGSQL.5432) in the cluster's own directory
USER = "taihu"
DATABASE = "taihu"
START_TIMEOUT_S = 60


class ClusterError(RuntimeError):
    """PostgreSQL could not be started here; the message says why and what to run."""


def server_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise ClusterError("no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb): `make postgres` installs it")
    return Path(found[-1]).parent


def run_as() -> str | None:
    """The user to run the server as: None when we are not root (then it runs as us)."""
    if os.geteuid() != 0:
        return None
    for name in RUN_AS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise ClusterError(f"running as root and none of the users {', '.join(RUN_AS)} exists: `make postgres` makes one")


class Cluster:
    """`Cluster(fast=True)` trades durability for speed (fsync off): right for tests, not for a benchmark."""

    def __init__(self, fast: bool = True) -> None:
        self.bin = server_bin()
        self.user = run_as()
        self.dir = Path(tempfile.mkdtemp(prefix="taihu-pg-"))
        self.data = self.dir / "data"
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        settings = f"-k {self.dir} -c listen_addresses='' -p {PORT} -c max_connections=200"
        if fast:
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try:
            self._run(self.bin / "initdb", "-D", self.data, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-locale")
            self._run(
                self.bin / "pg_ctl", "-D", self.data, "-l", self.dir / "server.log", "-o", settings, "-w", "start"
            )
            self.sql("postgres", f"CREATE DATABASE {DATABASE}")
        except BaseException:
            self.stop()
            raise

    def _run(self, *argv: object) -> None:
        command = [str(a) for a in argv]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=START_TIMEOUT_S, cwd=self.dir)
        if done.returncode != 0:
            log = self.dir / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()} {tail}")

    def url(self, database: str = DATABASE, schema: str | None = None) -> str:
        """A SQLAlchemy URL on the socket; `schema` puts every table in that schema (one test's own)."""
        options = f"&options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql+psycopg://{USER}@/{database}?host={self.dir}&port={PORT}{options}"

    def sql(self, database: str, *statements: str) -> None:
        import psycopg

        with psycopg.connect(host=str(self.dir), port=PORT, user=USER, dbname=database, autocommit=True) as db:
            for statement in statements:
                db.execute(statement)  # type: ignore[arg-type]  # our own fixed text, no parameters

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            except ClusterError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
