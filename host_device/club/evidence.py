"""What the device heard for a foul, as a referee reads it (issue 45;
docs/fouls.md): the utterance with the recogniser's confidence in each
word, the moment in the speech. Said once here for the protocol, the review
page and ``games show``."""

from __future__ import annotations

from host_device.club.record import FoulRecord
from voices.words import number

WITHDRAWN = "снят с пульта"  # a device's foul withdrawn (the console's «снять», or the host's «Отмена»)


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
