"""``host-device players stats NAME``: a player's figures over the finished
games (host_device/club/stats.py), in Russian, with his rating and place."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.roles import Role
from host_device.base.errors import HostDeviceError
from host_device.cli import flags
from host_device.club.build import records
from host_device.club.rating import Rating, rating_name, ratings, standings
from host_device.club.record import GameRecord
from host_device.club.scoring import club_table, totals
from host_device.club.stats import PlayerStats, player_stats
from host_device.store.db import Store
from host_device.store.faults import DamagedGame
from host_device.store.roster import Player
from voices.words import number, percent, role_name

BLACK_NAMED = {0: "ни одного чёрного", 1: "один чёрный", 2: "два чёрных", 3: "три чёрных"}


def _share(part: int, whole: int) -> str:
    return f"{part} из {whole} ({percent(part / whole)})" if whole else "нет"


def stats_lines(name: str, stats: PlayerStats, place: tuple[int, int, Rating] | None) -> list[str]:
    """His figures as the terminal prints them (``place``: his place, of how many, his rating)."""
    lines = [f"{name}: игр {stats.games}, побед {_share(stats.wins, stats.games)}"]
    for role in Role:
        if role in stats.roles:
            played = stats.roles[role]
            lines.append(f"  {role_name(role)}: игр {played.games}, побед {played.wins}")
    average = f" (в среднем {number(stats.average)} за игру)" if stats.average is not None else ""
    lines.append(f"Очки: {number(stats.points)}{average}")
    if place is not None:
        lines.append(f"Рейтинг: {number(place[2].rating, 1, trim=False)} (место {place[0]} из {place[1]})")
    else:
        lines.append("Рейтинг: нет (ни одной оконченной игры)")
    if stats.best_move_count:
        how = ", ".join(f"{BLACK_NAMED[k]} — {stats.best_moves[k]}" for k in sorted(stats.best_moves))
        lines.append(
            f"Лучший ход: {stats.best_move_count} ({how}); очков за него {number(stats.best_move_points)}"
        )
    else:
        lines.append("Лучший ход: не было")
    lines.append(f"Убит первым: {stats.killed_first}")
    by_device = f" (от устройства: {stats.device_fouls})" if stats.device_fouls else ""
    lines.append(f"Замечания: {stats.fouls}{by_device}; дисквалификаций: {stats.disqualified}")
    lines.append(
        f"Голоса против чёрных: {_share(stats.votes_against_black, stats.votes)}; "
        f"когда играл красным: {_share(stats.red_votes_against_black, stats.red_votes)}"
    )
    return lines


def _from_club_db(args: argparse.Namespace) -> tuple[Player, list[GameRecord]]:
    from host_device.clubdb.db import ClubDB

    with ClubDB.open(flags.club_db_url(args)) as db:
        return db.player(args.name), db.records()


def cmd_stats(args: argparse.Namespace) -> int:
    table = club_table(Path(args.config) if args.config else None)
    damaged: list[DamagedGame] = []
    if args.club_db:  # every table's games, from the club's database
        if args.store:
            raise HostDeviceError("--store и --club-db вместе нельзя: укажите одно из двух")
        player, games = _from_club_db(args)
    else:
        store = Store(Path(args.store) if args.store else None, create=False)
        try:
            player = store.roster.player(args.name)  # a name, a nickname or an id (or its start)
            games = records(store, damaged)
        finally:
            store.close()
    for exc in damaged:
        print(f"host-device: пропущена: {exc}", file=sys.stderr, flush=True)
    chosen = ratings(games, method=table.rating, games=table.rating_games)
    board = standings(chosen, totals(games, table))  # the leaderboard's order and places
    place = next(((n, len(board), r) for n, r in board if r.player == player.id), None)
    lines = stats_lines(player.label, player_stats(games, player.id, table), place)
    if table.rating != "club":  # the rating the club's table chose is named
        lines = [
            line.replace("Рейтинг:", f"Рейтинг ({rating_name(table.rating, table.rating_games)}):")
            for line in lines
        ]
    print("\n".join(lines))
    return 0


def add_stats(sub: Any) -> None:
    """``stats`` under the ``players`` command's actions."""
    p = sub.add_parser("stats", help="цифры игрока: игры, победы по ролям, очки, рейтинг, лучшие ходы")
    p.add_argument("name", metavar="ИГРОК", help="имя, прозвище или ID")
    flags.store(p)
    flags.club_db(p, default="читать из неё, только если задана; без неё — хранилище этой коробки")
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    p.set_defaults(func=cmd_stats)
