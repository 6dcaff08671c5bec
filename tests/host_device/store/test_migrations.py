"""Old stores migrated to today's schema: a store of every old version
(tests/data/stores, made by the old code) opens with every game it held;
a migration cut short — a statement that fails, a disk that fills at any of
many free sizes, the process killed in any step — is one line and leaves the
file as it was, and the next opening migrates it whole."""

import json
import re
import signal
import sqlite3
import subprocess
import sys
import uuid

import pytest

from host_device.store import SCHEMA_VERSION, Store, StoreError
from tests.helpers.old_stores import VERSIONS, content, old_store, players_by_seat, raw
from tests.helpers.paths import ROOT

FULL = "диск заполнен"
GAME_ROW = "id, started_at, preset, mode, finished_at, winner, days"
VERSION_SET = re.compile(r"PRAGMA user_version\s*=\s*(\d+)$", re.I)


def steps(statements):
    """Where the migration is in an opening's statements: the versions it set, in order, and
    the span from its BEGIN to its COMMIT (1-based, inclusive)."""
    ends = [n for n, sql in enumerate(statements, 1) if VERSION_SET.match(sql)]
    if not ends:
        return [], range(0)
    begin = max(n for n, sql in enumerate(statements[: ends[0]], 1) if sql.upper().startswith("BEGIN"))
    commit = next((n for n, sql in enumerate(statements, 1) if n > ends[-1] and sql.upper() == "COMMIT"), 0)
    versions = [int(VERSION_SET.match(statements[n - 1]).group(1)) for n in ends]
    return versions, range(begin, commit + 1)


def migrated(version, folder):
    """What the store of that schema holds once migrated, with nothing in the way."""
    folder.mkdir()
    store = Store(old_store(version, folder))
    try:
        return content(store)
    finally:
        store.close()


def same_games(after, reference, version):
    """The same games, record, seats and roster; the UUIDs a migration makes
    are whole and distinct, and those the store had are kept."""
    uuids = after.pop("uuids")
    made = reference["uuids"]
    assert after == {k: v for k, v in reference.items() if k != "uuids"}
    assert uuids.keys() == made.keys()
    assert len(set(uuids.values())) == len(uuids) and all(uuid.UUID(u).version == 4 for u in uuids.values())
    if version == 4:
        assert uuids == made


def one_line(message, path, *words):
    assert "\n" not in message and str(path) in message, message
    for word in words:
        assert word in message, message


# ---------------------------------------------------------------- every old version, migrated


@pytest.mark.parametrize("version", VERSIONS)
def test_an_old_store_opens_at_todays_schema_with_every_game(tmp_path, version):
    path = old_store(version, tmp_path)
    assert raw(path)[0] == version
    db = sqlite3.connect(path)  # what the old code wrote: every game's row and record as it stands
    rows = [list(r) for r in db.execute(f"SELECT {GAME_ROW} FROM games ORDER BY id")]
    undone = "undone" if version >= 2 else "0"
    inputs = db.execute(f"SELECT game, seq, t, input, {undone} FROM inputs ORDER BY game, seq").fetchall()
    had = {}
    if version == 4:
        had = {"box": db.execute("SELECT value FROM meta WHERE key = 'box'").fetchone()[0]}
        had |= {str(gid): u for gid, u in db.execute("SELECT id, uuid FROM games")}
    db.close()
    store = Store(path)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        held = content(store)
        who = players_by_seat(store)
    finally:
        store.close()
    games = held["games"]
    assert [g["row"] for g in games] == rows
    for flag, part in ((0, "record"), (1, "undone")):
        assert [[gid, seq, t, json.loads(text)] for gid, seq, t, text, was in inputs if was == flag] == [
            [g["row"][0], *step] for g in games for step in g[part]
        ]
    assert [g["row"][0] for g in games] == ([1, 2] if version == 1 else [1, 2, 3])
    assert [g["row"][2:] for g in games[:2]] == [
        ["classic", "simulate", games[0]["row"][4], "red", 3],
        ["classic", "simulate", None, None, 0],
    ]
    assert games[0]["row"][4] is not None
    assert re.search(r"winner=<Team\.RED", games[0]["state"]) and "winner=None" in games[1]["state"]
    if version >= 2:  # the city game, and the host's undo
        assert games[2]["row"][2:] == ["city", "simulate", games[2]["row"][4], "red", 4]
        assert games[2]["settings"]["table"] and re.search(r"winner=<Team\.RED", games[2]["state"])
        assert [len(games[1]["record"]), len(games[1]["undone"])] == [27, 3]
        assert [seq for seq, _, _ in games[1]["undone"]] == [28, 29, 30]
    else:
        assert [len(games[1]["record"]), games[1]["undone"]] == [30, []]
    if version <= 2:  # games.names moved into the roster: one name in two cases is one player
        assert games[0]["seats"] == {"3": ["Аня", None], "5": ["Борис Петров", None]}
        assert games[1]["seats"] == {"3": ["Аня", None], "7": ["Вера", None], "8": ["Вера", None]}
        assert who[(1, 3)] == who[(2, 3)] and who[(2, 7)] != who[(2, 8)]  # one name at two seats: two
        assert held["players"] == [["Аня", ""], ["Борис Петров", ""], ["Вера", ""], ["Вера", ""]]
        assert games[0]["extras"] == {}
    else:  # the roster as it was: a nickname, a merge, extra points
        assert games[0]["seats"] == {"3": ["Аня", "Лиса"], "5": ["Борис Петров", None]}
        assert games[1]["seats"] == {"5": ["Борис Петров", None], "7": ["Вера", None]}
        assert who[(1, 5)] == who[(2, 5)]  # Боря merged into Борис Петров
        assert held["players"] == [["Аня", "Лиса"], ["Борис Петров", ""], ["Вера", ""]]
        assert games[0]["extras"] == {"3": 0.5, "5": -0.3}
    assert held["waiting"] == ([1] if version == 1 else [3] if version == 4 else [1, 3])
    uuids = held["uuids"]
    assert sorted(uuids) == sorted(["box", *(str(g["row"][0]) for g in games)])
    assert len(set(uuids.values())) == len(uuids) and all(uuid.UUID(u).version == 4 for u in uuids.values())
    assert version < 4 or uuids == had  # the UUIDs a store had are its own for good


