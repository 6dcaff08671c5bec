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
        assert [(r, t) for _g, r, t in db.tournaments.games("Кубок")] == [(1, 1), (1, 2), (2, 1)]
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
        assert db.tournaments.games("Кубок") == []
        run(capsys, box, "tournament", "game", "Кубок", str(game), "--round", "2", "--table", "1")
        assert db.receive(package_of(store, game)) == "updated"  # its seats named from the seating
        ((_club_id, r, t),) = db.tournaments.games("Кубок")
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
        db.tournaments.games("Кубок")  # this version's boxes wait for init, as for any migration
    with ClubDB.open(fresh_database) as db:
        assert db.init() == (1, schema.SCHEMA_VERSION)
        assert db.counts().games == 1 and db.tournaments.games("Кубок") == []
    store.close()


def _organiser(tmp_path: Path, capsys: Any, url: str) -> tuple[Path, list[list[list[str]]]]:
    """A tournament of twenty players over three rounds created on the organiser's machine and
    published in the club's database; its seating as player ids by round and table."""
    club = tmp_path / "club.sqlite3"
    store = Store(club)
    for name in NAMES:
        store.roster.add_player(name)
    store.close()
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    code, out, err = run(capsys, club, "tournament", "publish", "Кубок", "--club-db", url)
    assert code == 0, err
    assert "рассадка турнира «Кубок» (3 тура) в базе клуба" in out
    store = Store(club)
    seating = [[list(t) for t in r] for r in store.tournaments.seating(store.tournaments.get("Кубок").id)]
    store.close()
    return club, seating


def test_a_box_without_the_tournament_takes_its_table_from_the_club_database(
    url: str, tmp_path: Path, capsys: Any, monkeypatch: Any, builtin_pack: Any
) -> None:
    import io

    from host_device.runtime.clock import VirtualClock
    from host_device.session.host import Host
    from tests.helpers.host import args

    _club, seating = _organiser(tmp_path, capsys, url)
    box = tmp_path / "box.sqlite3"  # a box's own store: no tournament, no players
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    options = args(store=str(box), tournament=("Кубок", 2, 3), club_db=url)
    host = Host(options, clock=VirtualClock(limit=3600))
    assert host.run() == 0
    assert (
        "Стол 2 · игра 3: турнир «Кубок», места названы по рассадке из базы клуба" in capsys.readouterr().out
    )
    store = Store(box)
    (game,) = [g.id for g in store.games.all()]
    assert [p.id for _s, p in sorted(store.roster.seating(game).items())] == seating[2][1]
    assert store.tournaments.link_of(game) == ("Кубок", 3, 2)  # sent with it: the club ranks it
    store.close()
    # the box's next game: its store has the tournament now (its games only), the table still
    # comes from the club's database
    host = Host(args(store=str(box), tournament=("Кубок", 1, 2), club_db=url), clock=VirtualClock(limit=3600))
    assert host.run() == 0
    assert (
        "Стол 1 · игра 2: турнир «Кубок», места названы по рассадке из базы клуба" in capsys.readouterr().out
    )
    store = Store(box)
    second = max(g.id for g in store.games.all())
    assert [p.id for _s, p in sorted(store.roster.seating(second).items())] == seating[1][0]
    # a tournament box asks once, before the game, and hands the game the table it found
    from host_device.tournament.playing import table_source
    from host_device.tournament.seating_file import FileTable

    found = table_source(store, ("  Кубок ", 1, 3), url)  # the name's spaces as typed
    assert isinstance(found, FileTable) and found.named_by == "по рассадке из базы клуба"
    assert [pid for pid, _name in found.players] == seating[2][0]
    store.close()


def test_a_box_that_cannot_reach_the_database_says_so_in_one_line_and_starts_no_game(
    url: str, tmp_path: Path, capsys: Any, builtin_pack: Any
) -> None:
    from host_device.cli.main import main

    box = tmp_path / "box.sqlite3"
    gone = "postgresql://nobody@127.0.0.1:9/none"  # nothing listens there
    argv = ["run", "--panel", "mock", "--audio", "null", "--store", str(box)]
    code = main([*argv, "--tournament", "Кубок", "--table", "1", "--round", "1", "--club-db", gone])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "рассадка турнира «Кубок» не получена из базы клуба" in err and "--tournament-file" in err
    assert Store(box).games.all() == []
    # reachable, but nothing published under that name: said, with both ways out
    code = main([*argv, "--tournament", "Лига", "--table", "1", "--round", "1", "--club-db", url])
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1, err
    assert "в базе клуба рассадки «Лига» тоже нет" in err and "tournament publish" in err
    # a typo of a published name: the names published are listed
    with ClubDB.open(url) as db:
        db.tournaments.publish(
            "Осенний кубок", {"what": "seating", "tournament": "Осенний кубок", "rows": []}
        )
    code = main([*argv, "--tournament", "Осений кубок", "--table", "1", "--round", "1", "--club-db", url])
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1, err
    assert "опубликованы: «Осенний кубок» — проверьте название" in err and "publish 'Осений" not in err


