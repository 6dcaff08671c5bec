"""The table's inputs -> the runtime: what a lost and a restarted decoding
process say at the table (once each), and a decoder given up."""

import pytest

from host_device.listening.listener import HearingBack, HearingGone, HearingLost
from tests.helpers.host import table_inputs


class Runtime:
    def __init__(self):
        self.said = []

    def say(self, key, **slots):
        self.said.append(key)


def inputs():
    runtime, notices = Runtime(), []
    table = table_inputs(runtime, notice=lambda text, russian: notices.append(russian))
    return table, runtime, notices


def test_a_lost_decoder_is_said_as_it_goes_and_as_it_comes_back():
    table, runtime, notices = inputs()
    table.take(HearingLost("the decoding process ended (exit -9)", 1.0))
    table.take(HearingBack(2.5))
    assert runtime.said == ["hearing_lost", "hearing_back"]
    assert notices == ["слух потерян: перезапуск", "слух восстановлен"]


def test_a_decoder_given_up_is_a_notice_and_the_game_goes_on():
    table, runtime, notices = inputs()
    table.take(HearingLost("ended", 1.0))
    table.take(HearingGone("no memory", 4.0))
    assert runtime.said == ["hearing_lost"]
    assert notices[-1].startswith("слух потерян: выставления больше не слышны")


def hosted_mode_game():
    """Host mode on a virtual clock: the runtime and its inputs, as ``run`` has them."""
    from engine import Game
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.session.deal import deal

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    runtime.handle(deal(runtime.game.preset, 7))
    table = table_inputs(runtime, typed_speech=True, show_typed=True)
    return runtime, table


def until(runtime, phase, nominate=False):
    """«Дальше» on the host's button until ``phase`` (each day's first two speakers nominate)."""
    from engine import Nominate
    from engine import Phase as P

    for _ in range(200):
        s = runtime.game.state
        if s.phase is phase:
            return
        if nominate and s.phase is P.SPEECH and len(s.nominations) < 2:
            target = next(seat for seat in s.alive() if seat != s.speaker and seat not in s.candidates)
            runtime.handle(Nominate(seat=s.speaker, target=target))
        runtime.press("next")
    raise AssertionError(f"{phase} never came")


def test_in_host_mode_the_consoles_seat_keys_are_no_seats_press():
    """Whoever holds the console in host mode may be a player: his seat key
    ends no speech, casts no vote and fires no shot (only a seat's own button
    or phone presses it)."""
    from engine import Phase
    from hardware.events import HostKey, Press

    runtime, table = hosted_mode_game()
    until(runtime, Phase.SPEECH)
    speaker = runtime.game.state.speaker
    table.take(HostKey(Press(key=speaker, at=0.0)))
    assert runtime.game.state.speaker == speaker and runtime.game.phase is Phase.SPEECH
    until(runtime, Phase.VOTE, nominate=True)
    runtime.sched.run_due(runtime.window[0] + 0.1)
    for seat in runtime.game.state.alive():
        table.take(HostKey(Press(key=seat, at=0.0)))
    assert runtime.game.state.vote_round.ballots == {}
    table.take(Press(key=1, at=0.0))  # seat 1's own button still votes
    assert runtime.game.state.vote_round.ballots != {}
    until(runtime, Phase.NIGHT_HUNT)
    start = runtime.slots[0][1]
    runtime.sched.run_due(start + 0.1)
    record = len(runtime.game.record)
    for seat in runtime.game.state.alive():
        table.take(HostKey(Press(key=seat, at=0.0)))
    assert len(runtime.game.record) == record  # no shot
    assert not [e for e in runtime.timeline.dicts() if e["type"] == "press" and e["t"] >= start]


def test_a_phones_press_counts_only_in_the_step_it_was_made_in():
    """A press from a phone that was offline arrives in the next vote window:
    it names the window it was made in, and the runtime refuses it there
    (recorded, not counted); one made in the open window counts."""
    from engine import Phase
    from host_device.web.inputs import PhonePress

    runtime, table = hosted_mode_game()
    until(runtime, Phase.VOTE, nominate=True)
    first = runtime.step  # the vote for the first candidate
    runtime.press("next")
    assert runtime.game.phase is Phase.VOTE and runtime.step != first  # the vote for the second
    runtime.sched.run_due(runtime.window[0] + 0.1)
    table.take(PhonePress(key=7, at=0.0, made_in=first))
    assert 7 not in runtime.game.state.vote_round.ballots
    assert runtime.timeline.dicts()[-1]["type"] == "ignored" and runtime.timeline.dicts()[-1]["key"] == 7
    table.take(PhonePress(key=8, at=0.0, made_in=runtime.step))
    assert 8 in runtime.game.state.vote_round.ballots


