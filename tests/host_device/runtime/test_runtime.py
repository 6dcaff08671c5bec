"""The runtime on virtual time: whole games through ``simulate``, the timing
rules asserted on the timeline, and the night's timing independent of secrets."""

import json
import re

import pytest

from engine import DealRoles, Game, Phase, Role
from host_device.cli.main import main
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.scripts.play import play
from host_device.scripts.script import load_script, parse_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT, SCRIPTS

PHRASE_S = 1.5  # every phrase lasts this long in these tests


def fixed(key, slots):
    return PHRASE_S


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_play_and_simulate_agree(path, builtin_pack):
    script = load_script(path)
    result, runtime = simulate(script)  # real phrase lengths from the built-in pack
    assert result == play(script)
    times = [e["t"] for e in runtime.timeline.as_dicts()]
    assert times == sorted(times) and times[-1] > 300  # a whole game's rhythm, minutes of virtual time


def timeline(script_dict, settings=None):
    result, runtime = simulate(parse_script(script_dict), fixed, settings)
    return result, runtime.timeline.as_dicts()


ROLES = {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}


def test_time_is_up_exactly_sixty_seconds_after_the_speech_phrase_ended():
    _, tl = timeline({"roles": ROLES, "days": [{"speeches": {}}]})
    said = next(e for e in tl if e["type"] == "say" and e["key"] == "speech" and e["seat"] == 3)
    ended = said["t"] + PHRASE_S
    timer = [e for e in tl if e["type"] == "timer" and e["t"] == pytest.approx(ended)]
    assert timer and timer[0]["seconds"] == 60
    time_up = next(e["t"] for e in tl if e["type"] == "say" and e["key"] == "time_up" and e["t"] > ended)
    assert time_up == pytest.approx(ended + 60)
    tones = [e["t"] for e in tl if e["type"] == "tone" and ended < e["t"] < time_up]
    assert tones == [pytest.approx(ended + 50)]


def test_event_speeches_are_thirty_seconds():
    roles = {"2": "mafia", "7": "mafia", "11": "mafia", "4": "commissar"}
    _, tl = timeline({"preset": "event", "roles": roles, "days": [{}]})
    timers = {e["seconds"] for e in tl if e["type"] == "timer" and e["purpose"] == "speech"}
    assert timers == {30}


def test_a_nomination_is_accepted_within_a_second_and_blinks_the_seat():
    _, tl = timeline({"roles": ROLES, "days": [{"speeches": {"1": "я выставляю игрока номер пять"}}]})
    heard = next(e for e in tl if e["type"] == "heard")
    accepted = next(e for e in tl if e["type"] == "say" and e["key"] == "accepted")
    assert 0 <= accepted["t"] - heard["t"] <= 1.0
    blink = [e for e in tl if e["type"] == "led" and e["seat"] == 5 and e["pattern"] == "blink"]
    assert blink and blink[0]["t"] == heard["t"]


def test_thanks_ends_the_speech_early_and_the_next_speaker_is_called():
    _, tl = timeline({"roles": ROLES, "days": [{"speeches": {"1": "пас"}}]})
    heard = next(e for e in tl if e["type"] == "heard" and e["intent"] == "end")
    nxt = next(e for e in tl if e["type"] == "say" and e["key"] == "speech" and e["seat"] == 2)
    assert nxt["t"] == pytest.approx(heard["t"])
    first = next(e for e in tl if e["type"] == "say" and e["key"] == "speech" and e["seat"] == 1)
    assert not [
        e for e in tl if e["type"] == "say" and e["key"] == "time_up" and first["t"] < e["t"] < nxt["t"]
    ]


def running_game(settings=None):
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, fixed, settings)
    runtime.handle(DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))))
    return sched, runtime


def run_until(sched, runtime, phase, seat=None):
    while not (runtime.game.phase is phase and (seat is None or runtime.game.state.speaker == seat)):
        t = sched.next_time()
        assert t is not None, f"{phase} never came"
        sched.run_due(t)


def past_announcement(sched, runtime):
    """On to the moment the speaker's button counts: his announcement said, and the grace after it."""
    sched.run_due(runtime.timer[0] + runtime.settings.own_press_grace_s)


def test_the_speakers_own_button_ends_his_speech():
    sched, runtime = running_game()
    run_until(sched, runtime, Phase.SPEECH, seat=1)
    assert runtime.leds[1] == "on"
    past_announcement(sched, runtime)
    assert not runtime.press(2)  # not his speech
    assert runtime.press(1)
    assert runtime.game.state.speaker == 2 and runtime.leds[1] == "off" and runtime.leds[2] == "on"


