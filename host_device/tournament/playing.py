"""A game played as a table of a tournament's round: the table's seats named
from the seating (before the deal, so the pages show who sits where) and the
game linked to its round and table, for ``run --tournament`` and
``tournament game``; or from a seating file (``run --tournament-file``), or
from the seating published in the club's database when the box's store
lacks the tournament (``run --tournament`` with ``--club-db``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.presets import MAX_SEATS
from host_device.base.errors import HostDeviceError
from host_device.base.names import terminal
from host_device.store.faults import StoreError
from host_device.store.tournaments import checked_name, tournament_name
from host_device.tournament.seating_file import FileTable, shell_command, table_of


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
    """Link the game and name its seats; the line that says so («Стол 2 · игра 3»). A table of
    the round another finished game holds: one line naming it (store.tournaments.link_game)."""
    tid, players = table_players(store, name, round_no, table)
    left_off = store.tournaments.link_game(game_id, tid, round_no, table)
    for seat, pid in enumerate(players, 1):
        store.roster.seat_player(game_id, seat, pid)
    line = f"Стол {table} · игра {round_no}: турнир «{name}», места названы по рассадке"
    if left_off is not None:
        line += f"; незаконченная игра {left_off} этого стола в туре аннулирована (хранится)"
    return line


def table_free(store: Any, tid: int, name: str, round_no: int, table: int) -> None:
    """Refused in one line, before a game is made, when a finished game holds ``table`` of
    round ``round_no`` (an unfinished one gives it up to the new game)."""
    held = store.tournaments.holder(tid, round_no, table)
    if held is not None and held[1]:
        raise HostDeviceError(
            f"стол {table} тура {round_no} турнира «{name}» уже сыгран: игра {held[0]} (одна игра на "
            f"стол в туре); укажите другой тур (--round) или аннулируйте её: "
            f"{shell_command('host-device tournament game', name, f'{held[0]} --annul')}"
        )


def annul_game(store: Any, name: str, game_id: int, annulled: bool) -> str:
    """``tournament game NAME GAME --annul|--restore`` in the store; the line that says so."""
    row = store.tournaments.get(name)
    round_no, table = store.tournaments.annul(game_id, row.id, annulled=annulled)
    return annul_line(row.name, str(game_id), round_no, table, annulled)


def annul_line(name: str, game: str, round_no: int, table: int, annulled: bool) -> str:
    where = f"стол {table} тура {round_no} турнира «{terminal(name)}»"
    if annulled:
        return (
            f"игра {game} ({where}) аннулирована: хранится, в таблице не считается, стол в туре свободен; "
            "вернуть: --restore"
        )
    return f"игра {game} снова считается: {where}"


def club_link(url: str, name: str, game: str, round_no: int, table: int) -> str:
    """``tournament game NAME GAME --round R --table T --club-db URL``: a game of the club's
    database linked afterwards (its seats as the host named them)."""
    from host_device.clubdb.db import ClubDB

    with ClubDB.open(url) as db:
        number = db.tournaments.link(game, name, round_no, table)
    return (
        f"игра клуба № {number} — стол {table} тура {round_no} турнира «{terminal(tournament_name(name))}»: "
        "считается в таблице (места — как их назвал ведущий)"
    )


def club_annul(url: str, name: str, game: str, annulled: bool) -> str:
    """``tournament game NAME GAME --annul|--restore --club-db URL``."""
    from host_device.clubdb.db import ClubDB

    with ClubDB.open(url) as db:
        number, round_no, table = db.tournaments.annul(game, name, annulled=annulled)
    return annul_line(tournament_name(name), f"клуба № {number}", round_no, table, annulled)


def set_aside(store: Any, name: str, club_url: str | None) -> list[str]:
    """The lines under the standings on the games not counted: annulled, and (the club's
    database) sent by a box for a table of a round another game held."""
    if club_url:
        from host_device.clubdb.db import ClubDB

        with ClubDB.open(club_url) as db:
            annulled = db.tournaments.games(name, annulled=True)
            refused = db.tournaments.refused(name)
        lines = [f"Аннулирована: игра клуба № {g} (стол {t}, тур {r}) — не считается" for g, r, t in annulled]
        command = "host-device tournament game"
        return lines + [
            f"Не засчитана: игра клуба № {g} (стол {t}, тур {r}) — у стола уже есть игра клуба № {h}; "
            f"засчитать её: {shell_command(command, name, f'{h} --annul --club-db АДРЕС')}, затем "
            f"{shell_command(command, name, f'{g} --round {r} --table {t} --club-db АДРЕС')}"
            for g, r, t, h in refused
        ]
    row = store.tournaments.get(name)
    return [
        f"Аннулирована: игра {g} (стол {t}, тур {r}) — не считается"
        for g, r, t in store.tournaments.annulled(row.id)
    ]


def table_source(
    store: Any, spec: tuple[str, int, int], club_url: str | None = None
) -> tuple[str, int, int] | FileTable:
    """Where ``run --tournament NAME --table T --round R`` takes the table from, found now
    (before a game is made): ``spec`` itself when this store holds the tournament's seating;
    else the table of the seating published in the club's database (``tournament publish``),
    asked once, if the box has one; else one line."""
    name, table, round_no = spec
    try:
        if store.tournaments.get(name).rounds == 0:  # only a table's copy (its games): no seating here
            raise StoreError(
                f"турнир «{name}» в хранилище коробки — без рассадки (только игры этого стола); "
                "рассадка — из базы клуба (--club-db) или из файла (--tournament-file)"
            )
        tid, _players = table_players(store, name, round_no, table)
    except StoreError as exc:
        if not club_url:
            raise
        return published_table(club_url, name, table, round_no, str(exc))
    table_free(store, tid, name, round_no, table)
    return spec


def table_seater(store: Any, spec: tuple[str, int, int], club_url: str | None = None) -> Callable[[int], str]:
    """What names the new game's seats for ``run --tournament`` (:func:`table_source`)."""
    found = table_source(store, spec, club_url)
    if isinstance(found, FileTable):
        return file_seater(store, found)
    name, table, round_no = found
    return lambda game_id: seat_game(store, game_id, name, round_no, table)


