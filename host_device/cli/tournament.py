"""``host-device tournament create|seat|show|game|standings|export``: a
tournament kept in the box's store (host_device/store/tournaments.py), its
seating computed by host_device/tournament/ (docs/tournament.md)."""

from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import replacing
from host_device.base.names import spreadsheet_cell, terminal
from host_device.base.text import columns
from host_device.cli import flags
from host_device.cli.arguments import game_id, number_in
from host_device.store.db import Store
from host_device.store.tournaments import TournamentRow, tournament_name
from host_device.tournament.playing import annul_game, club_annul, club_link, seat_game, set_aside
from host_device.tournament.published import keeps_the_rounds_begun, readable, rounds_of
from host_device.tournament.seating import SEATS, SeatingError, seat
from host_device.tournament.seating_file import shell_command
from host_device.tournament.standings import LABEL, Standing, standings
from host_device.tournament.table_rows import COLUMNS, table_rows
from voices.forms import agree
from voices.words import number as club_number

ROUNDS = number_in(1, 100, "число туров")
ROUND = number_in(1, 100, "номер тура")
TABLE = number_in(1, 20, "номер стола")
SEED = number_in(0, 2**31, "--seed")
WIDTH = 80  # `tournament show`'s lines: a terminal's width
INDENT = "  "


def _with_store(command: Callable[[argparse.Namespace, Store], int], args: argparse.Namespace) -> int:
    store = Store(Path(args.store) if args.store else None)
    try:
        return command(args, store)
    finally:
        store.close()


def _ids(store: Store, names: list[str]) -> list[str]:
    return [store.roster.player(name).id for name in names]


def _apart(store: Store, pairs: list[str]) -> list[tuple[str, str]]:
    out = []
    for text in pairs:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise HostDeviceError(f"--apart «{text}»: два игрока через запятую, например --apart 'Аня,Борис'")
        a, b = _ids(store, parts)
        out.append((a, b))
    return out


def _seating(
    store: Store, row: TournamentRow, players: list[str], elsewhere: int = 0, published: Any = None
) -> tuple[Any, int]:
    """The seating of ``players`` for the rounds not played yet; and how many were played
    (here, or ``elsewhere``: the last round the boxes sent the club's database, or took a table
    of). The rounds kept are the ones the boxes played: the club database's ``published``
    seating where there is one (this store's may have been seated again without it)."""
    played = max(store.tournaments.rounds_played(row.id) if row.id else 0, elsewhere)
    old = store.tournaments.seating(row.id)[:played] if row.id else []
    if published is not None and played:
        old = rounds_of(published, played, row.name)
    apart = [p for p in row.apart if set(p) <= set(players)]
    try:
        return seat(players, row.rounds, apart=apart, played=old, seed=row.seed + played), played
    except SeatingError as exc:
        text = str(exc)
        for pid, name in _names(store).items():
            text = text.replace(pid, name)
        raise SeatingError(text) from None


def cmd_create(args: argparse.Namespace, store: Store) -> int:
    players = _ids(store, args.players)
    apart = _apart(store, args.apart)
    draft = TournamentRow(0, args.name, args.rounds, args.seed, tuple(players), tuple(apart))
    seating, _played = _seating(store, draft, players)  # bad input refused before anything is kept
    tid = store.tournaments.create(args.name, args.rounds, args.seed, players, apart)
    store.tournaments.save_seating(tid, list(seating.rounds), 0)
    row = store.tournaments.get(args.name)
    print(
        f"турнир «{terminal(row.name)}»: игроков {len(players)}, столов {len(players) // SEATS}, "
        f"туров {args.rounds}; "
        f"рассадка готова (показать: {shell_command('host-device tournament show', row.name, '--round 1')})"
    )
    return 0


