"""A stored game made into the club's record: its inputs replayed with the
engine and the outputs read (who voted for whom and each round's count, who
left, the nights played and their actions, the fouls, the best move), joined to who sat where and the host's
extra points. Recomputed every time; nothing here is stored as truth."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Protocol

from engine import Game, IllegalInput
from engine.inputs import Foul, Input
from engine.outputs import (
    BestMoveMade,
    CheckMade,
    GameEnded,
    LifeSaved,
    NominationAccepted,
    NominationWithdrawn,
    Output,
    PhaseStarted,
    PlayerLeft,
    ShotTaken,
    VisitMade,
    VoteCounted,
)
from engine.presets import Preset
from engine.roles import Role, Team
from engine.state import Phase
from host_device.club.record import (
    Ballot,
    BestMove,
    Departure,
    FoulRecord,
    GameRecord,
    NightAction,
    Nomination,
    SeatRecord,
    VoteRound,
)
from host_device.store.db import Store
from host_device.store.faults import DamagedGame, StoreError
from host_device.store.games import GameRow


class Sitter(Protocol):
    """Who sat at a seat: the roster's player (``store.roster.seating``)."""

    @property
    def id(self) -> str | None: ...

    @property
    def name(self) -> str: ...


def build_record(
    row: GameRow,
    preset: Preset,
    inputs: Iterable[tuple[int, float, Input]],
    seating: Mapping[int, Sitter] | None = None,
    extras: Mapping[int, float] | None = None,
    undone: Iterable[tuple[int, float, Input]] = (),
) -> GameRecord:
    """The record of one stored game: ``inputs`` are the store's
    ``(seq, t, input)`` rows in order; a row the rules refuse is damage.
    ``undone``: the rows undone (the store keeps them): the device's fouls
    among them are the record's withdrawn fouls, on the day they were given."""
    game = Game(preset)
    outputs: list[Output] = []
    fouls: list[FoulRecord] = []
    withdrawn = sorted(
        ((seq, t, inp) for seq, t, inp in undone if isinstance(inp, Foul) and inp.by == "device"),
        key=lambda row: row[0],
    )
    for seq, t, inp in inputs:
        while withdrawn and withdrawn[0][0] < seq:  # taken back before this row came
            fouls.append(_foul(withdrawn.pop(0), game.state.day, withdrawn=True))
        on_day = game.state.day
        try:
            outputs += game.handle(inp)
        except IllegalInput as exc:
            raise DamagedGame(row.id, f"не воспроизводится: запись {seq}: {exc}") from None
        if isinstance(inp, Foul):
            fouls.append(_foul((seq, t, inp), on_day))
    fouls += [_foul(taken, game.state.day, withdrawn=True) for taken in withdrawn]
    state = game.state
    roles = dict(state.roles)
    for item in outputs:
        if isinstance(item, GameEnded):
            roles.update(item.roles)
    seating = seating or {}
    left: dict[int, Departure] = {}
    ballots: list[Ballot] = []
    counted: list[VoteRound] = []
    nights: list[NightAction] = []
    hunts: set[int] = set()  # the nights the mafia was woken to shoot
    mornings: set[int] = set()  # the days whose morning came
    chosen: dict[int, dict[int, int]] = {}  # day -> nominator -> his standing nomination
    rounds: dict[int, int] = {}  # day -> rounds counted so far
    best: BestMoveMade | None = None  # the last one made counts
    for item in outputs:
        match item:
            case PlayerLeft(seat=seat, how=how, day=day, night=night):
                left[seat] = Departure(how=how, day=day, night=night)
            case NominationAccepted(day=day, seat=seat, target=target):
                standing = chosen.setdefault(day, {})
                standing.pop(seat, None)  # a replaced one goes; the new one is last in order
                standing[seat] = target
            case NominationWithdrawn(day=day, seat=seat):
                chosen.get(day, {}).pop(seat, None)
            case VoteCounted():
                ballots += _ballots(item, rounds)
                counted.append(VoteRound(item.day, rounds[item.day], item.kind, item.counts, item.nobody))
            case PhaseStarted(phase=Phase.NIGHT_HUNT.value, day=day):
                hunts.add(day)
            case PhaseStarted(phase=Phase.MORNING.value, day=day):
                mornings.add(day)
            case ShotTaken(night=night, seat=seat, target=target):
                nights.append(NightAction(night, "shot", Role.MAFIA, target, seat=seat))
            case CheckMade(night=night, by=by, seat=seat, target=target, result=result):
                nights.append(NightAction(night, "check", by, target, result, seat=seat))
            case VisitMade(night=night, by=by, seat=seat, target=target, ignored=ignored):
                nights.append(NightAction(night, "visit", by, target, seat=seat, ignored=ignored))
            case LifeSaved(night=night, seat=seat):
                nights.append(NightAction(night, "saved", Role.DOCTOR, seat))
            case BestMoveMade():
                best = item
            case _:
                pass
    seats = tuple(
        SeatRecord(
            seat=seat,
            role=roles.get(seat, Role.CIVILIAN),
            player=seating[seat].id if seat in seating else None,
            name=seating[seat].name if seat in seating else None,
            fouls=state.fouls.get(seat, 0),
            left=left.get(seat),
        )
        for seat in range(1, preset.seats + 1)
    )
    nominations = tuple(
        Nomination(day, by, target) for day in sorted(chosen) for by, target in chosen[day].items()
    )
    return GameRecord(
        id=row.id,
        started_at=row.started_at,
        finished_at=row.finished_at,
        preset=row.preset,
        mode=row.mode,
        winner=state.winner,  # the replay's (``games check`` tells a row that says otherwise)
        days=state.day,
        seats=seats,
        nominations=nominations,
        ballots=tuple(ballots),
        nights=tuple(nights),
        rounds=tuple(counted),
        nights_played=tuple(sorted(n for n in hunts if n + 1 in mornings)),
        best_move=None
        if best is None
        else BestMove(
            best.seat, best.seats, sum(roles.get(s, Role.CIVILIAN).team is Team.BLACK for s in best.seats)
        ),
        extras={seat: float(points) for seat, points in (extras or {}).items()},
        fouls=tuple(fouls),
    )


