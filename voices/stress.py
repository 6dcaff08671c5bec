"""Stress marks in the text a neural voice is given.

The catalogue writes a stress as «+» before the stressed vowel («пошл+о»), the
way Russian speech corpora and their tools write it. Piper's phonemizer
(espeak-ng, from piper-tts 1.5.0) reads a combining acute accent after the
vowel instead («пошло́»): :func:`for_voice` writes one as the other.
"""

from __future__ import annotations

import re

from voices.errors import CatalogueError

MARK = "+"
ACUTE = "\u0301"  # COMBINING ACUTE ACCENT: espeak-ng's stress mark in Russian text
VOWELS = "аеёиоуыэюяАЕЁИОУЫЭЮЯ"
_MARKED = re.compile(rf"\{MARK}([{VOWELS}])")
_WORD = re.compile(r"[\w+]+")


def for_voice(text: str) -> str:
    """«пошл+о» -> «пошло́»: each mark as the acute after its vowel."""
    return _MARKED.sub(lambda m: m.group(1) + ACUTE, text)


def unmarked(text: str) -> str:
    return text.replace(MARK, "")


def check(text: str, where: str) -> None:
    """A mark only before a vowel, at most one a word; else a CatalogueError naming ``where``."""
    for word in _WORD.findall(text):
        marks = word.count(MARK)
        if marks > 1:
            raise CatalogueError(f"{where}: {word!r}: one stress a word, and it has {marks} marks")
        if marks and not _MARKED.search(word):
            raise CatalogueError(f"{where}: {word!r}: a {MARK!r} goes before the stressed vowel")


def stressed_vowel(word: str) -> int | None:
    """Which vowel of a marked word is stressed (0 for the first), or None if unmarked."""
    at = word.find(MARK)
    if at < 0:
        return None
    return sum(ch in VOWELS for ch in word[:at])
