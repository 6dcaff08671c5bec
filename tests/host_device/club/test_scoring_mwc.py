"""The MAF World Cup's table (host_device/club/data/maf-world-cup.toml) line by line against
its published source (mafworldcup.com/en/tournament), quoted in the file; and the two optional
sections it brought to every table: [standings] rank_by and [round_multipliers]."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Role, Team
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

FILE = ROOT / "host_device" / "club" / "data" / "maf-world-cup.toml"
MWC = shipped_table("maf-world-cup.toml")
SOURCE = (  # http://mafworldcup.com/en/tournament, sentence by sentence (their spelling)
    "Every registered participant will play 10 games in the first round",
    "The best 20 players will play 3 more games in the second round",
    "The ranking will be determined as follows: 4 points for the win and 1 point for the loss.",
    "The Don and The Sheriff will receive an additional 0.5 points for the win and will have a"
    " half-point substructed for the loss.",
    "Additional points will be added for The Best Move (1 point) and for The Best Play (2 points).",
    "A point will be substucted from a player who receives 4 warnings and gets elimiated from the game.",
    "Two points will be subsctructed from a player for getting a Yellow card for unethical conduct.",
    "Points collected in the second and final rounds will be multiplied by 1.25.",
    "Total points divided by total number of played games will determine the ranking of a player.",
)


def comments() -> str:
    lines = [
        line.lstrip("#").strip() for line in FILE.read_text("utf-8").splitlines() if line.startswith("#")
    ]
    return " ".join(lines)


@pytest.mark.parametrize("sentence", SOURCE)
def test_the_file_quotes_its_source_sentence_by_sentence(sentence: str) -> None:
    assert "mafworldcup.com/en/tournament" in comments()
    assert sentence in comments()


@pytest.mark.parametrize(
    ("role", "won", "lost"),
    [
        (Role.CIVILIAN, 4.0, 1.0),  # "4 points for the win and 1 point for the loss"
        (Role.MAFIA, 4.0, 1.0),
        (Role.SHERIFF, 4.5, 0.5),  # "an additional 0.5 points for the win … a half-point substructed"
        (Role.DON, 4.5, 0.5),
        (Role.COMMISSAR, 4.0, 1.0),  # not named apart: as every role
        (Role.DOCTOR, 4.0, 1.0),
        (Role.LOVER, 4.0, 1.0),
    ],
)
def test_a_win_is_4_a_loss_1_the_don_and_the_sheriff_half_a_point_apart(
    role: Role, won: float, lost: float
) -> None:
    seat = next((n for n, r in DEALT.items() if r is role), 8)
    black = role in (Role.MAFIA, Role.DON)
    assert points(game(Team.BLACK if black else Team.RED), MWC)[seat].result == won
    assert points(game(Team.RED if black else Team.BLACK), MWC)[seat].result == lost


@pytest.mark.parametrize(
    ("given", "counted"), [(1.0, 1.0), (2.0, 2.0), (-2.0, -2.0), (3.0, 3.0), (0.4, 0.0), (5.0, 3.0)]
)
def test_best_move_best_play_and_a_yellow_card_are_the_hosts_extra_points(
    given: float, counted: float
) -> None:
    # The Best Move +1, The Best Play +2, a Yellow card -2 and their sums; nothing else
    record = replace(game(), extras={8: given})
    assert points(record, MWC)[8].extra == counted


def test_a_best_move_by_the_black_seats_named_gives_nothing_by_itself() -> None:
    record = seat_changed(game(), 8, left=Departure("shot", night=1))
    record = replace(record, best_move=BestMove(seat=8, named=(2, 3, 4), black=3))
    assert points(record, MWC)[8].best_move == 0.0
    assert points(record, default_table())[8].best_move == 0.5  # the default table's does


def test_eliminated_after_4_warnings_costs_a_point_a_warning_nothing() -> None:
    record = seat_changed(game(), 9, left=Departure("disqualified", day=2), fouls=4)
    assert points(record, MWC)[9].disqualified == -1.0 and points(record, MWC)[9].fouls == 0.0
    assert points(record, MWC)[9].total == 3.0  # the red win still counts: 4 - 1


def test_the_second_and_final_rounds_count_1_25_and_the_ranking_is_per_game() -> None:
    assert [MWC.multiplier(r) for r in (1, 10, 11, 13, 16)] == [1.0, 1.0, 1.25, 1.25, 1.25]
    assert MWC.rank_by == "average"
    assert default_table().multiplier(16) == 1.0 and default_table().rank_by == "total"


def test_a_club_names_it_by_its_file_name(tmp_path: Path) -> None:
    from host_device.config import load_config

    assert load_table(Path("maf-world-cup.toml")) == MWC
    config = tmp_path / "config.toml"
    config.write_text('[club]\nscoring = "maf-world-cup.toml"\n', "utf-8")
    assert load_table(load_config(config).scoring) == MWC  # resolved beside the config: still the shipped one
    (tmp_path / "maf-world-cup.toml").write_text(FILE.read_text("utf-8").replace("4.5", "5.0"), "utf-8")
    assert load_table(load_config(config).scoring).win[Role.DON] == 5.0  # a club's own file of that name wins
    # a club's copy named by its path, gone (a typo, a drive not mounted): refused, not the shipped one
    config.write_text(f'[club]\nscoring = "{tmp_path}/copies/maf-world-cup.toml"\n', "utf-8")
    with pytest.raises(ScoringError, match="copies/maf-world-cup.toml: таблица очков не читается"):
        load_table(load_config(config).scoring)
    config.write_text('[club]\nscoring = "fim.toml"\n', "utf-8")  # neither beside the config nor shipped
    with pytest.raises(ScoringError, match=r"fim.toml: такой таблицы очков нет ни рядом с конфигом"):
        load_table(load_config(config).scoring)


def test_several_multipliers_each_from_its_round_on() -> None:
    text = FILE.read_text("utf-8").replace("11 = 1.25", "14 = 1.5\n11 = 1.25")
    table = parse_table(text, "t.toml")
    assert [table.multiplier(r) for r in (10, 11, 13, 14, 20)] == [1.0, 1.25, 1.25, 1.5, 1.5]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ('rank_by = "average"', 'rank_by = "median"'),
            r't\.toml: standings\.rank_by: "total" \(сумма\) или "average"',
        ),
        (('rank_by = "average"', "by = 1"), r"t\.toml: \[standings\]: ключи rank_by и tiebreakers"),
        (("11 = 1.25", "final = 1.25"), r"t\.toml: round_multipliers\.final: ключ — номер тура от 1"),
        (("11 = 1.25", "0 = 1.25"), r"t\.toml: round_multipliers\.0: ключ — номер тура от 1"),
        (("11 = 1.25", '"²" = 1.25'), r"t\.toml: round_multipliers\.²: ключ — номер тура от 1"),
        (("11 = 1.25", "9999 = 1.25"), r"t\.toml: round_multipliers\.9999: ключ — номер тура от 1"),
        (("11 = 1.25", "11 = 0"), r"t\.toml: round_multipliers\.11: множитель больше 0 и не больше 10"),
        (("11 = 1.25", "11 = 12.0"), r"t\.toml: round_multipliers\.11: множитель больше 0"),
        (("11 = 1.25", '11 = "x"'), r"t\.toml: round_multipliers\.11: множитель"),
    ],
)
def test_a_bad_standings_line_is_one_russian_line(edit: tuple[str, str], message: str) -> None:
    text = FILE.read_text("utf-8").replace(*edit)
    with pytest.raises(ScoringError) as caught:
        parse_table(text, "t.toml")
    assert re.match(message, str(caught.value)) and "\n" not in str(caught.value)


def test_round_multipliers_as_a_value_not_a_section_is_one_line() -> None:
    text = "round_multipliers = 3\n" + FILE.read_text("utf-8").split("\n[round_multipliers]")[0]
    with pytest.raises(ScoringError, match=r"t\.toml: \[round_multipliers\]: раздел строк «тур = множитель»"):
        parse_table(text, "t.toml")
