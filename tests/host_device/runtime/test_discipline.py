"""The fouls the device gives from what it hears (issue 39), on the virtual
clock: a forbidden word in the speaker's words under each strictness, assist
mode's proposal, the watch after «Время!», the console's withdrawal."""

import dataclasses

import pytest

from engine import DealRoles, Foul, Game, Nominate, Phase, Role, Shot
from host_device.config import Strictness
from host_device.listening.hearing import Word
from host_device.listening.intents import Intent
from host_device.runtime.clock import Scheduler
from host_device.runtime.discipline import FOUL_WATCH_S, GRACE_S, SETTLE_S, TYPED, Hearing
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.runtime.timeline import Said

PHRASE_S = 1.5
HONEST = Intent("forbidden", word="честно")


def game(fouls=Strictness.FOUL, watch_time=True, confirm=False, preset="classic"):
    sched = Scheduler()
    settings = Settings(fouls=fouls, watch_time=watch_time, confirm=confirm)
    runtime = Runtime(Game(preset), sched, lambda key, slots: PHRASE_S, settings)
    roles = ((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))
    if preset == "city":
        roles = (
            (2, Role.MAFIA),
            (3, Role.MAFIA),
            (5, Role.MAFIA),
            (6, Role.SHERIFF),
            (8, Role.DOCTOR),
            (9, Role.LOVER),
        )
    runtime.handle(DealRoles(roles=roles))
    return sched, runtime


def until(sched, runtime, phase, seat=None):
    while not (runtime.game.phase is phase and (seat is None or runtime.game.state.speaker == seat)):
        t = sched.next_time()
        assert t is not None, f"{phase} never came"
        sched.run_due(t)


def in_speech(seat=7, **kwargs):
    sched, runtime = game(**kwargs)
    until(sched, runtime, Phase.SPEECH, seat)
    sched.run_due(runtime.timer[0] + 5)  # five seconds into his speech
    return sched, runtime


def bare(foul):
    """A foul without what a referee reviews (the moment in the speech, the words heard)."""
    return dataclasses.replace(foul, heard="", confidence=(), speech_s=None)


def said(runtime, key):
    return [e for e in runtime.timeline.entries if isinstance(e, Said) and e.key == key]


def test_strict_the_device_gives_the_foul_and_says_it_with_the_word():
    sched, runtime = in_speech(fouls=Strictness.FOUL)
    assert runtime.heard(HONEST)
    assert runtime.game.record[-1] == Foul(seat=7, by="device", word="честно", speech_s=5.0)
    (foul,) = said(runtime, "foul_heard")
    assert foul.slot_values == {"seat": 7, "count": 1, "word": "честно"}
    assert foul.t == pytest.approx(sched.now)  # at once: the word came in a pause
    assert runtime.game.state.speaker == 7  # the speech goes on


def test_warn_says_the_remark_and_gives_no_foul_off_says_nothing():
    _, runtime = in_speech(fouls=Strictness.WARN)
    record = len(runtime.game.record)
    assert runtime.heard(HONEST)
    assert [s.slot_values for s in said(runtime, "remark")] == [{"seat": 7, "word": "честно"}]
    assert len(runtime.game.record) == record
    _, runtime = in_speech(fouls=Strictness.OFF)
    assert not runtime.heard(HONEST)
    assert not said(runtime, "remark") and not said(runtime, "foul_heard")


def test_the_fourth_device_foul_removes_the_speaker_and_the_next_one_speaks():
    _, runtime = in_speech(fouls=Strictness.FOUL)
    for word in ("честно", "клянусь", "спорим", "боже мой"):
        runtime.heard(Intent("forbidden", word=word))
    assert 7 in runtime.game.state.out
    assert said(runtime, "silenced") and said(runtime, "disqualified")
    assert runtime.game.state.speaker == 8


def test_the_city_rules_have_no_fouls_the_device_gives_none():
    sched, runtime = game(fouls=Strictness.FOUL, preset="city")
    until(sched, runtime, Phase.INTRO_SPEECH)
    assert not runtime.heard(HONEST)
    assert not said(runtime, "remark") and not said(runtime, "foul_heard")


