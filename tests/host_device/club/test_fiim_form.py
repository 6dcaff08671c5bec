"""The FIIM paper form (``games protocol --form fiim``): each field of a game's record in its
cell, at the millimetres of mafiaratings' include/fiim_form.php (the cells below are copied
from it, not from our code), every text inside the landscape A4 page, seven vote blocks at
most, and the form's look committed as a screenshot (pdftoppm)."""

import shutil
import subprocess
from dataclasses import replace

import pytest

from engine.roles import Team
from host_device.cli.main import main
from host_device.club.build import record_of
from host_device.club.fiim_form import FormDoesNotFit, Header, fiim_form, render_fiim
from host_device.club.record import FoulRecord, Nomination, VoteRound, vote_rounds
from host_device.store import Store
from tests.helpers.evening import big_game, game_one, game_two, points, unfinished
from tests.helpers.paths import ROOT
from tests.helpers.pdf import read_pdf
from tests.helpers.pdf_layout import Page, text_boxes
from tests.host_device.cli.test_protocol import CITY, FULL, GAME, error_line, stored

pytestmark = pytest.mark.slow

MM = 72 / 25.4
WIDTH, HEIGHT = 297.0, 210.0  # mm: A4 landscape
SCREENSHOTS = ROOT / "tests" / "system" / "screenshots"
HEADER = Header(tournament="Осенний кубок клуба", stage="Финал", table="2", judge="Иван Петров")


def row_top(seat: int) -> float:
    return 52.2 + 10.1 * (seat - 1)  # fiim_form.php: $y = 52.2; … $y += 10.1


# fiim_form.php's cells (x, y, w, h) in mm from the page's top left corner
NAME = (25.9, 54.0)
ROLE = (79.9, 10.1)
FOUL = (90.0, 7.475)  # the first of four
POINTS = (119.9, 11.9)
EXTRA = (131.8, 13.2)


def texts_in(page: Page, x: float, y: float, w: float, h: float) -> list[str]:
    """The texts drawn wholly inside the cell: their left and right edges and their baseline."""
    return [
        b.text
        for b in page.boxes
        if b.left >= x * MM - 0.5
        and b.right <= (x + w) * MM + 0.5
        and (HEIGHT - y - h) * MM <= b.baseline <= (HEIGHT - y) * MM
    ]


def form_pages(record, header=HEADER):
    return text_boxes(render_fiim([fiim_form(record, points(record), header)], "test"))


def check_record(record, header=HEADER) -> None:
    """Every field the record fills, in its own cell of the first page."""
    front, back = form_pages(record, header)
    got = points(record)
    assert texts_in(front, 131.5, 32.8, 13.5, 7.7) == [str(record.id)]  # ИГРА №
    assert texts_in(front, 43.0, 17.4, 102, 7.7) == ([header.tournament] if header.tournament else [])
    for seat in record.seats:
        y = row_top(seat.seat)
        assert texts_in(front, 18.0, y, 7.9, 10.1) == [str(seat.seat)]
        assert texts_in(front, *NAME[:1], y, NAME[1], 10.1) == ([seat.name] if seat.name else [])
        letter = {
            "sheriff": "Ш",
            "mafia": "М",
            "don": "Д",
            "commissar": "К",
            "doctor": "Док",
            "lover": "Л",
        }.get(seat.role.value)
        assert texts_in(front, ROLE[0], y, ROLE[1], 10.1) == ([letter] if letter else [])
        fouls = [t for k in range(4) for t in texts_in(front, FOUL[0] + k * FOUL[1], y, FOUL[1], 10.1)]
        assert fouls.count("✓") == min(seat.fouls, 4)
        result = got[seat.seat].result
        assert texts_in(front, POINTS[0], y, POINTS[1], 10.1) == [f"{result:g}"]
        extra = round(got[seat.seat].total - result, 6)
        expected = [f"{extra:g}".replace(".", ",").replace("-", "−")] if extra else []
        assert texts_in(front, EXTRA[0], y, EXTRA[1], 10.1) == expected
        assert texts_in(front, 14.0, y, 4.0, 10.1) == (["*"] if seat.left else [])  # out of the game
    winner = {Team.RED: "красные", Team.BLACK: "чёрные"}[record.winner]
    assert texts_in(front, 80.0, 157.8, 65, 7.4) == [winner]
    if record.best_move:
        for k, named in enumerate(record.best_move.named):
            assert texts_in(front, 54.0 + 11.5 * k, 165.2, 8.0, 10.1) == [str(named)]
        assert texts_in(front, 127.4, 165.2, 17.6, 10.1) == [str(record.best_move.seat)]
    days = sorted({n.day for n in record.nominations})
    for block, day in enumerate(days[:7]):
        first = next((r for r in vote_rounds(record) if r.day == day and r.kind != "all"), None)
        named = [n.target for n in record.nominations if n.day == day]
        counts = dict(first.counts) if first else {}  # a lone candidate who left without a vote: none
        top = 22.5 + 25.0 * block  # fiim_form.php: SetXY($x, 22.5 + 25.0 * $round)
        for column, seat in enumerate(dict.fromkeys([*counts, *named])):
            x = 167.6 + 10.2 * column
            gone = record.seat(seat).left
            out = gone is not None and gone.how == "vote" and gone.day == day
            assert texts_in(front, x, top, 10.2, 5.0) == [f"({seat})" if out else str(seat)]
            assert texts_in(front, x, top + 5.0, 10.2, 5.0) == ([str(counts[seat])] if seat in counts else [])
    return front, back


