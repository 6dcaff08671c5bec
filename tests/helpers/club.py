"""Hand-made club records for tests: a finished ten-seat classic game with
names, two days of votes (a revote and the all-leave question on day 2),
a night's shot and checks, a foul, the best move."""

import dataclasses

from engine.roles import Role, Team
from host_device.club.record import (
    Ballot,
    BestMove,
    Departure,
    GameRecord,
    NightAction,
    Nomination,
    SeatRecord,
)

ROLES = {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}
NAMES = {
    1: "Аня",
    2: "Борис",
    3: "Вера",
    4: "Глеб",
    5: "Дина",
    6: "Егор",
    7: "Жанна",
    8: "Зоя",
    9: "Иван",
    10: "Кира",
}


def player_id(seat):
    return f"00000000-0000-4000-8000-{seat:012d}"


def seat_records(named=True, changes=None):
    changes = changes or {}
    seats = []
    for n in range(1, 11):
        seat = SeatRecord(
            seat=n,
            role=ROLES.get(n, Role.CIVILIAN),
            player=player_id(n) if named else None,
            name=NAMES[n] if named else None,
        )
        seats.append(dataclasses.replace(seat, **changes.get(n, {})))
    return tuple(seats)


def game_record(game_id=1, winner=Team.RED, named=True, **fields):
    """Day 1: 1 put up 4, 2 put up 5; 4 gets 1,2,3 and 5 gets the rest: 5 leaves.
    Night 1: the mafia (3, 5, 8) shoot 7 (his best move 3, 5, 9: two black), the Don
    checks 6 (the sheriff: yes), the sheriff checks 3 (black: yes).
    Day 2: 1 puts up 3, 4 puts up 8; a tie 3-3 (6 and 9 do not press), the
    revote ties again, the all-leave question: 1, 2, 4, 6 for: 3 and 8 leave."""
    seats = seat_records(
        named,
        {
            5: {"left": Departure("vote", day=1)},
            7: {"left": Departure("shot", night=1)},
            3: {"left": Departure("vote", day=2), "fouls": 2},
            8: {"left": Departure("vote", day=2)},
            9: {"fouls": 1},
        },
    )
    ballots = [Ballot(1, 1, "main", v, 4) for v in (1, 2, 3)]
    ballots += [Ballot(1, 1, "main", v, 5) for v in (4, 5, 6, 7, 8, 9, 10)]
    ballots += [Ballot(2, 1, "main", v, 3) for v in (1, 2, 4)]
    ballots += [Ballot(2, 1, "main", v, 8) for v in (3, 8, 10)]
    ballots += [Ballot(2, 2, "revote", v, 3) for v in (1, 2, 4)]
    ballots += [Ballot(2, 2, "revote", v, 8) for v in (3, 8, 10)]
    ballots += [Ballot(2, 3, "all", v, None) for v in (1, 2, 4, 6)]
    values = dict(
        id=game_id,
        started_at="2026-11-20T19:00:00+00:00",
        finished_at="2026-11-20T19:50:00+00:00",
        preset="classic",
        mode="host",
        winner=winner,
        days=3,
        seats=seats,
        nominations=(Nomination(1, 1, 4), Nomination(1, 2, 5), Nomination(2, 1, 3), Nomination(2, 4, 8)),
        ballots=tuple(ballots),
        nights=(
            NightAction(1, "shot", Role.MAFIA, 7, seat=5),
            NightAction(1, "shot", Role.MAFIA, 7, seat=3),
            NightAction(1, "shot", Role.MAFIA, 7, seat=8),
            NightAction(1, "check", Role.DON, 6, True),
            NightAction(1, "check", Role.SHERIFF, 3, True),
        ),
        best_move=BestMove(7, (3, 5, 9), 2),
    )
    values.update(fields)
    return GameRecord(**values)


def unfinished_record(game_id=2, **fields):
    return game_record(game_id, winner=None, finished_at=None, **fields)


def season(games=12):
    """``games`` finished games of the same ten players, who change seats (and so roles)
    each game; the winner follows a fixed pattern (red twice, then black)."""
    out = []
    for g in range(games):
        seats = seat_records(
            changes={
                n: {"player": player_id((n + g - 1) % 10 + 1), "name": NAMES[(n + g - 1) % 10 + 1]}
                for n in range(1, 11)
            }
        )
        day = 1 + g // 3
        record = game_record(
            g + 1,
            Team.BLACK if g % 3 == 2 else Team.RED,
            started_at=f"2026-11-{day:02d}T19:{g % 3 * 20:02d}:00+00:00",
            finished_at=f"2026-11-{day:02d}T19:{g % 3 * 20 + 15:02d}:00+00:00",
        )
        out.append(
            dataclasses.replace(
                record,
                seats=tuple(
                    dataclasses.replace(s, left=r.left, fouls=r.fouls)
                    for s, r in zip(seats, record.seats, strict=True)
                ),
            )
        )
    return out
