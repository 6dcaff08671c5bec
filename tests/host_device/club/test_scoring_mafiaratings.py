"""mafiaratings' FIIM table (host_device/club/data/fiim-mafiaratings.toml) line by line
against its published source (szotin/mafiaratings db/alter106.sql, scoring 19), and the
four places where today's fiim.toml differs."""

from dataclasses import replace

import pytest

from engine import Team
from host_device.club.record import BestMove, Departure
from host_device.club.scoring import (
    ScoringError,
    default_table,
    load_table,
    parse_table,
    points,
    shipped_table,
)
from tests.helpers.paths import ROOT
from tests.host_device.club.test_scoring import DEALT, game, seat_changed

FILE = ROOT / "host_device" / "club" / "data" / "fiim-mafiaratings.toml"
MR = shipped_table("fiim-mafiaratings.toml")
SOURCE_LINE = (  # db/alter151.sql, scoring 19 version 2, the line split as the file's comment splits it
    'UPDATE scoring_versions SET scoring = \'{"main":[{"matter":2,"points":1}],'
    '"extra":[{"matter":4194304,"points":"bonus()"}],'
    '"legacy":[{"matter":1,"points":"matter(10) ? 0.4 : (matter(11) ? 0.25 : 0)","roles":3}],'
    '"penalty":[{"matter":1,"points":"matter(12) || matter(13) ? -0.5 : 0"}],'
    '"night1":[{"matter":260,"roles":3,"points":"max(min(counter(0,1)*0.4/round(counter(0,0)*0.4),0.4),0)"}],'
    '"counters":[{"matter":1},{"matter":256,"roles":3}]}\' WHERE scoring_id = 19 AND version = 2;'
)


def shot_first(record, seat, night=1):
    return seat_changed(record, seat, left=Departure("shot", night=night))


def best(record, seat, black):
    return replace(record, best_move=BestMove(seat=seat, named=(2, 3, 4), black=black))


def test_the_file_quotes_its_source_line() -> None:
    text = "".join(line.lstrip("# ").strip() for line in FILE.read_text("utf-8").splitlines())
    assert SOURCE_LINE in text and "SCORING_DEFAULT_ID" in text
    assert (MR.ci_max, MR.ci_share) == (0.4, 0.4)  # "night1": …*0.4/round(…*0.4), capped at 0.4


def test_main_a_win_is_one_point_whatever_the_role_a_loss_none() -> None:  # "main":[{"matter":2,"points":1}]
    won = points(game(Team.BLACK), MR)
    assert {won[s].result for s in (2, 3, 4)} == {1.0} and {won[s].result for s in (1, 5, 8)} == {0.0}


@pytest.mark.parametrize(("black", "expected"), [(3, 0.4), (2, 0.25), (1, 0.0)])  # prima_nocta 1024 / 2048
def test_prima_nocta_three_black_is_0_4_two_is_0_25(black: int, expected: float) -> None:
    record = best(shot_first(game(), 8), 8, black)
    assert points(record, MR)[8].best_move == expected
    assert points(record, default_table())[8].best_move == {3: 0.5, 2: 0.25, 1: 0.0}[black]  # today's


def test_prima_nocta_roles_3_a_black_player_shot_by_his_own_gets_nothing() -> None:
    record = best(shot_first(game(), 3), 3, 2)  # seat 3 is mafia
    assert points(record, MR)[3].best_move == 0.0
    assert points(record, default_table())[3].best_move == 0.25  # today's gives it


def test_prima_nocta_first_night_only_not_night_2_after_a_miss() -> None:
    record = best(shot_first(game(), 8, night=2), 8, 3)
    assert points(record, MR)[8].best_move == 0.0
    assert points(record, default_table())[8].best_move == 0.5


def test_rules_8_17_no_best_move_once_two_left_on_day_1() -> None:
    record = best(shot_first(game(), 8), 8, 3)
    one = seat_changed(record, 9, left=Departure("vote", day=1))
    two = seat_changed(one, 10, left=Departure("vote", day=1))
    assert points(one, MR)[8].best_move == 0.4
    assert points(two, MR)[8].best_move == 0.0
    assert points(two, default_table())[8].best_move == 0.5
    # "по результату голосования": a removal on day 1 is not a vote
    removed = seat_changed(one, 10, left=Departure("disqualified", day=1))
    assert points(removed, MR)[8].best_move == 0.4


def test_penalty_a_removal_costs_half_a_point() -> None:  # 4096 / 8192: -0.5
    record = seat_changed(game(), 5, left=Departure("disqualified", day=2), fouls=4)
    assert points(record, MR)[5].disqualified == -0.5 and points(record, MR)[5].fouls == 0.0


def test_a_club_names_a_shipped_table_by_its_file_name() -> None:
    from pathlib import Path

    assert load_table(Path("fiim-mafiaratings.toml")) == MR
    assert DEALT  # the shared deal of test_scoring


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("[best_move_rules]\nred_only = 1\n", "true или false"),
        ("[best_move_rules]\nday_1_voted_out_max = 12\n", "от 0 до 9"),
        ("[best_move_rules]\nwho = 1\n", "нет такого ключа"),
    ],
)
def test_a_bad_rule_is_one_line(text: str, fix: str) -> None:
    base = FILE.read_text("utf-8").split("[best_move_rules]")[0]
    rest = FILE.read_text("utf-8").split("[penalty]")[1]
    with pytest.raises(ScoringError, match=fix):
        parse_table(base + text + "[penalty]" + rest, "x.toml")