def test_a_stamped_input_is_dated_in_game_time_at_the_games_speed():
    """A press stamped 0.1 s of wall time ago, at ten times speed, was made a
    whole game second ago (a phone's press judged against its window)."""
    import types

    class Wall:
        def now(self):
            return 5.0

    runtime = types.SimpleNamespace(sched=types.SimpleNamespace(now=100.0))
    assert table_inputs(runtime, clock=Wall(), speed=10.0)._at(4.9) == pytest.approx(99.0)
    assert table_inputs(runtime, clock=Wall())._at(4.9) == pytest.approx(99.9)


def first_night_victims_last_word():
    """Host mode: day 1 without a vote, the mafia kill the first red seat, his last word begins."""
    from engine import Phase, Shot
    from engine.roles import BLACK_ROLES

    runtime, table = hosted_mode_game()
    notices = []
    table.notice = lambda text, russian: notices.append(russian)
    until(runtime, Phase.NIGHT_HUNT)
    s = runtime.game.state
    black = sorted(seat for seat in s.alive() if s.role(seat) in BLACK_ROLES)
    victim = next(seat for seat in s.alive() if seat not in black)
    for seat in black:
        assert runtime.handle(Shot(seat=seat, target=victim))
    until(runtime, Phase.LAST_WORD)
    assert runtime.game.state.speaker == victim
    others = [seat for seat in range(1, 11) if seat != victim]
    return runtime, table, notices, victim, others


def test_the_best_move_typed_and_entered_on_the_console_is_the_speakers():
    from engine import BestMove
    from hardware.events import TypedLine
    from host_device.web.inputs import BestMoveEntry

    runtime, table, notices, victim, others = first_night_victims_last_word()
    a, b, c, d = others[:4]
    table.take(TypedLine(text=f"лучший ход {a} {b} {c}", at=0.0))  # typed (Tab): heard as said
    assert runtime.game.record[-1] == BestMove(seat=victim, seats=(a, b, c))
    table.take(BestMoveEntry(seats=(b, c, d), at=0.0))  # the host's console: it replaces the first
    assert runtime.game.record[-1] == BestMove(seat=victim, seats=(b, c, d))
    assert runtime.game.state.best_move == (b, c, d)
    assert notices == [f"записано: лучший ход игрока {victim}: {b}, {c}, {d}"]
    table.take(BestMoveEntry(seats=(victim, b, c), at=0.0))
    assert notices[-1] == "лучший ход не принят: своё место в лучшем ходе не называют"
    table.take(BestMoveEntry(seats=(b, c), at=0.0))
    assert notices[-1] == "лучший ход не принят: в лучшем ходе три места, а не 2"
    assert runtime.game.state.best_move == (b, c, d)


def test_outside_that_last_word_three_numbers_typed_or_entered_are_no_best_move():
    from engine import BestMove, Phase
    from hardware.events import TypedLine
    from host_device.web.inputs import BestMoveEntry

    runtime, table, notices, _victim, others = first_night_victims_last_word()
    runtime.press("next")  # his last word is over
    assert runtime.game.phase is Phase.SPEECH
    a, b, c = others[:3]
    table.take(TypedLine(text=f"лучший ход {a} {b} {c}", at=0.0))
    table.take(BestMoveEntry(seats=(a, b, c), at=0.0))
    assert not [inp for inp in runtime.game.record if isinstance(inp, BestMove)]
    assert notices == ["лучший ход не принят: сейчас нельзя"]
    until(runtime, Phase.VOTE_ANNOUNCE)  # nobody speaks
    table.take(BestMoveEntry(seats=(a, b, c), at=0.0))
    assert notices[-1] == "лучший ход не принят: сейчас никто не говорит"


def test_in_assist_mode_typed_words_propose_the_foul_and_never_give_it():
    """Issue 47: assist mode without a speech model had no field for the speaker's words, so its
    foul proposals could not be used; typed words now reach the runtime as in host mode, and a
    forbidden word in them is put to the host (he gives it, or not)."""
    from engine import Foul, Game, Phase
    from hardware.events import TypedLine
    from host_device.config import AssistSettings
    from host_device.runtime.assist import runtime_settings
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.session.deal import deal

    settings = Settings(**runtime_settings(AssistSettings()))
    assert settings.confirm  # assist mode's: a heard input waits for the host
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, settings)
    runtime.handle(deal(runtime.game.preset, 7))
    table = table_inputs(runtime, typed_speech=True, show_typed=False)
    until(runtime, Phase.SPEECH)
    speaker = runtime.game.state.speaker
    table.take(TypedLine(text="клянусь, я мирный", at=runtime.sched.now))
    (proposed,) = [p.input for p in runtime.proposals]
    assert isinstance(proposed, Foul) and proposed.seat == speaker
    assert runtime.game.state.fouls.get(speaker, 0) == 0  # proposed, not given
    assert runtime.decide(True)  # the host gives it
    assert runtime.game.state.fouls[speaker] == 1