def published_table(url: str, name: str, table: int, round_no: int, missing: str) -> FileTable:
    """Table ``table`` of round ``round_no`` of the seating published for ``name`` in the club's
    database: asked once, with the connection's short timeout (nothing at the table waits for the
    network); one line with the way out (a seating file) when it cannot be had."""
    from host_device.clubdb.db import ClubDB
    from host_device.clubdb.errors import ClubDbError

    export = shell_command("host-device tournament export", name, "--what seating --format json")
    way_out = f"возьмите рассадку из файла: --tournament-file ФАЙЛ ({export} на машине турнира)"
    try:
        with ClubDB.open(url) as db:
            # the table found in the seating and marked taken, in one transaction (clubdb/tournaments.py)
            found = db.tournaments.take(
                name, round_no, table, lambda data: table_of(data, table, round_no, "из базы клуба")
            )
            if found is None:
                names = db.tournaments.published()
                known = (
                    "опубликованы: " + ", ".join(f"«{n}»" for n in names) + " — проверьте название"
                    if names
                    else f"{shell_command('host-device tournament publish', name)} на машине турнира"
                )
                raise HostDeviceError(
                    f"{missing}; в базе клуба рассадки «{name}» тоже нет: {known}, или {way_out}"
                )
    except ClubDbError as exc:
        raise HostDeviceError(
            f"рассадка турнира «{name}» не получена из базы клуба: {exc}; {way_out}"
        ) from None
    return dataclasses.replace(found, named_by="по рассадке из базы клуба")


def file_seater(store: Any, chosen: FileTable) -> Callable[[int], str]:
    """The seats named from a seating's table (a file's, or the club database's): a player
    this store's roster lacks is added with the seating's id, so the club's database knows
    him; the game linked to the tournament by name (made empty in this store if need be).
    The players are added now, before the game is made: a name the roster refuses is one line
    and leaves no game behind."""
    known = store.roster.known_ids()
    source = f"рассадка {chosen.path}" if chosen.path is not None else "рассадка в базе клуба"
    checked_name(chosen.tournament)  # a name the store would refuse: one line before the game
    try:
        tid = store.tournaments.get(chosen.tournament).id
    except StoreError:
        tid = None  # made empty when the game is linked
    if tid is not None:
        table_free(store, tid, chosen.tournament, chosen.round, chosen.table)
    store.roster.import_players(
        [(pid, name, None, None, None) for pid, name in chosen.players if pid not in known], source=source
    )

    def apply(game_id: int) -> str:
        for seat, (pid, _name) in enumerate(chosen.players, 1):
            store.roster.seat_player(game_id, seat, pid)
        store.tournaments.link_game(
            game_id, store.tournaments.named(chosen.tournament), chosen.round, chosen.table
        )
        head = f"Стол {chosen.table} · игра {chosen.round}: турнир «{chosen.tournament}»"
        return f"{head}, места названы {chosen.named_by}"

    return apply


def say_table(store: Any, game_id: int | None, say: Callable[..., object]) -> None:
    """A tournament's game begins with where it is played, «Стол два, игра три.» (the numbers a
    voice pack holds, up to MAX_SEATS; a round past them is shown, not said). Names are not said:
    twenty names aloud would take a minute of the table's time, and the TV and console show them."""
    try:
        linked = None if game_id is None else store.tournaments.link_of(game_id)
    except StoreError:
        return  # the store's fault is the game's to report, not the greeting's
    if linked is not None and max(linked[1], linked[2]) <= MAX_SEATS:
        say("tournament_table", seat=linked[2], count=linked[1])


def seater_for(
    store: Any, by_name: tuple[str, int, int] | None, from_file: FileTable | None, club_url: str | None = None
) -> Callable[[int], str] | None:
    """What names a new game's seats: the store's tournament (or the club database's seating),
    a seating file's table, or nothing."""
    if by_name is not None:
        return table_seater(store, by_name, club_url)
    return file_seater(store, from_file) if from_file is not None else None
