"""The host's console view (host_device/screens/views.py console_view): the best move's box."""

from engine import Advance, BestMove, Game, Phase, Shot
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.views import Console, console_view
from tests.helpers.table import Table


def test_the_console_offers_the_best_move_in_the_first_night_victims_last_word_only():
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    for inp in table.game.record:
        assert runtime.handle(inp)
    console = Console(runtime)
    view = console_view(console)
    assert (view["best_move_due"], view["best_move"]) == (True, [])
    assert runtime.handle(BestMove(seat=1, seats=(3, 5, 8)))
    assert console_view(console)["best_move"] == [3, 5, 8]
    assert runtime.handle(Advance())
    view = console_view(console)
    assert (view["best_move_due"], view["best_move"]) == (False, [3, 5, 8])  # said aloud: public


def test_the_host_mode_console_offers_to_withdraw_the_devices_foul_while_it_is_the_last_input():
    from engine import Foul
    from host_device.config import Strictness
    from host_device.listening.intents import Intent

    table = Table()
    table.until(Phase.SPEECH, seat=1)
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings(fouls=Strictness.FOUL))
    for inp in table.game.record:
        assert runtime.handle(inp)
    console = Console(runtime)
    assert console_view(console)["withdraw_foul"] is None
    assert runtime.heard(Intent("forbidden", word="клянусь"))
    assert console_view(console)["withdraw_foul"] == "фол игроку 1: «клянусь» (устройство)"
    assert runtime.handle(Foul(seat=2))  # the host's own: not the device's to withdraw
    assert console_view(console)["withdraw_foul"] is None
