"""The venue screen's pages as the server plans them (host_device/web/venue_html.py): every table and
every row of the standings on exactly one page, each page within the TV's height at its type, every
page shown within a minute; a name's length chooses the type and the columns; the whole page
(``?show=all``) and the points per game where the table ranks by them. Chromium measures the same
pages in tests/system/test_browser_tournament.py."""

import re

import pytest

from host_device.web.venue_html import (
    BODY,
    GAP,
    LINE,
    NOTE_SPACE,
    REFRESH,
    WINDOW,
    ranks_pages,
    seating_pages,
    turn,
    venue_html,
)

HEAD = [
    "место", "игрок", "игр", "сумма", "за игру", "победы", "красным", "чёрным", "шерифом", "доном",
    "лучший ход", "Ci", "доп", "штраф", "убит первым",
]  # fmt: skip


def round_of(players: int, seats: int = 10) -> tuple[list[list[str]], list[str]]:
    names = [f"Игрок {k:03d}" for k in range(1, players + 1)]
    count = players // seats
    return [names[t * seats : (t + 1) * seats] for t in range(count)], names[count * seats :]


@pytest.mark.parametrize("seats", [7, 10, 12])
@pytest.mark.parametrize("marked", [False, True])
def test_every_table_of_a_round_is_on_one_page_within_the_screen(seats: int, marked: bool) -> None:
    for players in range(seats, 301):
        tables, byes = round_of(players, seats)
        pages, cols, size = seating_pages(tables, bool(byes), marked)
        cells = [c for page in pages for c in page]
        assert cells == [*range(len(tables)), *([-1] if byes else [])]  # each once, in order
        lines = 1 + seats + marked
        for page in pages:
            rows = -(-len(page) // cols)
            assert rows * lines * LINE * size + (rows - 1) * GAP <= BODY, (players, seats, len(page), cols)
        assert max(len(p) for p in pages) - min(len(p) for p in pages) <= 1  # as many on each


def test_the_standings_fill_pages_as_large_as_they_fit_with_every_row_once() -> None:
    for count in range(1, 301):
        for notes in range(4):
            pages, size = ranks_pages([f"Игрок {k:03d}" for k in range(count)], notes)
            assert [k for page in pages for k in page] == list(range(count))
            body = BODY - (notes * LINE + NOTE_SPACE if notes else 0)
            for page in pages:
                assert (-(-len(page) // 2) + 1) * LINE * size <= body, (count, notes, len(page), size)
    assert ranks_pages([f"Игрок {k:02d}" for k in range(20)], 0)[1] == 1.5  # twenty rows: large
    assert ranks_pages([f"Игрок {k:03d}" for k in range(100)], 0)[1] == 1.25
    twenty = [f"Игрок {k:02d}" for k in range(19)]
    assert ranks_pages(["Анастасия Ковалевская", *twenty], 0)[1] == 1.0  # the name whole
    too_long = "Анастасия-Александра Ковалевская-Долгорукова"  # «…» at any type: it chooses nothing
    assert ranks_pages([too_long, *twenty], 0)[1] == 1.5


def test_a_long_name_takes_at_most_three_tables_a_row_instead_of_four() -> None:
    tables, _ = round_of(70)
    pages, cols, size = seating_pages(tables, False, False)
    assert [len(p) for p in pages] == [7] and (cols, size) == (4, 1.0)  # four and three
    tables[3][5] = "Анастасия Ковалевская"
    pages, cols, size = seating_pages(tables, False, False)
    assert [len(p) for p in pages] == [4, 3] and (cols, size) == (2, 1.0)  # at most three: two pages
    assert seating_pages(tables[:2], False, False)[1:] == (2, 1.5)  # two tables: large all the same


def test_every_page_turns_within_a_minute() -> None:
    assert turn(1) == REFRESH
    for pages in range(2, 13):
        assert turn(pages) <= REFRESH and turn(pages) * pages <= WINDOW


def html(**changes: object) -> str:
    tables, byes = round_of(25)
    rows = [[k, f"Игрок {k:03d}", 2, 3.5 - k / 10, 1.75 - k / 20, *([0] * 10)] for k in range(1, 24)]
    args: dict[str, object] = dict(
        name="Кубок", round_no=2, rounds=3, tables=tables, byes=byes, rows=rows, head=HEAD
    )
    args.update(label="по таблице очков клуба", standings_first="Таблица после тура 1", annulled=[(7, 1, 2)])
    args.update(changes)
    return venue_html(**args)  # type: ignore[arg-type]


def test_the_screen_turns_its_pages_in_the_order_of_the_moment_and_reads_itself_after_them() -> None:
    page = html()
    kinds = re.findall(r'<section class="page (\w+)" style="animation-delay: (\d+)s;', page)
    assert kinds == [("ranks", "0"), ("seating", "20")]  # between rounds: the standings first
    assert '<html lang="ru" class="venue tv" style="--cycle: 40s">' in page
    assert '<meta http-equiv="refresh" content="40">' in page  # after every page, read again
    assert "@keyframes venue-turn { 0% { visibility: visible; } 50.0% { visibility: hidden; } }" in page
    assert "страница 1 из 2" in page and "страница 2 из 2" in page
    assert "Не играют в этом туре: Игрок 021, Игрок 022" in page
    assert "Игра 7 (стол 2, тур 1) аннулирована: не считается" in page
    assert "по таблице очков клуба" in page and "mafiaratings" not in page and "Эло" not in page
    ranks = re.findall(
        r'<span class="name">([^<]*)</span><span class="games">2</span><span class="sum">([^<]*)<', page
    )
    assert ranks[:2] == [("Игрок 001", "3,4"), ("Игрок 002", "3,3")]  # the sum, large
    during = html(standings_first=None)
    kinds = re.findall(r'<section class="page (\w+)"', during)
    assert kinds == ["seating", "ranks"]


def test_with_show_all_the_whole_page_reads_itself_every_twenty_seconds() -> None:
    page = html(whole=True)
    assert '<html lang="ru" class="venue all"' in page and f'content="{REFRESH}">' in page
    assert page.count("<tr>") == 1 + 23  # the detail table, every row
    assert '<a href="?">Экран зала</a>' in page


def test_a_table_ranked_by_points_per_game_shows_them_on_the_tv() -> None:
    page = html(key="за игру")
    assert '<span class="sum">за игру</span>' in page and 'class="columns per-game"' in page
    ranks = re.findall(
        r'<span class="name">([^<]*)</span><span class="games">2</span><span class="sum">([^<]*)<', page
    )
    assert ranks[0] == ("Игрок 001", "1,7")
