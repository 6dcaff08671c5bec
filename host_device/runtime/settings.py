"""What distinguishes host mode from assist mode to the runtime, and its pace."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Phase
from host_device.config import Strictness

EVERY_STEP = frozenset(Phase)


@dataclass(frozen=True)
class Settings:
    vote_window_s: float = 2.5  # from the end of the question to «Спасибо»
    call_s: float = 1.2  # one number's slot in the night's calls
    meet_s: float = 5.0  # a role meeting the host on the introduction night
    answer_s: float = 3.0  # a check's answer on the checker's LED, the same whether or not he checked
    gap_s: float = 0.4  # a breath between one step's phrases and the next step
    warn_s: float = 10.0  # the tone this long before the end of a speech
    blink_s: float = 1.0  # the nominated seat's LED after «Принято»
    auto: frozenset[Phase] = EVERY_STEP  # steps the device ends by itself (timer, window, night pace)
    table_ends_speech: bool = True  # the speaker's button or «спасибо» ends his speech
    own_press_grace_s: float = 1.0  # the speaker's button ends nothing until this long after his announcement
    confirm: bool = False  # a heard nomination waits for the host's confirmation
    fouls: Strictness = Strictness.WARN  # the device's own fouls from what it hears (runtime/discipline.py)
    watch_time: bool = False  # a speaker is heard after «Время!» (a microphone and a model)
