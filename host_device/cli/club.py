"""``host-device club``: the club's PostgreSQL database (docs/club-database.md;
the club's guide: docs/guide/club-database.md): ``init`` makes or migrates its
schema, ``web`` serves the club's pages of every table's games from it.
``flags.club_db_url`` is where every command with ``--club-db`` finds the
database (the flag, else the config's ``[club] database``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host_device.cli import flags
from host_device.cli.club_outbox import add as add_outbox
from host_device.config import load_config, parse_address

if TYPE_CHECKING:
    from host_device.clubdb.tournaments import Published


def cmd_init(args: argparse.Namespace) -> int:
    from host_device.clubdb.db import ClubDB
    from host_device.clubdb.errors import shown

    url = flags.club_db_url(args)
    with ClubDB.open(url) as db:
        found, now = db.init()
        counts = db.counts()
    if found == now:
        print(f"{shown(url)}: база клуба уже версии {now}; игр: {counts.games}, игроков: {counts.players}")
    elif found == 0:
        print(f"{shown(url)}: база клуба создана (версия {now})")
    else:
        print(f"{shown(url)}: база клуба обновлена с версии {found} до {now}")
    return 0


SEATINGS_SHOWN = 3  # the newest published seatings ``club pull`` names (the rest counted)


def seating_lines(seatings: list[Published]) -> list[str]:
    """What the club's database holds for the tournaments' boxes: each seating published (the newest
    first) with its players and rounds, and that a box of a tournament needs nothing more."""
    from host_device.tournament.seating_file import shell_command
    from voices.forms import agree

    lines = []
    for one in seatings[:SEATINGS_SHOWN]:
        if one.spoiled:
            lines.append(
                f"в базе клуба рассадка турнира «{one.name}» испорчена (не таблица рассадки); "
                "опубликуйте её снова: host-device tournament publish"
            )
            continue
        lines.append(
            f"в базе клуба рассадка турнира «{one.name}»: {one.players} {agree('игрок', one.players)}, "
            f"{one.rounds} {agree('тур', one.rounds)}"
        )
    if len(seatings) > SEATINGS_SHOWN:
        more = len(seatings) - SEATINGS_SHOWN
        lines.append(f"и ещё {more} {agree('рассадка', more)} опубликованных раньше турниров")
    if any(not one.spoiled for one in seatings):
        name = seatings[0].name if len(seatings) == 1 else "НАЗВАНИЕ"
        lines.append(
            "коробкам турнира больше ничего не нужно: каждая берёт игроков своего стола вместе с "
            "рассадкой — "
            + shell_command("host-device run", name, "--table T --round R --club-db АДРЕС", "--tournament")
        )
    return lines


def roster_line(added: int, in_club: int) -> str:
    """What ``club pull`` did to this box's list of players, said so that none reads as a failure."""
    if in_club == 0:
        return (
            "список игроков в базе клуба пока пуст (игроки попадают в него с первыми играми коробок): "
            "в эту коробку добавлять некого"
        )
    if added == 0:
        return f"из базы клуба: игроков добавлено 0 — все уже в этой коробке (в базе клуба {in_club})"
    return f"из базы клуба: игроков добавлено {added} (в базе клуба {in_club})"


def cmd_pull(args: argparse.Namespace) -> int:
    """The club's roster into this box's store: the players every table knows, by their UUIDs,
    so that a name picked here is the club's player (and one person is one player); and what the
    database holds for a tournament's boxes (its seating: they need nothing more)."""
    from host_device.clubdb.db import ClubDB
    from host_device.clubdb.errors import shown
    from host_device.store.db import Store

    url = flags.club_db_url(args)
    with ClubDB.open(url) as db:
        names, merged = db.roster()
        seatings = db.tournaments.seatings()
    store = Store(Path(args.store) if args.store else None)
    try:
        added = store.roster.import_players(
            [(pid, name, nick, merged.get(pid), None) for pid, (name, nick) in sorted(names.items())],
            source=f"база клуба {shown(url)}",
        )
        folded: dict[str, list[str]] = {}
        for player in store.roster.players():
            folded.setdefault(player.name.casefold(), []).append(player.name)
    finally:
        store.close()
    for line in [*seating_lines(seatings), roster_line(added, len(names))]:
        print(line)
    twice = sorted(found[0] for found in folded.values() if len(found) > 1)
    if twice:
        print(
            "одно имя у двух игроков: "
            + ", ".join(f"«{name}»" for name in twice)
            + " — если это один человек: host-device players merge КОГО_ОСТАВИТЬ КОГО_ОБЪЕДИНИТЬ"
        )
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from host_device.clubdb.db import ClubDB
    from host_device.web.club_serve import serve_club

    url = flags.club_db_url(args)
    with ClubDB.open(url) as db:  # a bad URL, password or schema: said now, not on the first page
        counts = db.counts()
    config = load_config(Path(args.config) if args.config else None)
    host, port = parse_address(args.listen)
    print(f"База клуба: игр {counts.finished}, игроков {counts.players}, столов {counts.boxes}", flush=True)
    serve_club(url, host, port, lambda line: print(line, flush=True), scoring=config.scoring)
    return 0


def add_commands(commands: Any) -> None:
    p = commands.add_parser(
        "club", help="база клуба (PostgreSQL): создание, список игроков, отправка, состояние, страницы"
    )
    sub = p.add_subparsers(dest="club_command", required=True, metavar="ДЕЙСТВИЕ")

    q = sub.add_parser("init", help="создать или обновить схему базы клуба (повторно — ничего не меняет)")
    flags.club_db(q)
    flags.config(q, help="файл настроек, где [club].database называет базу")
    q.set_defaults(func=cmd_init)

    q = sub.add_parser("pull", help="список игроков клуба — в хранилище этой коробки (человек — один игрок)")
    flags.club_db(q)
    flags.store(q)
    flags.config(q, help="файл настроек, где [club].database называет базу")
    q.set_defaults(func=cmd_pull)

    q = sub.add_parser("web", help="показывать страницы клуба по играм всех столов из базы клуба")
    flags.club_db(q)
    q.add_argument(
        "--listen",
        default="8080",
        metavar="[АДРЕС:]ПОРТ",
        help="где показывать (по умолчанию 8080 на всех сетях машины; 127.0.0.1:8080 — только на ней)",
    )
    flags.config(q, help="файл настроек, чьи [club].database и [club].scoring берут страницы")
    q.set_defaults(func=cmd_web)

    add_outbox(sub)  # club send, club status (host_device/cli/club_outbox.py)
