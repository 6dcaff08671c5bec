"""The rating replayed over a hand-checked series of four games (K = 20,
start 1000; the numbers in the comments were worked out by hand with the
formula in docs/club.md, E = 1 / (1 + 10 ** ((opponents - own) / 400)))."""

import pytest

from engine import Role, Team
from host_device.club.rating import (
    START,
    K,
    Rating,
    expected,
    rating_name,
    ratings,
    replay,
    replay_mafiaratings,
    standings,
)
from host_device.club.record import GameRecord, SeatRecord


def game(number, winner, red=(), black=(), unnamed_seats=10):
    """A game whose red seats carry the ids in ``red`` and black seats those in ``black``."""
    seats = []
    for n in range(1, unnamed_seats + 1):
        black_seat = n in (8, 9, 10)
        ids = black if black_seat else red
        index = (n - 8) if black_seat else (n - 1)
        seats.append(
            SeatRecord(
                seat=n,
                role=Role.MAFIA if black_seat else Role.CIVILIAN,
                player=ids[index] if index < len(ids) else None,
            )
        )
    return GameRecord(
        id=number,
        started_at=f"2026-12-0{number}T20:00:00",
        finished_at=None if winner is None else f"2026-12-0{number}T21:00:00",
        preset="classic",
        mode="host",
        winner=winner,
        days=3,
        seats=tuple(seats),
    )


SERIES = [
    # 1: all new (1000); E = 0.5 for both teams. Red wins: A, B +20*0.5 = 1010; C -10 = 990.
    game(1, Team.RED, red=("A", "B"), black=("C",)),
    # 2: red A, C: average (1010 + 990) / 2 = 1000; black B, D (new): (1010 + 1000) / 2 = 1005.
    #    E_red = 1 / (1 + 10^(5/400)) = 1 / (1 + 1.02920) = 0.49280; E_black = 0.50720.
    #    Black wins: A 1010 - 20*0.49280 = 1000.144; C 990 - 9.856 = 980.144;
    #    B 1010 + 20*(1 - 0.50720) = 1019.856; D 1000 + 9.856 = 1009.856.
    game(2, Team.BLACK, red=("A", "C"), black=("B", "D")),
    # 3: red B, D: (1019.856 + 1009.856) / 2 = 1014.856; black A: 1000.144.
    #    E_red = 1 / (1 + 10^(-14.712/400)) = 1 / (1 + 0.91880) = 0.52116.
    #    Black wins: B 1019.856 - 10.423 = 1009.433; D 1009.856 - 10.423 = 999.433; A 1000.144 + 10.423 = 1010.567.
    game(3, Team.BLACK, red=("B", "D"), black=("A",)),
    # 4: unfinished: not rated.
    game(4, None, red=("A",), black=("B",)),
    # 5: red C alone (980.144); black has nobody named, so its average is the start, 1000.
    #    E_red = 1 / (1 + 10^(19.856/400)) = 1 / (1 + 1.12109) = 0.47146.  Red wins: C 980.144 + 20*0.52854 = 990.715.
    game(5, Team.RED, red=("C",)),
]


def test_the_constants_are_the_documented_ones():
    assert (START, K) == (1000.0, 20.0)
    assert expected(1000, 1000) == 0.5 and expected(1400, 1000) == pytest.approx(10 / 11)


def test_the_hand_checked_series():
    table = ratings(SERIES)
    assert {p: round(r.rating, 3) for p, r in table.items()} == {
        "A": 1010.567,
        "B": 1009.433,
        "C": 990.715,
        "D": 999.433,
    }
    assert (table["A"].games, table["A"].wins) == (3, 2)  # game 4 (unfinished) is not counted
    assert (table["C"].games, table["C"].wins) == (3, 1)  # lost 1 and 2, won 5


def test_each_change_is_told_with_its_expectation():
    changes = [c for c in replay(SERIES) if c.game == 2]
    assert {c.player: round(c.expected, 5) for c in changes} == {
        "A": 0.49280,
        "C": 0.49280,
        "B": 0.50720,
        "D": 0.50720,
    }
    d = next(c for c in changes if c.player == "D")
    assert (d.before, round(d.after, 3), d.won, d.team, d.seat) == (1000.0, 1009.856, True, Team.BLACK, 9)


def test_unnamed_seats_are_not_rated():
    assert {c.player for c in replay(SERIES)} == {"A", "B", "C", "D"}
    assert len([c for c in replay(SERIES) if c.game == 1]) == 3  # seven unnamed seats: no change


