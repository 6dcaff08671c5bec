"""``host-device players add|rename|list|merge|link``: the club's roster; and
``games seat GAME SEAT NAME``: who sat where (replacing ``games name``),
``games extra GAME SEAT POINTS``: the host's extra points, after the fact
too (the store's roster part, as the console's seat grid)."""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.names import terminal
from host_device.base.text import columns
from host_device.cli import flags
from host_device.cli.arguments import extra_points, game_id, seat_number
from host_device.cli.player_stats import add_stats
from host_device.store.db import Store
from host_device.store.roster import SHOWN_ID, SITES, Player, clean_name

LIST_HEADER = ("id", "имя", "ник")
NEGATIVE = re.compile(r"^-\d*([.,]\d+)?$")  # an argument that is a negative number, a club's comma too


def _with_store(command: Callable[[argparse.Namespace, Store], int], args: argparse.Namespace) -> int:
    """Run a command on the store (made if missing: a roster may come before any game)."""
    store = Store(Path(args.store) if args.store else None)
    try:
        return command(args, store)
    finally:
        store.close()


def _ids(players: list[Player]) -> str:
    return ", ".join(terminal(p.id[:SHOWN_ID]) for p in players)


def cmd_add(args: argparse.Namespace, store: Store) -> int:
    """One name: added, even if the roster has it (a namesake; the merge is
    suggested). Several: each name the roster has (as a name or a nickname)
    is said and left out, the rest added; 1 when none was."""
    if len(args.names) > 1 and args.nickname is not None:
        raise HostDeviceError(
            "--nickname — только с одним именем; игрока с прозвищем добавьте отдельно: "
            "host-device players add ИМЯ --nickname ПРОЗВИЩЕ"
        )
    names = [clean_name(name) for name in args.names]  # a bad one refused before any is added
    if len(names) == 1:
        same = store.roster.known_as(names[0])
        player = store.roster.add_player(names[0], args.nickname)
        print(f"добавлен игрок {player.label}, id {player.id}")
        if same:
            print(
                f"в списке уже есть «{player.name}» ({_ids(same)}); "
                "если это один человек: host-device players merge ОСТАВИТЬ УБРАТЬ"
            )
        return 0
    added = known = 0
    for name in names:
        same = store.roster.known_as(name)  # a name given twice: its second time is known
        if same:
            print(f"уже в списке клуба: {name} ({_ids(same)}), не добавлен")
            known += 1
            continue
        player = store.roster.add_player(name)
        print(f"добавлен игрок {player.label}, id {player.id}")
        added += 1
    if known:
        print("другой человек с тем же именем: host-device players add ИМЯ --nickname ПРОЗВИЩЕ")
    return 0 if added else 1


def cmd_rename(args: argparse.Namespace, store: Store) -> int:
    player = store.roster.player(args.player)
    nickname = None if args.no_nickname else (args.nickname if args.nickname is not None else player.nickname)
    renamed = store.roster.rename_player(player.id, args.name, nickname)
    print(f"игрок {terminal(player.id[:SHOWN_ID])}: теперь {renamed.label}")
    return 0


def cmd_list(args: argparse.Namespace, store: Store) -> int:
    players = store.roster.players()
    if not players:
        print("в списке клуба пока нет игроков; добавить: host-device players add ИМЯ")
        return 0
    # what a terminal may show: an id or a name kept before the one door too
    shown = [(p.id if args.full_ids else p.id[:SHOWN_ID], p.name, p.nickname or "") for p in players]
    rows = [LIST_HEADER] + [tuple(terminal(cell) for cell in row) for row in shown]
    for line in columns(rows):
        print(line)
    return 0


def cmd_merge(args: argparse.Namespace, store: Store) -> int:
    gone = store.roster.player(args.gone)
    keep = store.roster.merge_players(args.keep, args.gone)
    print(  # said of a man or a woman alike
        f"записи «{gone.label}» ({terminal(gone.id[:SHOWN_ID])}) и «{keep.label}» "
        f"({terminal(keep.id[:SHOWN_ID])}) объединены: "
        f"все игры обеих теперь у «{keep.label}»"
    )
    return 0


def cmd_link(args: argparse.Namespace, store: Store) -> int:
    """His ids on the rating sites, each one given (an empty one unlinks him there)."""
    given = {site: getattr(args, site) for site in SITES if getattr(args, site) is not None}
    if not given:
        raise HostDeviceError("укажите хотя бы один сайт: --mafiaratings ID, --mwt ID или --polemica ID")
    player = store.roster.player(args.player)
    for site, site_id in given.items():
        store.roster.link_site(player.id, site, site_id)
    said = ", ".join(
        f"{site} — {terminal(i)}" if i.strip() else f"{site} — снят" for site, i in given.items()
    )
    print(f"игрок {player.label} ({terminal(player.id[:SHOWN_ID])}): {said}")
    return 0


def cmd_seat(args: argparse.Namespace, store: Store) -> int:
    player, added, left = store.roster.seat_by_name(args.id, args.seat, args.name)
    if player is None:
        print(f"игра {args.id}, место {args.seat}: имя убрано")
        return 0
    line = f"игра {args.id}, место {args.seat}: {player.label}"
    if added:
        line += " (новый игрок, добавлен в список клуба)"
    if left is not None:
        line += f"; место {left} освобождено"
    print(line)
    return 0


