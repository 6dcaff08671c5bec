"""Standings: Ci (mafiaratings' night1 line of FIIM) worked by hand, the
tiebreakers in their order, only finished games."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Team
from host_device.club.record import BestMove, Departure
from host_device.club.scoring import (
    ROLES,
    TIEBREAKERS,
    ScoringError,
    default_table,
    parse_table,
    shipped_table,
)
from host_device.tournament.standings import ci_points, standings, tiebreakers
from host_device.tournament.table_rows import table_rows
from tests.helpers.paths import ROOT
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
    assert tiebreakers("polemica") == ("extra", "special_wins", "shot_first", "best_move")
    record = game(Team.RED)  # seats 1 sheriff, 5 doctor ... all red win 1.0
    record = replace(record, extras={9: 0.2})
    rows = standings([(1, record), (2, replace(record, extras={}))], default_table())
    order = [s.player for s in rows]
    # p9: 2.2; p1 (sheriff): 2.0 with two special wins, ahead of the other reds at 2.0
    assert order[0] == "p9" and order[1] == "p1"
    assert set(order[-3:]) == {"p2", "p3", "p4"}  # the black seats


def test_an_unfinished_game_counts_for_nobody() -> None:
    assert standings([(1, replace(game(), winner=None))], default_table()) == []


MWC = shipped_table("maf-world-cup.toml")  # round 11 on × 1.25, ranked by points per game
FIIM = ROOT / "host_device" / "club" / "data" / "fiim.toml"


def test_a_round_multiplier_weighs_every_point_of_its_games() -> None:
    first = replace(game(Team.RED), extras={8: 1.0})  # p8, a civilian: 4 + The Best Move's 1
    rows = {s.player: s for s in standings([(10, first), (11, first)], MWC)}
    assert rows["p8"].by_round == {10: 5.0, 11: 6.25}  # round 11: (4 + 1) × 1.25
    assert (rows["p8"].total, rows["p8"].result, rows["p8"].extra) == (11.25, 9.0, 2.25)
    assert rows["p2"].total == 0.5 + 0.625  # the don's loss, then × 1.25


def test_a_clubs_finals_counting_three_times_reorder_the_standings() -> None:
    finals = parse_table(FIIM.read_text("utf-8") + "\n[round_multipliers]\n3 = 3.0\n", "ours.toml")
    games = [(1, game(Team.RED)), (2, game(Team.RED)), (3, game(Team.BLACK))]
    plain = [s.player for s in standings(games, default_table())]
    weighed = {s.player: s for s in standings(games, finals)}
    assert plain.index("p9") < plain.index("p3")  # two red wins against one black win
    assert weighed["p3"].total == 3.0 and weighed["p9"].total == 2.0  # the final's win counts 3
    assert [s.player for s in standings(games, finals)].index("p3") < 3


def test_ranked_by_points_per_game_when_the_table_says_so() -> None:
    one = game(Team.RED)  # p8 wins as a civilian: 4
    two = seat_changed(game(Team.BLACK), 8, player="q8")  # p8 sits out; p9 loses: 4 + 1 in two
    by_total = parse_table(
        (ROOT / "host_device" / "club" / "data" / "maf-world-cup.toml")
        .read_text("utf-8")
        .replace('rank_by = "average"', 'rank_by = "total"'),
        "t.toml",
    )
    per_game = [s.player for s in standings([(1, one), (2, two)], MWC)]
    totals = [s.player for s in standings([(1, one), (2, two)], by_total)]
    rows = {s.player: s for s in standings([(1, one), (2, two)], MWC)}
    assert (rows["p8"].games, rows["p8"].average, rows["p9"].average) == (1, 4.0, 2.5)
    assert per_game.index("p8") < per_game.index("p9")  # 4.0 a game against 2.5
    assert totals.index("p9") < totals.index("p8")  # 5 against 4
    places = {row[1]: row[0] for row in table_rows(standings([(1, one), (2, two)], MWC), {})}
    assert places["p8"] == 1 and places["q8"] == len(places) == 11  # q8: a civilian's loss, 1.0


def test_killed_first_counts_red_players_only_as_mafiaratings_and_shot_first_any_as_polemica() -> None:
    """mafiaratings: `p.kill_round = 1 AND p.kill_type = KILL_TYPE_NIGHT AND p.role < 2` (civilian,
    sheriff); Polemica's firstShot is summed over every role."""
    red = seat_changed(game(Team.BLACK), 8, left=Departure("shot", night=1))  # p8, a civilian
    black = seat_changed(game(Team.RED), 3, left=Departure("shot", night=1))  # p3, mafia (the don's own)
    rows = {s.player: s for s in standings([(1, red), (2, black)], MR)}
    assert (rows["p8"].killed_first, rows["p8"].shot_first) == (1, 1)
    assert (rows["p3"].killed_first, rows["p3"].shot_first) == (0, 1)
    assert rows["p3"].ci == 0.0