# ---------------------------------------------------------------- a failure at any statement


class Failing:
    """SQLite's connections of a test, failing once at the n-th statement
    (``at``; ROLLBACK never fails) as they fail on a full disk; ``count``: the statements seen."""

    def __init__(self, monkeypatch):
        self.at, self.count, self.seen = 0, 0, []
        real, plan = sqlite3.connect, self

        class Connection(sqlite3.Connection):
            def _next(self, sql):
                if sql.strip().upper() == "ROLLBACK":
                    return
                plan.count += 1
                plan.seen.append(sql.strip())
                if plan.count == plan.at:
                    exc = sqlite3.OperationalError("database or disk is full")
                    exc.sqlite_errorname = "SQLITE_FULL"
                    raise exc

            def execute(self, sql, *args):
                self._next(sql)
                return super().execute(sql, *args)

            def executemany(self, sql, *args):
                self._next(sql)
                return super().executemany(sql, *args)

            def executescript(self, sql):
                self._next(sql)
                return super().executescript(sql)

        def connect(path, *args, **kwargs):  # a store's file (today's schema is read in memory)
            return real(path, *args, **kwargs, **({} if path == ":memory:" else {"factory": Connection}))

        monkeypatch.setattr(sqlite3, "connect", connect)

    def open(self, path, at):
        self.at, self.count, self.seen = at, 0, []
        try:
            Store(path).close()
        finally:
            self.at = 0


@pytest.mark.parametrize("version", (0, *VERSIONS))
def test_a_failure_at_any_statement_of_the_opening_changes_nothing(tmp_path, monkeypatch, version):
    reference = migrated(version, tmp_path / "reference")
    failing = Failing(monkeypatch)
    clean = tmp_path / "clean"
    clean.mkdir()
    failing.open(old_store(version, clean), at=0)
    statements = list(failing.seen)
    versions, upgrade = steps(statements)
    assert versions == list(range(version + 1, SCHEMA_VERSION + 1)), statements  # each step sets its own
    for at in range(1, len(statements) + 1):
        folder = tmp_path / f"at-{at}"
        folder.mkdir()
        path = old_store(version, folder)
        before = (path.read_bytes(), raw(path)) if version else None
        with pytest.raises(StoreError) as refused:
            failing.open(path, at)
        one_line(str(refused.value), path, FULL)
        if not version:  # a new store: nothing half-made is left
            assert sorted(p.name for p in folder.iterdir()) == [], statements[at - 1]
        elif at in upgrade:  # within the migration: the versions named
            one_line(
                str(refused.value), path, f"со схемы {version} до схемы {SCHEMA_VERSION}", "осталось как было"
            )
        if version and upgrade and at > upgrade[-1]:  # after the migration's commit: migrated whole
            assert raw(path)[0] == SCHEMA_VERSION, statements[at - 1]
        elif version:
            assert (path.read_bytes(), raw(path)) == before, statements[at - 1]
        store = Store(path)
        try:
            same_games(content(store), reference, version)
        finally:
            store.close()


# ---------------------------------------------------------------- a disk that fills


