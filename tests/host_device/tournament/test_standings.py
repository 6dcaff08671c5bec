"""Standings: Ci (mafiaratings' night1 line of FIIM) worked by hand, the
tiebreakers in their order, only finished games."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Team
from host_device.club.record import Departure
from host_device.club.scoring import default_table, shipped_table
from host_device.tournament.standings import ci_points, standings, tiebreakers
from tests.host_device.club.test_scoring import game, seat_changed

MR = shipped_table("fiim-mafiaratings.toml")


@pytest.mark.parametrize(
    ("games", "kills", "expected"),
    [
        (10, 2, 0.2),  # 2·0.4 / round(4.0)
        (7, 1, round(0.4 / 3, 6)),  # round(2.8) = 3
        (5, 3, 0.4),  # 3·0.4 / 2 = 0.6, capped
        (2, 1, 0.4),  # round(0.8) = 1
        (1, 1, 0.4),  # round(0.4) = 0: theirs divides by zero; the cap here
    ],
)
def test_ci_by_hand(games: int, kills: int, expected: float) -> None:
    assert ci_points(MR, games, kills) == pytest.approx(expected)
    assert ci_points(default_table(), games, kills) == 0.0  # today's table has no [ci]


def test_ci_goes_to_a_red_player_shot_first_who_lost() -> None:
    shot = seat_changed(game(Team.BLACK), 8, left=Departure("shot", night=1))  # p8, a civilian
    won = seat_changed(game(Team.RED), 8, left=Departure("shot", night=1))
    plain = game(Team.RED)
    rows = {s.player: s for s in standings([(1, shot), (2, won), (3, plain), (4, plain)], MR)}
    # p8: four games, two first kills -> 2·0.4/round(1.6)=0.4 (cap) for the one lost; none for the won
    assert rows["p8"].ci == 0.4 and rows["p8"].killed_first == 2
    assert rows["p8"].total == pytest.approx(0.4 + 3 * 1.0)
    assert rows["p9"].ci == 0.0


def test_the_tiebreakers_are_mafiaratings_default_order() -> None:
    assert tiebreakers() == ("extra+penalty+best_move", "wins", "special_wins", "killed_first")
    record = game(Team.RED)  # seats 1 sheriff, 5 doctor ... all red win 1.0
    record = replace(record, extras={9: 0.2})
    rows = standings([(1, record), (2, replace(record, extras={}))], default_table())
    order = [s.player for s in rows]
    # p9: 2.2; p1 (sheriff): 2.0 with two special wins, ahead of the other reds at 2.0
    assert order[0] == "p9" and order[1] == "p1"
    assert set(order[-3:]) == {"p2", "p3", "p4"}  # the black seats


def test_an_unfinished_game_counts_for_nobody() -> None:
    assert standings([(1, replace(game(), winner=None))], default_table()) == []
