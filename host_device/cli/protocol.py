"""``host-device games protocol --date YYYY-MM-DD --to FILE.html|FILE.pdf``:
the evening's protocol, a referee's form a finished game and a summary; with
``--form fiim`` (and ``--date`` or ``--game N``) the games on the federation's
paper form instead, two pages a game (host_device/club/fiim_form.py)."""

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
FORM_KINDS = ("club", "fiim")  # the club's protocol; the FIIM paper form


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


def _from_club_db(args: argparse.Namespace, day: datetime.date | None) -> list[GameRecord]:
    from host_device.clubdb.db import ClubDB

    if args.store:
        raise HostDeviceError("--store и --club-db вместе нельзя: укажите одно из двух")
    with ClubDB.open(flags.club_db_url(args)) as db:
        return [r for r in db.records() if day is None or local_day(r.started_at) == day.isoformat()]


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


def _check_form(args: argparse.Namespace) -> None:
    """What only the FIIM form takes, and what it needs, said before anything is read."""
    if args.form == "fiim":
        if args.to.suffix.lower() != ".pdf":
            raise HostDeviceError("--form fiim: бланк ФИИМ пишется в .pdf — укажите файл с таким окончанием")
        if (args.date is None) == (args.game is None):
            raise HostDeviceError("--form fiim: укажите --date ГГГГ-ММ-ДД (все игры дня) или --game N (одну)")
        return
    given = [f for f in ("game", "tournament", "stage", "table", "judge") if getattr(args, f) is not None]
    if given:
        raise HostDeviceError(f"--{given[0]} — только для бланка ФИИМ: добавьте --form fiim")
    if args.date is None:
        raise HostDeviceError("--date: укажите день игр, ГГГГ-ММ-ДД")


def _one_game(args: argparse.Namespace) -> list[GameRecord]:
    """``--game N``: that game, from the store (or the club's database)."""
    if getattr(args, "club_db", None):
        found = [r for r in _from_club_db(args, None) if r.id == args.game]
        if not found:
            raise HostDeviceError(f"игры № {args.game} нет в базе клуба")
        return found
    store = Store(Path(args.store) if args.store else None, create=False)
    try:
        record = record_of(store, args.game)
    finally:
        store.close()
    if not record.finished:
        raise HostDeviceError(f"игра № {args.game} не окончена: бланк — после её конца (роли до него тайна)")
    return [record]


def _write(path: Path, data: bytes) -> None:
    try:
        with replacing(path) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise HostDeviceError(f"{path}: не удалось записать протокол: {os_reason(exc)}") from None


def _fiim(args: argparse.Namespace, records: list[GameRecord], table: Any) -> list[str]:
    """The finished games on the FIIM form, written to --to; returns a line a game left out."""
    from host_device.club.fiim_form import FormDoesNotFit, Header, fiim_form, render_fiim

    header = Header(*(getattr(args, f) or "" for f in ("tournament", "stage", "table", "judge")))
    forms, left_out = [], []
    for record in sorted((r for r in records if r.finished), key=lambda r: (r.started_at, r.id)):
        try:
            forms.append(fiim_form(record, points(record, table), header))
        except FormDoesNotFit as exc:
            left_out.append(str(exc))
    if not forms:
        raise HostDeviceError(f"бланк ФИИМ не из чего составить: {'; '.join(left_out)}")
    _write(args.to, render_fiim(forms, f"Бланки ФИИМ: {', '.join(f'№ {f.game}' for f in forms)}"))
    for form in forms:
        if form.more_votes:
            print(f"№ {form.game}: {form.more_votes}")
    print(f"{args.to}: бланки ФИИМ — игр: {len(forms)}, страниц: {2 * len(forms)}")
    return left_out


def cmd_protocol(args: argparse.Namespace) -> int:
    _check_form(args)
    day: datetime.date = args.date
    table = club_table(
        Path(args.config) if args.config else None
    )  # a bad table: said before the store is read
    records: list[GameRecord] = []
    damaged: list[DamagedGame] = []
    rows: list[Any] = []
    if args.game is not None:
        rows = records = _one_game(args)
    elif getattr(args, "club_db", None):  # every table's games of the day, from the club's database
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
    if args.form == "fiim":
        left_out = _fiim(args, records, table)
        for line in left_out:
            print(f"host-device: не на бланке: {line}", file=sys.stderr, flush=True)
    else:
        ev = evening(records, day, lambda record: points(record, table))
        _write(args.to, _render(ev, args.to))
    for skipped in damaged:
        print(
            f"host-device: пропущена: {skipped} (см.: host-device games check)", file=sys.stderr, flush=True
        )
    if args.form != "fiim":
        pages = len(ev.games) + 1
        print(f"{args.to}: протокол вечера {day.isoformat()} — игр: {len(ev.games)}, страниц: {pages}")
    return 1 if damaged else 0


def add_command(sub: Any) -> None:
    """``games protocol`` (its --store is added with the other games commands')."""
    p = sub.add_parser("protocol", help="протокол вечера: бланк судьи на каждую оконченную игру и сводка")
    p.add_argument(
        "--date",
        type=day_argument,
        metavar="ГГГГ-ММ-ДД",
        help="местная дата начала игр (нужна, кроме --game)",
    )
    p.add_argument(
        "--to", type=file_argument, required=True, metavar="ФАЙЛ.html|ФАЙЛ.pdf", help="куда сохранить"
    )
    p.add_argument(
        "--form",
        choices=FORM_KINDS,
        default="club",
        help="club — протокол клуба (по умолчанию); fiim — бланк ФИИМ (A4 альбомный, две страницы на игру)",
    )
    p.add_argument("--game", type=int, metavar="N", help="бланк ФИИМ одной игры (вместо --date)")
    for name, what in (
        ("tournament", "турнир"),
        ("stage", "стадия турнира"),
        ("table", "номер стола"),
        ("judge", "судья"),
    ):
        p.add_argument(f"--{name}", metavar="ТЕКСТ", help=f"бланк ФИИМ: {what} (без неё — пусто, для ручки)")
    flags.club_db(p, default="читать из неё, только если задана; без неё — хранилище этой коробки")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    p.set_defaults(func=cmd_protocol)
