"""A game played as a table of a tournament's round: the table's seats named
from the seating (before the deal, so the pages show who sits where) and the
game linked to its round and table, for ``run --tournament`` and
``tournament game``; or from a seating file (``run --tournament-file``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.store.faults import StoreError
from host_device.tournament.seating_file import FileTable


def table_players(store: Any, name: str, round_no: int, table: int) -> tuple[int, tuple[str, ...]]:
    """The tournament's id and the ten player ids of ``table`` in round ``round_no``
    (both from 1); one clear line when there is no such tournament, round or table."""
    row = store.tournaments.get(name)
    rounds = store.tournaments.seating(row.id)
    if not 1 <= round_no <= len(rounds):
        raise HostDeviceError(f"тур {round_no}: в турнире «{row.name}» туры 1–{len(rounds)}")
    tables = rounds[round_no - 1]
    if not 1 <= table <= len(tables):
        raise HostDeviceError(f"стол {table}: в туре {round_no} турнира «{row.name}» столы 1–{len(tables)}")
    return row.id, tables[table - 1]


def seat_game(store: Any, game_id: int, name: str, round_no: int, table: int) -> str:
    """Link the game and name its seats; the line that says so («Стол 2 · игра 3»)."""
    tid, players = table_players(store, name, round_no, table)
    store.tournaments.link_game(game_id, tid, round_no, table)
    for seat, pid in enumerate(players, 1):
        store.roster.seat_player(game_id, seat, pid)
    return f"Стол {table} · игра {round_no}: турнир «{name}», места названы по рассадке"


def table_seater(store: Any, spec: tuple[str, int, int]) -> Callable[[int], str]:
    """``run --tournament NAME --table T --round R``: checked now (before a game is made),
    applied to the game once it is."""
    name, table, round_no = spec
    table_players(store, name, round_no, table)
    return lambda game_id: seat_game(store, game_id, name, round_no, table)


def file_seater(store: Any, chosen: FileTable) -> Callable[[int], str]:
    """``run --tournament-file FILE --table T --round R``: the seats named from the file's
    table (a player this store's roster lacks is added with the file's id, so the club's
    database knows him); the game linked only when this store holds the tournament."""

    def apply(game_id: int) -> str:
        known = store.roster.known_ids()
        store.roster.import_players(
            [(pid, name, None, None, None) for pid, name in chosen.players if pid not in known]
        )
        for seat, (pid, _name) in enumerate(chosen.players, 1):
            store.roster.seat_player(game_id, seat, pid)
        head = (
            f"Стол {chosen.table} · игра {chosen.round}: турнир «{chosen.tournament}», "
            "места названы по файлу рассадки"
        )
        try:
            tid = store.tournaments.get(chosen.tournament).id
        except StoreError:
            return f"{head}; турнира нет в хранилище коробки: игра с ним не связана"
        store.tournaments.link_game(game_id, tid, chosen.round, chosen.table)
        return head

    return apply


def seater_for(
    store: Any, by_name: tuple[str, int, int] | None, from_file: FileTable | None
) -> Callable[[int], str] | None:
    """What names a new game's seats: the store's tournament, a seating file's table, or nothing."""
    if by_name is not None:
        return table_seater(store, by_name)
    return file_seater(store, from_file) if from_file is not None else None
