"""What the device heard for a foul, as a referee reads it (issue 45;
docs/fouls.md): the utterance with the recogniser's confidence in each
word, the moment in the speech. Said once here for the protocol, the review
page and ``games show``."""

from __future__ import annotations

from typing import Any

from engine.inputs import Foul
from engine.serial import input_from_dict
from host_device.club.record import FoulRecord
from voices.words import number

WITHDRAWN = "снято с пульта"  # a device's foul withdrawn (the console's «снять», or the host's «Отмена»)
GIVEN_BY = {"host": "ведущий", "device": "устройство"}  # who gave a foul (engine.inputs.Foul.by)


def heard_words(foul: FoulRecord) -> str:
    """The utterance with the confidence of each word: «клянусь (0,93) я (0,88)
    мирный (0,97)»; the words alone when no confidence was kept; "" for none."""
    words = foul.heard.split()
    if len(foul.confidence) != len(words):
        return foul.heard
    return " ".join(
        f"{word} ({number(conf, 2, trim=False)})" for word, conf in zip(words, foul.confidence, strict=True)
    )


def clock(seconds: float) -> str:
    """«0:42», «1:03»: minutes and seconds."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def speech_moment(foul: FoulRecord) -> str:
    """«на 0:42 речи»; "" when the moment was not kept."""
    return "" if foul.speech_s is None else f"на {clock(foul.speech_s)} речи"


def evidence(foul: FoulRecord) -> str:
    """What was heard, in one line: «услышано: «клянусь (0,93) я (0,88)», на 0:42 речи»; "" for nothing."""
    parts = [f"услышано: «{heard_words(foul)}»"] if foul.heard else []
    return ", ".join(parts + ([speech_moment(foul)] if foul.speech_s is not None else []))


def given(foul: FoulRecord) -> str:
    """Who gave it, the word, what was heard: «устройство: «честно»; услышано:
    «честно (0,91) говоря (0,80)», на 0:42 речи»; «ведущий»."""
    said = GIVEN_BY.get(foul.by, foul.by) + (f": «{foul.word}»" if foul.word else "")
    heard = evidence(foul)
    return f"{said}; {heard}" if heard else said


def foul_of(data: dict[str, Any], day: int) -> FoulRecord:
    """A stored foul input (``engine.serial``'s dict) as the record has it, on ``day``."""
    foul = input_from_dict(data)
    if not isinstance(foul, Foul):
        raise TypeError(f"not a foul: {data!r}")
    return FoulRecord.of(foul, day)