def small_table(order: str) -> str:
    win = "\n".join(f"{r} = 1.0" for r in ROLES)
    loss = "\n".join(f"{r} = 0.0" for r in ROLES)
    return (
        f'name = "t"\n[win]\n{win}\n[loss]\n{loss}\n[best_move]\nblack_2 = 0.3\nblack_3 = 0.3\n'
        "[penalty]\ndisqualified = -0.5\nfoul = 0.0\n[extra]\nmin = -1.0\nmax = 1.0\nstep = 0.1\n"
        f'[standings]\ntiebreakers = "{order}"\n'
    )


def test_a_table_may_choose_polemicas_tiebreakers() -> None:
    """p8 and p9 (civilians) tie at 1.3: p8 by his best move (shot first), p9 by extra points.
    mafiaratings sums extra, penalty and best move (a tie), then wins, special wins, then killed
    first: p8. Polemica compares the awards (extra points) first: p9."""
    record = replace(
        seat_changed(game(Team.RED), 8, left=Departure("shot", night=1)),
        best_move=BestMove(seat=8, named=(2, 3, 9), black=2),
        extras={9: 0.3},
    )
    by = {order: standings([(1, record)], parse_table(small_table(order), "t.toml")) for order in TIEBREAKERS}
    for rows in by.values():
        assert {s.player: s.total for s in rows if s.player in ("p8", "p9")} == {"p8": 1.3, "p9": 1.3}
    assert [s.player for s in by["mafiaratings"]][:2] == ["p8", "p9"]
    assert [s.player for s in by["polemica"]][:2] == ["p9", "p8"]
    with pytest.raises(ScoringError, match="standings.tiebreakers"):
        parse_table(small_table("elo"), "bad.toml")


MR7 = shipped_table("fiim-mafiaratings-7.toml")


def test_mafiaratings_version_7_by_hand() -> None:
    """Version 7: a win 1, +0.3 every game played (автодопы), ЛХ 0.7 / 0.5, Ci capped at 0.5."""
    record = replace(
        seat_changed(game(Team.BLACK), 8, left=Departure("shot", night=1)),
        best_move=BestMove(seat=8, named=(2, 3, 4), black=3),
        extras={5: 0.5},
    )
    rows = {s.player: s for s in standings([(1, record)], MR7)}
    assert rows["p2"].total == pytest.approx(1.3)  # the don wins: 1 + 0.3
    assert rows["p9"].total == pytest.approx(0.3)  # a civilian loses: 0.3
    assert rows["p5"].total == pytest.approx(0.8)  # the doctor loses, 0.5 entered: 0.3 + 0.5
    assert rows["p8"].best_move == pytest.approx(0.7) and rows["p8"].ci == pytest.approx(0.5)
    assert rows["p8"].total == pytest.approx(0.3 + 0.7 + 0.5)
