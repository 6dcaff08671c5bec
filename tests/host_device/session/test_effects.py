"""The session's effects: which timers open a listening window, and with which patterns."""

from types import SimpleNamespace

from engine import Advance, DealRoles, Game, Nominate, Phase, Role, Shot, city_preset
from host_device.runtime.timeline import TimerStarted
from host_device.session.effects import Effects
from tests.helpers.table import Table


class Listener:
    def __init__(self):
        self.opened = []

    def open_window(self, listens):
        self.opened.append(listens.value)

    def close_window(self):
        pass


def opened_by(purpose, game):
    due = []
    runtime = SimpleNamespace(recorders=[], step_hooks=[], game=game)
    sched = SimpleNamespace(at=lambda t, fn: due.append(fn))
    listener = Listener()
    effects = Effects(runtime, sched, None, None, None, None, listener, None)
    effects.carry_out(TimerStarted(t=3.0, seconds=10, purpose=purpose))
    for fn in due:
        fn()
    return listener.opened


def city_until(phase):
    game = Game(city_preset(10))
    roles = {2: Role.MAFIA, 5: Role.MAFIA, 9: Role.MAFIA, 4: Role.SHERIFF, 6: Role.DOCTOR, 7: Role.LOVER}
    game.handle(DealRoles(roles=tuple(sorted(roles.items()))))
    while game.phase is not Phase.NOMINATION:
        game.handle(Advance())
    game.handle(Nominate(seat=1, target=5))
    while game.phase is not phase:
        game.handle(Advance())
    return game


def test_the_listener_hears_speeches_the_citys_round_and_justifications():
    """The city's round and a justification («беру золотую минуту») are heard
    too; the round with its own patterns («Игрок номер семь»). A last word
    without a best move is heard for the forbidden words and its end
    (``floor``, issue 39); a timer of a step already over is not."""
    table = Table()
    table.until(Phase.SPEECH)
    assert opened_by("speech", table.game) == ["speech"]
    assert opened_by("nomination", city_until(Phase.NOMINATION)) == ["round"]
    assert opened_by("justification", city_until(Phase.JUSTIFICATION)) == ["justification"]
    assert opened_by("tie_speech", table.game) == []  # not this step's timer
    table.day_speeches({1: 4, 2: 7})
    table.advance()
    table.vote([1, 2, 3, 5, 6, 8, 9], [])  # 4 leaves: his last word has no best move
    assert table.state.phase is Phase.LAST_WORD
    assert opened_by("last_word", table.game) == ["floor"]


def test_the_last_word_that_has_a_best_move_is_heard_with_its_patterns():
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    assert opened_by("last_word", table.game) == ["best_move"]
    table.advance()  # his last word is over: a speech is heard with the speech's patterns
    assert opened_by("speech", table.game) == ["speech"]