def test_the_speakers_press_during_his_own_announcement_ends_nothing():
    """A press during «Игрок номер два, ваша минута» (or before it is said,
    or within the 1-s grace after) is ignored and recorded; his minute runs."""
    sched, runtime = running_game()
    run_until(sched, runtime, Phase.SPEECH, seat=1)
    past_announcement(sched, runtime)
    assert runtime.press(1)  # seat 1 ends his speech: seat 2's step begins, his announcement queued
    said = next(
        e for e in runtime.timeline.dicts() if e["type"] == "say" and e["key"] == "speech" and e["seat"] == 2
    )
    start, grace = runtime.timer[0], runtime.settings.own_press_grace_s
    for at in (said["t"], (said["t"] + start) / 2, start + grace - 0.01):
        sched.run_due(at)
        assert not runtime.press(2, at=at)
        assert runtime.timeline.dicts()[-1]["reason"] == "his press during his own announcement"
        assert runtime.game.state.speaker == 2
    again = next(
        e
        for e in runtime.timeline.dicts()
        if e["type"] == "say" and e["t"] == said["t"] and e["key"] == "speech"
    )
    assert not again.get("dropped") and runtime.timer[1] == 60  # announced, and his whole minute ahead
    sched.run_due(start + grace)
    assert runtime.press(2, at=start + grace) and runtime.game.state.speaker == 3


def to_vote():
    """Seat 1 nominates 4 and ends his speech; seat 2 nominates 9; the vote opens."""
    from host_device.listening.intents import Intent

    sched, runtime = running_game()
    run_until(sched, runtime, Phase.SPEECH, seat=1)
    past_announcement(sched, runtime)
    runtime.heard(Intent("nominate", seat=4))
    runtime.press(1)
    runtime.heard(Intent("nominate", seat=9))
    run_until(sched, runtime, Phase.VOTE)
    return sched, runtime


def test_a_press_just_before_thank_you_counts_and_one_at_its_start_does_not():
    sched, runtime = to_vote()
    opens, closes = runtime.window
    assert closes - opens == pytest.approx(2.5)
    sched.run_due(closes - 0.001)
    assert runtime.press(7, at=closes - 0.001)  # 1 ms before «Спасибо»: counts
    assert runtime.leds[7] == "on"
    sched.run_due(closes)  # the window closes: «Спасибо» starts now
    thanks = [e for e in runtime.timeline.dicts() if e["type"] == "say" and e["key"] == "thank_you"]
    assert thanks and thanks[-1]["t"] == pytest.approx(closes)
    assert runtime.game.state.vote_round.ballots == {7: 4}
    assert not runtime.press(3, at=closes)  # at its start: does not count
    assert 3 not in runtime.game.state.vote_round.ballots


def test_a_press_before_the_question_ends_is_not_a_vote():
    _sched, runtime = to_vote()
    opens, _ = runtime.window
    assert not runtime.press(2, at=opens - 0.01)
    assert runtime.timeline.dicts()[-1]["reason"] == "a press outside the vote window"


def night_says(script_dict):
    """The night's phrases (and the calls), with their times from nightfall."""
    _, tl = timeline(script_dict)
    start = [e["t"] for e in tl if e["type"] == "say" and e["key"] == "night_falls"][1]  # night 1
    end = next(e["t"] for e in tl if e["type"] == "say" and e["key"] == "morning" and e["t"] > start)
    says = [
        (round(e["t"] - start, 3), e["key"], e.get("seat"), e.get("role"))
        for e in tl
        if e["type"] == "say" and start <= e["t"] < end
    ]
    leds = [e for e in tl if e["type"] == "led" and start <= e["t"] < end]
    return says, leds


def test_the_night_sounds_the_same_whatever_the_secret_state():
    # Seat 3 is voted out on day 1 in both games, so the same numbers are called.
    day = {
        "speeches": {"1": "я выставляю игрока номер три", "2": "я выставляю игрока номер девять"},
        "votes": [{"3": [1, 2, 4, 6, 7, 10]}],
    }
    # A: seat 3 was the Don (his step still runs, with nobody to wake); the mafia kill; the Sheriff checks.
    a = {"roles": ROLES, "days": [day], "nights": [{"shots": {"5": 1, "8": 1}, "sheriff": 5}]}
    # B: seat 3 was a civilian, the Don (9) is alive; nobody shoots or checks.
    b = {"roles": {"9": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}, "days": [day], "nights": [{}]}
    says_a, leds_a = night_says(a)
    says_b, leds_b = night_says(b)
    assert says_a == says_b
    assert [s[1] for s in says_a].count(
        "call"
    ) == 2 * 9 + 9  # hunt, Don's and Sheriff's calls over 9 living seats
    assert leds_b == []
    assert {e["seat"] for e in leds_a} == {6}  # only the checker's own LED, with his answer


