"""The session's effects: which timers open a listening window, and with which patterns."""

from types import SimpleNamespace

import pytest

from host_device.session.effects import Effects


class Listener:
    def __init__(self):
        self.opened = []

    def open_window(self, in_round=False):
        self.opened.append(in_round)

    def close_window(self):
        pass


@pytest.mark.parametrize(
    ("purpose", "opened"),
    [("speech", [False]), ("nomination", [True]), ("justification", [False]), ("last_word", [])],
)
def test_the_listener_hears_speeches_the_citys_round_and_justifications(purpose, opened):
    """The city's round and a justification («беру золотую минуту») are heard
    too; the round with its own patterns («Игрок номер семь»)."""
    due = []
    runtime = SimpleNamespace(recorders=[], step_hooks=[])
    sched = SimpleNamespace(at=lambda t, fn: due.append(fn))
    listener = Listener()
    effects = Effects(runtime, sched, None, None, None, None, listener, None)
    effects.carry_out({"type": "timer", "t": 3.0, "purpose": purpose, "seconds": 10})
    for fn in due:
        fn()
    assert listener.opened == opened