def test_assist_mode_proposes_the_foul_and_the_host_gives_it():
    _, runtime = in_speech(fouls=Strictness.FOUL, confirm=True)
    record = len(runtime.game.record)
    assert runtime.heard(HONEST)
    assert len(runtime.game.record) == record  # never given by the device itself
    assert [p.input for p in runtime.proposals] == [Foul(seat=7, word="честно", speech_s=5.0)]
    assert runtime.decide(True)
    assert runtime.game.record[-1] == Foul(seat=7, by="host", word="честно", speech_s=5.0)
    assert runtime.heard(HONEST) and runtime.decide(False)
    assert runtime.game.state.fouls[7] == 1


def test_the_console_withdraws_the_devices_foul_while_it_is_the_last_input():
    _, runtime = in_speech(fouls=Strictness.FOUL)
    runtime.heard(HONEST)
    assert runtime.discipline.withdraw()
    assert runtime.game.state.fouls.get(7, 0) == 0 and runtime.game.state.speaker == 7
    assert not runtime.discipline.withdraw()  # nothing of the device's left
    runtime.heard(HONEST)
    runtime.handle(Nominate(seat=7, target=2))
    assert not runtime.discipline.withdraw()  # something came after it
    runtime.handle(Foul(seat=7))
    assert not runtime.discipline.withdraw()  # the host's own foul is his to undo


# ---------------------------------------------------------------- after «Время!»


def to_time_up(**kwargs):
    """To the moment «Время!» is said for seat 7: (sched, runtime, when it ends)."""
    sched, runtime = in_speech(**kwargs)
    start, length, _ = runtime.timer
    sched.run_due(start + length)
    (time_up,) = [s for s in said(runtime, "time_up") if s.t >= start + length]
    return sched, runtime, time_up.t + PHRASE_S


def run(sched, to):
    while (t := sched.next_time()) is not None and t <= to:
        sched.run_due(t)
    sched.run_due(to)


def test_a_speaker_who_stops_within_the_grace_gets_nothing_and_the_floor_passes_after_it():
    sched, runtime, ended = to_time_up()
    runtime.discipline.voice(ended + GRACE_S - 0.2)  # the end of his sentence
    assert runtime.game.state.speaker == 7  # the floor waits for the grace
    run(sched, ended + GRACE_S + SETTLE_S)
    assert runtime.game.state.speaker == 8
    assert not said(runtime, "time_over") and 7 not in runtime.game.state.fouls


def test_going_on_past_the_grace_draws_time_over_once_and_the_foul_if_he_still_goes_on():
    _sched, runtime, ended = to_time_up()
    runtime.discipline.voice(ended + GRACE_S + 0.1)
    runtime.discipline.voice(ended + GRACE_S + 0.6)  # during the phrase: gated, and no second one
    (over,) = said(runtime, "time_over")
    assert over.slot_values == {"seat": 7}
    runtime.discipline.voice(over.t + PHRASE_S + 0.4)  # still talking after it
    assert bare(runtime.game.record[-2:][0]) == Foul(seat=7, by="device", word="время")
    assert runtime.game.state.fouls[7] == 1 and runtime.game.state.speaker == 8


def test_time_over_said_and_then_silence_no_foul_the_floor_passes():
    sched, runtime, ended = to_time_up()
    runtime.discipline.voice(ended + GRACE_S + 0.1)
    (over,) = said(runtime, "time_over")
    run(sched, over.t + PHRASE_S + FOUL_WATCH_S)
    assert runtime.game.state.speaker == 8 and 7 not in runtime.game.state.fouls


def test_warn_says_time_over_and_passes_the_floor_without_a_foul():
    _sched, runtime, ended = to_time_up(fouls=Strictness.WARN)
    runtime.discipline.voice(ended + GRACE_S + 0.1)
    assert said(runtime, "time_over") and runtime.game.state.speaker == 8
    runtime.discipline.voice(ended + 10)
    assert 7 not in runtime.game.state.fouls


