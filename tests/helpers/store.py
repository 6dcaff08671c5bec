"""A box's store for a test, and phrases that each last one second.

``store`` is a fixture (tests/conftest.py offers it to every test): a
Store in the test's tmp_path, closed after it. ``one_second`` is the
durations function ``simulate`` takes: every phrase lasts one second.
``almost_over(path)``: a host-mode game a few seconds from its end, to resume;
``stopped_in(path, stop, extra)``: the example game stopped where a test wants it."""

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
