"""``host-device games protocol --date YYYY-MM-DD --to FILE.html|FILE.pdf``:
the evening's protocol, a referee's form a finished game and a summary."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import replacing
from host_device.base.text import shorten
from host_device.cli import flags
from host_device.club.build import record_of
from host_device.club.protocol import local_day, parse_day
from host_device.club.protocol_evening import Evening, evening
from host_device.club.record import GameRecord
from host_device.club.scoring import club_table, points
from host_device.store.db import Store
from host_device.store.faults import DamagedGame, StoreError

FORMATS = (".html", ".pdf")


def day_argument(text: str) -> datetime.date:
    try:
        return parse_day(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 30)!r} — не дата; нужно ГГГГ-ММ-ДД, например 2026-11-20"
        ) from None


def file_argument(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 60)!r}: протокол пишется в .html или .pdf — укажите файл с таким окончанием"
        )
    return path


def _render(ev: Evening, path: Path) -> bytes:
    if path.suffix.lower() == ".pdf":
        from host_device.club.protocol_pdf import render_pdf  # matplotlib: only when a PDF is asked for

        return render_pdf(ev)
    from host_device.club.protocol_html import render_html

    return render_html(ev).encode("utf-8")


def _from_club_db(args: argparse.Namespace, day: datetime.date) -> list[GameRecord]:
    from host_device.clubdb.db import ClubDB

    if args.store:
        raise HostDeviceError("--store и --club-db вместе нельзя: укажите одно из двух")
    with ClubDB.open(flags.club_db_url(args)) as db:
        return [r for r in db.records() if local_day(r.started_at) == day.isoformat()]


def _from_store(
    args: argparse.Namespace,
    day: datetime.date,
    records: list[GameRecord],
    damaged: list[DamagedGame],
    rows: list[Any],
) -> None:
    store = Store(Path(args.store) if args.store else None, create=False)
    try:
        for row in store.games.all():
            if not isinstance(row.started_at, str):  # a damaged row: its day is unknown
                damaged.append(DamagedGame(row.id, "время начала не читается"))
            elif local_day(row.started_at) == day.isoformat():
                rows.append(row)
        for row in rows:
            try:
                records.append(record_of(store, row.id))
            except StoreError as exc:  # a damaged game: left out, named
                damaged.append(exc if isinstance(exc, DamagedGame) else DamagedGame(row.id, str(exc)))
    finally:
        store.close()


def cmd_protocol(args: argparse.Namespace) -> int:
    day: datetime.date = args.date
    table = club_table(
        Path(args.config) if args.config else None
    )  # a bad table: said before the store is read
    records: list[GameRecord] = []
    damaged: list[DamagedGame] = []
    rows: list[Any] = []
    if getattr(args, "club_db", None):  # every table's games of the day, from the club's database
        rows = records = _from_club_db(args, day)
    else:
        _from_store(args, day, records, damaged, rows)
    if not rows:
        unread = f"; не читаются: {', '.join(f'№ {exc.game_id}' for exc in damaged)}" if damaged else ""
        raise HostDeviceError(
            f"{day.isoformat()}: в этот день игр нет{unread} (какие есть: host-device games list)"
        )
    if not any(r.finished for r in records):
        unfinished = [f"№ {r.id}" for r in records] + [f"№ {exc.game_id} (повреждена)" for exc in damaged]
        raise HostDeviceError(
            f"{day.isoformat()}: ни одна игра этого дня не окончена (не окончены: {', '.join(unfinished)})"
        )
    ev = evening(records, day, lambda record: points(record, table))
    data = _render(ev, args.to)
    try:
        with replacing(args.to) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise HostDeviceError(f"{args.to}: не удалось записать протокол: {os_reason(exc)}") from None
    for skipped in damaged:
        print(
            f"host-device: пропущена: {skipped} (см.: host-device games check)", file=sys.stderr, flush=True
        )
    print(
        f"{args.to}: протокол вечера {day.isoformat()} — игр: {len(ev.games)}, страниц: {len(ev.games) + 1}"
    )
    return 1 if damaged else 0


def add_command(sub: Any) -> None:
    """``games protocol`` (its --store is added with the other games commands')."""
    p = sub.add_parser("protocol", help="протокол вечера: бланк судьи на каждую оконченную игру и сводка")
    p.add_argument(
        "--date", type=day_argument, required=True, metavar="ГГГГ-ММ-ДД", help="местная дата начала игр"
    )
    p.add_argument(
        "--to", type=file_argument, required=True, metavar="ФАЙЛ.html|ФАЙЛ.pdf", help="куда сохранить"
    )
    flags.club_db(p, default="читать из неё, только если задана; без неё — хранилище этой коробки")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    p.set_defaults(func=cmd_protocol)
