"""The protocol as a PDF: A4, a page for the summary and one a finished
game, the text (Cyrillic) embedded as text. The example evening is written
to artifacts/ for a person to look at."""

import datetime
import re

import pytest

from host_device.club.protocol_evening import evening
from host_device.club.protocol_pdf import figures, render_pdf
from tests.helpers.evening import evening as example
from tests.helpers.evening import points
from tests.helpers.paths import ROOT
from tests.helpers.pdf import read_pdf

pytestmark = pytest.mark.slow  # most of this file's tests are slow (CONTRIBUTING.md)

DAY = datetime.date(2026, 11, 20)
ARTIFACT = ROOT / "artifacts" / "protocol-example.pdf"


def test_a_page_for_the_summary_and_one_a_game_with_their_text():
    data = render_pdf(evening(example(), DAY, points))
    ARTIFACT.parent.mkdir(exist_ok=True)
    ARTIFACT.write_bytes(data)
    for number, figure in enumerate(figures(evening(example(), DAY, points)), 1):  # previews, as drawn
        figure.savefig(ARTIFACT.with_name(f"protocol-example-{number}.png"), dpi=100)
    print(f"\nthe example protocol: {ARTIFACT} (its pages as PNG: {ARTIFACT.stem}-N.png)")
    pages = read_pdf(data)
    assert len(pages) == 3  # the summary and the two finished games
    summary, first, second = pages
    assert "Протокол вечера 2026-11-20" in summary and "не окончена" in summary
    assert "Анна\n2\n1\n1,5\n0,25\n1,75" in summary  # her row of the summary
    assert "Протокол игры № 11" in first and "Протокол игры № 12" in second
    for name in ("Анна", "Вера", "Захар"):
        assert name in first
    assert "1\nАнна\nмирный житель\nД1: 5\nночь 1, убит\n1\n0,5\n1,5" in first
    assert "3\nВера\nДон\nД2: 9; Д3: 10\nдень 3, голосованием" in first
    assert "Лучший ход (игрок 1): 3, 5, 8 — чёрных: 3 из 3" in first
    assert "Д2·2\n8, 9" in first and "6 — Шериф" in first
    assert "Кирилл\nмирный житель\n4\nдень 1, удалён" in second
    assert "Тайный" not in "".join(pages)


def test_a4_and_the_font_embedded():
    data = render_pdf(evening(example(), DAY, points))
    boxes = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data)
    assert len(boxes) == 3 and all((float(w), float(h)) == (595.44, 841.68) for w, h in boxes)
    assert b"DejaVuSans" in data and b"/FontFile2" in data  # TrueType, embedded
    assert b"/Title" in data


def test_a_long_name_is_cut_on_paper():
    from dataclasses import replace

    records = example()
    one = records[2]
    long = "Очень-очень длинное имя игрока, которое не помещается"
    records[2] = replace(one, seats=(replace(one.seats[0], name=long), *one.seats[1:]))
    first = read_pdf(render_pdf(evening(records, DAY, points)))[1]
    assert long not in first and long[:20] in first


def test_a_name_with_dollars_is_text_not_a_formula():
    """A name is typed on a phone: «$…$» is no formula to matplotlib (it
    failed the whole evening's PDF with ParseFatalException)."""
    from dataclasses import replace

    records = example()
    one = records[2]
    odd = r"Вера $\foo$"
    records[2] = replace(one, seats=(replace(one.seats[0], name=odd), *one.seats[1:]))
    first = read_pdf(render_pdf(evening(records, DAY, points)))[1]
    assert odd in first
