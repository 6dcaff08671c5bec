"""``run --tournament-file FILE --table T --round R``: a box without the
tournament's store names its seats from the exported seating file."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from host_device.cli.main import main
from host_device.store import Store
from host_device.tournament.seating_file import SEATING_BYTES
from tests.host_device.tournament.test_cli import NAMES, run, seating_of


@pytest.fixture
def seating_file(tmp_path: Path, capsys: Any) -> Path:
    """The seating of a tournament of twenty players (two tables, three rounds), exported."""
    club = tmp_path / "club.sqlite3"
    store = Store(club)
    for name in NAMES:
        store.roster.add_player(name)
    store.close()
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    target = tmp_path / "seating.json"
    code, _out, _err = run(
        capsys,
        club,
        "tournament",
        "export",
        "Кубок",
        "--what",
        "seating",
        "--format",
        "json",
        "-o",
        str(target),
    )
    assert code == 0
    return target


def test_a_box_without_the_tournament_names_the_seats_from_the_file(
    seating_file: Path, tmp_path: Path, capsys: Any, monkeypatch: Any, builtin_pack: Any
) -> None:
    from host_device.runtime.clock import VirtualClock
    from host_device.session.host import Host
    from host_device.tournament.seating_file import read_table
    from tests.helpers.host import args

    table = seating_of(capsys, tmp_path / "club.sqlite3", 3)[1]
    box = tmp_path / "box.sqlite3"  # a box's own store: no tournament, no players
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    chosen = read_table(seating_file, 2, 3)
    host = Host(
        args(store=str(box), tournament_table=chosen, web="127.0.0.1:0"), clock=VirtualClock(limit=3600)
    )
    assert host.run() == 0
    # the TV page and the console head their title with the table and the round
    from host_device.screens.public import public_state
    from host_device.screens.views import console_view

    assert public_state(host.publisher.stream)["table"] == "Стол 2 · игра 3"
    assert console_view(host.console)["table"] == "Стол 2 · игра 3"
    out = capsys.readouterr().out
    assert "Стол 2 · игра 3: турнир «Кубок», места названы по файлу рассадки" in out
    assert "турнира нет" not in out
    club = Store(tmp_path / "club.sqlite3")
    ids = {p.name: p.id for p in club.roster.players()}
    club.close()
    store = Store(box)
    (game,) = [g.id for g in store.games.all()]
    seated = sorted(store.roster.seating(game).items())
    assert [p.name for _s, p in seated] == table
    assert [p.id for _s, p in seated] == [ids[name] for name in table]  # the club's ids, for its database
    # linked by the tournament's name (made in the box's store): the club's database ranks it
    assert store.tournaments.link_of(game) == ("Кубок", 3, 2)
    store.close()


def rewrite(path: Path, change: Any) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")


@pytest.mark.parametrize(
    ("damage", "table", "line"),
    [
        (lambda p: p.write_text("{не json", "utf-8"), 1, "это не рассадка турнира; выгрузите её"),
        (lambda p: rewrite(p, lambda d: d.update(what="standings")), 1, "это не рассадка турнира"),
        (lambda p: rewrite(p, lambda d: d["rows"][3].pop("id")), 1, "это не рассадка турнира"),
        (lambda p: rewrite(p, lambda d: d["rows"].pop(3)), 1, "стол 1 тура 1 — не десять разных игроков"),
        (lambda p: p.unlink(), 1, "файл рассадки не прочитан"),
        (lambda p: None, 3, "стол 3: в туре 1 рассадки"),
    ],
)
def test_a_bad_seating_file_is_one_line_and_no_game(
    seating_file: Path, tmp_path: Path, capsys: Any, damage: Any, table: int, line: str
) -> None:
    damage(seating_file)
    box = tmp_path / "box.sqlite3"
    code = main(
        [
            *("run", "--panel", "mock", "--audio", "null", "--store", str(box)),
            *("--tournament-file", str(seating_file), "--table", str(table), "--round", "1"),
        ]
    )
    err = capsys.readouterr().err
    assert code != 0 and line in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not box.exists() or Store(box).games.all() == []


def test_the_file_goes_with_table_and_round_not_with_a_tournament_name(
    seating_file: Path, capsys: Any
) -> None:
    code = main(["run", "--panel", "mock", "--audio", "null", "--tournament-file", str(seating_file)])
    assert code != 0 and "--tournament-file, --table и --round — вместе" in capsys.readouterr().err


def test_the_evenings_next_game_plays_the_tables_next_round(
    seating_file: Path, tmp_path: Path, capsys: Any
) -> None:
    """«Следующая игра» after a tournament's game: the same table, the next round (by name, or
    read again from the seating file); past the last round, one line naming the rounds."""
    from host_device.base.errors import HostDeviceError
    from host_device.session.evening import next_game
    from host_device.tournament.seating_file import read_table
    from tests.helpers.host import args

    by_name = next_game(args(tournament=("Кубок", 2, 1)))
    assert by_name.tournament == ("Кубок", 2, 2) and by_name.new and by_name.seed == 8
    from_file = next_game(args(tournament_table=read_table(seating_file, 2, 1)))
    assert from_file.tournament_table == read_table(seating_file, 2, 2)
    assert from_file.tournament_table.players != read_table(seating_file, 2, 1).players
    with pytest.raises(HostDeviceError, match="тур 4: в рассадке .* туры 1–3"):
        next_game(args(tournament_table=read_table(seating_file, 2, 3)))


def lone_surrogate(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    data["rows"][0]["игрок"] = "Анна\ud800"
    path.write_text(json.dumps(data), "ascii")  # "\ud800" escaped: valid JSON, not text


def nested(path: Path) -> None:
    path.write_text("[" * 200_000 + "]" * 200_000, "ascii")


def endless(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def fifo(path: Path) -> None:
    """A FIFO with no writer; a reader that waits for one is let go after 2 s (the test fails
    on its time, not by hanging for ever)."""
    path.unlink()
    os.mkfifo(path)

    def let_go() -> None:
        time.sleep(2)
        for _try in range(20):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError:  # no reader (the right thing): try a moment more, then leave
                time.sleep(0.05)

    threading.Thread(target=let_go, daemon=True).start()


def huge(path: Path) -> None:
    with path.open("r+b") as f:
        f.truncate(SEATING_BYTES + 1)  # sparse: nothing written


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (lone_surrogate, "это не рассадка турнира; выгрузите её"),
        (nested, "это не рассадка турнира; выгрузите её"),
        (endless, "файл рассадки не прочитан: не обычный файл"),
        (fifo, "файл рассадки не прочитан: не обычный файл"),
        (huge, f"файл рассадки не прочитан: больше {SEATING_BYTES} байт"),
    ],
    ids=["lone-surrogate", "nesting", "dev-zero", "fifo", "huge"],
)
def test_a_hostile_seating_file_is_one_line_within_a_second_and_no_game(
    seating_file: Path, tmp_path: Path, capsys: Any, damage: Any, line: str
) -> None:
    box = tmp_path / "box.sqlite3"
    damage(seating_file)
    started = time.monotonic()
    code = main(
        [
            *("run", "--panel", "mock", "--audio", "null", "--store", str(box)),
            *("--tournament-file", str(seating_file), "--table", "1", "--round", "1"),
        ]
    )
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert code != 0 and line in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert took < 1, took
    assert not box.exists() or Store(box).games.all() == []


def test_a_player_the_roster_refuses_leaves_no_game(
    seating_file: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    """The seating's players are added before the game is made: whatever the roster refuses
    (a name against its rules), the store keeps no empty unfinished game."""
    from host_device.store.faults import StoreError
    from host_device.store.roster import Roster

    def refuse(self: Any, rows: Any, **_: Any) -> int:
        raise StoreError("игрок «Анна»: имя не годится")

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr(Roster, "import_players", refuse)
    box = tmp_path / "box.sqlite3"
    code = main(
        [
            *("run", "--panel", "mock", "--audio", "null", "--store", str(box)),
            *("--tournament-file", str(seating_file), "--table", "1", "--round", "1"),
        ]
    )
    err = capsys.readouterr().err
    assert code != 0 and "имя не годится" in err and "Traceback" not in err, err
    assert Store(box).games.all() == []


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("id", "../../../../etc/passwd", "тур 1, стол 1, место 4: .*не идентификатор игрока"),
        ("игрок", "x" * 61, "тур 1, стол 1, место 4: .*длиннее 60"),
        ("игрок", "Анна\ud800", "не рассадка турнира"),  # not text: refused whole
    ],
)
def test_a_seatings_rows_go_through_the_names_door_before_any_game(field: str, value: str, said: str) -> None:
    """Issue 46: a seating's names and ids (a file's, or the club database's) pass the one door
    (base/names.py) as they are read, one line naming the round, table and seat."""
    from host_device.base.errors import HostDeviceError
    from host_device.tournament.seating_file import seating_rows

    rows = [
        {"тур": 1, "стол": 1, "место": s, "игрок": f"И{s}", "id": f"00000000-0000-4000-8000-{s:012d}"}
        for s in range(1, 11)
    ]
    rows[3][field] = value
    with pytest.raises(HostDeviceError, match=said):
        seating_rows({"tournament": "Кубок", "what": "seating", "rows": rows}, "f.json")
