"""Which of the words the game listens for a speech model knows."""

from __future__ import annotations

import logging
from typing import Protocol

from host_device.listening.intents import IntentPatterns, russian_patterns

log = logging.getLogger(__name__)


class KnowsWords(Protocol):
    """A speech model in this process or in its decoding process."""

    def knows(self, word: str) -> bool: ...


def knows(model: KnowsWords, word: str) -> bool:
    """A word counts as known in its ё-spelling too."""
    variants = [word] + [word[:i] + "ё" + word[i + 1 :] for i, ch in enumerate(word) if ch == "е"]
    return any(model.knows(v) for v in variants)


def vocabulary_report(model: KnowsWords, patterns: IntentPatterns) -> tuple[list[str], list[str]]:
    """(known, unknown) pattern words."""
    known: list[str] = []
    unknown: list[str] = []
    for word in sorted(patterns.vocabulary()):
        (known if knows(model, word) else unknown).append(word)
    return known, unknown


def cannot_hear(model: KnowsWords, patterns: IntentPatterns | None = None, seats: int = 12) -> list[str]:
    """What the game listens for and this model can never hear (nothing for a good Russian model)."""
    return (patterns or russian_patterns()).unreachable(lambda w: knows(model, w), seats)


def warn_unknown_words(model: KnowsWords, patterns: IntentPatterns, seats: int = 12) -> list[str]:
    _, unknown = vocabulary_report(model, patterns)
    if unknown:
        cannot = "; ".join(cannot_hear(model, patterns, seats)) or "остальное слышит"
        log.warning(
            "модель речи не знает этих слов, их никогда не услышать: %s; поэтому не услышит: %s",
            ", ".join(unknown),
            cannot,
        )
    return unknown
