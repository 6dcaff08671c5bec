"""A vote nobody pressed in, and a night nobody shot in, in the club's record:
tests/scenarios/classic_silent_votes_and_misses.json simulated into a store
(day 1: nobody presses, the ten non-voters' votes send 8 out; day 4's revote:
nobody presses, its six default votes send 9 out; nights 1 and 3: no shot)
and read back by the review (/game/1), the protocol and ``games show``."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from host_device.cli.main import main
from host_device.club.build import record_of
from host_device.club.protocol import game_page
from host_device.club.record import VoteRound
from host_device.club.scoring import load_table, points
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.web.app import make_app
from host_device.web.club_worker import ClubPages
from host_device.web.review import review
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second
from tests.helpers.web import private_publisher

SCRIPT = ROOT / "tests" / "scenarios" / "classic_silent_votes_and_misses.json"


@pytest.fixture
def played(store):
    result, _ = simulate(load_script(SCRIPT), one_second, store=store)
    assert result["winner"] == "red" and result["ignored"] == []
    return store


def test_the_record_keeps_every_round_as_counted_and_every_night_played(played):
    record = record_of(played, 1)
    assert record.rounds == (
        VoteRound(1, 1, "main", ((4, 0), (8, 10))),
        VoteRound(4, 1, "main", ((7, 3), (9, 3))),
        VoteRound(4, 2, "revote", ((7, 0), (9, 6))),
    )
    assert not [b for b in record.ballots if b.day == 1 or b.round == 2]  # nobody pressed in them
    assert record.nights_played == (1, 2, 3)


def test_the_review_shows_the_vote_nobody_pressed_in_and_the_night_nobody_shot_in(played):
    page = review(record_of(played, 1))
    day1 = next(d for d in page.days if d.day == 1)
    assert [(c.target, c.votes) for c in day1.columns] == [(4, 0), (8, 10)]
    assert day1.marks == () and day1.silent == tuple(range(1, 11))
    day4 = next(d for d in page.days if d.day == 4)
    assert [(c.round, c.kind, c.target, c.votes) for c in day4.columns] == [
        (1, "main", 7, 3),
        (1, "main", 9, 3),
        (2, "revote", 7, 0),
        (2, "revote", 9, 6),
    ]
    assert [(n.night, n.kind, n.target) for n in page.nights] == [
        (1, "промах", None),
        (2, "выстрел", 2),
        (3, "промах", None),
    ]


def test_the_review_page_draws_them(played):
    pages = ClubPages(played.path, pool=ThreadPoolExecutor(1))
    with TestClient(make_app(private_publisher()[0], club=pages)) as client:
        html = client.get("/game/1").text
    day1 = re.search(r'<section class="day" data-day="1">.*?</section>', html)[0]
    assert "голосования не было" not in day1
    assert re.findall(r'data-target="(\d+)"', day1) == ["4", "8"]
    assert re.findall(r'<td class="votes" data-column="\d">(\d+)</td>', day1) == ["0", "10"]
    assert "не нажимали: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10" in day1
    day4 = re.search(r'<section class="day" data-day="4">.*?</section>', html)[0]
    assert "переголосование" in day4
    assert re.findall(r'<td class="votes" data-column="\d">(\d+)</td>', day4) == ["3", "3", "0", "6"]
    nights = re.search(r'<table class="nights">.*?</table>', html)[0]
    assert nights.count("промах") == 2


def test_the_protocol_has_their_rows(played):
    record = record_of(played, 1)
    tables = {t.title: t for t in game_page(record, points(record, load_table(None))).tables}
    votes = {row[0]: row[1:] for row in tables["Голосования (за кого голосовал каждый)"].rows}
    assert list(votes) == ["Д1", "Д4", "Д4·2"]
    assert votes["Д1"] == ("4, 8", "0, 10", *["—"] * 10)  # all at the table, none pressed
    assert votes["Д4·2"][:2] == ("7, 9", "0, 6")
    nights = {row[0]: row[1:] for row in tables["Ночи"].rows}
    assert list(nights) == ["1", "2", "3"]
    assert nights["1"] == ("промах", "") and nights["3"] == ("промах", "") and nights["2"][0] == "2"


def test_games_show_says_the_misses(played, capsys):
    assert main(["games", "show", "1", "--store", str(played.path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "День 1, голосование: за 4 — 0; за 8 — 10 (не голосовали — 10)" in lines
    assert "День 4, переголосование: за 7 — 0; за 9 — 6 (не голосовали — 6)" in lines
    assert "Ночь 1: промах, никто не убит" in lines and "Ночь 3: промах, никто не убит" in lines
    assert not [line for line in lines if line.startswith("Ночь 2: промах")]


def test_games_show_says_the_best_move(store, capsys):
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    assert main(["games", "show", "1", "--store", str(store.path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = "День 2: лучший ход игрока 1 (убит ночью 1) — 3, 5 и 8"
    assert said in lines
    assert lines.index(said) > lines.index("Игрок 1 покидает игру: ночь 1, убит")
