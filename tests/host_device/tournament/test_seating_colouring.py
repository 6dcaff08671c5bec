"""Seats by edge colouring (colouring.py): any tables get exact seats, byes
and more than ten games get even seats, the voting order is evened out, the
pair term reaches the independent optimiser's (issue 51)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from host_device.tournament.colouring import colour
from host_device.tournament.measure import least_meetings_squared, measure, pair_ideal
from host_device.tournament.seating import seat


def _ids(count: int) -> list[str]:
    return [f"p{k:03d}" for k in range(count)]


def _by_id(rounds: list[list[list[int]]]) -> list[list[list[str]]]:
    return [[[f"p{p:03d}" for p in table] for table in r] for r in rounds]


@pytest.mark.parametrize("count", [10, 20, 30, 100])
def test_any_tables_get_every_seat_exactly_once_over_ten_rounds(count: int) -> None:
    """König: whatever the tables (here drawn at random, not searched), ten
    colours split the players × tables graph: every seat once a player."""
    rng = random.Random(count)
    rounds = []
    for _ in range(10):
        order = rng.sample(range(count), count)
        rounds.append([order[k : k + 10] for k in range(0, count, 10)])
    groups = [[sorted(table) for table in r] for r in rounds]
    colour(rounds, 0, count, random.Random(1), 0.05)
    assert [[sorted(table) for table in r] for r in rounds] == groups  # seats only: tables kept
    assert measure(_ids(count), _by_id(rounds)).seat_exact


def test_played_rounds_keep_their_seats_and_the_rest_complete_them() -> None:
    """Four rounds played; the six left, at tables drawn anew, give each player
    the seats he has not had (König alone ignores the played seats: the
    balancing search mends it)."""
    rng = random.Random(7)
    rounds = []
    for _ in range(10):
        order = rng.sample(range(20), 20)
        rounds.append([order[:10], order[10:]])
    colour(rounds, 0, 20, random.Random(1), 0.05)
    for r in range(4, 10):
        order = rng.sample(range(20), 20)
        rounds[r] = [order[:10], order[10:]]
    played = [[list(table) for table in r] for r in rounds[:4]]
    colour(rounds, 4, 20, random.Random(2), 1.0)
    assert rounds[:4] == played
    got = measure(_ids(20), _by_id(rounds))
    assert got.seat_exact


def test_byes_spread_the_games_and_nobody_has_a_seat_twice() -> None:
    for count in (23, 47):
        players = _ids(count)
        seating = seat(players, 10, seed=4, effort=0.1)
        got = measure(players, seating.rounds)
        assert got.games_spread == 1 and got.seat_even
        for pid in players:
            seats = [place[1] for r in range(10) if (place := seating.place(r, pid))]
            assert len(seats) == len(set(seats))


def test_more_than_ten_games_spread_the_seats_within_one() -> None:
    players = _ids(20)
    seating = seat(players, 13, seed=1, effort=0.1)
    got = measure(players, seating.rounds)
    assert got.seat_even
    for pid in players:
        counts = Counter(place[1] for r in range(13) if (place := seating.place(r, pid)))
        assert sorted(counts.values()) == [1] * 7 + [2] * 3


def test_nobody_sits_directly_after_the_same_player_more_than_twice() -> None:
    """Twenty and thirty players, ten games: it was four of ten games."""
    for count in (20, 30):
        players = _ids(count)
        got = measure(players, seat(players, 10, seed=1, effort=0.2).rounds)
        assert got.seat_exact and got.follow_max <= 2


def test_twenty_players_reach_the_independent_optimisers_pair_term() -> None:
    """Issue 51: about 237 for twenty players, ten games, seat-exact (252.8 before)."""
    players = _ids(20)
    got = measure(players, seat(players, 10, seed=1).rounds)
    assert got.seat_exact and got.players_score <= 237.0 and got.follow_max <= 2


def test_follow_max_counts_seat_one_after_seat_ten() -> None:
    table = [f"p{k}" for k in range(10)]
    turned = table[1:] + table[:1]  # the same order round the table, from seat 2
    assert measure(table, [[table], [turned]]).follow_max == 2  # p0 after p9 both times
    mirrored = table[::-1]
    assert measure(table, [[table], [mirrored]]).follow_max == 1


def test_the_floor_under_the_pair_term_is_the_optimum_for_two_and_three_tables() -> None:
    """Two rounds of twenty crossing 5-5-5-5 reach the floor; with ten rounds the
    floors are 236.8 (twenty) and 400.3 (thirty): the search's results there."""
    left, right = _ids(20)[:10], _ids(20)[10:]
    crossed = [left[:5] + right[:5], left[5:] + right[5:]]
    rounds = [[left, right], crossed]
    # each player meets 9 at each of two tables, 5 of them twice (his own half): per player
    # 4 twice and 10 once -> sum over pairs of squares = 20 * (4 * 4 + 10 * 1) / 2 = 260
    assert least_meetings_squared(rounds) == 260
    assert least_meetings_squared([[left, right], [left, right]]) == 260  # a floor, not the sum (360)
    assert pair_ideal(_ids(20), [[left, right]] * 10) == pytest.approx(236.842)
    thirty = _ids(30)
    assert pair_ideal(thirty, [[thirty[:10], thirty[10:20], thirty[20:]]] * 10) == pytest.approx(400.345)
