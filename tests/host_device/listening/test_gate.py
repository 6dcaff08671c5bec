"""The echo gate: what the device plays (and its tail) is not heard, and an
evening of phrases does not pile up in it."""

import numpy as np

from hardware.speaker import Playback
from host_device.listening.listener import FORGET_AFTER_S, Gate


def played(begin: float, seconds: float) -> Playback:
    p = Playback(np.zeros(10, np.int16), 16000)
    p.handed_at = p.started = begin
    p.ended = begin + seconds
    return p


def test_a_playback_still_playing_gates_until_it_ends():
    gate = Gate(tail_s=0.3)
    p = Playback(np.zeros(10, np.int16), 16000)
    gate.add(p)
    assert gate.covers(0, 1)  # handed over, not started: the device is about to speak
    p.handed_at = p.started = 5.0
    assert not gate.covers(0, 4.9) and gate.covers(50, 51)  # playing, end unknown
    p.ended = 6.0
    assert gate.covers(6.2, 6.25) and not gate.covers(6.31, 7)


def test_a_long_evening_leaves_only_the_recent_phrases_and_still_gates():
    gate = Gate(tail_s=0.3)
    t = 0.0
    for _ in range(5000):  # five hours of a phrase every 3.6 s, the listener asking between them
        gate.add(played(t, 2.0))
        assert gate.covers(t + 1.0, t + 1.1)  # while it plays
        assert gate.covers(t + 2.2, t + 2.25)  # in its tail
        assert not gate.covers(t + 2.4, t + 2.5)  # after the tail: the players are heard
        t += 3.6
    assert len(gate) <= FORGET_AFTER_S / 3.6 + 2  # the last minute's, not five thousand
    still = Playback(np.zeros(10, np.int16), 16000)
    still.handed_at = still.started = t
    gate.add(still)  # a long phrase, still playing when ten minutes of blocks go by
    for k in range(600):
        assert gate.covers(t + k, t + k + 0.1)
    assert len(gate) == 1  # only the one still playing
    still.ended = t + 600.0
    assert gate.covers(t + 600.25, t + 600.28) and not gate.covers(t + 600.31, t + 600.4)


def test_phrases_added_with_no_listener_asking_are_forgotten_too():
    gate = Gate(tail_s=0.3)
    for k in range(2000):
        gate.add(played(k * 5.0, 2.0))
    assert len(gate) <= FORGET_AFTER_S / 5.0 + 2
    assert gate.covers(2000 * 5.0 - 5.0 + 1.0, 2000 * 5.0 - 5.0 + 1.5)  # the last one still gates


def test_a_phrase_stopped_before_it_sounded_gates_nothing():
    gate = Gate(tail_s=0.3)
    cut = Playback(np.zeros(10, np.int16), 16000)
    gate.add(cut)
    assert gate.covers(10.0, 10.1)  # handed over: about to speak
    cut.ended, cut.stopped = 10.0, True  # the next phrase replaced it before its first frame
    assert not gate.covers(10.5, 10.6)


def test_the_listener_keeps_the_gate_it_is_given_even_while_it_is_empty():
    """An empty Gate has no length, so it is falsy: the session's gate, empty
    until the device first speaks, was replaced by a new one, and the
    device's own voice was heard (issue 39's audio test found it)."""
    import queue

    from hardware.microphone import NullMicrophone
    from host_device.listening.intents import russian_patterns
    from host_device.listening.listener import Listener

    gate = Gate()
    listener = Listener(
        object(), NullMicrophone(), russian_patterns(), 10, queue.Queue(), lambda: 0.0, gate=gate
    )
    assert listener.gate is gate
