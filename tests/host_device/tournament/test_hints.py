"""Every command the box prints for a person to run that names a tournament (on the terminal or
the venue page) is pasted into a real shell with a hostile name: nothing but the command runs
(no MARKER appears), it receives the name as one argument, and its parser reads that argument
as the name, never as an option (issue 46 item 2)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host_device.base.errors import HostDeviceError
from host_device.cli.main import build_parser, main
from host_device.store import Store
from tests.host_device.tournament.test_cli import NAMES

HOSTILE = [
    "Кубок'; touch MARKER; echo '",
    'Кубок "; touch MARKER; echo "',
    "Кубок $(touch MARKER)",
    "Кубок `touch MARKER`",
    "Кубок' && touch MARKER #",
    "-x; touch MARKER",
    "--club-db=evil",  # an option, were it read as one
]
PLACEHOLDERS = {"T": "1", "R": "1"}  # what a person types for them (АДРЕС stays a string)


def pasted(text: str, after: str, stop: str, tmp_path: Path) -> list[str]:
    """The command of ``text`` between ``after`` and the last ``stop`` (the line's end when
    empty), as a person selects it, pasted into bash in a folder of its own with a
    ``host-device`` that only writes down its arguments: those arguments; nothing else ran."""
    line = text.strip()
    begin = line.index(after) + len(after)
    command = line[begin : line.rindex(stop) if stop else len(line)]
    assert command.startswith("host-device "), command
    work = tmp_path / "paste"
    work.mkdir(exist_ok=True)
    for old in work.iterdir():
        old.unlink()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stub = bin_dir / "host-device"
    stub.write_text(
        f"#!{sys.executable}\nimport json, sys\nopen('argv.json', 'w').write(json.dumps(sys.argv[1:]))\n"
    )
    stub.chmod(0o755)
    assert subprocess.run(["bash", "-n", "-c", command], check=False).returncode == 0, command
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(work)}
    subprocess.run(["bash", "-c", command], cwd=work, env=env, check=False, timeout=30)
    assert sorted(p.name for p in work.iterdir()) == ["argv.json"], command  # no MARKER, nothing else
    return json.loads((work / "argv.json").read_text())


def named(argv: list[str], attribute: str = "name") -> str:
    """The tournament's name as host-device's own parser reads the pasted arguments."""
    args = build_parser().parse_args([PLACEHOLDERS.get(a, a) for a in argv])
    return str(getattr(args, attribute))


def club_with_players(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite3"
    store = Store(path)
    for player in NAMES:
        store.roster.add_player(player)
    store.close()
    return path


def create(club: Path, name: str, capsys: Any) -> str:
    code = main(["tournament", "create", "--store", str(club), "--rounds", "2", "--", name, *NAMES])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


class FakeClub:
    """A club's database as ClubDB.open gives it: nothing published, nothing to take."""

    def __init__(self) -> None:
        self.tournaments = self

    def __enter__(self) -> FakeClub:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def publish(self, *args: object) -> None:
        return None

    def take(self, *args: object) -> None:
        return None

    def published(self) -> list[str]:
        return []

    def seating_of(self, name: str) -> None:
        return None


@contextlib.contextmanager
def fake_club(monkeypatch: Any, failing: bool = False) -> Iterator[None]:
    from host_device.clubdb.db import ClubDB
    from host_device.clubdb.errors import Unreachable

    def open_(url: str, timeout: float = 0) -> FakeClub:
        if failing:
            raise Unreachable("база клуба недоступна")
        return FakeClub()

    with monkeypatch.context() as patch:
        patch.setattr(ClubDB, "open", staticmethod(open_))
        yield


