"""The evening of a date: its finished games' pages in start order, the
summary (every game, an unfinished one named with nothing of it shown; each
player's points summed), and the games chosen by their local start date."""

import datetime
import time
from dataclasses import replace

import pytest

from host_device.club.protocol import game_page, local_day
from host_device.club.protocol_evening import evening
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

    late = replace(
        late, id=21, started_at="2026-11-20T22:30:00+00:00", finished_at="2026-11-20T23:10:00+00:00"
    )
    assert local_day(late.started_at) == "2026-11-21"  # 01:30 in Moscow
    ev = evening([late, game_two()], datetime.date(2026, 11, 21), points)
    assert [p.title for p in ev.games] == ["Протокол игры № 21"]
    assert "Начата: 2026-11-21 01:30; окончена: 02:10" in ev.games[0].lines
    with pytest.raises(LookupError):
        evening([late], DAY, points)


def test_without_points_the_summary_leaves_them_blank_not_zero():
    ev = evening(example(), DAY, lambda record: {})
    rows = {row[0]: row[1:] for row in ev.summary.tables[1].rows}
    assert rows["Анна"] == ("2", "1", "", "", "")
