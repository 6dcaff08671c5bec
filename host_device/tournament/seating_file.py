"""A round's table read from a seating file, for a box that cannot reach the
store or the club's database holding the tournament: the file is what
``host-device tournament export NAME --what seating --format json`` writes
(``rows`` of тур, стол, место, игрок, id), and ``run --tournament-file FILE
--table T --round R`` names the table's seats from it (playing.py). The
same JSON, published in the club's database (``tournament publish``), is
what ``run --tournament`` takes when the box's store lacks the tournament
(:func:`table_of`)."""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from host_device.base import names
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import read_json

SEATS = 10
KEYS = ("тур", "стол", "место", "игрок", "id")
# a seating file's most: 100 rounds of 20 tables (run's --round and --table) as export writes them
# take about 3 MB; a file beyond this is not a seating, and is refused before it is read
SEATING_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class FileTable:
    tournament: str
    table: int
    round: int
    players: tuple[tuple[str, str], ...]  # (id, name) by seat, from seat 1
    path: Path | None = None  # the file it was read from (the evening's next game reads its next round)
    named_by: str = "по файлу рассадки"  # how the terminal says the seats were named


def shell_command(before: str, name: str, after: str = "", option: str = "") -> str:
    """``before NAME after`` (or ``before OPTION NAME after``), a command printed for a person to
    paste into a shell: the tournament's name quoted for it (a «'», «;», «$(…)» or «`» in a name
    runs nothing), and a name that begins with «-» is never read as an option (``--club-db=…``):
    put last after «--», or joined to its option by «=». Every hint naming a tournament is built here."""
    word = shlex.quote(name)
    dash = name.startswith("-")
    if option:
        words: tuple[str, ...] = (before, f"{option}={word}" if dash else f"{option} {word}", after)
    else:
        words = (before, after, "--", word) if dash else (before, word, after)
    return " ".join(w for w in words if w)


def _load(path: Path) -> Any:
    """The file's JSON, read within limits (base/files.py): a FIFO, a device, a folder or a file
    over SEATING_BYTES is one line, at once; what is not JSON (not UTF-8, nested too deep, a lone
    surrogate) is None, which :func:`seating_rows` refuses as not a seating."""
    try:
        return read_json(path, SEATING_BYTES)
    except OSError as exc:
        raise HostDeviceError(
            f"{path}: файл рассадки не прочитан: {os_reason(exc)}; проверьте путь"
        ) from None
    except ValueError:
        return None


def _text(value: Any) -> TypeGuard[str]:
    """A non-empty string that can be written anywhere (no lone surrogate: a database's seating
    does not come through read_json)."""
    if not isinstance(value, str) or not value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def seating_rows(data: Any, where: str) -> tuple[str, list[tuple[int, int, int, str, str]]]:
    """The seating's tournament and its rows; one line naming ``where`` it came from when it is not one."""
    bad = HostDeviceError(
        f"{where}: это не рассадка турнира; выгрузите её: "
        "host-device tournament export НАЗВАНИЕ --what seating --format json -o ФАЙЛ"
    )
    if not isinstance(data, dict) or data.get("what") != "seating" or not isinstance(data.get("rows"), list):
        raise bad
    name = data.get("tournament")
    rows = []
    for row in data["rows"]:
        if not isinstance(row, dict) or any(k not in row for k in KEYS):
            raise bad
        r, t, s, player, pid = (row[k] for k in KEYS)
        if not all(type(v) is int for v in (r, t, s)) or not all(_text(v) for v in (player, pid)):
            raise bad
        try:  # the one door for names and ids (host_device/base/names.py), before any game is made
            player, pid = names.player_name(player), names.player_id(pid)
        except names.BadName as exc:
            raise HostDeviceError(f"{where}: тур {r}, стол {t}, место {s}: {exc}") from None
        rows.append((r, t, s, player, pid))
    if not _text(name):
        raise bad
    try:
        name = names.tournament_name(name)
    except names.BadName as exc:
        raise HostDeviceError(f"{where}: {exc}") from None
    return name, rows


def read_table(path: Path, table: int, round_no: int) -> FileTable:
    """Table ``table`` of round ``round_no`` (both from 1) of the seating file at ``path``."""
    return dataclasses.replace(table_of(_load(path), table, round_no, str(path)), path=path)


def table_of(data: Any, table: int, round_no: int, where: str) -> FileTable:
    """Table ``table`` of round ``round_no`` of a seating's JSON (a file's, or the one
    published in the club's database), ``where`` naming it in a refusal."""
    name, rows = seating_rows(data, where)
    rounds = sorted({r for r, *_ in rows})
    if round_no not in rounds:
        raise HostDeviceError(
            f"тур {round_no}: в рассадке {where} (турнир «{name}») туры 1–{max(rounds, default=0)}"
        )
    tables = sorted({t for r, t, *_ in rows if r == round_no})
    if table not in tables:
        raise HostDeviceError(f"стол {table}: в туре {round_no} рассадки {where} столы 1–{max(tables)}")
    seats = sorted((s, pid, player) for r, t, s, player, pid in rows if (r, t) == (round_no, table))
    if [s for s, *_ in seats] != list(range(1, SEATS + 1)) or len({pid for _s, pid, _p in seats}) != SEATS:
        raise HostDeviceError(
            f"{where}: стол {table} тура {round_no} — не десять разных игроков на местах 1–10; "
            "выгрузите рассадку заново: host-device tournament export НАЗВАНИЕ --what seating --format json"
        )
    return FileTable(name, table, round_no, tuple((pid, player) for _s, pid, player in seats))
