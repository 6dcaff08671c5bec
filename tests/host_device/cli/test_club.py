"""``host-device club init`` and ``club web``, and the commands that read
the club's database with ``--club-db``: ``players stats``, ``games
protocol``; what they say when the database is not there, in one line."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from host_device.cli.main import main
from host_device.club.build import records
from host_device.club.package import package_of
from host_device.club.protocol import local_day
from host_device.clubdb.db import ClubDB
from host_device.clubdb.schema import SCHEMA_VERSION
from host_device.store import Store
from tests.helpers.clubdb import play, seat_all
from tests.helpers.paths import ROOT
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


def error_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("host-device: ошибка: ")
    return err


@pytest.fixture
def club(tmp_path, fresh_database, capsys):
    """Two boxes' games (Аня at both) received in an initialised club database: (its URL, the boxes)."""
    assert main(["club", "init", "--club-db", fresh_database]) == 0
    assert f"создана (версия {SCHEMA_VERSION})" in capsys.readouterr().out
    boxes = [Store(tmp_path / f"box{n}.sqlite3") for n in range(2)]
    anna = boxes[0].roster.add_player("Аня")
    boxes[1].roster.import_players([(anna.id, "Аня", None, None, None)])
    with ClubDB.open(fresh_database) as db:
        for n, store in enumerate(boxes):
            game = play(store, "classic-full-game.json")
            seat_all(store, game, [store.roster.add_player(f"Гость {n}").id, anna.id])
            db.receive(package_of(store, game))
    yield fresh_database, boxes
    for store in boxes:
        store.close()


@pytest.mark.slow
def test_club_init_again_changes_nothing(club, capsys):
    url, _ = club
    assert main(["club", "init", "--club-db", url]) == 0
    out = capsys.readouterr().out
    assert f"уже версии {SCHEMA_VERSION}; игр: 2, игроков: 3" in out and "secret" not in out and "***" in out


def test_club_init_faults_are_one_line(postgres_server, capsys):
    assert main(["club", "init", "--club-db", postgres_server.url("postgres", password="wrong")]) == 2
    line = error_line(capsys)
    assert "паролем" in line and "wrong" not in line
    assert main(["club", "init", "--club-db", postgres_server.url("nothing_here")]) == 2
    assert "createdb" in error_line(capsys)


