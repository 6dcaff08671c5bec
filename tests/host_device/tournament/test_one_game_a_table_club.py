"""One game a table of a round in the club's database (issue 51 item 2; a real
PostgreSQL): a box's second game for a table of a round is stored, not
linked, and refused in one line naming the first (the box's outbox keeps it,
the organiser sees it under the standings); the organiser annuls a game
(kept, out of the standings, «аннулирована» on the venue screen, its table
free) and links a game afterwards — one a box played as an ordinary one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from host_device.club.package import package_of
from host_device.club.scoring import club_table
from host_device.clubdb.db import ClubDB
from host_device.clubdb.errors import Refused
from host_device.clubdb.sender import send_waiting
from host_device.store import Store
from host_device.web.venue_html import from_database, venue
from tests.helpers.outbox import finished_games
from tests.helpers.postgres import fresh_database, postgres_server
from tests.host_device.tournament.test_cli import run
from tests.host_device.tournament.test_club_db import _organiser

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


@pytest.fixture
def url(fresh_database: str) -> str:
    with ClubDB.open(fresh_database) as db:
        db.init()
    return fresh_database


def box_game(path: Path, players: list[str], link: tuple[int, int] | None) -> int:
    """A box's store with one finished game, its seats the seating's ``players``, linked to
    «Кубок»'s (round, table) when ``link`` names one (else an ordinary game)."""
    store = Store(path)
    (game,) = finished_games(store, 1)
    for seat, pid in enumerate(players, 1):
        store.roster.import_players([(pid, f"п{seat}", None, None, None)])
        store.roster.seat_player(game, seat, pid)
    if link is not None:
        store.tournaments.link_game(game, store.tournaments.named("Кубок"), *link)
    store.close()
    return game


def standings(capsys: Any, url: str, where: Path) -> list[str]:
    code, out, err = run(capsys, where, "tournament", "standings", "Кубок", "--club-db", url)
    assert code == 0, err
    return out.splitlines()


def ranked(lines: list[str]) -> int:
    if len(lines) < 2 or not lines[1].lstrip().startswith("место"):
        return 0
    return sum(1 for line in lines[2:] if not line.startswith(("Аннулирована", "Не засчитана")))


def game_cli(capsys: Any, where: Path, url: str, *args: str) -> tuple[int, str, str]:
    return run(capsys, where, "tournament", "game", "Кубок", *args, "--club-db", url)