def test_seating_again_keeps_the_rounds_the_boxes_played_and_publishes_the_rest(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    club, seating = _organiser(tmp_path, capsys, url)
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    (game,) = finished_games(store, 1)
    for seat, pid in enumerate(seating[0][0], 1):  # round 1, table 1, played on the box and sent
        store.roster.import_players([(pid, f"п{seat}", None, None, None)])
        store.roster.seat_player(game, seat, pid)
    store.tournaments.link_game(game, store.tournaments.named("Кубок"), 1, 1)
    with ClubDB.open(url) as db:
        assert db.receive(package_of(store, game)) == "stored"
    store.close()
    code, out, err = run(capsys, club, "tournament", "seat", "Кубок", "--leave", NAMES[0], "--club-db", url)
    assert code == 0, err
    assert "тур 1 сыгран или начат и не тронут" in out and "рассадка турнира «Кубок»" in out
    with ClubDB.open(url) as db:
        published = db.tournaments.seating_of("Кубок")
    assert published is not None
    rows = published["rows"]
    first = [r["id"] for r in rows if (r["тур"], r["стол"]) == (1, 1)]
    assert first == seating[0][0]  # the round played is as it was
    later = {r["id"] for r in rows if r["тур"] > 1}
    store = Store(club)
    gone = store.roster.player(NAMES[0]).id
    store.close()
    assert gone not in later  # the new seating, published


def test_club_web_shows_the_venue_screen_from_the_club_database(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    """The seating published, a round-1 game a box sent: /tournament/Кубок of the club's pages
    shows round 2's tables by name and the standings; a re-published seating shows at once;
    a name nothing is published under is one line."""
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from host_device.web.club_pages import club_app
    from host_device.web.club_worker import ClubPages

    club, seating = _organiser(tmp_path, capsys, url)
    store = Store(club)
    names = {p.id: p.name for p in store.roster.players()}
    store.close()
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    games = finished_games(store, 2)
    for game, players, table in zip(games, seating[0], (1, 2), strict=True):  # round 1, both tables
        store.roster.import_players([(pid, names[pid], None, None, None) for pid in players])
        for seat, pid in enumerate(players, 1):
            store.roster.seat_player(game, seat, pid)
        store.tournaments.link_game(game, store.tournaments.named("Кубок"), 1, table)
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages)) as client, ClubDB.open(url) as db:
        assert db.receive(package_of(store, games[0])) == "stored"
        during = client.get("/tournament/Кубок").text
        assert "Тур 1 из 3" in during  # table 2 still plays round 1
        assert db.receive(package_of(store, games[1])) == "stored"
        screen = client.get("/tournament/Кубок")
        assert screen.status_code == 200, screen.text
        assert "Тур 2 из 3" in screen.text and "Таблица после тура 1" in screen.text  # between rounds
        for t, players in enumerate(seating[1], 1):
            shown = screen.text.split(f"<h3>Стол {t}</h3>")[1].split("</ol>")[0]
            assert [item.split("</b> ")[1] for item in shown.split("</li>")[:-1]] == [
                names[p] for p in players
            ]
        assert "по таблице очков клуба" in screen.text and screen.text.count("<tr>") == 1 + 20
        # the organiser seats again (a player leaves): published, and the screen has it at once
        code, _out, err = run(
            capsys, club, "tournament", "seat", "Кубок", "--leave", NAMES[0], "--club-db", url
        )
        assert code == 0, err
        again = client.get("/tournament/Кубок").text
        tables = again.split('<div class="tables">')[1].split("</div>")[0]
        assert NAMES[0] not in tables and NAMES[0] in screen.text.split('<div class="tables">')[1]
        assert "Не играют в этом туре: " in again  # nineteen players: one table, nine sit out
        missing = client.get("/tournament/Лига")
        assert missing.status_code == 404 and "турнира «Лига» нет в базе клуба" in missing.text
        spaced = client.get("/tournament/Кубок ")  # the name's spaces as typed: the same tournament
        assert spaced.status_code == 200 and "Тур 2 из 3" in spaced.text
    store.close()