def test_settings_set_the_rhythm():
    _, tl = timeline({"roles": ROLES, "days": [{}]}, Settings(meet_s=1.0))
    meets = [e["t"] for e in tl if e["type"] == "say" and e["key"] in ("role_wakes", "role_sleeps")]
    assert meets[1] - meets[0] == pytest.approx(
        PHRASE_S + 1.0
    )  # the Don's meeting lasts meet_s after his phrase


def test_simulate_command_writes_a_timeline(tmp_path, capsys, builtin_pack):
    out = tmp_path / "t.jsonl"
    assert main(["simulate", str(ROOT / "examples" / "classic-full-game.json"), "--timeline", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == "red"
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert lines[0]["type"] == "input" and {"say", "timer", "led", "input", "tone"} <= {
        e["type"] for e in lines
    }
    assert any(e["type"] == "say" and e["key"] == "winner" for e in lines)
    said = {e["key"]: e["text"] for e in lines if e["type"] == "say"}
    assert said["winner"] == "Победа мирных жителей!"
    assert said["morning"] == "Доброе утро!"
    assert all(e["text"].rstrip()[-1] in ".!?:" for e in lines if e["type"] == "say" and e["key"] != "call")
    assert main(["simulate", str(ROOT / "examples" / "classic-game.json"), "--timeline", str(tmp_path)]) == 2
    assert "не удалось записать ход игры" in capsys.readouterr().err


def test_pause_stops_every_timer_and_resumes_exactly_where_it_was():
    sched, runtime = running_game()
    run_until(sched, runtime, Phase.SPEECH, seat=1)
    timer = next(e for e in runtime.timeline.dicts() if e["type"] == "timer" and e["purpose"] == "speech")
    due = timer["t"] + 60
    sched.run_due(timer["t"] + 20)
    runtime.press("pause")
    assert sched.paused and runtime.timeline.dicts()[-1]["key"] == "paused"
    sched.run_due(due + 100)  # nothing happens while paused
    assert runtime.game.state.speaker == 1
    runtime.toggle_pause(now=timer["t"] + 20 + 300)  # five minutes later
    assert runtime.timeline.dicts()[-1] == {"t": timer["t"] + 320, "type": "resumed", "paused_s": 300.0}
    sched.run_due(due + 300 - 0.001)
    assert runtime.game.state.speaker == 1  # 40 s were left, and 40 s are left
    sched.run_due(due + 300)
    time_up = [e for e in runtime.timeline.dicts() if e["type"] == "say" and e["key"] == "time_up"]
    assert time_up[-1]["t"] == pytest.approx(due + 300) and runtime.game.state.speaker == 2


def test_the_scheduler_in_real_time():
    sched = Scheduler()
    fired = []
    sched.after(0.05, lambda: fired.append(sched.now))
    sched.after(0.10, lambda: fired.append(sched.now))
    import time

    started = time.monotonic()
    sched.run_real(speed=2.0)
    elapsed = time.monotonic() - started
    assert fired == [0.05, 0.10] and 0.045 <= elapsed < 0.5  # twice as fast as the virtual 0.1 s
    assert sched.resume() == 0.0


def test_demo_hosts_a_whole_game_and_prints_only_what_the_table_may_know(builtin_pack):
    import io

    from host_device.session.demo import DEFAULT_SCRIPT, demo

    out = io.StringIO()
    result = demo(None, speed=10_000, audio="null", out=out)
    assert result == play(load_script(DEFAULT_SCRIPT))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Голос ") and lines[1].startswith("Демонстрация: ")  # which voice, what game
    assert "Ведущий: Наступает ночь." in lines[2]
    assert any("игрок 1: «… выставляю игрока номер 3 …»" in line for line in lines)
    assert any("кнопка игрока" in line for line in lines)
    winner = next(i for i, line in enumerate(lines) if "Победа мирных жителей!" in line)
    reveals = [i for i, line in enumerate(lines) if re.search(r"номер \w+ — (мирный|Шериф|мафия|Дон)", line)]
    assert reveals and min(reveals) > winner  # roles only after the end
    night_presses = [line for line in lines if "кнопка" in line and "Мафия" in line]
    assert night_presses == []


def test_the_real_loop_handles_input_the_moment_it_arrives():
    import queue
    import threading
    import time

    sched = Scheduler()
    inbox = queue.Queue()
    got = []
    sched.after(0.5, lambda: None)  # something to wait for
    threading.Timer(0.1, lambda: inbox.put(("press", time.monotonic()))).start()
    sched.run_real(inbox=inbox, on_input=lambda item: got.append((item, time.monotonic(), sched.now)))
    (_, sent), received, virtual = got[0]
    assert received - sent < 0.02  # not a 50 ms poll
    assert 0.08 <= virtual <= 0.2  # the scheduler's clock reads the input's real time


def test_the_time_an_input_takes_is_not_lost_from_the_clock():
    """On a fake wall clock: nine inputs that take 50 ms each to handle do
    not make an event due at 1 s run at 1.45 s (the clock used to restart its
    reading after each input, losing the time the input took)."""

    class Wall:  # inputs arriving at their wall times; a wait moves the wall clock
        def __init__(self, times):
            self.t = 0.0
            self.times = list(times)

        def now(self):
            return self.t

        def empty(self):  # the inbox: an input is waiting once its time has come
            return not (self.times and self.times[0] <= self.t)

        def wait(self, inbox, timeout):
            if self.times and self.times[0] <= self.t + timeout:
                self.t = max(self.t, self.times[0])
                return self.times.pop(0)
            self.t += max(timeout, 0.001)  # a real wait takes a little time, however short
            return None

    wall = Wall([0.1 * k for k in range(1, 10)])

    def handle(item):
        wall.t += 0.05  # what handling an input costs

    ran = []
    sched = Scheduler()
    sched.at(1.0, lambda: ran.append(wall.t))
    sched.run_real(inbox=wall, on_input=handle, clock=wall)
    assert ran and abs(ran[0] - 1.0) < 0.06, ran


def test_the_real_loop_on_a_virtual_wall_clock_takes_no_wall_time():
    """The virtual clock jumps through every wait; a cued input arrives at
    the first wait after its condition holds, stamped with its wall time."""
    import queue
    import time

    from hardware.events import Press
    from host_device.runtime.clock import VirtualClock

    clock = VirtualClock(limit=100)
    sched = Scheduler()
    fired, got = [], []
    sched.at(30.0, lambda: fired.append(sched.now))
    sched.at(60.0, lambda: fired.append(sched.now))
    clock.when(lambda: bool(fired), lambda: Press(key=4, at=clock.now()))
    started = time.monotonic()
    sched.run_real(
        speed=2.0, inbox=queue.Queue(), on_input=lambda item: got.append((item, sched.now)), clock=clock
    )
    assert time.monotonic() - started < 1.0  # a minute of game time, half a minute of wall time
    assert fired == [30.0, 60.0] and clock.now() == pytest.approx(30.0, abs=0.06)
    ((press, at),) = got
    assert press.key == 4 and press.at == pytest.approx(15.0, abs=0.06) and at == pytest.approx(30.0, abs=0.2)
    stuck = Scheduler()  # paused with nobody to resume it: the test fails instead of hanging
    stuck.at(1.0, lambda: None)
    stuck.pause()
    with pytest.raises(TimeoutError):
        stuck.run_real(inbox=queue.Queue(), clock=VirtualClock(limit=1))


def test_the_time_left_on_a_timer_is_read_at_the_moment_it_is_asked():
    rt = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
    assert rt.time_left() is None and rt.free.left() is None
    rt.free.start(30)  # announced for 1 s: the timer starts when its phrase ends
    rt.timer = (2.0, 60, "speech")
    assert rt.time_left() == 60.0 and rt.free.left() == 30.0
    rt.sched.run_due(12.5)
    assert rt.time_left() == 49.5 and rt.free.left() == 18.5


def test_a_virtual_wait_too_short_to_add_to_the_clock_still_passes():
    """A wait shorter than the float's step at this reading: the clock moves
    all the same (else the real loop on a virtual clock turns for ever)."""
    from host_device.runtime.clock import VirtualClock

    clock = VirtualClock(start=5.33589899999999)
    before = clock.now()
    assert clock.wait(None, 1e-17) is None
    assert clock.now() > before


@pytest.mark.parametrize(("made", "after_the_event"), [(1.15, True), (0.95, False)])
def test_an_input_late_to_the_loop_is_taken_in_the_step_of_its_moment(made, after_the_event):
    """A loaded machine wakes the loop late: it finds input waiting and an
    event overdue (a vote window's close). An input made after the event's
    time is handled after the event (it used to be handled first, in a step
    that by the clock was over: a press in the next window was refused as
    «outside the vote window», and the overdue events then ran with time
    going back); one made before the event's time is still handled before it."""
    from types import SimpleNamespace

    class Oversleeping:  # each wait takes 0.3 s of wall time, and brings the next input made by then
        def __init__(self, made):
            self.t = 0.0
            self.made = list(made)

        def now(self):
            return self.t

        def empty(self):
            return not (self.made and self.made[0] <= self.t)

        def wait(self, inbox, timeout):
            self.t += 0.3
            return SimpleNamespace(at=self.made.pop(0)) if self.made and self.made[0] <= self.t else None

    wall = Oversleeping([made])
    sched = Scheduler()
    closed, seen = [], []
    sched.at(1.0, lambda: closed.append(sched.now))
    sched.at(5.0, lambda: None)
    sched.run_real(inbox=wall, on_input=lambda item: seen.append((item.at, bool(closed))), clock=wall)
    assert seen == [(made, after_the_event)] and closed == [1.0]


def test_best_move_is_said_as_the_first_night_victim_s_last_word_begins_and_heard_in_it():
    night = {"shots": {"3": 1, "5": 1, "8": 1}, "best_move": [3, 5, 8]}
    result, tl = timeline({"roles": ROLES, "days": [{}, {}], "nights": [night]})
    said = [
        e for e in tl if e["type"] == "say" and e["key"] in ("last_word", "best_move", "best_move_accepted")
    ]
    assert [e["key"] for e in said] == ["last_word", "best_move", "best_move_accepted"]
    last_word, best, accepted = said
    assert last_word["seat"] == 1 and best["t"] == pytest.approx(last_word["t"] + PHRASE_S)
    timer = next(e for e in tl if e["type"] == "timer" and e["purpose"] == "last_word")
    assert timer["t"] == pytest.approx(best["t"] + PHRASE_S)  # his minute starts after «Лучший ход»
    heard = next(e for e in tl if e["type"] == "heard" and e["intent"] == "best_move")
    assert heard["seats"] == [3, 5, 8] and timer["t"] < heard["t"] < timer["t"] + 60
    assert accepted["seats"] == [3, 5, 8] and accepted["t"] >= heard["t"]
    assert result["best_move"] == {"seat": 1, "seats": [3, 5, 8]}


@pytest.mark.parametrize("name", ["event-game", "city-game"])
def test_event_and_city_never_say_best_move(name, builtin_pack):
    _, runtime = simulate(load_script(ROOT / "examples" / f"{name}.json"))
    said = {e["key"] for e in runtime.timeline.as_dicts() if e["type"] == "say"}
    assert not {"best_move", "best_move_accepted"} & said
    assert ("last_word" in said) == (name == "event-game")  # the event's victim has his last word without it


@pytest.mark.parametrize("preset", ["classic", "event"])
def test_the_night_falls_once_at_the_deal_by_cards(preset):
    """The deal («Раздаём роли…») and then the introduction night: «Наступает
    ночь.» is said once, after the deal, not at it and again after it."""
    from host_device.runtime.cards import CardRegistration
    from voices.catalogue import russian

    sched = Scheduler()
    runtime = Runtime(Game(preset), sched, fixed)
    cards = CardRegistration(runtime, runtime.handle, window_s=6.0)
    cards.start()
    black = sum(n for role, n in runtime.game.preset.roles if role in (Role.MAFIA, Role.DON))
    for seats in ([*range(1, black + 1)], [1], [black + 1]):  # the mafia, the Don (if any), the checker
        while not cards.open and runtime.game.phase is Phase.ROLES:
            sched.run_due(sched.next_time())
        for seat in seats:
            cards.press(seat)
        while cards.open:
            sched.run_due(sched.next_time())
    while runtime.game.phase is not Phase.INTRO_MAFIA:
        sched.run_due(sched.next_time())
    said = [e["key"] for e in runtime.timeline.dicts() if e["type"] == "say"]
    assert said.count("night_falls") == 1 and said[0] == "deal_roles" and said[-3] == "night_falls"
    assert russian().text("night_falls", {}) == "Наступает ночь."
    assert russian().text("deal_roles", {}) == "Раздаём роли. Все закрывают глаза."