@pytest.mark.parametrize("name", HOSTILE)
def test_tournament_commands_print_hints_a_shell_runs_as_they_read(
    name: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    club = club_with_players(tmp_path)
    out = create(club, name, capsys)
    argv = pasted(out, "показать: ", ")", tmp_path)
    assert argv[:2] == ["tournament", "show"] and named(argv) == name

    assert main(["tournament", "standings", "--store", str(club), "--", name]) == 0
    out = capsys.readouterr().out
    argv = pasted(out, "в базе клуба: ", "; игра этой коробки", tmp_path)
    assert argv[:2] == ["tournament", "standings"] and named(argv) == name

    with fake_club(monkeypatch):
        code = main(
            ["tournament", "publish", "--store", str(club), "--club-db", "postgresql://x/y", "--", name]
        )
    out, err = capsys.readouterr()
    assert code == 0, err
    argv = pasted(out, "сами — ", "", tmp_path)
    assert argv[0] == "run" and named(argv, "tournament") == name


@pytest.mark.parametrize("name", HOSTILE)
def test_a_box_without_the_seating_prints_hints_a_shell_runs_as_they_read(
    name: str, tmp_path: Path, monkeypatch: Any
) -> None:
    from host_device.tournament.playing import published_table

    with fake_club(monkeypatch), pytest.raises(HostDeviceError) as nothing:
        published_table("postgresql://x/y", name, 1, 1, "турнира нет")
    argv = pasted(str(nothing.value), "тоже нет: ", " на машине турнира, или", tmp_path)
    assert argv[:2] == ["tournament", "publish"] and named(argv) == name
    argv = pasted(str(nothing.value), "ФАЙЛ (", " на машине турнира)", tmp_path)
    assert argv[:2] == ["tournament", "export"] and named(argv) == name

    with fake_club(monkeypatch, failing=True), pytest.raises(HostDeviceError) as unreachable:
        published_table("postgresql://x/y", name, 1, 1, "турнира нет")
    argv = pasted(str(unreachable.value), "ФАЙЛ (", " на машине турнира)", tmp_path)
    assert argv[:2] == ["tournament", "export"] and named(argv) == name


def seating(name: str, prefix: str) -> dict[str, Any]:
    ids = [str(uuid.UUID(int=(ord(prefix) << 16) + s)) for s in range(1, 11)]  # ids are UUIDs (names.py)
    rows = [{"тур": 1, "стол": 1, "место": s, "игрок": f"И{s}", "id": ids[s - 1]} for s in range(1, 11)]
    return {"tournament": name, "what": "seating", "rows": rows}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_refused_publication_prints_a_hint_a_shell_runs_as_it_reads(name: str, tmp_path: Path) -> None:
    from host_device.tournament.published import keeps_the_rounds_begun

    with pytest.raises(HostDeviceError) as refused:
        keeps_the_rounds_begun(name, seating(name, "b"))(seating(name, "a"), 1)
    argv = pasted(str(refused.value), "с базой клуба — ", " (если это другой", tmp_path)
    assert argv[:2] == ["tournament", "seat"] and named(argv) == name


@pytest.mark.parametrize("name", [*HOSTILE, "Кубок'; rm -rf ~; echo '"])
def test_the_venue_page_of_any_name_in_a_url_prints_a_hint_a_shell_runs_as_it_reads(
    name: str, tmp_path: Path
) -> None:
    """Anyone on the Wi-Fi may send the organiser a link to /tournament/ANY-NAME: the page's
    «опубликуйте его рассадку — host-device tournament publish …» runs only that."""
    from host_device.web.venue_html import BadRound, from_database

    with pytest.raises(BadRound) as missing:
        from_database(FakeClub(), name)
    argv = pasted(str(missing.value), "рассадку — ", " на машине, где он создан", tmp_path)
    assert argv[:2] == ["tournament", "publish"] and named(argv) == name


def test_an_ordinary_name_reads_as_before(tmp_path: Path, capsys: Any) -> None:
    from host_device.tournament.seating_file import shell_command

    assert "show 'Кубок' --round 1)" in create(club_with_players(tmp_path), "Кубок", capsys)
    assert shell_command("host-device run", "Кубок", "--table T", "--tournament") == (
        "host-device run --tournament 'Кубок' --table T"
    )
    assert shell_command("host-device tournament show", "Cup", "--round 1") == (
        "host-device tournament show Cup --round 1"
    )
    assert shell_command("host-device tournament show", "-x", "--round 1") == (
        "host-device tournament show --round 1 -- -x"
    )
    assert shell_command("host-device run", "-x", option="--tournament") == "host-device run --tournament=-x"
