"""Russian number words as heard in a transcript, from num2words."""

from __future__ import annotations

from functools import cache

from num2words import num2words

HIGHEST = 30  # larger than any table, so "номер двадцать" is read (and refused)


@cache
def number_words() -> dict[str, int]:
    words = {normalise(num2words(n, lang="ru")): n for n in range(1, HIGHEST + 1)}
    return {word: n for word, n in words.items() if " " not in word}


def normalise(text: str) -> str:
    return text.lower().replace("ё", "е")


def read_number(token: str) -> int | None:
    """The number a single token says, or None: "семь" -> 7, "7" -> 7."""
    if token.isdigit():
        return int(token)
    return number_words().get(token)