def test_the_hand_made_games_every_field_in_its_cell():
    front, back = check_record(game_one())
    # the revote of day 2 under its first round: 8 had 3 then 5 (and left), 9 had 3 then 2
    assert texts_in(front, 167.6, 22.5 + 25 + 10.0, 10.2, 5.0) == ["5"]
    assert texts_in(front, 177.8, 22.5 + 25 + 10.0, 10.2, 5.0) == ["2"]
    assert texts_in(front, 35.0, 182.4, 66, 10.1) == ["Иван Петров"]  # СУДЬЯ
    assert texts_in(front, 65.0, 25.1, 80, 7.7) == ["Финал"] and texts_in(front, 100.5, 32.8, 13.5, 7.7) == [
        "2"
    ]
    assert "20 / 11 / 2026" in texts_in(front, 31.5, 32.8, 50.5, 7.7)
    explained = " ".join(b.text for b in back.boxes)
    assert (
        "Игрок 1 (Анна): лучший ход +0,5" in explained
        and "Игрок 6 (Егор): доп. баллы ведущего +0,5" in explained
    )
    second, _ = check_record(game_two(), Header())
    assert texts_in(second, 112.425, row_top(1), 7.475, 10.1) == ["✓"]  # four fouls: the fourth box
    assert texts_in(second, 43.0, 17.4, 102, 7.7) == [] and texts_in(second, 35.0, 182.4, 66, 10.1) == []


@pytest.mark.parametrize("script", [FULL, CITY])
def test_an_example_game_simulated_every_field_in_its_cell(tmp_path, script):
    db = tmp_path / "games.sqlite3"
    stored(db, script)
    store = Store(db)
    try:
        record = record_of(store, 1)
    finally:
        store.close()
    assert record.finished and record.nominations
    front, _ = check_record(record)
    first = next(r for r in vote_rounds(record) if r.day == 1)
    if script == CITY:  # the city's votes for killing nobody: a column after the nominees
        assert first.nobody is not None
        x = 167.6 + 10.2 * len(first.counts)
        assert texts_in(front, x, 22.5, 10.2, 5.0) == ["никого"]
        assert texts_in(front, x, 27.5, 10.2, 5.0) == [str(first.nobody)]


def test_every_text_inside_the_landscape_page_long_names_cut_in_their_cells():
    one = game_one()
    wide = ("Щ" * 40, "Жюль-Ш" + "Ю" * 30, "Ш" * 27)
    seats = (*(replace(s, name=n) for s, n in zip(one.seats, wide, strict=False)), *one.seats[3:])
    withdrawn = tuple(
        FoulRecord(seat, 2, "device", "честно", heard="ну " + "честно " * 30, withdrawn=True)
        for seat in range(1, 11)
    )
    record = replace(one, seats=seats, fouls=withdrawn)
    header = Header(tournament="Ж" * 90, stage="Ш" * 90, table="12345678", judge="Щ" * 60)
    data = render_fiim([fiim_form(record, points(record), header)], "test")
    pages = text_boxes(data)
    assert len(pages) == 2 and all(
        (round(p.width, 1), round(p.height, 1)) == (841.9, 595.3) for p in pages
    )  # landscape A4
    for page in pages:
        assert page.boxes and all(b.left >= 0 and b.right <= page.width for b in page.boxes)
        assert all(0 < b.baseline < page.height for b in page.boxes)
    front = pages[0]
    assert texts_in(front, *NAME[:1], row_top(1), NAME[1], 10.1)[0].startswith("Щ" * 10)  # cut, in its cell
    assert texts_in(front, 43.0, 17.4, 102, 7.7) and texts_in(front, 35.0, 182.4, 66, 10.1)
    assert texts_in(front, 42.0, 175.3, 103.0, 7.1) == ["снятых замечаний: 10 (на обороте)"]  # ПРОТЕСТ
    back = read_pdf(data)[1]
    assert "КОММЕНТАРИИ К ПРОТЕСТУ" in back and "Игрок 1, день 2: замечание устройства «честно»" in back


