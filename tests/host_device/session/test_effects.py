"""The session's effects: which timers open a listening window, and with which patterns."""

from types import SimpleNamespace

import pytest

from engine import Game, Phase, Shot
from host_device.session.effects import Effects
from tests.helpers.table import Table


class Listener:
    def __init__(self):
        self.opened = []

    def open_window(self, in_round=False, best_move=False):
        self.opened.append("round" if in_round else "best_move" if best_move else "speech")

    def close_window(self):
        pass


def opened_by(purpose, game):
    due = []
    runtime = SimpleNamespace(recorders=[], step_hooks=[], game=game)
    sched = SimpleNamespace(at=lambda t, fn: due.append(fn))
    listener = Listener()
    effects = Effects(runtime, sched, None, None, None, None, listener, None)
    effects.carry_out({"type": "timer", "t": 3.0, "purpose": purpose, "seconds": 10})
    for fn in due:
        fn()
    return listener.opened


@pytest.mark.parametrize(
    ("purpose", "opened"),
    [("speech", ["speech"]), ("nomination", ["round"]), ("justification", ["speech"]), ("last_word", [])],
)
def test_the_listener_hears_speeches_the_citys_round_and_justifications(purpose, opened):
    """The city's round and a justification («беру золотую минуту») are heard
    too; the round with its own patterns («Игрок номер семь»). A last word
    without a best move is not heard."""
    assert opened_by(purpose, Game("classic")) == opened


def test_the_last_word_that_has_a_best_move_is_heard_with_its_patterns():
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    assert opened_by("last_word", table.game) == ["best_move"]
    table.advance()  # his last word is over: a speech is heard with the speech's patterns
    assert opened_by("speech", table.game) == ["speech"]