def test_the_order_of_the_games_matters():
    forward = ratings(SERIES)
    backward = ratings(list(reversed(SERIES)))
    assert round(forward["A"].rating, 3) != round(backward["A"].rating, 3)


def test_equal_ratings_share_a_place():
    table = {
        "x": Rating("x", 1010.04, 3, 2),
        "y": Rating("y", 1010.0, 5, 3),
        "z": Rating("z", 990.0, 1, 0),
        "w": Rating("w", 1020.0, 1, 1),
    }
    assert [(place, r.player) for place, r in standings(table)] == [(1, "w"), (2, "y"), (2, "x"), (4, "z")]


def test_an_equal_rating_goes_by_points_and_equal_both_share_a_place():
    table = {p: Rating(p, 1010.0 + d, 1, 1) for p, d in (("a", 0.0), ("b", 0.04), ("c", 0.0), ("d", -0.02))}
    points = {"a": 3.0, "b": 3.5, "c": 3.0, "d": 3.25}
    assert [(place, r.player) for place, r in standings(table, points)] == [
        (1, "b"),
        (2, "d"),
        (3, "a"),
        (3, "c"),
    ]


MR_SERIES = [
    # 1: every side's rating 0: civ_odds = 1 / (1 + 10^0) = 0.5. Red wins (K 4/3, a club's games):
    #    A, B +4 * (1 - 0.5) = +2 (total and red); C, black, loses: 3 * (0.5 - 1) = -1.5.
    game(1, Team.RED, red=("A", "B"), black=("C",)),
    # 2: red A (red 2), C (red 0: his -1.5 was black): average 1; black B, D (black 0): 0.
    #    civ_odds = 1 / (1 + 10^((0 - 1) / 400)) = 1 / (1 + 0.994260) = 0.501439. Black wins:
    #    A, C -3 * 0.501439 = -1.504317; B, D +4 * 0.501439 = +2.005756.
    game(2, Team.BLACK, red=("A", "C"), black=("B", "D")),
]


def test_mafiaratings_rating_by_hand():
    """include/game_ratings.php: side ratings for the averages, K 4/3 for a club's games, the
    change to the total; shown from 1000."""
    table = ratings(MR_SERIES, method="mafiaratings")
    assert {p: round(r.rating, 3) for p, r in table.items()} == {
        "A": 1000.496,  # 2 - 1.504317
        "B": 1004.006,  # 2 + 2.005756
        "C": 996.996,  # -1.5 - 1.504317
        "D": 1002.006,
    }
    first = next(c for c in replay_mafiaratings(MR_SERIES) if c.game == 2 and c.player == "A")
    assert round(first.expected, 6) == 0.501439 and (first.before, round(first.after, 6)) == (
        1002.0,
        1000.495683,
    )


@pytest.mark.parametrize(
    ("games", "win", "lose"), [("club", 4, 3), ("tournament", 16, 12), ("elite", 64, 48)]
)
def test_mafiaratings_k_by_the_class_and_halved_under_ten_players(games, win, lose):
    ten = {
        p: r.rating
        for p, r in ratings(
            [game(1, Team.RED, red=("A",), black=("C",))], method="mafiaratings", games=games
        ).items()
    }
    nine = game(1, Team.RED, red=("A",), black=("C",), unnamed_seats=9)
    halved = {p: r.rating for p, r in ratings([nine], method="mafiaratings", games=games).items()}
    assert ten == {"A": 1000 + win * 0.5, "C": 1000 - lose * 0.5}
    assert halved == {"A": 1000 + win * 0.25, "C": 1000 - lose * 0.25}


def test_a_clubs_table_chooses_the_rating_its_pages_show():
    from host_device.club.scoring import ScoringError, parse_table
    from tests.helpers.paths import ROOT

    text = (ROOT / "host_device" / "club" / "data" / "fiim.toml").read_text("utf-8")
    table = parse_table(text + '\n[rating]\nmethod = "mafiaratings"\ngames = "tournament"\n', "t.toml")
    assert (table.rating, table.rating_games) == ("mafiaratings", "tournament")
    assert rating_name(table.rating, table.rating_games) == "рейтинг mafiaratings (турнир)"
    assert parse_table(text, "t.toml").rating == "club"
    with pytest.raises(ScoringError, match="rating.method"):
        parse_table(text + '\n[rating]\nmethod = "glicko"\n', "t.toml")
