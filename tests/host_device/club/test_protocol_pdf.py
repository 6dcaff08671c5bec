"""The protocol as a PDF: A4, a page for the summary and one a finished
game, the text (Cyrillic) embedded as text. The example evening is written
to artifacts/ for a person to look at."""

import datetime
import itertools
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


MARGIN = 36.0  # points: the protocol's half-inch margins


def outside(data: bytes) -> list[tuple[int, str, float, float]]:
    """(page, text, left, right) of every text drawn past a margin of its page, in points."""
    from tests.helpers.pdf_layout import text_boxes

    return [
        (number, box.text, round(box.left, 1), round(box.right, 1))
        for number, page in enumerate(text_boxes(data), 1)
        for box in page.boxes
        if box.left < MARGIN - 0.5 or box.right > page.width - MARGIN + 0.5
    ]


def overlapping(data: bytes) -> list[tuple[int, str, str]]:
    """(page, text, text) of two texts on one baseline that overlap: a cell running into the next."""
    from tests.helpers.pdf_layout import text_boxes

    found = []
    for number, page in enumerate(text_boxes(data), 1):
        lines: dict[float, list] = {}
        for box in page.boxes:
            lines.setdefault(round(box.baseline), []).append(box)
        for boxes in lines.values():
            boxes.sort(key=lambda b: b.left)
            found += [
                (number, a.text, b.text) for a, b in itertools.pairwise(boxes) if a.right > b.left + 0.5
            ]
    return found


def test_the_games_footnote_is_inside_the_page():
    """Issue 47 item 11: «…где правила их отдают.» ran past the right edge of every game's page;
    each text of the protocol, the footnote's lines with it, is between the page's margins."""
    from tests.helpers.pdf_layout import text_boxes

    data = render_pdf(evening(example(), DAY, points))
    pages = text_boxes(data)
    assert len(pages) == 3 and pages[1].width == 595.44
    assert min(b.left for b in pages[1].boxes) == MARGIN  # the reader places the title at the margin
    assert outside(data) == [] and overlapping(data) == []
    note = " ".join(b.text for b in pages[1].boxes if b.text.startswith("«—»") or "отдают" in b.text)
    assert note.startswith("«—» в голосовании") and note.endswith("где правила их отдают.")


def test_long_names_and_words_stay_inside_their_cells_and_the_page():
    """Names of the widest letters (a cell ran into the next one), a line and a note of a word wider
    than the page (cut across lines), a long table title, a table of many long cells: all inside."""
    from dataclasses import replace

    from host_device.club.protocol import Page, Table
    from host_device.club.protocol_evening import Evening

    records = example()
    one = records[2]
    wide = ("Щ" * 40, "Жюль-Ш" + "Ю" * 30, "Ш" * 27)
    seats = (*(replace(s, name=n) for s, n in zip(one.seats, wide, strict=False)), *one.seats[3:])
    records[2] = replace(one, seats=seats)
    word = "Ш" * 120
    long = Page(
        "Протокол " + "Ж" * 80,
        ("Правила: " + word, "Итог: " + "очень длинная строка " * 12),
        (
            Table(
                "Голосования " * 10,
                ("Игрок", "Слово", "Услышано (уверенность)"),
                (("Щ" * 28, "Ж" * 60, "Ю" * 60),),
            ),
        ),
        ("Примечание: " + word + " и ещё " + "слова " * 30,),
    )
    made = evening(records, DAY, points)
    data = render_pdf(Evening(made.day, made.summary, (*made.games, long)))
    assert outside(data) == [] and overlapping(data) == []
    last = re.sub(r"\s", "", read_pdf(data)[-1])
    assert (
        word in last and "ещё" + "слова" * 30 in last and "Ж" * 80 in last
    )  # cut across lines, nothing lost
    assert "Ш" * 27 in read_pdf(data)[1]  # a name of 27 letters whole, in its cell


def test_the_tournaments_sheets_drawn_the_same_way_stay_inside():
    """The tournament's paper (host_device/tournament/sheets.py) is drawn by the same code: a name
    of 60 letters in every page's title, ten players of long names sitting a round out."""
    from host_device.tournament.sheets import standings_page, tournament_pdf

    name = "Осенний кубок клуба " + "Ж" * 40
    players = [f"Игрок {k:02d} " + "Щ" * 20 for k in range(1, 31)]
    rounds = [[players[:10], players[10:20]], [players[10:20], players[20:]]]
    standings = standings_page(
        name, ("место", "игрок", "игр", "сумма"), [(1, players[0], 2, 1.5)], "после тура 2"
    )
    data = tournament_pdf(name, rounds, {1: players[20:], 2: players[:10]}, players, standings)
    assert outside(data) == [] and overlapping(data) == []
    assert players[29] in re.sub(r"\n", " ", read_pdf(data)[1])  # the byes' note, wrapped, whole
