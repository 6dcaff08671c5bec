"""The private views (host_device/screens/views.py): the console's best move's
box; a seat's phone at the deal and at night, in a vote, after a press that
did not count, with a name kept for the morning."""

from engine import Advance, BestMove, DealRoles, Game, Nominate, Phase, Shot
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.seating import Seating
from host_device.screens.views import Console, console_view, seat_view
from host_device.session.deal import show_roles
from tests.helpers.table import CLASSIC_ROLES, Table


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


# ---------------------------------------------------------------- a seat's phone


def hosted():
    """A host-mode runtime on the virtual clock, followed by a console (as ``run --web`` has it)."""
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    return runtime, Console(runtime)


def run_until(runtime, moment):
    while not moment(runtime):
        t = runtime.sched.next_time()
        assert t is not None and t < 3600, "the moment never came"
        runtime.sched.run_due(t)


def phone(console, seat):
    return seat_view(console.runtime, seat, console.seating, console.phones)


def test_at_the_deal_a_phone_is_dark_and_has_its_role_from_its_turn_on():
    runtime, console = hosted()
    dealt = DealRoles(roles=tuple(sorted(CLASSIC_ROLES.items())))
    show_roles(runtime, dealt, lambda: runtime.handle(dealt))
    run_until(runtime, lambda rt: rt.leds.get(3, "off") != "off")  # the Don's turn: his LED blinks fast
    don, next_one = phone(console, 3), phone(console, 4)
    assert don["dark"] and don["led"] == "off"  # never lit on the phone: the page spells it, on a hold
    assert don["role"] == "Ваша роль: Дон" and next_one["role"] is None
    assert set(don) == set(next_one)
    run_until(runtime, lambda rt: rt.leds.get(3, "off") == "off")
    assert phone(console, 3)["role"] == "Ваша роль: Дон"  # kept after his turn
    run_until(runtime, lambda rt: rt.game.phase is Phase.SPEECH)
    speaker = runtime.game.state.speaker
    view = phone(console, speaker)
    assert not view["dark"] and view["led"] == "on"  # by day the LED is the table's: shown
    assert phone(console, 3)["role"] == "Ваша роль: Дон"


def test_a_phone_in_a_vote_shows_its_candidate_and_when_the_window_is_open():
    runtime, console = hosted()
    runtime.handle(DealRoles(roles=tuple(sorted(CLASSIC_ROLES.items()))))
    run_until(runtime, lambda rt: rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1)
    assert phone(console, 9)["vote"] is None and console_view(console)["vote"] is None
    assert runtime.handle(Nominate(seat=1, target=4)) and runtime.handle(Advance())
    assert runtime.handle(Nominate(seat=2, target=5))  # day 1: a lone candidate is not voted on
    run_until(runtime, lambda rt: rt.game.phase is Phase.VOTE)
    assert phone(console, 9)["vote"] == {"candidate": 4, "open": False}  # the question is being said
    runtime.sched.run_due(runtime.window[0])
    assert phone(console, 9)["vote"] == {"candidate": 4, "open": True}
    # the console has it too, in the view whose step a whole-table click names
    view = console_view(console)
    assert view["vote"] == {"candidate": 4, "open": True} and view["window"] == runtime.step


def test_a_press_that_did_not_count_says_why_on_its_phone_for_that_step():
    runtime, console = hosted()
    runtime.handle(DealRoles(roles=tuple(sorted(CLASSIC_ROLES.items()))))
    run_until(runtime, lambda rt: rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1)
    assert runtime.sched.now < runtime.timer[0]  # «Игрок номер 1, ваша минута» is being said
    assert not runtime.press(1)  # a reflex: the own-press grace keeps his speech
    assert runtime.game.state.speaker == 1
    refused = phone(console, 1)["refused"]
    assert refused == "Нажатие не засчитано: слишком рано — речь только началась, нажмите ещё раз"
    assert phone(console, 2)["refused"] is None  # his phone alone
    run_until(runtime, lambda rt: rt.sched.now > rt.timer[0] + 1.5)
    assert runtime.press(1)  # again, now: his speech ends
    assert runtime.game.state.speaker == 2 and phone(console, 1)["refused"] is None


def test_a_name_picked_at_night_shows_on_its_phone_as_kept_for_the_morning():
    _, console = hosted()
    console.seating = Seating(enabled=True, held={4: "Глеб"})
    assert phone(console, 4)["held"] == "Глеб" and phone(console, 5)["held"] is None


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
