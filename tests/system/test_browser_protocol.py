"""The protocol's HTML in Chromium: printed to A4 it is a page for the
summary and one a finished game (the print CSS's page breaks), and its
screen is saved for a person to look at."""

import datetime

from host_device.club.protocol_evening import evening
from host_device.club.protocol_html import render_html
from tests.helpers.browser import chromium
from tests.helpers.evening import big_game, points
from tests.helpers.evening import evening as example
from tests.helpers.paths import ROOT
from tests.helpers.pdf import read_pdf

SHOTS = ROOT / "tests" / "screenshots"


def test_printed_a_page_a_game_and_one_for_the_summary(tmp_path):
    html = tmp_path / "protocol.html"
    html.write_text(render_html(evening(example(), datetime.date(2026, 11, 20), points)), encoding="utf-8")
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 1400})
        page.goto(html.as_uri())
        assert page.locator("section.game").count() == 2
        assert page.locator("section.summary h1").inner_text() == "Протокол вечера 2026-11-20"
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "protocol.png"), full_page=True)
        printed = page.pdf(format="A4", print_background=True)
    pages = read_pdf(printed)
    assert len(pages) == 3


def test_the_largest_form_still_prints_on_one_page(tmp_path):
    records = [big_game()]
    html = tmp_path / "big.html"
    html.write_text(render_html(evening(records, datetime.date(2026, 11, 20), points)), encoding="utf-8")
    with chromium() as browser:
        page = browser.new_page()
        page.goto(html.as_uri())
        printed = page.pdf(format="A4", print_background=True)
    pages = read_pdf(printed)
    assert len(pages) == 2, [p[:80] for p in pages]  # the summary and the 16-seat game