def cmd_extra(args: argparse.Namespace, store: Store) -> int:
    from host_device.club.scoring import club_table

    table = club_table(Path(args.config) if args.config else None)  # its [extra]: the range and the step
    limits = (table.extra_min, table.extra_max, table.extra_step)
    store.roster.set_extra(args.id, args.seat, args.points, limits)
    player = store.roster.seating(args.id).get(args.seat)
    who = f" ({player.label})" if player is not None else ""
    given = store.roster.extras(args.id).get(args.seat)
    shown = f"{given:+.2f}".rstrip("0").rstrip(".").replace(".", ",").replace("-", "−") if given else ""
    said = shown or "убраны"
    print(f"игра {args.id}, место {args.seat}{who}: доп. баллы {said}")
    return 0


def add_seat_command(sub: Any) -> None:
    """``games seat`` and ``games extra``, registered by host_device/cli/games.py among the games commands."""
    p = sub.add_parser(
        "seat",
        help="кто сидел на месте: имя, прозвище или ID из списка клуба, или новое имя (добавится в список)",
    )
    p.add_argument("id", type=game_id, metavar="ИГРА", help="номер игры")
    p.add_argument("seat", type=seat_number, metavar="МЕСТО", help="номер места")
    p.add_argument("name", metavar="ИМЯ", help="игрок; '-' или '' — место без имени")
    p.set_defaults(func=functools.partial(_with_store, cmd_seat))
    p = sub.add_parser(
        "extra", help="доп. баллы ведущего за место (и после игры; в шагах таблицы очков клуба)"
    )
    p.add_argument("id", type=game_id, metavar="ИГРА", help="номер игры")
    p.add_argument("seat", type=seat_number, metavar="МЕСТО", help="номер места")
    p.add_argument("points", type=extra_points, metavar="БАЛЛЫ", help="0,3 или -0,5; 0 или '-' — убрать")
    p._negative_number_matcher = NEGATIVE  # argparse's own takes -0.5 for a number, but -0,5 for an option
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков (её [extra])")
    p.set_defaults(func=functools.partial(_with_store, cmd_extra))


def add_commands(commands: Any) -> None:
    players = commands.add_parser(
        "players", help="список игроков клуба: добавить, переименовать, список, объединить, цифры игрока"
    )
    sub = players.add_subparsers(dest="players_command", required=True, metavar="ДЕЙСТВИЕ")
    p = sub.add_parser(
        "add",
        help="новые игроки: одно имя или несколько (и прозвище, если имя одно)",
        description=(
            "Новые игроки, по строке на каждого. Одно имя добавляется, даже если такое уже есть в списке "
            "(тёзка; строка подскажет, как объединить записи, если это один человек). Из нескольких имён "
            "те, что уже есть в списке клуба (именем или прозвищем), не добавляются второй раз — строка "
            "скажет о каждом, остальные добавятся; код выхода 1, если не добавлен никто."
        ),
    )
    p.add_argument("names", nargs="+", metavar="ИМЯ", help="имя игрока; имя из двух слов — в кавычках")
    p.add_argument("--nickname", metavar="ПРОЗВИЩЕ", help="его прозвище (только с одним именем)")
    p.set_defaults(func=functools.partial(_with_store, cmd_add))
    p = sub.add_parser("rename", help="новое имя игрока (прозвище остаётся, если не задано новое)")
    p.add_argument("player", metavar="ИГРОК", help="его ID (или начало ID), имя или прозвище")
    p.add_argument("name", metavar="ИМЯ", help="новое имя")
    nick = p.add_mutually_exclusive_group()
    nick.add_argument("--nickname", metavar="ПРОЗВИЩЕ", help="новое прозвище")
    nick.add_argument("--no-nickname", action="store_true", help="убрать прозвище")
    p.set_defaults(func=functools.partial(_with_store, cmd_rename))
    p = sub.add_parser("list", help="список игроков клуба (без объединённых записей)")
    p.add_argument("--full-ids", action="store_true", help="ID целиком, а не первые 8 знаков")
    p.set_defaults(func=functools.partial(_with_store, cmd_list))
    p = sub.add_parser(
        "merge", help="две записи одного человека: ОСТАВИТЬ остаётся, игры УБРАТЬ засчитываются ему"
    )
    p.add_argument("keep", metavar="ОСТАВИТЬ", help="игрок, который остаётся (ID, имя или прозвище)")
    p.add_argument("gone", metavar="УБРАТЬ", help="его вторая запись")
    p.set_defaults(func=functools.partial(_with_store, cmd_merge))
    p = sub.add_parser(
        "link", help="его номер на сайтах рейтинга: выгрузка назовёт его так (пустой номер — снять)"
    )
    p.add_argument("player", metavar="ИГРОК", help="его ID (или начало ID), имя или прозвище")
    for site in SITES:
        p.add_argument(f"--{site}", metavar="НОМЕР", help=f"его номер на сайте {site}")
    p.set_defaults(func=functools.partial(_with_store, cmd_link))
    for p in sub.choices.values():
        flags.store(p)
    add_stats(sub)  # `players stats NAME`: a player's figures (its own module, with its own --store)
