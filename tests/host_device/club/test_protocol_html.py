"""The protocol as one HTML page: every game's form and the summary in it,
self-contained, and printed one page of A4 each."""

import datetime
import re
from html import unescape

from host_device.club.protocol_evening import evening
from host_device.club.protocol_html import render_html
from tests.helpers.evening import evening as example
from tests.helpers.evening import points

DAY = datetime.date(2026, 11, 20)


def sections():
    page = render_html(evening(example(), DAY, points))
    return page, re.findall(r"<section class=\"(\w+)\">(.*?)</section>", page, re.S)


def cells(html):
    """Each table row's cells as text."""
    return [
        tuple(unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row))
        for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
    ]


def test_the_summary_then_a_section_a_finished_game():
    _, found = sections()
    assert [kind for kind, _ in found] == ["summary", "game", "game"]
    assert "<h1>Протокол вечера 2026-11-20</h1>" in found[0][1]
    assert "<h1>Протокол игры № 11</h1>" in found[1][1] and "<h1>Протокол игры № 12</h1>" in found[2][1]


def test_each_game_shows_seats_roles_fouls_votes_nights_best_move_points():
    _, found = sections()
    game = found[1][1]
    rows = cells(game)
    assert ("1", "Анна", "мирный житель", "", "Д1: 5", "ночь 1, убит", "1", "0,5", "", "", "1,5") in rows
    assert ("7", "Жанна", "мирный житель", "2", "", "", "1", "", "", "", "1") in rows
    assert ("Д2·2", "8, 9", "5, 2", "", "8", "9", "8", "", "8", "8", "9", "8", "—") in rows  # the revote
    assert ("1", "1", "3→1, 8→1", "6 — Шериф", "3 — чёрный") in rows
    assert "Лучший ход (игрок 1): 3, 5, 8 — чёрных: 3 из 3" in game
    assert '<td class="black">Дон</td>' in game  # the black seats are coloured
    assert ("1", "Кирилл", "мирный житель", "4", "", "день 1, удалён", "", "", "", "−0,5", "−0,5") in cells(
        found[2][1]
    )


def test_the_summary_lists_the_games_and_the_players_points():
    _, found = sections()
    rows = cells(found[0][1])
    assert ("Анна", "2", "1", "1,5", "0,25", "1,75") in rows
    assert any(row[0] == "13" and "не окончена" in row for row in rows)
    assert "Без имени (в итоги не вошли): игра 12 — место 7." in found[0][1]


def test_names_are_escaped_and_nothing_of_the_unfinished_game_shows():
    from dataclasses import replace

    records = example()
    one = records[2]
    records[2] = replace(one, seats=(replace(one.seats[0], name="<b>Анна</b>"), *one.seats[1:]))
    page = render_html(evening(records, DAY, points))
    assert "&lt;b&gt;Анна&lt;/b&gt;" in page and "<b>Анна" not in page
    assert "Тайный" not in page


def test_self_contained_and_printed_a_game_a_page_of_a4():
    page, _ = sections()
    assert "<script" not in page and not re.search(r"(src|href)=", page)
    assert '<meta charset="utf-8">' in page and '<html lang="ru">' in page
    assert "@page { size: A4;" in page
    assert re.search(r"@media print \{[^@]*section \{ break-after: page;", page)