FREE_KB = range(0, 164, 4)  # the room left on the disk, in KB
ON_A_SMALL_DISK = """
import json, os, shutil, subprocess, sys
from pathlib import Path
from host_device.store import Store, StoreError
from tests.helpers.old_stores import content, old_store, raw

disk, version = Path(sys.argv[1]), int(sys.argv[2])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], check=True)
for free_kb in map(int, sys.argv[3:]):
    for f in disk.iterdir():
        f.unlink()
    path = old_store(version, disk)
    before = path.read_bytes(), raw(path)
    st = os.statvfs(disk)
    with (disk / "fill").open("wb") as f:
        f.write(bytes(max(0, st.f_bavail * st.f_frsize - free_kb * 1024)))
    try:
        Store(path).close()
        refused = None
    except StoreError as exc:
        refused = str(exc)
    (disk / "fill").unlink()
    kept = (path.read_bytes(), raw(path)) == before
    version_now = raw(path)[0]
    try:
        store = Store(path)
        held, error = content(store), None
        store.close()
    except StoreError as exc:
        held, error = None, str(exc)
    print(json.dumps({"free_kb": free_kb, "refused": refused, "kept": kept, "version": version_now,
                      "held": held, "error": error},
                     ensure_ascii=False), flush=True)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_a_disk_full_at_any_point_of_the_migration_changes_nothing(tmp_path, version):
    """The old store on a 2 MB tmpfs filled to leave 0, 4, … 160 KB: an
    opening that fails is one line and leaves the file as it was; once the
    disk has room, the store opens with every game."""
    reference = migrated(version, tmp_path / "reference")
    disk = tmp_path / "disk"
    disk.mkdir()
    proc = subprocess.run(
        [
            "unshare",
            "--user",
            "--map-root-user",
            "--mount",
            sys.executable,
            "-c",
            ON_A_SMALL_DISK,
            str(disk),
            str(version),
            *map(str, FREE_KB),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    trials = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [t["free_kb"] for t in trials] == list(FREE_KB)
    for t in trials:
        assert t["error"] is None, t  # the store opens once the disk has room
        same_games(t["held"], reference, version)
        if t["refused"] is not None:
            one_line(t["refused"], disk / "games.sqlite3", FULL)
            assert t["kept"] or t["version"] == SCHEMA_VERSION, t  # as it was, or migrated whole
    refused = [t["free_kb"] for t in trials if t["refused"]]
    assert refused and refused[0] == 0 and len(refused) < len(trials)  # both cases were reached
    if version < SCHEMA_VERSION:  # and the migration itself was cut short by the disk
        assert any("осталось как было" in t["refused"] for t in trials if t["refused"]), trials


# ---------------------------------------------------------------- killed in the middle


KILLED_AT = """
import json, sqlite3, sys, time
from pathlib import Path
at, seen, real = int(sys.argv[2]), [], sqlite3.connect

def connect(path, *args, **kwargs):
    db = real(path, *args, **kwargs)
    if path == ":memory:":  # today's schema, read from a store made in memory
        return db
    def trace(sql):
        seen.append(sql.strip())
        if len(seen) == at:
            print(json.dumps(seen[-1]), flush=True)
            time.sleep(120)
    db.set_trace_callback(trace)
    return db

sqlite3.connect = connect
from host_device.store import Store
Store(Path(sys.argv[1])).close()
print(json.dumps(seen), flush=True)
"""


def killed_at(path, at):
    """Open the store in a process killed at its ``at``-th statement (0: never); what it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_AT, str(path), str(at)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        line = proc.stdout.readline()
        if at:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == (-signal.SIGKILL if at else 0), proc.stderr.read()
    return json.loads(line)


@pytest.mark.parametrize("version", (0, *VERSIONS[:-1]))
def test_a_migration_killed_in_any_step_is_done_whole_at_the_next_opening(tmp_path, version):
    """kill -9 at the first statement of each step and at the last (its
    version set, not yet committed): the file is as it was (a new store's:
    no schema, no rows), and the next opening migrates it whole."""
    reference = migrated(version, tmp_path / "reference")
    clean = tmp_path / "clean"
    clean.mkdir()
    statements = killed_at(old_store(version, clean), 0)
    versions, upgrade = steps(statements)
    assert versions == list(range(version + 1, SCHEMA_VERSION + 1)), statements  # each step sets its own
    ends = [n for n in upgrade if VERSION_SET.match(statements[n - 1])]
    starts = [upgrade[0] + 1] + [n + 1 for n in ends[:-1]]  # the first statement of each step
    for at in sorted({*starts, *ends}):
        folder = tmp_path / f"at-{at}"
        folder.mkdir()
        path = old_store(version, folder)
        before = raw(path) if version else (0, ["BEGIN TRANSACTION;", "COMMIT;"])
        assert killed_at(path, at) == statements[at - 1]
        assert raw(path) == before, statements[at - 1]
        store = Store(path)
        try:
            same_games(content(store), reference, version)
        finally:
            store.close()
