"""The scoring table line by line: each line of the default table moves the
points it names (and only those), and a bad table is one Russian line."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Role, Team
from host_device.club.record import BestMove, Departure, GameRecord, SeatRecord
from host_device.club.scoring import ROLES, ScoringError, default_table, load_table, parse_table, points
from tests.helpers.paths import ROOT

DEFAULT = ROOT / "host_device" / "club" / "data" / "fiim.toml"
DEALT = {
    1: Role.SHERIFF,
    2: Role.DON,
    3: Role.MAFIA,
    4: Role.MAFIA,
    5: Role.DOCTOR,
    6: Role.LOVER,
    7: Role.COMMISSAR,
}


def game(winner=Team.RED, **changes):
    seats = tuple(SeatRecord(seat=n, role=DEALT.get(n, Role.CIVILIAN), player=f"p{n}") for n in range(1, 11))
    record = GameRecord(
        id=1,
        started_at="2026-12-01T20:00:00",
        finished_at="2026-12-01T20:40:00",
        preset="classic",
        mode="host",
        winner=winner,
        days=3,
        seats=seats,
    )
    return replace(record, **changes)


def seat_changed(record, number, **changes):
    return replace(
        record, seats=tuple(replace(s, **changes) if s.seat == number else s for s in record.seats)
    )


TABLE = default_table()


def test_the_default_table_has_every_role_and_its_sources():
    text = DEFAULT.read_text("utf-8")
    assert "Sources" in text and "mafportal.com" in text and "szotin/mafiaratings" in text
    assert set(TABLE.win) == set(TABLE.loss) == {Role(r) for r in ROLES}
    assert TABLE.name == "ФИИМ"


@pytest.mark.parametrize("role", [Role.CIVILIAN, Role.SHERIFF, Role.COMMISSAR, Role.DOCTOR, Role.LOVER])
def test_win_and_loss_of_a_red_role(role):
    seat = next((n for n, r in DEALT.items() if r is role), 8)
    assert points(game(Team.RED), TABLE)[seat].result == 1.0  # win.<role>
    assert points(game(Team.BLACK), TABLE)[seat].result == 0.0  # loss.<role>


@pytest.mark.parametrize("seat,role", [(2, Role.DON), (3, Role.MAFIA)])
def test_win_and_loss_of_a_black_role(seat, role):
    assert points(game(Team.BLACK), TABLE)[seat].result == 1.0
    assert points(game(Team.RED), TABLE)[seat].result == 0.0


@pytest.mark.parametrize("section", ["win", "loss"])
@pytest.mark.parametrize("role", ROLES)
def test_each_role_line_is_read_from_the_table(section, role):
    text = DEFAULT.read_text("utf-8")
    changed = re.sub(rf"(\[{section}\][^\[]*?\n{role} = )[-0-9.]+", r"\g<1>7.5", text, count=1, flags=re.S)
    table = parse_table(changed, "t.toml")
    won = Team.RED if Role(role).team is Team.RED else Team.BLACK
    lost = Team.BLACK if won is Team.RED else Team.RED
    seat = next((n for n, r in DEALT.items() if r.value == role), 8)
    got = points(game(won if section == "win" else lost), table)
    assert got[seat].result == 7.5
    others = [p.result for n, p in got.items() if n != seat and (DEALT.get(n, Role.CIVILIAN).value != role)]
    assert 7.5 not in others


@pytest.mark.parametrize("black,expected", [(0, 0.0), (1, 0.0), (2, 0.25), (3, 0.5)])
def test_the_best_move_by_how_many_were_black(black, expected):
    record = game(Team.BLACK, best_move=BestMove(seat=9, named=(2, 3, 8), black=black))  # 9 lost: 0
    got = points(record, TABLE)
    assert got[9].best_move == expected and got[9].total == expected
    assert all(p.best_move == 0.0 for n, p in got.items() if n != 9)


def test_a_disqualification_costs_half_a_point_and_the_result_still_counts():
    record = seat_changed(game(Team.RED), 8, left=Departure(how="disqualified", day=2), fouls=4)
    got = points(record, TABLE)[8]
    assert (got.result, got.disqualified, got.fouls, got.total) == (1.0, -0.5, 0.0, 0.5)
    voted = points(seat_changed(game(Team.RED), 8, left=Departure(how="vote", day=2)), TABLE)[8]
    assert voted.disqualified == 0.0


def test_fouls_cost_what_the_table_says_each():
    assert points(seat_changed(game(), 8, fouls=3), TABLE)[8].fouls == 0.0  # penalty.foul = 0.0
    table = replace(TABLE, foul=-0.1)
    assert points(seat_changed(game(), 8, fouls=3), table)[8].fouls == -0.3


def test_extra_points_within_the_range_in_steps():
    record = game(extras={8: 0.3, 9: -0.2, 10: 2.5, 1: 0.34})
    got = points(record, TABLE)
    assert (got[8].extra, got[9].extra, got[10].extra, got[1].extra) == (0.3, -0.2, 1.0, 0.3)
    assert got[8].total == 1.3 and got[9].total == 0.8  # red won: 1.0 + extra
    assert got[2].extra == 0.0


def test_an_unfinished_game_has_no_points():
    assert points(game(winner=None), TABLE) == {}


def test_the_points_carry_the_roster_id():
    assert points(game(), TABLE)[4].player == "p4"


@pytest.mark.parametrize(
    "edit,message",
    [
        (("black_3 = 0.5", 'black_3 = "много"'), r"t\.toml: best_move\.black_3: число, например 0\.5"),
        (("black_3 = 0.5\n", ""), r"t\.toml: best_move\.black_3: нет ключа; допишите"),
        (("foul = 0.0", "foul = 0.0\nfouls = 1"), r"t\.toml: penalty\.fouls: нет такого ключа; ключи: "),
        (("[extra]", "[bonus]\n[extra]"), r"t\.toml: \[bonus\]: нет такого раздела"),
        (("step = 0.1", "step = 0"), r"t\.toml: extra\.step: шаг больше нуля"),
        (("min = -1.0", "min = 0.5"), r"t\.toml: extra\.min и extra\.max: ноль должен быть внутри"),
        (("don = 1.0", "don = 1e9"), r"t\.toml: win\.don: 1000000000\.0 — слишком много"),
        (("name = ", "name = = "), r"t\.toml: ошибка в TOML в строке \d+"),
        (("[loss]", "[loss]\nsheriff = true\n"), r"t\.toml: ошибка в TOML"),
    ],
)
def test_a_bad_table_is_one_russian_line_naming_the_key_and_the_fix(edit, message):
    text = DEFAULT.read_text("utf-8").replace(*edit)
    with pytest.raises(ScoringError) as caught:
        parse_table(text, "t.toml")
    assert re.match(message, str(caught.value)) and "\n" not in str(caught.value)


def test_a_club_table_from_a_file(tmp_path):
    path = tmp_path / "our.toml"
    path.write_text(DEFAULT.read_text("utf-8").replace('name = "ФИИМ"', 'name = "Наш клуб"'), "utf-8")
    assert load_table(path).name == "Наш клуб" and load_table(None).name == "ФИИМ"
    with pytest.raises(ScoringError, match=r"missing\.toml: таблица очков не читается: .*\[club\] scoring"):
        load_table(tmp_path / "missing.toml")


def test_the_config_names_the_clubs_table_beside_it(tmp_path):
    from host_device.config import ConfigError, load_config

    config = tmp_path / "config.toml"
    config.write_text('[club]\nscoring = "our.toml"\n', "utf-8")
    (tmp_path / "our.toml").write_text("", "utf-8")
    assert load_config(config).scoring == tmp_path / "our.toml"
    with pytest.MonkeyPatch.context() as here:  # the config named by a relative path, from its folder
        here.chdir(tmp_path)
        assert load_config(Path("config.toml")).scoring == tmp_path / "our.toml"
    config.write_text("[audio]\nspeaker = 0\n", "utf-8")
    assert load_config(config).scoring is None
    config.write_text("[club]\nscoring = 5\n", "utf-8")
    with pytest.raises(ConfigError, match=r"\[club\]\.scoring: путь к таблице очков, например"):
        load_config(config)
    config.write_text('[club]\ntable = "x"\n', "utf-8")
    with pytest.raises(
        ConfigError, match=r"\[club\]\.table: нет такой настройки; настройки: database, scoring, show_names"
    ):
        load_config(config)


def test_the_default_extra_range_is_the_one_the_store_accepts():
    # the store (floor 3) cannot read the table (floor 4): the two must agree
    from host_device.store.roster import EXTRA_POINTS_RANGE, EXTRA_POINTS_STEP

    assert (TABLE.extra_min, TABLE.extra_max) == EXTRA_POINTS_RANGE
    assert TABLE.extra_step == EXTRA_POINTS_STEP


@pytest.mark.parametrize(
    ("step", "entered", "counted"),
    [
        (1.0, 0.5, 1.0),  # a half goes away from zero (Python's round() gave 0: to even)
        (1.0, 1.5, 2.0),
        (1.0, 2.5, 3.0),  # round() gave 2
        (1.0, -0.5, -1.0),
        (0.1, 0.25, 0.3),  # round() gave 0.2
        (0.1, 0.15, 0.2),  # decimal: 0.15 / 0.1 is 1.4999… in binary
        (0.1, -0.35, -0.4),
        (0.1, 0.3, 0.3),  # on the table's step: kept as entered
        (0.25, 0.375, 0.5),
    ],
)
def test_extra_points_off_the_tables_step_round_half_away_from_zero(step, entered, counted):
    text = DEFAULT.read_text("utf-8").replace("step = 0.1", f"step = {step}")
    table = parse_table(text.replace("min = -1.0", "min = -3.0").replace("max = 1.0", "max = 3.0"), "t.toml")
    assert table.extra_step == step
    assert table.extra(entered) == counted