def test_club_init_needs_a_database(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    assert main(["club", "init"]) == 2
    assert "--club-db" in error_line(capsys)


def test_player_stats_from_the_club_database(club, capsys):
    url, boxes = club
    assert main(["players", "stats", "аня", "--club-db", url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Аня: игр 2,")  # both boxes' games
    assert main(["players", "stats", "аня", "--store", str(boxes[0].path)]) == 0
    assert capsys.readouterr().out.startswith("Аня: игр 1,")
    assert main(["players", "stats", "Никто", "--club-db", url]) == 2
    assert "нет в базе клуба" in error_line(capsys)


def test_the_evenings_protocol_from_the_club_database(club, tmp_path, capsys):
    url, boxes = club
    day = local_day(records(boxes[0])[0].started_at)
    out = tmp_path / "evening.html"
    assert main(["games", "protocol", "--date", day, "--to", str(out), "--club-db", url]) == 0
    assert f"протокол вечера {day} — игр: 2, страниц: 3" in capsys.readouterr().out
    html = out.read_text()
    assert "Гость 0" in html and "Гость 1" in html  # both tables in one evening
    assert main(["games", "protocol", "--date", "2000-01-01", "--to", str(out), "--club-db", url]) == 2
    assert "в этот день игр нет" in error_line(capsys)


def test_the_fiim_form_of_one_game_from_the_club_database(club, tmp_path, capsys):
    """`games protocol --game N --form fiim --club-db`: the game the club's database holds (a box's
    game id there), drawn with its players' names; an id it lacks is one line."""
    from tests.helpers.pdf_layout import text_boxes

    url, _ = club
    with ClubDB.open(url) as db:
        held = db.records()
    game = held[0]
    out = tmp_path / "form.pdf"
    assert (
        main(
            [
                "games",
                "protocol",
                "--game",
                str(game.id),
                "--form",
                "fiim",
                "--to",
                str(out),
                "--club-db",
                url,
            ]
        )
        == 0
    )
    pages = text_boxes(out.read_bytes())
    shown = {box.text for box in pages[0].boxes}
    assert pages[0].width > pages[0].height  # landscape A4
    names = {seat.name for seat in game.seats if seat.name}
    assert names and names <= shown  # its players, from the database
    missing = max(r.id for r in held) + 1000
    capsys.readouterr()
    assert (
        main(
            [
                "games",
                "protocol",
                "--game",
                str(missing),
                "--form",
                "fiim",
                "--to",
                str(out),
                "--club-db",
                url,
            ]
        )
        == 2
    )
    assert "нет в базе клуба" in error_line(capsys)


@pytest.mark.slow
def test_club_web_serves_every_tables_games(club, tmp_path):
    url, _ = club
    env = {**os.environ, "HOST_DEVICE_CONFIG": str(tmp_path / "none.toml")}
    (tmp_path / "none.toml").write_text("")
    server = subprocess.Popen(
        [sys.executable, "-m", "host_device", "club", "web", "--club-db", url, "--listen", "127.0.0.1:0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith("База клуба: игр 2, игроков 3, столов 2"), first + server.stderr.read()
        address = server.stdout.readline()
        assert address.startswith("Страницы клуба: http://127.0.0.1:")
        page = address.split()[2]
        for _ in range(100):
            try:
                with urllib.request.urlopen(page, timeout=30) as answer:
                    text = answer.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "Аня" in text and "Гость 0" in text and "Гость 1" in text
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_club_pull_makes_the_clubs_players_this_boxs(club, tmp_path, capsys):
    """A new box pulls the club's roster: a name seated there is the club's
    player (by UUID), so his games at this table count for the same person."""
    url, boxes = club
    new = tmp_path / "box-new.sqlite3"
    store = Store(new)
    store.roster.add_player("гость 0")  # a namesake of the club's «Гость 0», made here before the pull
    store.close()
    assert main(["club", "pull", "--store", str(new), "--club-db", url]) == 0
    out = capsys.readouterr().out
    assert (
        "игроков добавлено 3 (в базе клуба 3)" in out
        and "«гость 0»" in out.lower()
        and "players merge" in out
    )
    assert main(["club", "pull", "--store", str(new), "--club-db", url]) == 0
    assert "игроков добавлено 0" in capsys.readouterr().out
    store = Store(new)
    try:
        anna = store.roster.player("Аня")
        assert anna.id == boxes[0].roster.player("Аня").id
        game = play(store, "classic-full-game.json")
        store.roster.seat_player(game, 1, anna.id)
        with ClubDB.open(url) as db:
            db.receive(package_of(store, game))
    finally:
        store.close()
    assert main(["players", "stats", "Аня", "--club-db", url]) == 0
    assert capsys.readouterr().out.startswith("Аня: игр 3,")


def test_club_pull_after_a_publish_says_the_seating_is_there_and_the_boxes_need_nothing_more(
    fresh_database, tmp_path, capsys
):
    """Issue 47 item 8: after `tournament publish` `club pull` said «игроков добавлено 0 (в базе
    клуба 0)», read as a failed publish. It names the tournament, its seating's players and rounds,
    and that the boxes need nothing more; the players it adds are still said when there are any."""
    from tests.helpers.russian import latin_words
    from tests.host_device.tournament.test_cli import NAMES

    assert main(["club", "init", "--club-db", fresh_database]) == 0
    organiser = str(tmp_path / "organiser.sqlite3")
    store = Store(tmp_path / "organiser.sqlite3")
    for name in NAMES:
        store.roster.add_player(name)
    store.close()
    assert main(["tournament", "create", "Кубок", *NAMES, "--rounds", "3", "--store", organiser]) == 0
    assert main(["tournament", "publish", "Кубок", "--club-db", fresh_database, "--store", organiser]) == 0
    capsys.readouterr()
    box = str(tmp_path / "box.sqlite3")
    assert main(["club", "pull", "--store", box, "--club-db", fresh_database]) == 0
    out = capsys.readouterr().out
    assert "в базе клуба рассадка турнира «Кубок»: 20 игроков, 3 тура" in out
    assert (
        "коробкам турнира больше ничего не нужно" in out
        and "run --tournament 'Кубок' --table T --round R" in out
    )
    assert "добавлено 0" not in out and "пока пуст" in out
    assert [line for line in out.splitlines() if latin_words(line)] == []

    # a game sent (its three players now in the club's list): a new box is told of both
    url = fresh_database
    sender = Store(tmp_path / "sender.sqlite3")
    with ClubDB.open(url) as db:
        game = play(sender, "classic-full-game.json")
        seat_all(sender, game, [sender.roster.add_player(n).id for n in ("Аня", "Боря")])
        db.receive(package_of(sender, game))
    sender.close()
    assert main(["club", "pull", "--store", str(tmp_path / "other.sqlite3"), "--club-db", url]) == 0
    out = capsys.readouterr().out
    assert "игроков добавлено 2 (в базе клуба 2)" in out and "рассадка турнира «Кубок»: 20 игроков" in out
    assert main(["club", "pull", "--store", str(tmp_path / "other.sqlite3"), "--club-db", url]) == 0
    assert "игроков добавлено 0 — все уже в этой коробке (в базе клуба 2)" in capsys.readouterr().out

    # many tournaments: the newest few named, the rest counted; a spoiled one said as such
    from host_device.cli.club import SEATINGS_SHOWN, seating_lines
    from host_device.clubdb.tournaments import Published

    many = [Published(f"Турнир {k}", 10, 2) for k in range(SEATINGS_SHOWN + 2)]
    lines = seating_lines([Published("Лига", 0, 0, spoiled=True), *many])
    assert lines[0].startswith("в базе клуба рассадка турнира «Лига» испорчена")
    assert "и ещё 3 рассадки опубликованных раньше турниров" in lines and "НАЗВАНИЕ" in lines[-1]
