"""A real PostgreSQL server for the club database's tests: Debian's
``postgresql`` package (``./run test`` installs it when missing), a cluster
made with initdb in a temporary folder, run as the unprivileged ``postgres``
user when the tests run as root (PostgreSQL refuses root), on a free port of
127.0.0.1 with password (SCRAM) authentication.

    server = PostgresServer(tmp_path)   # initdb; not started
    server.start()
    url = server.url("club")            # postgresql://club:secret@127.0.0.1:PORT/club
    server.create_database("club")
    server.stop()                       # a clean stop; server.kill(): SIGKILL, as a crash
    server.start()                      # the same cluster again, same port
    with server.small_disk(16) as url:  # a database whose files are on a 16 MB tmpfs (root only)
        fill(url)                       # ... filled until the server says "No space left on device"

``postgres_server`` (a fixture, one server per test module) hands out a new
database for each test through ``fresh_database``."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

USER = "club"
PASSWORD = "secret"


def _bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: ./run test installs Debian's postgresql")
    return found[-1].parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.data = base / "data"
        self.sockets = base / "sockets"
        self.log = base / "server.log"
        self.port = _free_port()
        self.bin = _bin()
        self.user = "postgres" if os.geteuid() == 0 else None
        for folder in (self.base, self.sockets):
            folder.mkdir(parents=True, exist_ok=True)
        pwfile = base / "pw"
        pwfile.write_text(PASSWORD)
        if self.user:
            entry = pwd.getpwnam(self.user)
            for path in (self.base, self.sockets, pwfile):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            os.chmod(self.base, 0o700)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=scram-sha-256",
            f"--pwfile={pwfile}",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.sockets}'\nfsync = off\n"
                "synchronous_commit = off\nfull_page_writes = off\nmax_connections = 60\n"
            )

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / tool), *args],
            user=self.user,
            capture_output=True,
            text=True,
            check=check,
            cwd=self.base,
        )

    def start(self) -> None:
        done = self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start", check=False
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()} {log}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    @property
    def pid(self) -> int | None:
        pidfile = self.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(pidfile.read_text().splitlines()[0])
        return None

    def kill(self) -> None:
        """The server dies at once (SIGKILL to the postmaster and its backends), as in a crash."""
        pid = self.pid
        if pid is None:
            return
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        for each in [pid, *map(int, children)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(each, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        (self.data / "postmaster.pid").unlink(missing_ok=True)

    def url(self, database: str = "postgres", password: str = PASSWORD, user: str = USER) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        env = {**os.environ, "PGPASSWORD": PASSWORD}
        done = subprocess.run(
            [
                str(self.bin / "psql"),
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                USER,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return done.stdout.strip()

    def create_database(self, name: str) -> str:
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    @contextlib.contextmanager
    def small_disk(self, megabytes: int = 16) -> Iterator[str]:
        """A new database whose files are on a tmpfs of ``megabytes`` mounted here (tests run
        as root), through a tablespace; its URL. Its write-ahead log stays on the cluster's disk,
        so a full small disk refuses the database's writes (SQLSTATE 53100), never the server."""
        if os.geteuid() != 0:
            pytest.skip("a small disk is a tmpfs mounted by root")
        where = Path(tempfile.mkdtemp(prefix="host-device-pg-disk-"))
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)], check=True)
        name = f"small_{where.name[-8:].lower()}"
        name = "".join(c if c.isalnum() else "_" for c in name)
        try:
            if self.user:
                entry = pwd.getpwnam(self.user)
                os.chown(where, entry.pw_uid, entry.pw_gid)
            self.psql(f"CREATE TABLESPACE {name} LOCATION '{where}'")
            self.psql(f'CREATE DATABASE "{name}" TABLESPACE {name}')
            yield self.url(name)
        finally:
            self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            self.psql(f"DROP TABLESPACE IF EXISTS {name}")
            subprocess.run(["umount", "-l", str(where)], check=False)
            shutil.rmtree(where, ignore_errors=True)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)


def fill(url: str) -> int:
    """A table ``filler`` grown until the database's disk has no room: the rows it holds."""
    import psycopg

    rows = 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS filler (n bigint)")
        step = 100_000
        while step >= 10:
            try:
                conn.execute("INSERT INTO filler SELECT g FROM generate_series(1, %s) g", (step,))
                rows += step
            except psycopg.errors.DiskFull:
                step //= 10
    return rows


def new_server() -> PostgresServer:
    """A server in a new folder of its own under /tmp (pytest's folders are root's alone)."""
    return PostgresServer(Path(tempfile.mkdtemp(prefix="host-device-pg-")))


@pytest.fixture(scope="module")
def postgres_server():
    server = new_server()
    server.start()
    yield server
    server.close()


@pytest.fixture
def fresh_database(postgres_server, request):
    """A new, empty database on the module's server: its URL."""
    name = "t_" + "".join(c if c.isalnum() else "_" for c in request.node.name.lower())[:50]
    name = f"{name}_{os.getpid()}_{time.monotonic_ns() % 100000}"
    return postgres_server.create_database(name)