def test_a_round_a_box_has_begun_is_kept_by_a_new_seating_and_shown_by_the_venue_screen(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    """Round 1 played at both tables and sent; a box takes table 2 of round 2 from the published
    seating (its game not finished): the organiser's `seat --club-db` keeps rounds 1-2 (round 2
    is under way there: re-seating it would put a player at two tables), and the venue screen
    shows round 2's seating first, not «Таблица после тура 1»."""
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from host_device.tournament.playing import table_source
    from host_device.web.club_pages import club_app
    from host_device.web.club_worker import ClubPages

    club, seating = _organiser(tmp_path, capsys, url)
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    games = finished_games(store, 2)
    for game, players, table in zip(games, seating[0], (1, 2), strict=True):
        store.roster.import_players([(pid, f"и{pid[:4]}", None, None, None) for pid in players])
        for seat, pid in enumerate(players, 1):
            store.roster.seat_player(game, seat, pid)
        store.tournaments.link_game(game, store.tournaments.named("Кубок"), 1, table)
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages)) as client, ClubDB.open(url) as db:
        for game in games:
            assert db.receive(package_of(store, game)) == "stored"
        assert "Таблица после тура 1" in client.get("/tournament/Кубок").text  # between rounds
        assert db.tournaments.round_begun("Кубок") == 0
        table_source(store, ("Кубок", 2, 2), url)  # a box takes its table of round 2
        assert db.tournaments.round_begun("Кубок") == 2
        during = client.get("/tournament/Кубок").text
        assert "Тур 2 из 3" in during and "Таблица после тура 1" not in during
        assert during.index('class="page seating"') < during.index('class="page ranks"')  # the seating first
    store.close()
    code, out, err = run(capsys, club, "tournament", "seat", "Кубок", "--leave", NAMES[0], "--club-db", url)
    assert code == 0, err
    assert "туры 1–2 сыграны или начаты и не тронуты" in out
    with ClubDB.open(url) as db:
        published = db.tournaments.seating_of("Кубок")
    assert published is not None
    second = {t: [r["id"] for r in published["rows"] if (r["тур"], r["стол"]) == (2, t)] for t in (1, 2)}
    assert [second[1], second[2]] == seating[1]  # round 2 as the box took it
    gone = Store(club).roster.player(NAMES[0]).id
    assert gone not in {r["id"] for r in published["rows"] if r["тур"] == 3}


@pytest.mark.parametrize("bad", ['"a string"', '{"rows": 5}', "[1, 2]"])
def test_a_spoiled_published_seating_is_one_line_at_the_box_and_on_the_venue_screen(
    url: str, tmp_path: Path, capsys: Any, bad: str
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import psycopg
    from starlette.testclient import TestClient

    from host_device.base.errors import HostDeviceError
    from host_device.tournament.playing import table_source
    from host_device.web.club_pages import club_app
    from host_device.web.club_worker import ClubPages

    club, _seating = _organiser(tmp_path, capsys, url)
    with psycopg.connect(url, autocommit=True) as conn:  # a hand edit gone wrong
        conn.execute("UPDATE tournament_seating SET seating = %s::jsonb", (bad,))
    store = Store(tmp_path / "box.sqlite3")
    with pytest.raises(HostDeviceError) as refused:
        table_source(store, ("Кубок", 1, 1), url)
    store.close()
    line = str(refused.value)
    assert "\n" not in line and "испорчена" in line and "tournament publish" in line
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages), raise_server_exceptions=False) as client:
        screen = client.get("/tournament/Кубок")
    assert screen.status_code >= 400 and "испорчена" in screen.text and "Traceback" not in screen.text
    assert '<meta http-equiv="refresh" content="20">' in screen.text  # the TV reads itself again
    # the way out the line names works: publishing again replaces it, and re-seating works too
    code, _out, err = run(capsys, club, "tournament", "publish", "Кубок", "--club-db", url)
    assert code == 0, err
    code, _out, err = run(capsys, club, "tournament", "seat", "Кубок", "--club-db", url)
    assert code == 0, err
    with ClubDB.open(url) as db:
        assert db.tournaments.seating_of("Кубок") is not None


