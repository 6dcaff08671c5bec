"""A finished game's referee form as data: seats, names, roles, fouls,
nominations, departures, votes round by round, nights, the best move,
points; and how points and dates are written."""

import datetime

import pytest

from host_device.club.protocol import (
    game_page,
    nights_table,
    number,
    parse_day,
    votes_table,
)
from tests.helpers.evening import game_one, game_two, points

DAY = datetime.date(2026, 11, 20)


def test_a_game_form_has_every_seat_with_name_role_fouls_nominations_departure_points():
    page = game_page(game_one(), points(game_one()))
    seats = page.tables[0]
    assert seats.header == (
        "№",
        "Игрок",
        "Роль",
        "Фолы",
        "Выставил",
        "Выбыл",
        "Осн.",
        "ЛХ",
        "Доп.",
        "Штраф",
        "Итого",
    )
    rows = {row[0]: row for row in seats.rows}
    assert list(rows) == [str(n) for n in range(1, 11)]
    # the FIIM table: a win 1, the best move with three black 0,5, the host's extra as given
    assert rows["1"] == ("1", "Анна", "мирный житель", "", "Д1: 5", "ночь 1, убит", "1", "0,5", "", "", "1,5")
    assert rows["3"] == ("3", "Вера", "Дон", "", "Д2: 9; Д3: 10", "день 3, голосованием", "", "", "", "", "0")
    assert rows["7"][3] == "2" and rows["4"][3] == "1"  # the fouls
    assert rows["6"][2:] == ("Шериф", "", "Д2: 8; Д3: 3", "", "1", "", "0,5", "", "1,5")
    assert [t.value if t else None for t in seats.tints][2:5] == ["black", "red", "black"]
    assert page.title == "Протокол игры № 11"
    assert "Итог: победа мирных; дней: 3" in page.lines
    assert "Лучший ход (игрок 1): 3, 5, 8 — чёрных: 3 из 3" in page.lines


def test_a_disqualification_and_a_seat_without_a_name():
    rows = {row[0]: row for row in game_page(game_two(), points(game_two())).tables[0].rows}
    assert rows["1"][3:] == ("4", "", "день 1, удалён", "", "", "", "−0,5", "−0,5")
    assert rows["10"][-5:] == ("", "0,25", "", "", "0,25")  # the best move with two black
    assert rows["7"][1] == ""


def test_the_votes_a_row_a_round_a_column_a_seat():
    table = votes_table(game_one())
    assert table.header == ("Круг", "Выставлены", "Голосов", *map(str, range(1, 11)))
    rows = {row[0]: row[1:] for row in table.rows}
    assert list(rows) == ["Д1", "Д2", "Д2·2", "Д3"]
    assert rows["Д1"] == ("5, 8", "7, 1", "5", "5", "8", "5", "—", "5", "5", "—", "5", "5")
    assert rows["Д2·2"][:2] == ("8, 9", "5, 2") and rows["Д2·2"][4] == "9" and rows["Д2·2"][5] == "8"
    # 1 was shot on night 1 and 5 voted out on day 1: blank from day 2; 10 sat on and did not press
    assert rows["Д2"][2] == "" and rows["Д2"][6] == "" and rows["Д3"][11] == "—"
    assert [t.value if t else None for t in table.column_tints][3:6] == ["red", "red", "black"]


def test_the_all_leave_question_names_the_tied_candidates():
    from dataclasses import replace

    from host_device.club.record import Ballot

    record = replace(
        game_two(),
        ballots=(
            Ballot(1, 1, "main", 2, 6),
            Ballot(1, 1, "main", 3, 5),
            Ballot(1, 2, "revote", 2, 6),
            Ballot(1, 2, "revote", 3, 5),
            Ballot(1, 3, "all", 4, None),
        ),
    )
    rows = {row[0]: row[1:] for row in votes_table(record).rows}
    assert rows["Д1·3"][:2] == ("все: 5, 6", "за: 1") and rows["Д1·3"][5] == "за"


def test_the_nights_killed_shots_checks():
    table = nights_table(game_one())
    assert table.header == ("Ночь", "Убит", "Выстрелы", "Проверка Дона", "Проверка Шерифа")
    assert table.rows[0] == ("1", "1", "3→1, 8→1", "6 — Шериф", "3 — чёрный")
    assert table.rows[1] == ("2", "4", "3→4", "7 — не Шериф", "8 — чёрный")