def cmd_seat(args: argparse.Namespace, store: Store) -> int:
    row = store.tournaments.get(args.name)
    players = list(row.players)
    for pid in _ids(store, args.leave):
        if pid not in players:
            raise HostDeviceError(
                f"{store.roster.player(pid).label} не играет в турнире «{terminal(row.name)}»"
            )
        players.remove(pid)
    players += [pid for pid in _ids(store, args.join) if pid not in players]
    elsewhere, published = 0, None
    if args.club_db:  # the boxes' games are there: their rounds are played
        from host_device.clubdb.db import ClubDB

        with ClubDB.open(args.club_db) as db:  # a round a box has taken a table of has begun: kept
            elsewhere = db.tournaments.last_begun(row.name)
            published = readable(db.tournaments.stored(row.name))  # spoiled: the rounds from this store
    seating, kept = _seating(store, row, players, elsewhere, published)
    if players != list(row.players):
        store.tournaments.set_players(row.id, players)
    # with the club's database its rounds played are written here too (this store's may differ)
    store.tournaments.save_seating(row.id, list(seating.rounds), 0 if published is not None else kept)
    kept_text = (
        "тур 1 сыгран или начат и не тронут"
        if kept == 1
        else f"туры 1–{kept} сыграны или начаты и не тронуты"
    )
    again = f"тур {row.rounds}" if kept + 1 == row.rounds else f"туры {kept + 1}–{row.rounds}"
    if kept >= row.rounds:  # (it said «рассажены заново туры 4–3»)
        again = "пересаживать нечего: все туры уже сыграны или начаты"
    else:
        again = f"рассажены заново {again}"
    print(
        f"турнир «{terminal(row.name)}»: {kept_text}; {again}"
        if kept
        else f"турнир «{terminal(row.name)}»: рассажены все туры ({row.rounds})"
    )
    if args.club_db:
        return cmd_publish(args, store)
    return 0


def _write(path: Path, data: bytes) -> None:
    try:
        with replacing(path) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise HostDeviceError(f"{path}: файл не записан: {os_reason(exc)}; укажите другой путь") from None


def _names(store: Store) -> dict[str, str]:
    return {p.id: p.label for p in store.roster.players()}


def _round(store: Store, row: TournamentRow, number: int) -> Any:
    rounds = store.tournaments.seating(row.id)
    if not 1 <= number <= len(rounds):
        raise HostDeviceError(f"тур {number}: в турнире «{terminal(row.name)}» туры 1–{len(rounds)}")
    return rounds[number - 1]


def _table_lines(number: int, seats: list[str]) -> list[str]:
    """Table ``number`` of a round: its heading, then its seats in two columns
    (1–5 down the left, 6–10 down the right), or one a line when two columns
    of these names would not fit in :data:`WIDTH`."""
    cells = [(f"{s:>2}", name) for s, name in enumerate(seats, 1)]
    half = (len(cells) + 1) // 2
    pairs = [cells[i] + (cells[i + half] if i + half < len(cells) else ("", "")) for i in range(half)]
    lines = [INDENT * 2 + line for line in columns(pairs)]
    if any(len(line) > WIDTH for line in lines):
        lines = [INDENT * 2 + line for line in columns(cells)]
    return [f"{INDENT}Стол {number}", *lines]


def _byes_lines(names: list[str]) -> list[str]:
    """«Не играют в этом туре: …», wrapped at :data:`WIDTH` between names, never inside one."""
    nbsp = "\u00a0"
    text = ", ".join(name.replace(" ", nbsp) for name in names)
    lines = textwrap.wrap(
        text,
        WIDTH,
        initial_indent=f"{INDENT}Не играют в этом туре: ",
        subsequent_indent=INDENT * 2,
        break_on_hyphens=False,
        break_long_words=False,
    )
    return [line.replace(nbsp, " ") for line in lines]


def cmd_show(args: argparse.Namespace, store: Store) -> int:
    row = store.tournaments.get(args.name)
    names = _names(store)
    numbers = [args.round] if args.round else range(1, row.rounds + 1)
    for number in numbers:
        tables = _round(store, row, number)
        print(f"Тур {number}")
        for t, table in enumerate(tables, 1):
            for line in _table_lines(t, [names.get(pid, pid) for pid in table]):
                print(line)
        seated = {pid for table in tables for pid in table}
        out = [names.get(pid, pid) for pid in row.players if pid not in seated]
        if out:
            for line in _byes_lines(out):
                print(line)
    return 0