def _foul(row: tuple[int, float, Foul], day: int, withdrawn: bool = False) -> FoulRecord:
    _, t, foul = row
    return FoulRecord.of(foul, day, round(t, 3), withdrawn)


def _ballots(counted: VoteCounted, rounds: dict[int, int]) -> list[Ballot]:
    """One ballot a pressing seat; the all-leave question's candidate 0 is None."""
    rounds[counted.day] = number = rounds.get(counted.day, 0) + 1
    return [
        Ballot(counted.day, number, counted.kind, voter, candidate or None)
        for candidate, voters in counted.voters
        for voter in voters
    ]


def _seating(store: Store, game_id: int) -> tuple[Mapping[int, Sitter], Mapping[int, float]]:
    """Who sat where (the roster's players) and the host's extra points."""
    return store.roster.seating(game_id), store.roster.extras(game_id)


def record_of(store: Store, game_id: int) -> GameRecord:
    """One stored game's record (finished or not)."""
    row = store.games.game(game_id)
    seating, extras = _seating(store, game_id)
    games = store.games
    record = build_record(
        row, games.preset(game_id), games.inputs(game_id), seating, extras, games.undone(game_id)
    )
    try:
        game_uuid: str | None = store.games.game_uuid(game_id)
    except DamagedGame:  # the record stands without it (only sending it to the club needs it)
        game_uuid = None
    return dataclasses.replace(record, uuid=game_uuid)


def records(store: Store, damaged: list[DamagedGame] | None = None) -> list[GameRecord]:
    """Every finished game's record, oldest first; a damaged game is left out
    and, when ``damaged`` is given, put there (its reason names it)."""
    found = []
    for row in store.games.all():
        try:
            record = record_of(store, row.id)
        except StoreError as exc:
            if damaged is not None:
                damaged.append(exc if isinstance(exc, DamagedGame) else DamagedGame(row.id, str(exc)))
            continue
        if record.finished:
            found.append(record)
    return sorted(found, key=lambda r: (r.started_at, r.id))
