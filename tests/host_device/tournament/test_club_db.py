"""A tournament's standings from the club's database (a real PostgreSQL): the
boxes send each game with its round and table, and `tournament standings
--club-db` ranks the games sent as the box's own store does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from host_device.club.package import package_of
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from tests.helpers.outbox import finished_games
from tests.helpers.postgres import fresh_database, postgres_server
from tests.host_device.tournament.test_cli import NAMES, run

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names


@pytest.fixture
def url(fresh_database: str) -> str:
    with ClubDB.open(fresh_database) as db:
        db.init()
    return fresh_database


def standings_text(capsys: Any, box: Path, *more: str) -> str:
    code, out, err = run(capsys, box, "tournament", "standings", "Кубок", *more)
    assert code == 0, err
    return out


def test_the_club_ranks_the_games_the_boxes_sent_as_the_box_does(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    for name in NAMES:
        store.roster.add_player(name)
    games = finished_games(store, 4)
    store.close()
    run(capsys, box, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    for game, (r, t) in zip(games[:3], [(1, 1), (1, 2), (2, 1)], strict=True):
        run(capsys, box, "tournament", "game", "Кубок", str(game), "--round", str(r), "--table", str(t))
    store = Store(box)
    with ClubDB.open(url) as db:
        for game in games:  # the fourth of no tournament
            assert db.receive(package_of(store, game)) == "stored"
        assert [(r, t) for _g, r, t in db.tournament_games("Кубок")] == [(1, 1), (1, 2), (2, 1)]
    store.close()
    own = standings_text(capsys, box)
    assert own.count("\n") == 2 + 20  # the title, the header, twenty players
    assert standings_text(capsys, box, "--club-db", url) == own


def test_a_game_linked_after_it_was_sent_is_linked_when_sent_again(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    for name in NAMES:
        store.roster.add_player(name)
    (game,) = finished_games(store, 1)
    store.close()
    run(capsys, box, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    store = Store(box)
    with ClubDB.open(url) as db:
        assert db.receive(package_of(store, game)) == "stored"
        assert db.tournament_games("Кубок") == []
        run(capsys, box, "tournament", "game", "Кубок", str(game), "--round", "2", "--table", "1")
        assert db.receive(package_of(store, game)) == "updated"  # its seats named from the seating
        ((_club_id, r, t),) = db.tournament_games("Кубок")
        assert (r, t) == (2, 1)
    store.close()
    assert standings_text(capsys, box, "--club-db", url).count("\n") == 2 + 10  # its ten players ranked


def test_a_version_1_database_keeps_its_games_when_init_adds_the_links(
    fresh_database: str, tmp_path: Path, monkeypatch: Any
) -> None:
    from host_device.clubdb import schema
    from host_device.clubdb.errors import WrongSchema

    store = Store(tmp_path / "box.sqlite3")
    (game,) = finished_games(store, 1)
    with monkeypatch.context() as old:
        old.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])
        old.setattr(schema, "SCHEMA_VERSION", 1)
        old.setattr(ClubDB, "_link", lambda self, game_id, package: None)  # a version-1 host-device
        with ClubDB.open(fresh_database) as db:
            db.init()
            assert db.receive(package_of(store, game)) == "stored"
    with ClubDB.open(fresh_database) as db, pytest.raises(WrongSchema, match="club init"):
        db.tournament_games("Кубок")  # this version's boxes wait for init, as for any migration
    with ClubDB.open(fresh_database) as db:
        assert db.init() == (1, 2)
        assert db.counts().games == 1 and db.tournament_games("Кубок") == []
    store.close()
