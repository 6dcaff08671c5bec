"""``host-device club send`` and ``club status``: the box's outbox by hand.

``club send`` does now what the background does at the table: every
finished game that waits is sent to the club's database; exit 0 when all
went, 1 when something could not be sent (the server away, a bad address
or password: one line, the games wait; a game the club refused), 2 for bad
input (no store, no database named). ``club status`` says what waits, what
was sent, what the club refused and why, and the last error."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from host_device.cli import flags
from host_device.clubdb.errors import NOT_COUNTED
from host_device.store.db import Store
from voices.words import local_time

LISTED = 10  # game numbers shown in a line before «…»
UNSENDABLE = "не отправляется: "  # clubdb/sender.py's reason for a game that does not replay


def _store(args: argparse.Namespace) -> Store:
    return Store(Path(args.store) if args.store else None, create=False)


def _games(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:LISTED])
    return shown + (f" … (ещё {len(ids) - LISTED})" if len(ids) > LISTED else "")


def cmd_send(args: argparse.Namespace) -> int:
    from host_device.clubdb.faults import checked_url
    from host_device.clubdb.sender import described, send_waiting

    url = checked_url(flags.club_db_url(args))  # a mistyped address is bad input, whether or not a game waits
    store = _store(args)
    try:
        if args.again:
            store.outbox.forget_sent()
        report = send_waiting(store, url)
    finally:
        store.close()
    for line in described(report, url):
        print(line, flush=True)
    return 1 if report.error or report.refused or report.damaged else 0


def cmd_status(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        status = store.outbox.status()
    finally:
        store.close()
    if status.waiting:
        print(f"ждут отправки: {len(status.waiting)} (игры {_games(status.waiting)})")
    else:
        print("ждут отправки: нет")
    last = f", последняя — {local_time(status.last_sent_at)}" if status.last_sent_at else ""
    print(f"отправлено в базу клуба: {status.sent}{last}")
    for refusal in status.refused:
        at = local_time(refusal.at)
        if refusal.reason.startswith(UNSENDABLE):  # the box's own refusal: it does not replay
            print(f"не отправляется: игра {refusal.game} ({at}): {refusal.reason.removeprefix(UNSENDABLE)}")
        elif refusal.reason.startswith(NOT_COUNTED):  # stored, its tournament link not: said so
            print(f"игра {refusal.game} ({at}): {refusal.reason}")
        else:
            print(f"не принята базой клуба: игра {refusal.game} ({at}): {refusal.reason}")
    for game, reason in status.damaged:
        print(f"не отправляется: игра {game} повреждена: {reason}")
    if status.error is not None and status.error_at is not None:
        print(f"последняя ошибка ({local_time(status.error_at)}): {status.error}")
    if status.attempt_at is not None:
        print(f"последняя попытка: {local_time(status.attempt_at)}")
    return 0


def add(sub: Any) -> None:
    """``send`` and ``status`` on the ``club`` command group's subparsers."""
    p = sub.add_parser("send", help="отправить в базу клуба оконченные игры, которые ждут, сейчас")
    flags.store(p)
    flags.club_db(p)
    flags.config(p, "файл настроек (его [club].database)")
    p.add_argument(
        "--again",
        action="store_true",
        help="отправить все оконченные игры заново (новая или восстановленная база клуба "
        "сохранит недостающие)",
    )
    p.set_defaults(func=cmd_send)
    p = sub.add_parser("status", help="что ждёт отправки в базу клуба, что отправлено, что отклонено")
    flags.store(p)
    p.set_defaults(func=cmd_status)
