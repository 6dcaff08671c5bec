"""What a box sends the club's database for one finished game: the game
itself (its UUID, rules, settings and inputs: the truth, replayable
anywhere), who sat where and the host's extra points, the roster entries of
its players, and its record (the replay's reading, so the club's pages do
not replay thousands of games), with a digest of the game's own content.

The digest covers what the game is (its UUID, times, rules, settings, inputs,
seats and extra points), not the players' names, and is read from the
store's rows without a replay (host_device/store/outbox.py), so the outbox
knows what waits without replaying every game: a renamed player sends the
same game again as the same digest, and the club keeps the newest name. Two
packages of one UUID with different digests are two different records of
one game: the club's database keeps the first box's and refuses another's.
A box's own later package of its game (the host corrected a seat after the
game) replaces its earlier one."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from engine.serial import to_dict
from host_device.club.build import record_of
from host_device.club.record_json import record_to_dict
from host_device.store.db import Store
from host_device.store.faults import StoreError
from host_device.store.outbox import digest_of


@dataclass(frozen=True)
class PlayerEntry:
    id: str  # the roster's UUID
    name: str
    nickname: str | None = None
    merged_into: str | None = None  # the entry this one was merged into (resolved by the club)


@dataclass(frozen=True)
class GamePackage:
    uuid: str  # the game's UUID: its key in the club's database
    box: str  # the sending box's UUID (Store.box_id)
    local_id: int  # the game's number in the box's store (shown in messages)
    started_at: str
    finished_at: str | None
    preset: str
    mode: str
    winner: str | None
    days: int
    settings: dict[str, Any]
    inputs: list[dict[str, Any]]  # the record's inputs in order: {"seq", "t", "input"} (input: engine.serial)
    seats: dict[int, str]  # seat -> the roster UUID of who sat there (as the box's roster stands)
    extras: dict[int, float]
    players: tuple[PlayerEntry, ...]  # the roster entries the seats name, and what they were merged into
    record: dict[str, Any]  # host_device.club.record_json.record_to_dict of the game's record
    digest: str = field(default="")  # sha256 of the game's own content (see the module's text)
    tournament: tuple[str, int, int] | None = (
        None  # (name, round, table) of its tournament; not in the digest
    )


def content_digest(package: GamePackage) -> str:
    """The digest of what the game is, computed from a package: the same as
    the store's own from its rows (host_device/store/outbox.py), whose input
    texts are the JSON this project writes (``json.dumps(..., ensure_ascii=False)``)."""
    head = {
        "uuid": package.uuid,
        "started_at": package.started_at,
        "finished_at": package.finished_at,
        "preset": package.preset,
        "mode": package.mode,
    }
    inputs = ((i["seq"], i["t"], json.dumps(i["input"], ensure_ascii=False)) for i in package.inputs)
    return digest_of(head, package.settings, inputs, package.seats, package.extras)


def package_of(store: Store, game_id: int) -> GamePackage:
    """One stored finished game packed for the club (an unfinished game: StoreError)."""
    row = store.games.game(game_id)
    if row.winner is None:
        raise StoreError(f"игра {game_id} ещё не окончена: в клуб отправляются только оконченные")
    # the digest first: a change made while the package is read makes the game wait again (never
    # the other way round: a newer digest marked sent for an older content)
    digest = store.outbox.content_digest(game_id)
    record = record_of(store, game_id)  # the replay: only for a game that is sent
    seating = store.roster.seating(game_id)
    seated = {sat.id for sat in seating.values()}
    entries = [  # the seated (resolved) players and any entry merged into one of them
        PlayerEntry(pid, name, nickname, merged)
        for pid, name, nickname, merged in store.db.execute(
            "SELECT id, name, nickname, merged_into FROM players"
        ).fetchall()
        if pid in seated or merged in seated
    ]
    package = GamePackage(
        uuid=store.games.game_uuid(game_id),
        box=store.box_id(),
        local_id=game_id,
        started_at=row.started_at,
        finished_at=row.finished_at,
        preset=row.preset,
        mode=row.mode,
        winner=row.winner,
        days=row.days,
        settings=store.games.settings(game_id),
        inputs=[{"seq": seq, "t": t, "input": to_dict(inp)} for seq, t, inp in store.games.inputs(game_id)],
        seats={seat: who.id for seat, who in sorted(seating.items())},
        extras=dict(sorted(store.roster.extras(game_id).items())),
        players=tuple(sorted(entries, key=lambda e: e.id)),
        record=record_to_dict(record),
        tournament=store.tournaments.link_of(game_id),
    )
    return dataclasses.replace(package, digest=digest)