def test_seven_vote_blocks_at_most_and_a_line_says_the_rest():
    one = game_one()
    days = range(1, 10)
    record = replace(
        one,
        nominations=tuple(Nomination(day, 1, 2 + day % 8) for day in days),
        rounds=tuple(VoteRound(day, 1, "main", ((2 + day % 8, 5 + day % 3),)) for day in days),
        ballots=(),
    )
    form = fiim_form(record, points(record), HEADER)
    assert len(form.votes) == 7 and [b.day for b in form.votes] == list(range(1, 8))
    assert form.more_votes == "Голосований в игре: 9; на бланке — первые 7, все — в протоколе вечера"
    front = text_boxes(render_fiim([form], "test"))[0]
    labels = [b.text for b in front.boxes if b.text.startswith("Голосование ")]
    assert labels == [f"Голосование {n}" for n in range(1, 8)]
    assert [b.text for b in front.boxes if b.text == form.more_votes] == [form.more_votes]
    assert texts_in(front, 167.6, 22.5 + 25.0 * 6, 10.2, 5.0) == [str(2 + 7 % 8)]  # day 7, the last block


def test_no_form_for_an_unfinished_game_nor_one_of_more_than_ten_seats():
    with pytest.raises(ValueError, match="not finished"):
        fiim_form(unfinished(), {}, HEADER)
    big = big_game()
    with pytest.raises(FormDoesNotFit, match="игроков 16"):
        fiim_form(big, points(big), HEADER)


def test_the_command_draws_the_days_finished_games_or_one(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    day = stored(db, FULL, GAME, CITY)
    out = tmp_path / "фиим.pdf"
    args = ["games", "protocol", "--form", "fiim", "--to", str(out), "--store", str(db)]
    assert main([*args, "--date", day, "--tournament", "Кубок", "--judge", "Иван"]) == 0
    assert capsys.readouterr().out == f"{out}: бланки ФИИМ — игр: 2, страниц: 4\n"
    pages = text_boxes(out.read_bytes())
    assert len(pages) == 4 and texts_in(pages[0], 131.5, 32.8, 13.5, 7.7) == ["1"]
    assert texts_in(pages[2], 131.5, 32.8, 13.5, 7.7) == ["3"]  # game 2 is unfinished: not drawn
    assert texts_in(pages[0], 43.0, 17.4, 102, 7.7) == ["Кубок"]
    assert main([*args, "--game", "3"]) == 0
    assert len(text_boxes(out.read_bytes())) == 2
    capsys.readouterr()
    assert main([*args, "--game", "2"]) == 2
    error_line(capsys, "игра № 2 не окончена")
    assert main([*args, "--game", "1", "--date", day]) == 2
    error_line(capsys, "--date", "--game")
    html = tmp_path / "p.html"
    assert (
        main(["games", "protocol", "--form", "fiim", "--game", "1", "--to", str(html), "--store", str(db)])
        == 2
    )
    error_line(capsys, ".pdf")
    assert main(["games", "protocol", "--game", "1", "--to", str(out), "--store", str(db)]) == 2
    error_line(capsys, "--game", "--form fiim")
    assert not html.exists()


def test_the_forms_screenshot():
    """The hand-made game 11 on the form, both pages, as pdftoppm (poppler-utils) renders them."""
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: install Debian's poppler-utils (./run's set-up does)"
    record = replace(
        game_one(),
        fouls=(FoulRecord(4, 2, "device", "честно", heard="ну честно говоря", withdrawn=True),),
    )
    data = render_fiim([fiim_form(record, points(record), HEADER)], "Бланк ФИИМ")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for page, name in ((1, "fiim-form"), (2, "fiim-form-back")):
        target = SCREENSHOTS / name
        subprocess.run(
            [pdftoppm, "-png", "-r", "80", "-f", str(page), "-l", str(page), "-singlefile", "-", str(target)],
            input=data,
            check=True,
        )
        png = target.with_suffix(".png")
        assert png.stat().st_size < 300_000
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_tie_its_revote_and_the_all_leave_question_in_one_block():
    """Day 2 of game 11 tied twice and asked whether both leave: the first round's and the
    revote's counts in the block's rows, the question's count beside the block's day."""
    one = game_one()
    rounds = (
        VoteRound(1, 1, "main", ((5, 7), (8, 1))),
        VoteRound(2, 1, "main", ((8, 4), (9, 4))),
        VoteRound(2, 2, "revote", ((8, 4), (9, 4))),
        VoteRound(2, 3, "all", ((0, 6),)),
    )
    record = replace(one, rounds=rounds, nominations=one.nominations[:4])
    form = fiim_form(record, points(record), HEADER)
    assert form.votes[1].title == "Голосование 2 — день 2; все уходят: за 6"
    front = text_boxes(render_fiim([form], "test"))[0]
    assert texts_in(front, 157.2 + 82, 17.5 + 25, 40.6, 5.0) == ["день 2; все уходят: за 6"]
    for row, values in ((5.0, ["(8)", "9"]), (10.0, ["4", "4"]), (15.0, ["4", "4"])):
        got = [t for x in (167.6, 177.8) for t in texts_in(front, x, 17.5 + 25 + row, 10.2, 5.0)]
        assert got == values