def test_a_seating_that_changes_a_round_the_boxes_played_is_not_published(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    """Re-seated without the club's database (the organiser's store knows no box's game), round 1
    is seated anew; publishing that is refused in one line and the database keeps its seating;
    the same re-seating with the database publishes."""
    club, seating = _organiser(tmp_path, capsys, url)
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    (game,) = finished_games(store, 1)
    for seat, pid in enumerate(seating[0][0], 1):
        store.roster.import_players([(pid, f"п{seat}", None, None, None)])
        store.roster.seat_player(game, seat, pid)
    store.tournaments.link_game(game, store.tournaments.named("Кубок"), 1, 1)
    with ClubDB.open(url) as db:
        assert db.receive(package_of(store, game)) == "stored"
        before = db.tournaments.seating_of("Кубок")
    store.close()
    code, out, _err = run(capsys, club, "tournament", "seat", "Кубок", "--leave", NAMES[0])
    assert code == 0 and "рассажены все туры (3)" in out  # this store knows of no game
    code, _out, err = run(capsys, club, "tournament", "publish", "Кубок", "--club-db", url)
    assert code != 0 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "тур 1 турнира «Кубок» уже сыгран или начат, а в этой рассадке он другой" in err
    assert "не опубликовано" in err and "--club-db" in err
    with ClubDB.open(url) as db:
        assert db.tournaments.seating_of("Кубок") == before
    # with the database: round 1 as the boxes played it (the database's), the rest seated anew
    code, out, err = run(capsys, club, "tournament", "seat", "Кубок", "--club-db", url)
    assert code == 0 and "тур 1 сыгран или начат и не тронут" in out and "рассадка турнира «Кубок»" in out, (
        err
    )
    with ClubDB.open(url) as db:
        after = db.tournaments.seating_of("Кубок")
    assert after is not None
    assert [r for r in after["rows"] if r["тур"] == 1] == [r for r in before["rows"] if r["тур"] == 1]


def test_the_venue_screen_of_an_unreachable_database_says_so_and_reads_itself_again() -> None:
    """A hall TV on /tournament/NAME while the club's database is down: one line, and the page
    reloads itself (the usual screen does every 20 s), so it comes back with the database."""
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from host_device.web.club_pages import club_app
    from host_device.web.club_worker import ClubPages

    gone = "postgresql://nobody@127.0.0.1:9/none"  # nothing listens there
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=gone)
    with TestClient(club_app(pages), raise_server_exceptions=False) as client:
        screen = client.get("/tournament/Кубок")
        other = client.get("/club")
    assert screen.status_code == 503 and "База клуба недоступна" in screen.text and "127.0.0.1" not in screen.text, screen.text
    assert '<meta http-equiv="refresh" content="20">' in screen.text
    assert other.status_code == 503 and "http-equiv" not in other.text  # a page someone reads: no reload


def test_a_published_seating_without_a_round_begun_is_one_line_and_keeps_this_store(
    url: str, tmp_path: Path, capsys: Any
) -> None:
    """A hand edit took round 2's rows out of the published seating while a box had begun it:
    `seat --club-db` says so in one line and writes nothing (it re-seated round 2 and said it
    was kept)."""
    import psycopg

    club, _seating = _organiser(tmp_path, capsys, url)
    box = Store(tmp_path / "box.sqlite3")
    from host_device.tournament.playing import table_source

    table_source(box, ("Кубок", 1, 2), url)  # a box takes table 1 of round 2
    box.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE tournament_seating SET seating = jsonb_set(seating, '{rows}', "
            "(SELECT jsonb_agg(r) FROM jsonb_array_elements(seating->'rows') r WHERE (r->>'тур')::int <> 2))"
        )
    store = Store(club)
    before = store.tournaments.seating(store.tournaments.get("Кубок").id)
    store.close()
    code, _out, err = run(capsys, club, "tournament", "seat", "Кубок", "--leave", NAMES[0], "--club-db", url)
    assert code != 0 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "тур 2 начат, но в ней он не полон" in err
    store = Store(club)
    assert store.tournaments.seating(store.tournaments.get("Кубок").id) == before  # nothing written
    assert NAMES[0] in [p.name for p in store.roster.players()]
    store.close()
