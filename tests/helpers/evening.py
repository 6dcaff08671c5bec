"""A hand-made club evening as records: two finished classic games with
names, fouls, votes over two days (a revote among them), nights, a best
move and extra points, and one unfinished game — for the protocol's tests
and the example PDF a person looks at."""

from __future__ import annotations

from engine.roles import Role, Team
from host_device.club import scoring
from host_device.club.record import (
    Ballot,
    BestMove,
    Departure,
    GameRecord,
    NightAction,
    Nomination,
    SeatRecord,
)
from host_device.club.scoring import SeatPoints

NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")
ROLES_1 = {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}
ROLES_2 = {2: Role.DON, 4: Role.MAFIA, 9: Role.MAFIA, 10: Role.SHERIFF}


def _seats(
    roles: dict[int, Role], names: tuple[str | None, ...], fouls: dict[int, int], left: dict[int, Departure]
):
    return tuple(
        SeatRecord(
            seat=n,
            role=roles.get(n, Role.CIVILIAN),
            player=f"id-{names[n - 1]}" if names[n - 1] else None,
            name=names[n - 1],
            fouls=fouls.get(n, 0),
            left=left.get(n),
        )
        for n in range(1, 11)
    )


def _votes(day: int, round_: int, kind: str, votes: dict[int, list[int]]) -> list[Ballot]:
    return [Ballot(day, round_, kind, voter, target) for target, voters in votes.items() for voter in voters]


def game_one() -> GameRecord:
    """Red win on day 3: 5 out by vote on day 1, 1 shot on night 1 (best move 3, 5, 8), 8 out on day 2
    after a revote, 4 shot on night 2, 3 out on day 3."""
    left = {
        5: Departure("vote", day=1),
        1: Departure("shot", night=1),
        8: Departure("vote", day=2),
        4: Departure("shot", night=2),
        3: Departure("vote", day=3),
    }
    ballots = [
        *_votes(1, 1, "main", {5: [1, 2, 4, 6, 7, 9, 10], 8: [3]}),
        *_votes(2, 1, "main", {8: [2, 6, 7], 9: [3, 8, 10]}),
        *_votes(2, 2, "revote", {8: [2, 4, 6, 7, 9], 9: [3, 8]}),
        *_votes(3, 1, "main", {3: [2, 6, 7, 9], 10: [3]}),
    ]
    nights = (
        NightAction(1, "shot", Role.MAFIA, 1, seat=3),
        NightAction(1, "shot", Role.MAFIA, 1, seat=8),
        NightAction(1, "check", Role.DON, 6, True),
        NightAction(1, "check", Role.SHERIFF, 3, True),
        NightAction(2, "shot", Role.MAFIA, 4, seat=3),
        NightAction(2, "check", Role.DON, 7, False),
        NightAction(2, "check", Role.SHERIFF, 8, True),
    )
    return GameRecord(
        id=11,
        started_at="2026-11-20T16:05:00+00:00",
        finished_at="2026-11-20T16:52:00+00:00",
        preset="classic",
        mode="host",
        winner=Team.RED,
        days=3,
        seats=_seats(ROLES_1, NAMES, {4: 1, 7: 2}, left),
        nominations=(
            Nomination(1, 1, 5),
            Nomination(1, 2, 8),
            Nomination(2, 6, 8),
            Nomination(2, 3, 9),
            Nomination(3, 6, 3),
            Nomination(3, 3, 10),
        ),
        ballots=tuple(ballots),
        nights=nights,
        best_move=BestMove(seat=1, named=(3, 5, 8), black=3),
        extras={6: 0.5},
    )


def game_two() -> GameRecord:
    """Black win on day 2; seat 7 has no name; 1 disqualified on day 1 (four fouls)."""
    names = ("Кирилл", "Ирина", "Захар", "Жанна", "Егор", "Дина", None, "Вера", "Борис", "Анна")
    left = {
        1: Departure("disqualified", day=1),
        6: Departure("vote", day=1),
        10: Departure("shot", night=1),
        3: Departure("vote", day=2),
    }
    return GameRecord(
        id=12,
        started_at="2026-11-20T17:10:00+00:00",
        finished_at="2026-11-20T17:41:00+00:00",
        preset="classic",
        mode="assist",
        winner=Team.BLACK,
        days=2,
        seats=_seats(ROLES_2, names, {1: 4, 5: 1}, left),
        nominations=(Nomination(1, 2, 6), Nomination(2, 4, 3)),
        ballots=tuple(
            [
                *_votes(1, 1, "main", {6: [2, 3, 4, 5, 7, 8, 9]}),
                *_votes(2, 1, "main", {3: [2, 4, 5, 9]}),
            ]
        ),
        nights=tuple(
            [
                *(NightAction(1, "shot", Role.MAFIA, 10, seat=seat) for seat in (2, 4, 9)),
                NightAction(1, "check", Role.SHERIFF, 4, True, seat=10),
            ]
        ),
        best_move=BestMove(seat=10, named=(4, 6, 9), black=2),
    )


def unfinished() -> GameRecord:
    """Started the same evening and never ended: its roles, names and votes are secret."""
    return GameRecord(
        id=13,
        started_at="2026-11-20T18:00:00+00:00",
        finished_at=None,
        preset="classic",
        mode="host",
        winner=None,
        days=1,
        seats=_seats({1: Role.DON, 2: Role.MAFIA, 3: Role.MAFIA, 4: Role.SHERIFF}, ("Тайный",) * 10, {}, {}),
        nominations=(Nomination(1, 5, 9),),
        ballots=tuple(_votes(1, 1, "main", {9: [1, 2, 3]})),
    )


def points(record: GameRecord) -> dict[int, SeatPoints]:
    """The points by the default (FIIM) scoring table."""
    return scoring.points(record, scoring.default_table())


def evening() -> list[GameRecord]:
    return [game_two(), unfinished(), game_one()]


def big_game() -> GameRecord:
    """The largest form: 16 seats with long names, six days of two rounds each, five nights."""
    roles = {1: Role.DON, 2: Role.MAFIA, 3: Role.MAFIA, 4: Role.MAFIA, 5: Role.SHERIFF}
    seats = tuple(
        SeatRecord(
            n, roles.get(n, Role.CIVILIAN), f"id-{n}", f"Игрок с длинным именем номер {n}", fouls=n % 4
        )
        for n in range(1, 17)
    )
    ballots = []
    for day in range(1, 7):
        for round_, kind in ((1, "main"), (2, "revote")):
            ballots += [Ballot(day, round_, kind, voter, 16 - day) for voter in range(1, 17)]
    nominations = tuple(Nomination(day, by, 16 - day) for day in range(1, 7) for by in (day, day + 1))
    nights = tuple(
        a
        for night in range(1, 6)
        for a in (
            NightAction(night, "shot", Role.MAFIA, 6 + night, seat=2),
            NightAction(night, "check", Role.DON, 5 + night, False, seat=1),
            NightAction(night, "check", Role.SHERIFF, night, night < 5, seat=5),
        )
    )
    return GameRecord(
        id=14,
        started_at="2026-11-20T19:00:00+00:00",
        finished_at="2026-11-20T20:30:00+00:00",
        preset="classic",
        mode="host",
        winner=Team.RED,
        days=6,
        seats=seats,
        nominations=nominations,
        ballots=tuple(ballots),
        nights=nights,
        best_move=BestMove(seat=7, named=(1, 2, 3), black=3),
    )