def cmd_game(args: argparse.Namespace, store: Store) -> int:
    """A stored game as table T of round R: linked (a finished one too: a late link), and its
    seats named from the seating; or annulled (``--annul``) or taken back (``--restore``). With
    ``--club-db`` the same in the club's database (the game by its club number or UUID)."""
    changing = args.annul or args.restore
    if not changing and (args.round is None or args.table is None):
        raise HostDeviceError(
            "игра турнира: укажите стол и тур (--round R --table T), или --annul, или --restore"
        )
    if changing and (args.round is not None or args.table is not None):
        raise HostDeviceError("игра турнира: --annul и --restore — без --round и --table")
    if args.club_db and changing:
        print(club_annul(args.club_db, args.name, args.id, annulled=args.annul))
    elif args.club_db:
        print(club_link(args.club_db, args.name, args.id, args.round, args.table))
    else:
        try:
            number = game_id(args.id)
        except argparse.ArgumentTypeError as exc:
            raise HostDeviceError(str(exc)) from None
        if changing:
            print(annul_game(store, args.name, number, annulled=args.annul))
        else:
            print(seat_game(store, number, args.name, args.round, args.table))
    return 0


def _standings(store: Store, row: TournamentRow, config: str | None) -> list[Standing]:
    from host_device.club.build import record_of
    from host_device.club.scoring import club_table

    table = club_table(Path(config) if config else None)
    games = [(r, record_of(store, g)) for g, r, _t in store.tournaments.games(row.id)]
    return standings(games, table)


def _club_rows(url: str, name: str, config: str | None) -> tuple[str, list[list[Any]]]:
    """The standings of tournament ``name`` from the games the boxes sent the club's database."""
    from host_device.club.scoring import club_table
    from host_device.clubdb.db import ClubDB

    table = club_table(Path(config) if config else None)
    name = tournament_name(name)
    with ClubDB.open(url) as db:
        games = db.tournaments.games(name)
        records = {r.id: r for r in db.records([g for g, _r, _t in games])}
        names, _merged = db.roster()
    ranked = standings([(r, records[g]) for g, r, _t in games if g in records], table)
    return name, table_rows(ranked, {pid: n for pid, (n, _nick) in names.items()})


def cmd_standings(args: argparse.Namespace, store: Store) -> int:
    if args.club_db:
        name, rows = _club_rows(args.club_db, args.name, args.config)
    else:
        row = store.tournaments.get(args.name)
        name, rows = row.name, table_rows(_standings(store, row, args.config), _names(store))
    print(f"Турнир «{name}»: {LABEL}")
    aside = set_aside(store, name, args.club_db)  # the games annulled, the links refused: not counted
    if not rows:
        where = (
            "в базе клуба пока нет сыгранных игр турнира (коробки отправляют их после игры)"
            if args.club_db
            else "в этом хранилище пока нет сыгранных игр турнира; игры других коробок — "
            f"в базе клуба: {shell_command('host-device tournament standings', name, '--club-db АДРЕС')}; "
            "игра этой коробки: host-device tournament game НАЗВАНИЕ ИГРА --round R --table T"
        )
        for line in [where, *aside]:
            print(line)
        return 0
    text = [[h for h, _a in COLUMNS]] + [
        [club_number(c) if isinstance(c, float) else str(c) for c in r] for r in rows
    ]
    for line in [*columns(text), *aside]:
        print(line)
    return 0


SEATING_HEADER = ["тур", "стол", "место", "игрок", "id"]


def _seating_rows(store: Store, row: TournamentRow) -> list[list[Any]]:
    names = _names(store)
    return [
        [r, t, s, names.get(pid, pid), pid]
        for r, tables in enumerate(store.tournaments.seating(row.id), 1)
        for t, table in enumerate(tables, 1)
        for s, pid in enumerate(table, 1)
    ]


