"""A box's store for a test, and phrases that each last one second.

``store`` is a fixture (tests/conftest.py offers it to every test): a
Store in the test's tmp_path, closed after it. ``one_second`` is the
durations function ``simulate`` takes: every phrase lasts one second.
``almost_over(path)``: a host-mode game a few seconds from its end, to resume;
``stopped_in(path, stop, extra)``: the example game stopped where a test wants it;
``big_store(path, games)``: a store of many finished games, made fast."""

import pytest

from host_device.store import Store


def one_second(key, slots):
    return 1.0


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    yield store
    store.close()


def almost_over(path):
    """The example full game simulated (game 1), and as game 2 the same game played in host
    mode and stopped at its last vote's announcement (day 3: 8, the lone candidate, then leaves
    and red wins); returns game 2's number."""
    from engine import Game, Phase
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from tests.helpers.paths import ROOT

    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    game = Game("classic")
    gid = store.games.new_game("classic", "host")
    for seq, (_, t, inp) in enumerate(store.games.inputs(1), 1):
        store.games.append(gid, seq, t, inp)
        game.handle(inp)
        if game.phase is Phase.VOTE_ANNOUNCE and game.state.day == 3:
            break
    store.close()
    return gid


def big_store(path, games=1000):
    """A store of ``games`` finished games, made in a second or two: the example
    full game simulated once (thirty players in the roster, ten seated), then
    copied in SQL, each copy a day later, with other players seated (what
    bench/club_pages.py makes game by game, faster)."""
    import random

    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from tests.helpers.paths import ROOT

    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    players = [store.roster.add_player(f"Игрок {n}").id for n in range(1, 31)]
    pick = random.Random(7)
    with store.connection.transaction("копии игры") as db:
        db.execute("DELETE FROM seats")
        db.execute(
            "WITH RECURSIVE n(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM n WHERE k < ?) "
            "INSERT INTO games (id, started_at, preset, mode, settings, finished_at, winner, days, uuid) "
            "SELECT k, strftime('%Y-%m-%dT%H:%M:%S+00:00', g.started_at, printf('+%d days', k)), g.preset, g.mode, g.settings, "
            "strftime('%Y-%m-%dT%H:%M:%S+00:00', g.finished_at, printf('+%d days', k)), g.winner, g.days, lower(hex(randomblob(16))) "
            "FROM n, games g WHERE g.id = 1",
            (games,),
        )
        db.execute(
            "INSERT INTO inputs (game, seq, t, input, undone) "
            "SELECT g.id, i.seq, i.t, i.input, i.undone FROM games g, inputs i WHERE g.id > 1 AND i.game = 1"
        )
        db.executemany(
            "INSERT INTO seats (game, seat, player) VALUES (?, ?, ?)",
            [
                (game, seat, player)
                for game in range(1, games + 1)
                for seat, player in enumerate(pick.sample(players, 10), 1)
            ],
        )
    store.close()


def stopped_in(path, stop, extra=lambda game: ()):
    """The example full game simulated (game 1), and as game 2 the same game played in host mode
    up to the first input after which ``stop(game)`` holds, then ``extra(game)``'s inputs: the
    store of a game killed there. Returns game 2's number and the game as stored."""
    from engine import Game
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from tests.helpers.paths import ROOT

    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    game = Game("classic")
    gid = store.games.new_game("classic", "host")
    seq = 0
    for _, t, inp in store.games.inputs(1):
        seq += 1
        store.games.append(gid, seq, t, inp)
        game.handle(inp)
        if stop(game):
            break
    for inp in extra(game):
        seq += 1
        store.games.append(gid, seq, 0.0, inp)
        game.handle(inp)
    store.close()
    return gid, game
