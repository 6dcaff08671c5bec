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
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError, os_reason

SEATS = 10
KEYS = ("тур", "стол", "место", "игрок", "id")


@dataclass(frozen=True)
class FileTable:
    tournament: str
    table: int
    round: int
    players: tuple[tuple[str, str], ...]  # (id, name) by seat, from seat 1
    path: Path | None = None  # the file it was read from (the evening's next game reads its next round)
    named_by: str = "по файлу рассадки"  # how the terminal says the seats were named


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise HostDeviceError(
            f"{path}: файл рассадки не прочитан: {os_reason(exc)}; проверьте путь"
        ) from None
    except (UnicodeDecodeError, ValueError):
        return None


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
        if not all(type(v) is int for v in (r, t, s)) or not all(
            isinstance(v, str) and v for v in (player, pid)
        ):
            raise bad
        rows.append((r, t, s, player, pid))
    if not isinstance(name, str) or not name:
        raise bad
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
