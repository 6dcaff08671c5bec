"""Three boxes, one club: three stores play the example games at once
(players seated, some of them shared across the boxes by UUID) and each
sends every finished game to the club's database as it ends. The club's
database then holds every game once, and its leaderboard (points, Elo
ratings replayed in time order) and a player's page equal those computed
from the three stores' records merged, ordered by (started_at, uuid)."""

import dataclasses
import random
import threading

import pytest

from host_device.club.build import records
from host_device.club.package import package_of
from host_device.club.scoring import load_table
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from host_device.web.board_html import board_html, player_html
from host_device.web.club_data import Filters, leaderboard, player_page
from tests.helpers.clubdb import FINISHING, play
from tests.helpers.postgres import fresh_database, postgres_server

pytestmark = pytest.mark.slow  # most of this file's tests are slow (CONTRIBUTING.md)

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names
ROUNDS = 2  # each box plays every finishing example this many times
SHARED = [f"Клубный {n}" for n in range(1, 13)]  # on every box's roster, the same UUIDs


def box_games(path, shared_rows, own, url, seed, sent, errors):
    """One box: its store, its roster (the shared players and its own), its games played and sent."""
    try:
        store = Store(path)
        store.roster.import_players(shared_rows)
        ids = [row[0] for row in shared_rows] + [store.roster.add_player(name).id for name in own]
        pick = random.Random(seed)
        with ClubDB.open(url) as club:
            for _ in range(ROUNDS):
                for script in FINISHING:
                    game = play(store, script)
                    seats = store.games.preset(game).seats
                    for seat, pid in enumerate(pick.sample(ids, min(seats, len(ids))), start=1):
                        store.roster.seat_player(game, seat, pid)
                    sent.append(club.receive(package_of(store, game)))
        store.close()
    except Exception as exc:  # the test names it
        errors.append(exc)


def test_three_boxes_make_one_club_record(tmp_path, fresh_database):
    with ClubDB.open(fresh_database) as club:
        club.init()
    founder = Store(tmp_path / "founder.sqlite3")
    shared = [(founder.roster.add_player(name).id, name, None, None, None) for name in SHARED]
    founder.close()
    paths = [tmp_path / f"box{n}.sqlite3" for n in range(3)]
    sent, errors = [], []
    threads = [
        threading.Thread(
            target=box_games,
            args=(path, shared, [f"Гость {n}-{k}" for k in range(4)], fresh_database, n, sent, errors),
        )
        for n, path in enumerate(paths)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    total = 3 * ROUNDS * len(FINISHING)
    assert sent == ["stored"] * total

    stores = [Store(path, create=False) for path in paths]
    try:
        with ClubDB.open(fresh_database) as club:
            for store in stores:  # everything again: nothing doubled
                assert {club.receive(package_of(store, r.id)) for r in store.games.all()} == {"same"}
            counts = club.counts()
            assert (counts.games, counts.finished, counts.boxes) == (total, total, 3)
            assert counts.players == len(SHARED) + 3 * 4
            from_club = club.records()
        club_ids = {r.uuid: r.id for r in from_club}
        assert len(club_ids) == total and len(set(club_ids.values())) == total
        merged = sorted(
            (dataclasses.replace(r, id=club_ids[r.uuid]) for store in stores for r in records(store)),
            key=lambda r: (r.started_at, r.uuid),
        )
    finally:
        for store in stores:
            store.close()
    assert from_club == merged  # every game once, the same records, the same order

    table = load_table(None)
    board = leaderboard(from_club, table, Filters())
    assert board == leaderboard(merged, table, Filters())
    assert board_html(board) == board_html(leaderboard(merged, table, Filters()))
    assert board.games == total and len(board.rows) == len(SHARED) + 3 * 4
    assert len({row.rating for row in board.rows}) > 1  # the ratings did move
    shared_one = shared[0][0]
    page = player_page(from_club, shared_one, table)
    assert page == player_page(merged, shared_one, table)
    assert player_html(page, {}) == player_html(player_page(merged, shared_one, table), {})
    boxes_played = {r.uuid for r in from_club if any(s.player == shared_one for s in r.seats)}
    assert len(page.games) == len(boxes_played) > ROUNDS  # he played at more than one box