def test_a_second_game_for_a_table_is_stored_unlinked_annulled_the_first_it_is_linked(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    club, seating = _organiser(tmp_path, capsys, url)
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    first = box_game(a, seating[0][0], (1, 1))
    second = box_game(b, seating[0][0], (1, 1))  # the round played again at another box
    with ClubDB.open(url) as db:
        store = Store(a)
        assert db.receive(package_of(store, first)) == "stored"
        assert db.receive(package_of(store, first)) == "same"  # a resend: not a second game
        store.close()
        ((c1, r, t),) = db.tournaments.games("Кубок")
        assert (r, t) == (1, 1)
        store = Store(b)
        with pytest.raises(Refused) as refused:
            db.receive(package_of(store, second))
        line = str(refused.value)
        assert "\n" not in line and f"№ {c1}" in line and "стол" in line and "сохранена" in line, line
        assert db.counts().games == 2  # stored all the same
        assert db.tournaments.games("Кубок") == [(c1, 1, 1)]
        ((c2, r, t, held),) = db.tournaments.refused("Кубок")
        assert (r, t, held) == (1, 1, c1)
        report = send_waiting(store, url)  # the box's sender: the refusal kept in its outbox
        assert [(g, f"№ {c1}" in r) for g, r in report.refused] == [(second, True)]
        assert store.outbox.status().refused[0].game == second
        uuid = store.db.execute("SELECT uuid FROM games WHERE id = ?", (second,)).fetchone()[0]
        store.close()
    lines = standings(capsys, url, club)
    assert ranked(lines) == 10 and any(f"Не засчитана: игра клуба № {c2}" in x for x in lines)
    # linking it by hand is refused while the first holds the table
    code, _out, err = game_cli(capsys, club, url, str(c2), "--round", "1", "--table", "1")
    assert code != 0 and f"№ {c1}" in err and "\n" not in err.strip() and "Traceback" not in err
    # annulled, the first is kept, out of the standings, marked on the venue screen
    code, out, err = game_cli(capsys, club, url, str(c1), "--annul")
    assert code == 0 and "аннулирована" in out, err
    lines = standings(capsys, url, club)
    assert ranked(lines) == 0 and any(f"Аннулирована: игра клуба № {c1}" in x for x in lines)
    with ClubDB.open(url) as db:
        held_now = from_database(db, "Кубок")
        finished = lambda ids: {r.id: r for r in db.records(ids) if r.finished}  # noqa: E731
        status, html = venue(held_now, "1", club_table(None), finished)
        assert db.counts().games == 2
    assert status == 200 and f"игра {c1} аннулирована" in html
    # the table free, the second game (named by its UUID) linked afterwards: it counts
    code, out, err = game_cli(capsys, club, url, uuid, "--round", "1", "--table", "1")
    assert code == 0 and f"№ {c2}" in out, err
    lines = standings(capsys, url, club)
    assert ranked(lines) == 10 and not any("Не засчитана" in x for x in lines)
    # the first cannot come back while the second holds its table
    code, _out, err = game_cli(capsys, club, url, str(c1), "--restore")
    assert code != 0 and f"№ {c2}" in err and "\n" not in err.strip()


def test_a_game_played_as_an_ordinary_one_is_linked_afterwards_and_stays_linked(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    club, seating = _organiser(tmp_path, capsys, url)
    box = tmp_path / "box.sqlite3"
    game = box_game(box, seating[1][1], None)  # the database was out of reach: an ordinary game
    store = Store(box)
    assert send_waiting(store, url).stored == 1
    store.close()
    assert ranked(standings(capsys, url, club)) == 0
    with ClubDB.open(url) as db:
        (number,) = db.game_keys()
    code, _out, err = game_cli(capsys, club, url, str(number), "--round", "2", "--table", "5")
    assert code != 0 and "стола 5 в туре 2" in err and "\n" not in err.strip()
    code, out, err = game_cli(capsys, club, url, str(number), "--round", "2", "--table", "2")
    assert code == 0 and "считается" in out, err
    assert ranked(standings(capsys, url, club)) == 10
    # the box sends the game again (the host corrected an extra point): the late link stays
    store = Store(box)
    store.db.execute("INSERT INTO extras (game, seat, points) VALUES (?, 1, 0.5)", (game,))
    assert send_waiting(store, url).updated == 1
    store.close()
    with ClubDB.open(url) as db:
        assert db.tournaments.games("Кубок") == [(number, 2, 2)]
    code, _out, err = game_cli(capsys, club, url, "ffffffff", "--round", "2", "--table", "2")
    assert code != 0 and "нет игры" in err and "\n" not in err.strip()


def test_a_version_4_database_with_two_games_at_a_table_keeps_the_first(
    fresh_database: str, tmp_path: Path, monkeypatch: Any
) -> None:
    from host_device.clubdb import schema

    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    games = [box_game(a, [], (1, 1)), box_game(b, [], (1, 1))]

    def old_link(self: ClubDB, game_id: int, package: Any) -> None:  # version 4's: no check
        self.conn.execute(
            "INSERT INTO tournament_games (game, tournament, round, tbl) VALUES (%s, %s, %s, %s)",
            (game_id, *package.tournament),
        )

    with monkeypatch.context() as old:
        old.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:4])
        old.setattr(schema, "SCHEMA_VERSION", 4)
        old.setattr(ClubDB, "_link", old_link)
        with ClubDB.open(fresh_database) as db:
            db.init()
            for path, game in zip((a, b), games, strict=True):
                store = Store(path)
                assert db.receive(package_of(store, game)) == "stored"
                store.close()
    with ClubDB.open(fresh_database) as db:
        assert db.init() == (4, schema.SCHEMA_VERSION)
        (kept,) = db.tournaments.games("Кубок")
        (annulled,) = db.tournaments.games("Кубок", annulled=True)
        assert kept[0] < annulled[0] and kept[1:] == annulled[1:] == (1, 1)