@pytest.mark.parametrize(
    "kwargs", [{"fouls": Strictness.OFF}, {"watch_time": False}], ids=["off", "no microphone"]
)
def test_without_a_watch_the_floor_passes_at_time_up(kwargs):
    _sched, runtime, ended = to_time_up(**kwargs)
    assert runtime.game.state.speaker == 8
    runtime.discipline.voice(ended + GRACE_S + 0.1)
    assert not said(runtime, "time_over")


# ---------------------------------------------------------------- where the device listens


def at_tie_speech(table):
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7], [])  # 5 : 5
    return 5


def at_last_word(table):
    table.until(Phase.SPEECH, seat=1)
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    return 2


def at_night(table):
    table.day_speeches()
    table.advance()
    table.until(Phase.NIGHT_HUNT)
    return None


def at_intro_night(table):
    return None


@pytest.mark.parametrize("reach", [at_tie_speech, at_last_word, at_night, at_intro_night])
def test_a_named_speaker_gets_the_foul_wherever_he_has_the_floor_and_nobody_at_night(reach):
    from tests.helpers.table import Table

    table = Table()
    speaker = reach(table)
    assert table.game.state.speaker == speaker
    runtime = Runtime(table.game, Scheduler(), lambda key, slots: PHRASE_S, Settings(fouls=Strictness.FOUL))
    runtime.resume()
    fouls = dict(runtime.game.state.fouls)
    heard = runtime.heard(HONEST)
    if speaker is None:  # the device does not listen at night: no foul, no word said
        assert not heard and runtime.game.state.fouls == fouls
        assert not said(runtime, "foul_heard") and not said(runtime, "remark")
    else:
        assert heard and bare(runtime.game.record[-1]) == Foul(seat=speaker, by="device", word="честно")
        assert [s.slot_values["seat"] for s in said(runtime, "foul_heard")] == [speaker]


# ---------------------------------------------------------------- what was heard (issue 45)

UTTERANCE = Hearing(
    context=(Word("клянусь", 0, 0.4, 0.931), Word("я", 0.5, 0.6, 0.88), Word("мирный", 0.7, 1, 0.97))
)
SWORE = Intent("forbidden", word="клянусь")


def test_the_devices_foul_keeps_the_utterance_its_confidences_and_the_moment_in_the_speech():
    sched, runtime = in_speech(fouls=Strictness.FOUL)
    assert runtime.heard(SWORE, at=sched.now - 0.6, how=UTTERANCE)  # said 4.4 s into his minute
    (foul,) = [i for i in runtime.game.record if isinstance(i, Foul)]
    assert foul.heard == "клянусь я мирный" and foul.confidence == (0.93, 0.88, 0.97)
    assert foul.speech_s == pytest.approx(4.4)


def test_assist_modes_proposal_carries_it_and_the_foul_the_host_accepts_keeps_it():
    _, runtime = in_speech(fouls=Strictness.WARN, confirm=True)
    assert runtime.heard(SWORE, how=UTTERANCE)
    assert runtime.decide(True)
    foul = runtime.game.record[-1]
    assert isinstance(foul, Foul) and foul.by == "host"
    assert (foul.heard, foul.confidence, foul.speech_s) == ("клянусь я мирный", (0.93, 0.88, 0.97), 5.0)


def test_typed_words_give_the_remark_never_the_devices_foul():
    _, runtime = in_speech(fouls=Strictness.FOUL)
    record = len(runtime.game.record)
    for word in ("честно", "клянусь", "спорим", "боже мой"):
        assert runtime.heard(Intent("forbidden", word=word), how=TYPED)
    assert len(said(runtime, "remark")) == 4 and not said(runtime, "foul_heard")
    assert len(runtime.game.record) == record and 7 not in runtime.game.state.out
    _, runtime = in_speech(fouls=Strictness.FOUL, confirm=True)  # assist mode: still the host's proposal
    assert runtime.heard(HONEST, how=TYPED) and [p.input.word for p in runtime.proposals] == ["честно"]