def test_a_night_without_a_kill_is_a_miss():
    from dataclasses import replace

    from host_device.club.record import NightAction

    record = replace(
        game_two(),
        seats=tuple(replace(s, left=None) for s in game_two().seats),
        nights=(
            NightAction(1, "shot", game_two().seat(2).role, 3, seat=2),
            NightAction(1, "shot", game_two().seat(4).role, 5, seat=4),
        ),
    )
    assert nights_table(record).rows == (("1", "промах", "2→3, 4→5"),)


def test_points_and_dates_as_a_club_writes_them():
    assert [number(x) for x in (2.5, 1.0, 0.0, -0.5, 0.25, -0.0)] == ["2,5", "1", "0", "−0,5", "0,25", "0"]
    assert parse_day("2026-11-20") == DAY
    for bad in ("2026-13-01", "20.11.2026", "2026-11-2", "20261120"):
        with pytest.raises(ValueError):
            parse_day(bad)


def test_without_points_the_form_leaves_the_points_blank():
    rows = game_page(game_one(), {}).tables[0]
    assert rows.header[-1] == "Итого" and all(row[-5:] == ("",) * 5 for row in rows.rows)


def test_the_best_move_line_only_where_the_rules_have_one():
    from dataclasses import replace

    assert "Лучший ход: —" in game_page(replace(game_one(), best_move=None), {}).lines
    city = replace(game_one(), preset="city", best_move=None)
    assert not [line for line in game_page(city, {}).lines if "Лучший ход" in line]


def test_the_form_names_the_words_the_device_heard_for_the_fouls_it_gave():
    import dataclasses

    from host_device.club.record import FoulRecord

    record = game_one()
    fouls = (FoulRecord(7, 1, "device", "честно", 100.0), FoulRecord(7, 1, "host", "", 130.0))
    page = game_page(dataclasses.replace(record, fouls=fouls), points(record))
    rows = {row[0]: row for row in page.tables[0].rows}
    assert rows["7"][3] == "2 (устр.: честно)" and rows["4"][3] == "1"


def test_the_form_lists_what_the_device_heard_and_its_withdrawn_fouls_under_protests(store):
    """Issue 45: each device foul that counts with the sentence heard (a
    confidence a word) and the moment in the speech; «Протесты» lists the
    withdrawn one and leaves lines for a protest written by hand."""
    from host_device.club.build import record_of
    from host_device.club.protocol import local_day
    from host_device.club.protocol_evening import evening
    from host_device.club.protocol_html import render_html
    from tests.helpers.fouls import game_with_fouls

    record = record_of(store, game_with_fouls(store))
    page = game_page(record, {})
    tables = {t.title: t for t in page.tables}
    heard = tables["Замечания устройства"]
    assert heard.header == ("День", "Игрок", "Слово", "Услышано (уверенность)", "Момент")
    assert heard.rows == (
        (
            "Д1",
            "2",
            "«честно»",
            "честно (0,91) говоря (0,80) я (0,99) за (0,95) пятого (0,90)",
            "на 0:42 речи",
        ),
    )
    protests = tables["Протесты"]
    assert protests.header[-1] == "Решение"
    assert protests.rows[0] == (
        "Д1",
        "2",
        "«клянусь»",
        "клянусь (0,93) я (0,88) мирный (0,97)",
        "на 0:12 речи",
        "снято с пульта",
    )
    assert protests.rows[1:] == (("",) * 6,) * 2  # to fill by hand
    rows = {row[0]: row for row in page.tables[0].rows}
    assert rows["2"][3] == "1 (устр.: честно)"  # the withdrawn «клянусь» is no foul
    day = parse_day(local_day(record.started_at))
    assert "клянусь (0,93) я (0,88) мирный (0,97)" in render_html(evening([record], day, lambda r: {}))


def test_a_game_without_device_fouls_has_the_protests_place_empty_to_fill():
    tables = {t.title: t for t in game_page(game_one(), points(game_one())).tables}
    assert "Замечания устройства" not in tables
    assert tables["Протесты"].rows == (("",) * 6,) * 2
