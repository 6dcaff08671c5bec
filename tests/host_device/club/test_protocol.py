"""The evening's protocol as data: each finished game's form (seats, names,
roles, fouls, nominations, departures, votes round by round, nights, the
best move, points), the evening's summary, the local start date, and the
unfinished game named with nothing of it shown."""

import datetime
import time

import pytest

from host_device.club.protocol import (
    evening,
    game_page,
    local_day,
    nights_table,
    number,
    parse_day,
    votes_table,
)
from tests.helpers.evening import evening as example
from tests.helpers.evening import game_one, game_two, points, unfinished

DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def moscow(monkeypatch):
    """This machine's local time is Moscow's (UTC+3) for the test."""
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def text_of(page):
    return "\n".join(
        [page.title, *page.lines, *page.notes] + ["|".join(r) for t in page.tables for r in t.rows]
    )


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
    assert table.header == ("Круг", "Выставлены", *map(str, range(1, 11)))
    rows = {row[0]: row[1:] for row in table.rows}
    assert list(rows) == ["Д1", "Д2", "Д2·2", "Д3"]
    assert rows["Д1"] == ("5, 8", "5", "5", "8", "5", "—", "5", "5", "—", "5", "5")
    assert rows["Д2·2"][0] == "8, 9" and rows["Д2·2"][3] == "9" and rows["Д2·2"][4] == "8"
    # 1 was shot on night 1 and 5 voted out on day 1: blank from day 2; 10 sat on and did not press
    assert rows["Д2"][1] == "" and rows["Д2"][5] == "" and rows["Д3"][10] == "—"
    assert [t.value if t else None for t in table.column_tints][2:5] == ["red", "red", "black"]


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
    assert rows["Д1·3"][0] == "все: 5, 6" and rows["Д1·3"][4] == "за"


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


def test_the_summary_names_the_games_and_sums_each_players_points():
    ev = evening(example(), DAY, points)
    assert [p.title for p in ev.games] == ["Протокол игры № 11", "Протокол игры № 12"]
    games, players = ev.summary.tables
    assert [row[0] for row in games.rows] == ["11", "12", "13"]
    assert games.rows[2][1:] == (games.rows[2][1], "", "не окончена", "")
    rows = {row[0]: row[1:] for row in players.rows}
    assert players.header == ("Игрок", "Игр", "Побед", "Игра 11", "Игра 12", "Σ баллов")
    assert rows["Анна"] == ("2", "1", "1,5", "0,25", "1,75")
    assert rows["Кирилл"] == ("2", "1", "1", "−0,5", "0,5")
    assert rows["Глеб"] == ("1", "1", "1", "", "1")
    assert [row[0] for row in players.rows][:5] == ["Борис", "Жанна", "Ирина", "Анна", "Егор"]  # most first
    assert ev.summary.notes == ("Без имени (в итоги не вошли): игра 12 — место 7.",)


def test_the_unfinished_game_is_named_and_nothing_of_it_shown():
    ev = evening(example(), DAY, points)
    everything = "\n".join(text_of(p) for p in (ev.summary, *ev.games))
    assert "13" in text_of(ev.summary) and "не окончена" in text_of(ev.summary)
    assert "Тайный" not in everything
    assert len(ev.games) == 2
    with pytest.raises(ValueError, match="not finished"):
        game_page(unfinished(), {})


def test_games_belong_to_their_local_start_date(moscow):
    late = game_one()
    from dataclasses import replace

    late = replace(
        late, id=21, started_at="2026-11-20T22:30:00+00:00", finished_at="2026-11-20T23:10:00+00:00"
    )
    assert local_day(late.started_at) == "2026-11-21"  # 01:30 in Moscow
    ev = evening([late, game_two()], datetime.date(2026, 11, 21), points)
    assert [p.title for p in ev.games] == ["Протокол игры № 21"]
    assert "Начата: 2026-11-21 01:30; окончена: 02:10" in ev.games[0].lines
    with pytest.raises(LookupError):
        evening([late], DAY, points)


def test_points_and_dates_as_a_club_writes_them():
    assert [number(x) for x in (2.5, 1.0, 0.0, -0.5, 0.25, -0.0)] == ["2,5", "1", "0", "−0,5", "0,25", "0"]
    assert parse_day("2026-11-20") == DAY
    for bad in ("2026-13-01", "20.11.2026", "2026-11-2", "20261120"):
        with pytest.raises(ValueError):
            parse_day(bad)


def test_without_points_the_form_leaves_the_points_blank():
    rows = game_page(game_one(), {}).tables[0]
    assert rows.header[-1] == "Итого" and all(row[-5:] == ("",) * 5 for row in rows.rows)


def test_without_points_the_summary_leaves_them_blank_not_zero():
    ev = evening(example(), DAY, lambda record: {})
    rows = {row[0]: row[1:] for row in ev.summary.tables[1].rows}
    assert rows["Анна"] == ("2", "1", "", "", "")
