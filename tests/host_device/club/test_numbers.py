"""One style for every number the club reads (voices/words.py ``number``):
a decimal comma and the minus sign, on the pages (their plots too), in the
terminal and in the protocol's PDF — never 3.5 on one and 3,5 on another."""

import dataclasses
import datetime
import re

import pytest

from host_device.cli.main import main
from host_device.club.plots import points_svg, rating_svg
from host_device.club.protocol_evening import evening
from host_device.club.protocol_pdf import render_pdf
from host_device.club.scoring import default_table, points
from host_device.store import Store
from host_device.web.board_html import board_html, player_html
from host_device.web.club_data import Filters, leaderboard, player_page, points_points, rating_points
from host_device.web.club_html import review_html
from host_device.web.review import review
from tests.helpers import russian
from tests.helpers.club import player_id, season
from tests.helpers.evening import evening as example
from tests.helpers.evening import points as evening_points
from tests.helpers.paths import ROOT
from tests.helpers.pdf import read_pdf
from voices.words import number, percent

DOTTED = re.compile(r"(?<![\d.])[−-]?\d+\.\d+(?![\d.])")  # 3.5, 1029.9, −0.25
COMMA = re.compile(r"(?<![\d,])[−-]?\d+,\d+(?![\d,])")


def shown(html):
    """The text a page shows, without a plot's x labels (the games' dates, 20.11)."""
    return russian.shown(html, skip_ids=("xtick_",))


def test_the_one_style():
    assert [number(v) for v in (3.5, 3.25, 1.0, -0.5, -0.001, 0.0)] == ["3,5", "3,25", "1", "−0,5", "0", "0"]
    assert number(1029.94, 1, trim=False) == "1029,9" and number(1010, 1, trim=False) == "1010,0"
    assert [percent(v) for v in (1.0, 2 / 3, 0.0)] == ["100\u00a0%", "67\u00a0%", "0\u00a0%"]
    assert DOTTED.findall(shown("<p>3.5 и 20.11</p><svg><g id='xtick_1'><text>20.11</text></g></svg>")) == [
        "3.5",
        "20.11",
    ]


@pytest.fixture(scope="module")
def games():
    """A season with fractional points: the best move's 0,25, the host's extra 0,3 and −0,4."""
    return [r if r.id % 2 else dataclasses.replace(r, extras={1: 0.3, 2: -0.4}) for r in season(12)]


def test_the_pages_write_every_decimal_with_a_comma(games):
    table = default_table()
    board = leaderboard(games, table, Filters())
    page = player_page(games, player_id(1), table)
    plots = {"rating": rating_svg(rating_points(page)), "points": points_svg(points_points(page))}
    pages = {
        "leaderboard": shown(board_html(board)),
        "player": shown(player_html(page, plots)),
        "review": shown(review_html(review(games[1], {s: p.total for s, p in points(games[1], table).items()}))),
    }
    assert {name: DOTTED.findall(text) for name, text in pages.items()} == {name: [] for name in pages}
    assert all(COMMA.search(text) for text in pages.values())  # decimals there are, with a comma
    assert re.search(r"\d\u00a0%", pages["player"]) and not re.search(r"\d ?%", pages["player"])


def test_the_terminal_writes_every_decimal_with_a_comma(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    assert main(["simulate", str(ROOT / "examples" / "classic-full-game.json"), "--store", str(path)]) == 0
    store = Store(path)
    store.roster.seat_by_name(1, 4, "Аня")
    store.roster.set_extra(1, 4, 0.3)
    store.close()
    capsys.readouterr()
    assert main(["players", "stats", "Аня", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert DOTTED.findall(out) == [] and "Очки: 1,3" in out and "Рейтинг: 1010,0" in out
    assert re.search(r"\d\u00a0%", out) and not re.search(r"\d ?%", out)  # a percent as the pages write it


@pytest.mark.slow
def test_the_protocols_pdf_writes_every_decimal_with_a_comma():
    pages = read_pdf(render_pdf(evening(example(), datetime.date(2026, 11, 20), evening_points)))
    text = "\n".join(pages)
    assert DOTTED.findall(text) == [] and COMMA.search(text)