def _seating_json(store: Store, row: TournamentRow) -> dict[str, Any]:
    """The seating as its file has it (``export --what seating --format json``, ``publish``)."""
    rows = [dict(zip(SEATING_HEADER, r, strict=True)) for r in _seating_rows(store, row)]
    # "players": who plays now (the venue screen's byes); a seating file's reader needs only the rows
    return {
        "tournament": row.name,
        "what": "seating",
        "rating": None,
        "players": list(row.players),
        "rows": rows,
    }


def cmd_publish(args: argparse.Namespace, store: Store) -> int:
    """The seating put in the club's database: a box whose store lacks the tournament takes
    its table from there (``run --tournament НАЗВАНИЕ --table T --round R``)."""
    from host_device.clubdb.db import ClubDB

    row = store.tournaments.get(args.name)
    if row.rounds == 0:
        raise HostDeviceError(
            f"турнир «{terminal(row.name)}» в этом хранилище — только игры стола, без рассадки; "
            "публикуйте с машины, где турнир создан"
        )
    url = flags.club_db_url(args)
    seating = _seating_json(store, row)
    with ClubDB.open(url) as db:
        db.tournaments.publish(row.name, seating, keeps_the_rounds_begun(row.name, seating))
    print(
        f"рассадка турнира «{terminal(row.name)}» ({row.rounds} {agree('тур', row.rounds)}) в базе клуба: "
        "коробки возьмут свой стол сами — "
        + shell_command("host-device run", row.name, "--table T --round R --club-db АДРЕС", "--tournament")
    )
    return 0


def cmd_export(args: argparse.Namespace, store: Store) -> int:
    if args.club_db and args.what == "standings":  # from the games the boxes sent
        name, body = _club_rows(args.club_db, args.name, args.config)
        header = [h for h, _a in COLUMNS]
    elif args.club_db:
        raise HostDeviceError(
            "--club-db выгружает таблицу (--what standings); рассадка — из хранилища, где создан турнир"
        )
    else:
        row = store.tournaments.get(args.name)
        name = row.name
        if args.what == "seating":
            header = SEATING_HEADER
            body = _seating_rows(store, row)
        else:
            header = [h for h, _a in COLUMNS]
            body = table_rows(_standings(store, row, args.config), _names(store))
    if args.format == "json":
        data = {
            "tournament": name,
            "what": args.what,
            "rating": LABEL if args.what == "standings" else None,
            "rows": [dict(zip(header, r, strict=True)) for r in body],
        }
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    else:
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(header)
        writer.writerows([[spreadsheet_cell(c) for c in r] for r in body])
        text = buf.getvalue()
    if args.output:
        _write(Path(args.output), text.encode("utf-8"))
        print(f"записано: {args.output}")
    else:
        print(text, end="")
    return 0


def cmd_print(args: argparse.Namespace, store: Store) -> int:
    """The tournament on A4: the standings, the seating by round and table, every player's places."""
    from host_device.tournament.sheets import standings_page, tournament_pdf

    row = store.tournaments.get(args.name)
    names = _names(store)
    seating = store.tournaments.seating(row.id)
    if args.round is not None and not 1 <= args.round <= len(seating):
        raise HostDeviceError(f"тур {args.round}: в турнире «{terminal(row.name)}» туры 1–{len(seating)}")
    rounds = [[[names.get(p, p) for p in table] for table in r] for r in seating]
    byes = {
        r: [names.get(p, p) for p in row.players if all(p not in t for t in tables)]
        for r, tables in enumerate(seating, 1)
    }
    annulled = store.tournaments.annulled(row.id)
    ranked = table_rows(_standings(store, row, args.config), names)
    page = standings_page(row.name, [h for h, _a in COLUMNS], ranked, LABEL, annulled)
    players = [names.get(p, p) for p in row.players]
    pdf = tournament_pdf(row.name, rounds, byes, players, page, args.round, annulled)
    _write(Path(args.output), pdf)
    print(f"записано: {args.output}")
    return 0


