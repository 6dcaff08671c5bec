"""Finished games in a box's store, for the club database's tests: the
example scripts that end, simulated on virtual time, with players seated."""

from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

FINISHING = ("classic-full-game.json", "event-game.json", "city-game.json")


def play(store, script="classic-full-game.json"):
    """One example game simulated into ``store``: its id there."""
    before = {row.id for row in store.games.all()}
    simulate(load_script(ROOT / "examples" / script), one_second, store=store)
    (game,) = {row.id for row in store.games.all()} - before
    return game


def seat_all(store, game, players):
    """``players`` (roster ids) seated from seat 1 on."""
    for seat, pid in enumerate(players, start=1):
        store.roster.seat_player(game, seat, pid)
