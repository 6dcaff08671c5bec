"""A player's figures over three hand-made games (and one unfinished)."""

from dataclasses import replace

from engine import Role, Team
from host_device.club.record import Ballot, BestMove, Departure, GameRecord, SeatRecord
from host_device.club.scoring import default_table
from host_device.club.stats import RoleRecord, first_killed, player_stats

TABLE = default_table()
ROLES = {1: Role.SHERIFF, 2: Role.DON, 3: Role.MAFIA, 4: Role.MAFIA}


def game(number, winner, me, my_role=None, **changes):
    """Seat ``me`` is "me" (his role ``my_role`` swapped in where given)."""
    roles = dict(ROLES)
    if my_role is not None:
        other = next((s for s, r in roles.items() if r is my_role), None)
        if other is not None:
            roles[other] = roles.get(me, Role.CIVILIAN)
        roles[me] = my_role
    seats = tuple(
        SeatRecord(seat=n, role=roles.get(n, Role.CIVILIAN), player="me" if n == me else f"p{n}")
        for n in range(1, 11)
    )
    record = GameRecord(
        id=number,
        started_at=f"2026-12-0{number}T20:00",
        finished_at="x" if winner else None,
        preset="classic",
        mode="host",
        winner=winner,
        days=3,
        seats=seats,
    )
    return replace(record, **changes)


def with_seat(record, number, **changes):
    return replace(
        record, seats=tuple(replace(s, **changes) if s.seat == number else s for s in record.seats)
    )


# 1: he is a civilian at 7, killed first (night 1), his best move names 2, 3 and 9 (two black); red wins.
#    He votes on day 1 for 3 (black) and in a revote for 5 (red): 2 votes, 1 against black.
ONE = with_seat(
    with_seat(
        game(
            1,
            Team.RED,
            7,
            best_move=BestMove(seat=7, named=(2, 3, 9), black=2),
            ballots=(
                Ballot(1, 1, "main", 7, 3),
                Ballot(1, 2, "revote", 7, 5),
                Ballot(1, 3, "all_leave", 7, None),  # the all-leave question: not a vote for anyone
                Ballot(1, 1, "main", 6, 3),
            ),
        ),
        7,
        left=Departure(how="shot", night=1),
        fouls=1,
    ),
    8,
    left=Departure(how="shot", night=2),
)
# 2: he is the Don at 2; black wins; two fouls; extra +0.3; he votes for 1 (red).
TWO = with_seat(game(2, Team.BLACK, 2, extras={2: 0.3}, ballots=(Ballot(1, 1, "main", 2, 1),)), 2, fouls=2)
# 3: he is the Sheriff at 1; black wins; disqualified on day 2; votes for 4 (black).
THREE = with_seat(
    game(3, Team.BLACK, 1, ballots=(Ballot(1, 1, "main", 1, 4),)),
    1,
    left=Departure(how="disqualified", day=2),
    fouls=4,
)
# 4: unfinished: left out.
FOUR = game(4, None, 5)


def test_his_figures():
    stats = player_stats([ONE, TWO, THREE, FOUR], "me", TABLE)
    assert (stats.games, stats.wins) == (3, 2)
    assert stats.roles == {
        Role.CIVILIAN: RoleRecord(1, 1),
        Role.DON: RoleRecord(1, 1),
        Role.SHERIFF: RoleRecord(1, 0),
    }
    # 1: 1.0 + 0.25 best move; 2: 1.0 + 0.3 extra; 3: 0 - 0.5 disqualified
    assert stats.points == 2.05 and round(stats.average, 4) == 0.6833
    assert stats.best_moves == {2: 1} and stats.best_move_count == 1 and stats.best_move_points == 0.25
    assert stats.killed_first == 1
    assert (stats.fouls, stats.disqualified) == (1 + 2 + 4, 1)
    assert (stats.votes, stats.votes_against_black) == (4, 2)  # 3 and 4 black; 5 and 1 red
    assert stats.against_black == 0.5
    assert (stats.red_votes, stats.red_votes_against_black) == (3, 2)  # the Don's vote is not red
    assert round(stats.red_against_black, 4) == 0.6667


def test_a_player_with_no_games():
    stats = player_stats([ONE], "nobody", TABLE)
    assert stats.games == 0 and stats.against_black is None and stats.average is None


def test_the_first_killed_is_the_earliest_shot():
    assert first_killed(ONE) == 7
    assert first_killed(TWO) is None


def test_the_fouls_the_device_gave_him_are_counted_apart():
    import dataclasses

    from host_device.club.record import FoulRecord

    heard = (FoulRecord(2, 1, "device", "честно", 60.0), FoulRecord(2, 1, "host", "", 90.0))
    heard += (FoulRecord(3, 1, "device", "клянусь", 95.0),)  # another seat's
    stats = player_stats([ONE, dataclasses.replace(TWO, fouls=heard), THREE], "me", TABLE)
    assert (stats.fouls, stats.device_fouls) == (1 + 2 + 4, 1)


def test_a_withdrawn_device_foul_is_not_counted_among_his():
    import dataclasses

    from host_device.club.record import FoulRecord

    heard = (
        FoulRecord(2, 1, "device", "честно", 60.0),
        FoulRecord(2, 1, "device", "клянусь", 70.0, withdrawn=True),
    )
    stats = player_stats([ONE, dataclasses.replace(TWO, fouls=heard), THREE], "me", TABLE)
    assert stats.device_fouls == 1