def add_commands(commands: Any) -> None:
    top = commands.add_parser(
        "tournament", help="турнир: рассадка по столам и турам, игры турнира, таблица, выгрузка"
    )
    sub = top.add_subparsers(dest="tournament_command", required=True, metavar="ДЕЙСТВИЕ")
    p = sub.add_parser("create", help="новый турнир из игроков клуба; рассадка считается сразу")
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument(
        "players", nargs="+", metavar="ИГРОК", help="игроки (ID, имя или прозвище из списка клуба)"
    )
    p.add_argument("--rounds", type=ROUNDS, required=True, metavar="N", help="число туров (игр на стол)")
    p.add_argument(
        "--apart",
        action="append",
        default=[],
        metavar="А,Б",
        help="пара, которая никогда не сидит за одним столом",
    )
    p.add_argument("--seed", type=SEED, default=1, metavar="N", help="другая рассадка при тех же игроках")
    p.set_defaults(func=functools.partial(_with_store, cmd_create))
    p = sub.add_parser("seat", help="пересадить несыгранные туры (кто-то ушёл, кто-то пришёл)")
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument("--leave", action="append", default=[], metavar="ИГРОК", help="игрок уходит из турнира")
    p.add_argument("--join", action="append", default=[], metavar="ИГРОК", help="игрок входит в турнир")
    flags.club_db(
        p,
        "с ним сыгранными считаются и туры, игры которых коробки прислали в базу клуба, "
        "а новая рассадка публикуется там же",
    )
    p.set_defaults(func=functools.partial(_with_store, cmd_seat))
    p = sub.add_parser("show", help="рассадка: тур, стол, место — игрок")
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument("--round", type=ROUND, metavar="R", help="только этот тур")
    p.set_defaults(func=functools.partial(_with_store, cmd_show))
    p = sub.add_parser(
        "game",
        help="игра — стол T тура R (и сыгранная раньше); места называются по рассадке; "
        "--annul: аннулировать, --restore: вернуть",
    )
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument("id", metavar="ИГРА", help="номер игры (с --club-db: номер игры клуба или её UUID)")
    p.add_argument("--round", type=ROUND, metavar="R", help="тур")
    p.add_argument("--table", type=TABLE, metavar="T", help="стол")
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--annul",
        action="store_true",
        help="аннулировать: игра хранится, в таблице не считается, её стол в туре свободен",
    )
    how.add_argument("--restore", action="store_true", help="аннулированная игра снова считается")
    flags.club_db(p, "с ним игра и турнир — в базе клуба; без него — в хранилище")
    p.set_defaults(func=functools.partial(_with_store, cmd_game))
    p = sub.add_parser("standings", help="таблица турнира по очкам и дополнительным показателям")
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    flags.club_db(
        p, "с ним таблица считается по играм, которые коробки прислали в базу клуба; без него — по хранилищу"
    )
    p.set_defaults(func=functools.partial(_with_store, cmd_standings))
    p = sub.add_parser(
        "publish", help="рассадку — в базу клуба: коробки за столами берут из неё свой стол и тур"
    )
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    flags.config(p, help="файл настроек, где [club].database называет базу клуба")
    flags.club_db(p)
    p.set_defaults(func=functools.partial(_with_store, cmd_publish))
    p = sub.add_parser("export", help="выгрузить рассадку или таблицу в CSV или JSON")
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument("--what", choices=("seating", "standings"), default="standings", help="что выгрузить")
    p.add_argument("--format", choices=("csv", "json"), default="csv", help="формат")
    p.add_argument("-o", "--output", metavar="ФАЙЛ", help="записать в файл (без него — на экран)")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    flags.club_db(
        p, "с ним таблица — по играм, которые коробки прислали в базу клуба; без него — по хранилищу"
    )
    p.set_defaults(func=functools.partial(_with_store, cmd_export))
    p = sub.add_parser(
        "print", help="на печать (PDF, A4): таблица, рассадка по турам и столам, места каждого игрока"
    )
    p.add_argument("name", metavar="НАЗВАНИЕ", help="название турнира")
    p.add_argument("-o", "--output", required=True, metavar="ФАЙЛ.pdf", help="куда записать PDF")
    p.add_argument("--round", type=ROUND, metavar="R", help="рассадка только этого тура")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    p.set_defaults(func=functools.partial(_with_store, cmd_print))
    for p in sub.choices.values():
        flags.store(p)
