"""The store under faults: a full disk, a lock, нет прав, a read-only
disk, real corruption, damage inside one game, a kill right after the last
input, a resume with another script. Nothing committed is ever lost, and
every fault is one line.

Real faults, made without privileges: ``unshare --user`` makes the owner's
mode bits bind even root (no capability applies to files outside the new
user namespace), and ``unshare --user --map-root-user --mount`` mounts a
small tmpfs that fills up.
"""

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Game
from host_device.cli.main import main
from host_device.store import Store, StoreError
from tests.helpers.paths import ROOT

FULL = ROOT / "examples" / "classic-full-game.json"
EVENT = ROOT / "examples" / "event-game.json"
CLI = [sys.executable, "-m", "host_device"]
WON_IN_3 = re.compile(r"победа мирных +3$", re.M)  # a games list row: red won on day 3


def cli(*args, prefix=(), timeout=120):
    proc = subprocess.run(
        [*prefix, *CLI, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def one_line_error(err, *words):
    assert err.count("\n") == 1 and err.startswith("host-device: ошибка: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def asides(folder):
    return sorted(p.name for p in Path(folder).iterdir() if ".corrupt-" in p.name or ".orphan-" in p.name)


def stored_game(path):
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0


AS_OWNER_ONLY = ("unshare", "--user")  # mode bits bind the owner, root included


# ---------------------------------------------------------------- faults that are not corruption


@pytest.mark.slow
def test_a_full_disk_refuses_in_one_line_and_loses_nothing(tmp_path, builtin_pack):
    """A store on an 8 MB tmpfs: one game, the disk filled, a second game
    refused in one line; nothing is moved aside, and once space is freed the
    first game is whole. A store created on a full disk leaves no file."""
    disk = tmp_path / "disk"
    disk.mkdir()
    py = " ".join(CLI)
    script = f"""
set -u
mount -t tmpfs -o size=8m tmpfs {disk}
cd {ROOT}
{py} simulate {FULL} --store {disk}/games.sqlite3 > /dev/null; echo "first=$?"
dd if=/dev/zero of={disk}/fill bs=64k 2> /dev/null
{py} simulate {FULL} --store {disk}/games.sqlite3 > /dev/null 2> {tmp_path}/second.err; echo "second=$?"
{py} simulate {FULL} --store {disk}/new.sqlite3 > /dev/null 2> {tmp_path}/new.err; echo "new=$?"
ls -a {disk} > {tmp_path}/files
rm {disk}/fill
{py} games list --store {disk}/games.sqlite3 > {tmp_path}/list; echo "list=$?"
{py} games check --store {disk}/games.sqlite3 > {tmp_path}/check; echo "check=$?"
"""
    proc = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    codes = dict(line.split("=") for line in proc.stdout.split())
    assert codes == {"first": "0", "second": "2", "new": "2", "list": "0", "check": "0"}, proc
    one_line_error((tmp_path / "second.err").read_text(), "games.sqlite3", "диск заполнен")
    one_line_error((tmp_path / "new.err").read_text(), "new.sqlite3", "disk is full")
    files = (tmp_path / "files").read_text().split()
    assert not [f for f in files if "corrupt" in f or f.startswith("new.sqlite3")], files
    listed = (tmp_path / "list").read_text().splitlines()
    assert len(listed) == 2 and WON_IN_3.search(listed[1])  # the header and the game
    assert (tmp_path / "check").read_text() == "игра 1: в порядке\n"


def test_a_store_locked_by_another_program_is_not_moved_aside(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    capsys.readouterr()
    try:
        assert main(["simulate", str(FULL), "--store", str(path)]) == 2
        one_line_error(capsys.readouterr().err, str(path), "занято другой программой")
        assert main(["games", "list", "--store", str(path)]) == 2
        one_line_error(capsys.readouterr().err, "занято другой программой")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert asides(tmp_path) == []
    assert main(["games", "list", "--store", str(path)]) == 0
    assert WON_IN_3.search(capsys.readouterr().out)


@pytest.mark.slow
def test_a_store_without_read_permission_is_one_line_and_kept(tmp_path, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    path.chmod(0)
    try:
        for args in (["games", "list"], ["games", "show", "1"], ["simulate", FULL]):
            code, _, err = cli(*args, "--store", path, prefix=AS_OWNER_ONLY)
            assert code == 2
            one_line_error(err, str(path), "не удалось открыть")
    finally:
        path.chmod(0o644)
    assert asides(tmp_path) == []
    assert Store(path).games.all()[0].winner == "red"


@pytest.mark.parametrize("what", ["file", "folder"])
@pytest.mark.slow
def test_a_read_only_store_is_read_but_not_written(tmp_path, what, builtin_pack):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "games.sqlite3"
    stored_game(path)
    target = path if what == "file" else folder
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        code, out, err = cli("simulate", FULL, "--store", path, prefix=AS_OWNER_ONLY)
        assert code == 2 and out == ""
        one_line_error(err, str(path))
        assert "только для чтения" in err or "не удалось открыть" in err
        code, out, err = cli("games", "list", "--store", path, prefix=AS_OWNER_ONLY)
        assert code == 0 and WON_IN_3.search(out), err
        code, out, err = cli("games", "show", "1", "--store", path, prefix=AS_OWNER_ONLY)
        assert code == 0 and "Победа мирных жителей\nБаллы (таблица очков клуба):" in out, err
    finally:
        target.chmod(0o755 if what == "folder" else 0o644)
    assert asides(folder) == []


def test_a_store_path_that_is_a_folder_or_under_a_file(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    for path, words in (
        (tmp_path, "это папка, а не хранилище игр"),
        (tmp_path / "afile" / "games.sqlite3", "не удалось создать папку хранилища"),
    ):
        assert main(["simulate", str(FULL), "--store", str(path)]) == 2
        one_line_error(capsys.readouterr().err, *words.split(", "))


# ---------------------------------------------------------------- real corruption


def test_a_corrupt_store_moves_aside_with_its_side_files_never_onto_an_earlier_one(tmp_path):
    path = tmp_path / "games.sqlite3"
    moved = []
    for n in range(3):  # three times within the same second
        path.write_bytes(b"this is not a database %d" % n * 100)
        Path(f"{path}-wal").write_bytes(b"wal %d" % n)
        Path(f"{path}-shm").write_bytes(b"shm %d" % n)
        store = Store(path)
        assert store.moved_aside is not None and store.games.all() == []
        assert str(path) in store.notice and str(store.moved_aside) in store.notice
        assert "games recover" in store.notice
        store.close()
        moved.append(store.moved_aside)
        path.unlink()
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
    assert len(set(moved)) == 3
    for n, aside in enumerate(moved):  # each kept whole, with its own side files
        assert aside.read_bytes().startswith(b"this is not a database %d" % n)
        assert Path(f"{aside}-wal").read_bytes() == b"wal %d" % n
        assert Path(f"{aside}-shm").read_bytes() == b"shm %d" % n


def test_moving_aside_is_said_in_one_line_with_both_paths(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"garbage" * 1000)
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0
    err = capsys.readouterr().err
    (aside,) = asides(tmp_path)
    assert err.count("\n") == 1 and str(path) in err and str(tmp_path / aside) in err
    assert main(["games", "list", "--store", str(path)]) == 0  # the new store has the new game
    assert capsys.readouterr().out.count("\n") == 2  # the header and the game


def test_an_orphaned_wal_is_never_read_into_a_new_store(tmp_path):
    """A crash between moving a store and its -wal aside leaves a -wal with no store."""
    path = tmp_path / "games.sqlite3"
    Path(f"{path}-wal").write_bytes(b"an old log")
    store = Store(path)
    assert store.games.all() == []
    store.close()
    (orphan,) = [p for p in asides(tmp_path) if p.endswith("-wal")]
    assert (tmp_path / orphan).read_bytes() == b"an old log"


def three_games(path):
    """A store of three whole games; each game's inputs written in its own JSON spacing, so
    that a page of the file that holds one game's rows can be found."""
    stored_game(path)
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, t, input FROM inputs WHERE game = 1 ORDER BY seq").fetchall()
    for gid, spacing in ((2, ":" + " " * 60), (3, ":   ")):  # game 2's rows fill pages of their own
        db.execute(
            "INSERT INTO games (id, started_at, preset, mode, finished_at, winner, days) "
            "SELECT ?, started_at, preset, mode, finished_at, winner, days FROM games WHERE id = 1",
            (gid,),
        )
        db.executemany(
            "INSERT INTO inputs (game, seq, t, input) VALUES (?, ?, ?, ?)",
            [(gid, seq, t, text.replace(": ", spacing)) for seq, t, text in rows],
        )
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def damage_game_2(path):
    """Random bytes in the middle of a page that holds only game 2's rows."""
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    for start in range(size, len(data), size):
        page = bytes(data[start : start + size])
        if b'":' + b" " * 60 in page and b'": "' not in page and b'":   "' not in page:
            rng = random.Random(3)
            data[start + size // 3 : start + 2 * size // 3] = bytes(
                rng.randrange(256) for _ in range(size // 3)
            )
            path.write_bytes(bytes(data))
            return
    raise AssertionError("no page holds game 2 alone")


def test_damage_in_one_game_stays_with_that_game(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    three_games(path)
    damage_game_2(path)
    capsys.readouterr()
    assert main(["games", "list", "--store", str(path)]) == 0
    assert capsys.readouterr().out.count("\n") == 4  # the header and three games
    assert main(["games", "check", "--store", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "игра 1: в порядке" in out
        and "игра 3: в порядке" in out
        and "игра 2: " in out
        and "игра 2: в порядке" not in out
    )
    for gid in (1, 3):
        assert main(["games", "show", str(gid), "--store", str(path)]) == 0
        assert "Победа мирных жителей\nБаллы (таблица очков клуба):" in capsys.readouterr().out
    assert main(["games", "show", "2", "--store", str(path)]) == 2
    one_line_error(capsys.readouterr().err, "игра 2 повреждена")
    out_file = tmp_path / "all.json"
    assert main(["games", "export", "--all", "--store", str(path), "--to", str(out_file)]) == 1
    err = capsys.readouterr().err
    assert "пропущена: игра 2 повреждена" in err and "выгружено игр: 2; пропущено повреждённых: 1" in err
    assert [g["id"] for g in json.loads(out_file.read_text("utf-8"))] == [1, 3]


def test_a_damaged_file_is_moved_aside_by_a_writer_and_its_games_recovered(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    three_games(path)
    damage_game_2(path)
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0  # проверка целостности fails: moved aside
    (aside,) = [p for p in asides(tmp_path) if not p.endswith(("-wal", "-shm"))]
    assert "проверка целостности" in capsys.readouterr().err
    assert main(["games", "recover", str(tmp_path / aside), "--store", str(path)]) == 1
    out = capsys.readouterr().out
    assert "игра 1: спасена как игра 2 (победа мирных, день 3)" in out and "игра 3: спасена как игра 3" in out
    assert "игра 2: не спасена" in out
    assert "спасено игр: 2" in out and "не прочитано: 1" in out
    assert main(["games", "recover", str(tmp_path / aside), "--store", str(path)]) == 1
    assert "спасено игр: 0" in capsys.readouterr().out  # nothing twice
    store = Store(path)
    assert [g.winner for g in store.games.all()] == ["red", "red", "red"]
    assert store.games.replay(2).state == store.games.replay(1).state


def test_a_store_whose_header_is_lost_is_recovered(tmp_path, capsys, builtin_pack):
    source = tmp_path / "old.sqlite3"
    stored_game(source)
    data = bytearray(source.read_bytes())
    data[0:18] = b"\x00" * 18  # the magic string and the page size
    source.write_bytes(bytes(data))
    before = source.read_bytes()
    assert main(["games", "list", "--store", str(source)]) == 2
    one_line_error(capsys.readouterr().err, "повреждено", "games recover")
    assert main(["games", "recover", str(source), "--store", str(tmp_path / "new.sqlite3")]) == 0
    assert "игра 1: спасена как игра 1 (победа мирных, день 3)" in capsys.readouterr().out
    assert source.read_bytes() == before  # the damaged file itself is never changed


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        ("DROP TABLE inputs", "no such table: inputs"),
        ("UPDATE inputs SET input = '{not json' WHERE game = 1 AND seq = 5", "запись 5 не читается"),
        ("UPDATE inputs SET input = '[1]' WHERE game = 1 AND seq = 5", "запись 5 не читается"),
        (
            'UPDATE inputs SET input = \'{"type": "vote"}\' WHERE game = 1 AND seq = 5',
            "запись 5 не читается",
        ),
    ],
)
def test_a_broken_row_or_table_is_reported_for_its_game(tmp_path, capsys, builtin_pack, damage, words):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    stored_game(path)
    db = sqlite3.connect(path)
    db.execute(damage)
    db.commit()
    db.close()
    capsys.readouterr()
    assert main(["games", "check", "--store", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"игра 1: {words}" in out or words in out
    for args in (["games", "show", "1"], ["games", "export", "1"]):
        assert main([*args, "--store", str(path)]) == 2
        one_line_error(capsys.readouterr().err, "игра 1 повреждена")
    if "DROP" not in damage:
        assert main(["games", "show", "2", "--store", str(path)]) == 0
        capsys.readouterr()
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0  # the table goes on with new games


def test_a_seat_of_a_player_the_roster_lost_shows_the_game_without_him(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    assert main(["games", "seat", "1", "3", "Аня", "--store", str(path)]) == 0
    db = sqlite3.connect(path)
    db.execute("DELETE FROM players")
    db.commit()
    db.close()
    capsys.readouterr()
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    assert "Победа мирных жителей\nБаллы (таблица очков клуба):" in capsys.readouterr().out
    assert main(["games", "check", "--store", str(path)]) == 1
    assert "игра 1, место 3: игрока " in capsys.readouterr().out
    assert main(["games", "seat", "1", "3", "Аня", "--store", str(path)]) == 0  # seated again: mended
    assert Store(path).roster.names(1) == {"3": "Аня"}
    assert main(["games", "check", "--store", str(path)]) == 0


# ---------------------------------------------------------------- finishing and resuming


@pytest.mark.slow
def test_a_game_killed_right_after_its_last_input_is_finished_when_read(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    length = len(list(Store(path).games.inputs(1)))
    killed = tmp_path / "killed.sqlite3"
    code, _, _ = cli("simulate", FULL, "--store", killed, "--die-after", length)
    assert code == -signal.SIGKILL
    raw = sqlite3.connect(killed).execute("SELECT finished_at FROM games").fetchall()
    assert raw == [(None,)]  # the process died before marking it
    assert main(["games", "check", "--store", str(killed)]) == 0
    assert (
        "игра 1: окончена (победа мирных, день 3), но не была отмечена оконченной: отмечена сейчас"
        in capsys.readouterr().out
    )
    assert main(["games", "list", "--store", str(killed)]) == 0
    assert WON_IN_3.search(capsys.readouterr().out)
    code, _, err = cli("simulate", FULL, "--store", killed, "--resume")
    assert code == 2 and "no unfinished game to resume" in err  # never offered again


def test_unmarked_ended_games_are_not_offered_to_resume(tmp_path, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET finished_at = NULL, winner = NULL, days = 0")
    db.commit()
    db.close()
    store = Store(path)
    assert store.games.unfinished() == []
    assert store.games.game(1).winner == "red"


@pytest.mark.parametrize(
    ("other", "words"),
    [
        (EVENT, "is a classic game, the script is event"),
        ("roles", "was played from another script"),
        ("votes", "was played from another script"),
    ],
)
@pytest.mark.slow
def test_a_resume_with_another_script_writes_nothing(tmp_path, other, words, builtin_pack):
    path = tmp_path / "games.sqlite3"
    code, _, _ = cli("simulate", FULL, "--store", path, "--die-after", 30)
    assert code == -signal.SIGKILL
    if not isinstance(other, Path):
        data = json.loads(FULL.read_text("utf-8"))
        if other == "roles":
            data["roles"] = {"1": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}
        else:
            data["days"][0]["votes"] = []
        other = tmp_path / "other.json"
        other.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    code, out, err = cli("simulate", other, "--store", path, "--resume")
    assert code == 2 and out == ""
    one_line_error(err, "game 1", words)
    store = Store(path)
    assert store.games.last_seq(1) == 30 and store.games.game(1).finished_at is None
    store.close()
    code, out, _ = cli("simulate", FULL, "--store", path, "--resume")  # its own script still resumes
    assert code == 0 and json.loads(out)["winner"] == "red"
    assert before  # (the refused resume ran against this very file)


def test_run_refuses_to_resume_a_game_of_other_rules(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    code, _, _ = cli("simulate", FULL, "--store", path, "--die-after", 30)
    assert code == -signal.SIGKILL
    args = ["run", "--panel", "mock", "--audio", "null", "--store", str(path), "--resume", "1"]
    assert main([*args, "--preset", "event"]) == 2
    one_line_error(capsys.readouterr().err, "игра 1 — по правилам «классика»", "--preset classic")
    assert Store(path).games.last_seq(1) == 30


# ---------------------------------------------------------------- the table goes on


def test_an_input_the_store_could_not_take_is_retried_and_the_game_goes_on():
    from engine import Advance, DealRoles, Role
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
    committed, full = [], {"on": True}

    def commit(inp):
        if full["on"]:
            raise StoreError("database or disk is full")
        committed.append(inp)

    runtime.before_input.append(commit)
    deal = DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF)))
    assert not runtime.handle(deal)
    assert runtime.sched.paused and runtime.game.record == ()
    assert not runtime.retry_unrecorded()  # still full: still waiting
    assert not runtime.handle(Advance())  # nothing else is taken meanwhile
    full["on"] = False
    assert runtime.retry_unrecorded()
    assert committed == [deal] and runtime.game.record == (deal,)
    assert not runtime.sched.paused
    said = [e["key"] for e in runtime.timeline.dicts() if e["type"] == "say"]
    assert said[:2] == ["store_full", "resumed"]
    runtime.sched.run_virtual(limit=runtime.sched.now + 200)
    assert len(runtime.game.record) > 1  # the introduction night went on


# ---------------------------------------------------------------- the games commands' own inputs


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["games", "show", str(2**63)], "— не номер игры"),
        (["games", "export", "99999999999999999999999"], "— не номер игры"),
        (["games", "seat", "1", "3", "\udcff"], "не текст UTF-8"),
        (["games", "seat", "1", "0", "Аня"], "— не номер места"),
        (["games", "seat", "1", "11", "Аня"], "место 11: в этой игре (классика) места 1..10"),
        (["games", "seat", "1", "3", "Аня" * 21], "длиннее 60 знаков"),
        (["games", "show", "٣"], "— не номер игры"),
        (["games", "recover", "/no/such/file"], "нет такого файла"),
    ],
)
def test_bad_games_arguments_are_one_line(tmp_path, capsys, args, words, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    capsys.readouterr()
    assert main([*args, "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(tmp_path, builtin_pack):
    """The reader is gone before a line is written (`| true`), or after ten bytes (`| head`)."""
    path = tmp_path / "games.sqlite3"
    for _ in range(3):
        stored_game(path)
    for reader in ("true", "head -c 10 > /dev/null"):
        for command in ("games export --all", "games show 1", "games list"):
            proc = subprocess.run(
                [
                    "bash",
                    "-c",
                    f"{' '.join(CLI)} {command} --store {path} | {reader}; echo ${{PIPESTATUS[0]}}",
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
            )
            assert proc.stdout in ("141\n", "0\n") and proc.stderr == "", (command, reader, proc)
            if reader == "true":
                assert proc.stdout == "141\n", (command, proc)


@pytest.mark.slow
def test_ctrl_c_at_the_resume_question_ends_quietly(tmp_path, builtin_pack):
    from engine import DealRoles, Role

    path = tmp_path / "games.sqlite3"
    store = Store(path, create=True)
    game = store.games.new_game("classic", "host")  # a table's game, cut off after the deal
    roles = ((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF), (8, Role.MAFIA))
    store.games.append(game, 1, 0.0, DealRoles(roles=roles))
    store.close()
    proc = subprocess.Popen(
        [*CLI, "run", "--panel", "mock", "--audio", "null", "--store", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 60
        line = ""
        while "не окончена" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        assert "не окончена" in line
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err
    assert Store(path).games.last_seq(game) == 1  # nothing written


def test_games_recover_refuses_the_current_store(tmp_path, capsys, builtin_pack):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    capsys.readouterr()
    assert main(["games", "recover", str(path), "--store", str(path)]) == 2
    one_line_error(capsys.readouterr().err, "это и есть текущее хранилище")


def test_games_list_shows_a_damaged_row_as_question_marks(tmp_path, capsys, builtin_pack):
    """Values of a damaged row that are not what the column holds (a blob, a
    team that does not exist) are «?»; the list used to end in a TypeError."""
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE games SET mode = x'ff00', winner = 'purple' WHERE id = 1")
    db.close()
    capsys.readouterr()
    assert main(["games", "list", "--store", str(path)]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[0] == "1" and row.count("?") == 2
