"""The seating: exact seats by construction, pairs evened out by the search,
pairs kept apart, byes spread, rounds played kept on a regeneration."""

from __future__ import annotations

from collections import Counter

import pytest

from host_device.tournament.measure import measure
from host_device.tournament.seating import SeatingError, seat

PLAYERS = [f"p{k:02d}" for k in range(20)]


def test_every_player_sits_every_seat_exactly_once_over_ten_rounds() -> None:
    seating = seat(PLAYERS, 10, seed=3, effort=0.1)
    for pid in PLAYERS:
        seats = sorted(seating.place(r, pid)[1] for r in range(10))  # type: ignore[index]
        assert seats == list(range(1, 11))
    assert measure(PLAYERS, seating.rounds).seat_exact


def test_the_same_seed_gives_the_same_seating_and_another_seed_another() -> None:
    assert seat(PLAYERS, 10, seed=5, effort=0.1) == seat(PLAYERS, 10, seed=5, effort=0.1)
    assert seat(PLAYERS, 10, seed=5, effort=0.1) != seat(PLAYERS, 10, seed=6, effort=0.1)


def test_the_search_evens_out_who_meets_whom() -> None:
    players = [f"p{k:02d}" for k in range(30)]
    before = measure(players, seat(players, 10, seed=1, effort=0.0).rounds)
    after = measure(players, seat(players, 10, seed=1, effort=0.3).rounds)
    assert after.seat_exact and before.seat_exact
    assert after.players_score < before.players_score * 0.7
    assert after.pair_max - after.pair_min < before.pair_max - before.pair_min


def test_a_pair_kept_apart_never_meets() -> None:
    apart = [("p00", "p01"), ("p02", "p03"), ("p00", "p05")]
    seating = seat(PLAYERS, 10, apart=apart, seed=2, effort=0.2)
    for r in seating.rounds:
        for table in r:
            for a, b in apart:
                assert not (a in table and b in table)


def test_a_pair_that_cannot_be_kept_apart_is_refused_by_name() -> None:
    with pytest.raises(SeatingError, match="p00 и p01"):
        seat(PLAYERS[:10], 3, apart=[("p00", "p01")], seed=1, effort=0.1)


def test_byes_are_spread_evenly_and_nobody_repeats_a_seat() -> None:
    players = [f"p{k:02d}" for k in range(23)]
    seating = seat(players, 10, seed=4, effort=0.1)
    games = Counter(pid for r in seating.rounds for t in r for pid in t)
    assert set(games.values()) == {8, 9}
    assert sum(len(seating.byes(r)) for r in range(10)) == 30
    for pid in players:
        seats = [seating.place(r, pid) for r in range(10)]
        numbers = [s[1] for s in seats if s is not None]
        assert len(numbers) == len(set(numbers))  # under ten games: never the same seat twice


def test_a_regeneration_keeps_the_rounds_played_and_seats_who_came() -> None:
    first = seat(PLAYERS, 10, seed=1, effort=0.1)
    now = [*PLAYERS[1:], "new"]  # p00 left after round 3, «new» came
    second = seat(now, 10, played=first.rounds[:3], seed=1, effort=0.1)
    assert second.rounds[:3] == first.rounds[:3]
    assert "p00" in second.players
    for r in range(3, 10):
        seated = {pid for t in second.rounds[r] for pid in t}
        assert seated == set(now)
    # the balancing counts the rounds played: nobody who stayed has a seat three times, and most
    # still have every seat once (exactness for all is not promised once the players change)
    counts = [Counter(second.place(r, pid)[1] for r in range(10)) for pid in PLAYERS[1:]]  # type: ignore[index]
    assert max(max(c.values()) for c in counts) <= 2
    assert sum(len(c) == 10 for c in counts) >= 15


@pytest.mark.parametrize(
    ("args", "fix"),
    [
        ((PLAYERS[:9], 3), "не меньше 10"),
        ((PLAYERS, 0), "от 1 до 100"),
        (([*PLAYERS, "p00"], 3), "дважды"),
    ],
)
def test_bad_input_is_one_line_naming_it(args: tuple[list[str], int], fix: str) -> None:
    with pytest.raises(SeatingError, match=fix):
        seat(*args)


def test_a_constraint_naming_a_stranger_is_refused() -> None:
    with pytest.raises(SeatingError, match="«zz» не играет"):
        seat(PLAYERS, 3, apart=[("p00", "zz")])


def test_the_numbers_score_is_mafiaratings_formula_worked_by_hand() -> None:
    # two games on the same seats; by include/seating.php calculateNumbersScore the player on
    # seat 1 scores: singles 1.8²·4·4 + 0.2²·3·4 + 0.2²·2·4 + 7·0.2²·4 = 53.76; seat pairs
    # 1.6²·2 + 4·0.4²·2 = 6.4; halves 1² + 1² = 2 -> 62.16. Seat 2: 0.64 + 38.88 + 0.32 + 1.12
    # + 6.4 + 2 = 49.36. Seat 10: 0.64 + 0.48 + 25.92 + 1.12 + 8.4 = 36.56. Seats 3-9: 0.64 + 0.48
    # + 0.32 + 12.96 + 0.96 + 8.4 = 23.76 each.
    table = [f"p{k}" for k in range(10)]
    got = measure(table, [[table], [table]])
    assert got.numbers_score == pytest.approx(62.16 + 49.36 + 36.56 + 7 * 23.76)
    assert got.tables_score == 0.0  # under three tables: theirs returns 0
    # a pair meets twice in two games, expected 2·9/9 = 2: every difference is 0, "perfect"
    assert got.players_score == 0.0 and got.pair_min == got.pair_max == 2


def test_a_score_with_every_square_under_one_is_zero_as_theirs() -> None:
    table = [f"p{k}" for k in range(10)]
    assert measure(table, [[table]]).numbers_score == 0.0  # one game: each difference 0.9 at most


def test_a_table_fewer_after_a_player_left_keeps_the_rounds_played() -> None:
    first = seat(PLAYERS, 4, seed=1, effort=0.1)  # two tables
    second = seat(PLAYERS[1:], 4, played=first.rounds[:2], seed=1, effort=0.1)  # 19: one table
    assert second.rounds[:2] == first.rounds[:2]
    assert [len(r) for r in second.rounds] == [2, 2, 1, 1]
    assert sum(len(second.byes(r)) for r in (2, 3)) == 2 * 10  # p00 gone, nine of the 19 sit out
    games = Counter(pid for r in second.rounds for t in r for pid in t)
    assert max(games[p] for p in PLAYERS[1:]) - min(games[p] for p in PLAYERS[1:]) <= 1


def test_at_one_table_a_pair_kept_apart_takes_turns_to_sit_out() -> None:
    """Nineteen players after one left: one table, nine byes a round; a pair kept apart never
    plays at it together (it was refused: no other table to part them at), and their games
    stay as even as everyone's."""
    first = seat(PLAYERS, 4, apart=[("p01", "p02")], seed=1, effort=0.1)
    second = seat(PLAYERS[1:], 6, apart=[("p01", "p02")], played=first.rounds[:1], seed=2, effort=0.1)
    for r in second.rounds[1:]:
        ((table,),) = [r]
        assert not {"p01", "p02"} <= set(table)
    games = Counter(pid for r in second.rounds for t in r for pid in t)
    assert max(games[p] for p in PLAYERS[1:]) - min(games[p] for p in PLAYERS[1:]) <= 1
    with pytest.raises(SeatingError, match="p00 и p01"):  # ten players: nobody can sit out
        seat(PLAYERS[:10], 3, apart=[("p00", "p01")], seed=1, effort=0.1)
