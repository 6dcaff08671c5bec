"""``games protocol``: the evening of stored (simulated) games written as
HTML and PDF; a bad date, an unknown file ending, a day without games or
without a finished one, an unwritable file, a missing store — one Russian
line each and exit 2, nothing written."""

import re

import pytest

from host_device.cli.main import main
from host_device.club.protocol import local_day
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from tests.helpers.paths import ROOT
from tests.helpers.pdf import read_pdf
from tests.helpers.store import one_second

FULL = ROOT / "examples" / "classic-full-game.json"  # ends: red win on day 3
GAME = ROOT / "examples" / "classic-game.json"  # stops on night 1: unfinished
CITY = ROOT / "examples" / "city-game.json"  # ends


# a civilian's row of the form that ends with his points: Осн. N, ЛХ, Доп., Штраф blank, Итого N
WON_CIVILIAN = (
    "<td[^>]*>мирный житель</td>(<td[^>]*>[^<]*</td>){{3}}<td[^>]*>{0}</td>"
    "(<td[^>]*></td>){{3}}<td[^>]*>{0}</td></tr>"
)


def stored(path, *scripts):
    store = Store(path)
    try:
        for script in scripts:
            simulate(load_script(script), one_second, store=store)
        return local_day(store.games.game(1).started_at)
    finally:
        store.close()


def error_line(capsys, *words):
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert ": ошибка: " in lines[0]
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def evening(tmp_path):
    db = tmp_path / "games.sqlite3"
    return db, stored(db, FULL, GAME, CITY)


def test_the_evening_as_html(evening, tmp_path, capsys):
    db, day = evening
    out = tmp_path / "вечер.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 0
    assert capsys.readouterr().out == f"{out}: протокол вечера {day} — игр: 2, страниц: 3\n"
    page = out.read_text(encoding="utf-8")
    assert page.count('<section class="game">') == 2 and page.count('<section class="summary">') == 1
    assert "<h1>Протокол игры № 1</h1>" in page and "<h1>Протокол игры № 3</h1>" in page
    assert "<h1>Протокол игры № 2</h1>" not in page and "не окончена" in page
    assert "Шериф" in page and "Дон" in page and "доктор" in page  # the revealed roles of both games
    # points by the default (FIIM) table: a red seat of a red win has 1 (Осн.) and 1 in all (Итого)
    assert "<th>Итого</th>" in page and re.search(WON_CIVILIAN.format(1), page)


def test_the_clubs_own_scoring_table(evening, tmp_path, capsys):
    db, day = evening
    config = tmp_path / "club.toml"
    config.write_text('[club]\nscoring = "our.toml"\n', encoding="utf-8")
    out = tmp_path / "p.html"
    args = ["games", "protocol", "--date", day, "--to", str(out), "--store", str(db), "--config", str(config)]
    assert main(args) == 2  # the table the config names is missing
    error_line(capsys, "our.toml")
    assert not out.exists()
    table = (ROOT / "host_device" / "club" / "data" / "fiim.toml").read_text(encoding="utf-8")
    (tmp_path / "our.toml").write_text(table.replace("civilian = 1.0", "civilian = 3.0"), encoding="utf-8")
    assert main(args) == 0
    assert re.search(WON_CIVILIAN.format(3), out.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_evening_as_pdf(evening, tmp_path):
    db, day = evening
    out = tmp_path / "вечер.PDF"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 0
    pages = read_pdf(out.read_bytes())
    assert len(pages) == 3  # the summary, games 1 and 3
    assert "Протокол игры № 1" in pages[1] and "Шериф" in pages[1] and "любовница" in pages[2]
    assert "не окончена" in pages[0]


@pytest.mark.parametrize(
    ("date", "words"),
    [("2026-13-01", "'2026-13-01' — не дата"), ("20.11.2026", "ГГГГ-ММ-ДД"), ("", "не дата")],
)
def test_a_bad_date(tmp_path, capsys, date, words):
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", date, "--to", str(out)]) == 2
    error_line(capsys, "--date", words)
    assert not out.exists()


@pytest.mark.parametrize("name", ["p.txt", "p", "p.html.bak"])
def test_an_unknown_file_ending(tmp_path, capsys, name):
    assert main(["games", "protocol", "--date", "2026-11-20", "--to", str(tmp_path / name)]) == 2
    error_line(capsys, "--to", ".html или .pdf")


def test_a_day_without_games(evening, tmp_path, capsys):
    db, _ = evening
    out = tmp_path / "p.pdf"
    assert main(["games", "protocol", "--date", "2000-01-01", "--to", str(out), "--store", str(db)]) == 2
    error_line(capsys, "2000-01-01", "игр нет", "games list")
    assert not out.exists()


def test_a_day_without_a_finished_game(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    day = stored(db, GAME)
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 2
    error_line(capsys, "ни одна игра этого дня не окончена", "№ 1")
    assert not out.exists()


@pytest.mark.parametrize("where", ["missing/p.pdf", "folder.pdf"])
def test_an_unwritable_file(evening, tmp_path, capsys, where):
    db, day = evening
    (tmp_path / "folder.pdf").mkdir()
    out = tmp_path / where
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 2
    error_line(capsys, str(out), "не удалось записать протокол")
    assert not (tmp_path / "missing").exists() and not list((tmp_path / "folder.pdf").iterdir())
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_missing_store(tmp_path, capsys):
    store = tmp_path / "none.sqlite3"
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", "2026-11-20", "--to", str(out), "--store", str(store)]) == 2
    error_line(capsys, "здесь нет хранилища игр")
    assert not store.exists() and not out.exists()


def test_a_damaged_game_is_left_out_and_named(evening, tmp_path, capsys):
    db, day = evening
    store = Store(db)
    store.db.execute('UPDATE inputs SET input = \'{"type": "vote", "seat": 99}\' WHERE game = 3 AND seq = 3')
    store.db.commit()
    store.close()
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 1
    captured = capsys.readouterr()
    assert (
        captured.err.startswith("host-device: пропущена: игра 3 повреждена: ")
        and "games check" in captured.err
    )
    assert "игр: 1, страниц: 2" in captured.out
    page = out.read_text(encoding="utf-8")
    assert "<h1>Протокол игры № 1</h1>" in page and "№ 3" not in page


def test_a_game_whose_start_does_not_read_is_named(evening, tmp_path, capsys):
    db, day = evening
    store = Store(db)
    store.db.execute("UPDATE games SET started_at = x'00ff' WHERE id = 3")  # a blob: its day is unknown
    store.db.commit()
    store.close()
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 1
    assert "пропущена: игра 3 повреждена: время начала не читается" in capsys.readouterr().err
    assert "<h1>Протокол игры № 1</h1>" in out.read_text(encoding="utf-8")
    assert main(["games", "protocol", "--date", "2000-01-01", "--to", str(out), "--store", str(db)]) == 2
    error_line(capsys, "игр нет; не читаются: № 3")


def test_the_rosters_names_are_on_the_form_and_the_summary(evening, tmp_path, capsys):
    db, day = evening
    assert main(["games", "seat", "1", "3", "Вера", "--store", str(db)]) == 0
    assert main(["games", "seat", "3", "5", "Вера", "--store", str(db)]) == 0  # the same player again
    out = tmp_path / "p.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--store", str(db)]) == 0
    page = out.read_text(encoding="utf-8")
    assert re.search(r'<td class="name black">Вера</td><td class="black">Дон</td>', page)  # game 1, seat 3
    assert re.search(r'<td class="name">Вера</td><td>2</td>', page)  # the summary: two games
