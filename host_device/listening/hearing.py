"""From recogniser results to intents, as the words are said.

vosk gives partial results (the words so far, which may still change) and a
final result at each pause. :class:`IntentTracker` matches the intent
patterns on the settled words plus the current partial, and delivers each
intent once, as soon as it is stable:

- its last word is in a final result; or, for a match in the partial words,
  the same match was in the partial result before too (two partial results
  agree: a best path that changes every block delivers nothing) and
- another word follows it; or
- it cannot grow into another number ("семь" can still become "семнадцать",
  "десять" cannot); or
- SETTLE_S of audio have passed since it ended with nothing new.

Partial results without word times (vosk's fastest: the best path's text,
new with every block) get their times from :class:`PartialText`: a word is
stamped with the moment it first appeared at its place.

A forbidden word is delivered only from a final result (vosk closes an
utterance at a pause: the remark is then said in that pause, never over the
speaker; docs/fouls.md), and only when the recogniser's confidence in each of
its words is at least ``forbidden_conf`` (the words of a final result carry
one); a word of the same kind again within REPEAT_S of it is the same foul
(:func:`.intents.repeated`, as a script counts). It comes with the words of
the utterance that held it (:attr:`Heard.context`): what a referee reviews.

"Спасибо"/"пас" ends a speech only as the last word before END_PAUSE_S of
silence; words after it (a "спасибо" in the middle of a speech) cancel it.

All times are on the runtime's clock: the caller says where audio second 0 of
the current recogniser lies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host_device.listening.intents import Intent, IntentPatterns, repeated, tokenise
from host_device.listening.numbers import normalise, number_words

SETTLE_S = 0.3  # nothing new this long after a number word: it is complete
END_PAUSE_S = 1.0  # silence after "спасибо"/"пас" that ends a speech
SAME_WORDS_S = 0.6  # a match starting this close to a delivered one is the same words
LAG_S = 3.0  # a partial word without times is stamped at most this long after it really ended
FORBIDDEN_CONF = 0.75  # the least word confidence of a forbidden word (bench/fouls.py, docs/fouls.md)
# quiet after a forbidden word that ends the partial words: the listener asks for the utterance's final
# result then, rather than wait for the recogniser's own endpoint (0.5 s of silence in a final state,
# 1.0 s otherwise); never shorter than its shortest, so no pause is cut shorter than vosk's (docs/fouls.md)
EARLY_FINAL_S = 0.5


@dataclass(frozen=True)
class Word:
    text: str  # normalised
    start: float  # clock time
    end: float
    conf: float = 1.0


@dataclass(frozen=True)
class Heard:
    """An intent heard, with the clock time its last word ended."""

    intent: Intent
    at: float
    words: str
    # a forbidden word: the words of the utterance that held it, as the recogniser gave them (each with
    # its time and confidence): the evidence a referee reviews (docs/fouls.md)
    context: tuple[Word, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {**self.intent.to_dict(), "at": round(self.at, 3), "words": self.words}
        if self.context:
            data["heard"] = [[w.text, round(w.conf, 2)] for w in self.context]
        return data


def can_grow(token: str) -> bool:
    """Whether a number word could still turn into a longer one as more audio
    comes: "один" -> "одиннадцать", "семь" -> "семнадцать". The recogniser
    hears the stem first, so the test is on the word less its last letter."""
    if token.isdigit():
        return any(str(n).startswith(token) and str(n) != token for n in range(1, 31))
    if token not in number_words():
        return False
    stem = token[:-1]
    return any(len(w) > len(token) and w.startswith(stem) for w in number_words())


def words_of(result: dict[str, Any], offset: float) -> list[Word]:
    """The words of a vosk result (final "result" or partial "partial_result"); a hyphenated word
    («ей-богу») is its parts, each with the word's times and confidence, as the patterns read it."""
    items = result.get("result") or result.get("partial_result") or []
    return [
        Word(part, offset + float(w["start"]), offset + float(w["end"]), float(w.get("conf", 1.0)))
        for w in items
        for part in tokenise(w["word"]) or [normalise(w["word"])]
    ]


@dataclass
class PartialText:
    """The words of partial results that carry no times: each word is
    stamped with the moment it first appeared at its place (after the same
    words before it); a word that changes, and every word after it, is new."""

    words: list[Word] = field(default_factory=list)

    def update(self, text: str, now: float) -> list[Word]:
        tokens = [part for t in text.split() for part in tokenise(t) or [normalise(t)]]
        keep = 0
        while keep < min(len(tokens), len(self.words)) and self.words[keep].text == tokens[keep]:
            keep += 1
        self.words = self.words[:keep] + [Word(t, now, now) for t in tokens[keep:]]
        return list(self.words)

    def clear(self) -> None:
        """A final result took the words so far."""
        self.words = []


Key = tuple[str, int | None, str | None, tuple[int, ...], float]  # the intent, and when it began


@dataclass
class IntentTracker:
    patterns: IntentPatterns
    seats: int
    settle_s: float = SETTLE_S
    end_pause_s: float = END_PAUSE_S
    agree: bool = True  # a match in partial words waits until two partial results agree on it
    forbidden_conf: float = FORBIDDEN_CONF  # the least confidence of each word of a forbidden one
    settled: list[Word] = field(default_factory=list)
    partial: list[Word] = field(default_factory=list)
    utterance: int = 0  # where in ``settled`` the last final result's words begin
    delivered: list[Key] = field(default_factory=list)
    ended: list[float] = field(default_factory=list)  # end times of delivered "end"s
    _agreed: set[Key] = field(default_factory=set)  # matches in the partial result before
    _matched: set[Key] = field(default_factory=set)  # matches in the current partial result
    early_final_s: float = EARLY_FINAL_S
    _waiting: float | None = None  # the end of a forbidden word ending the partial words: its final wanted

    def partial_result(self, words: list[Word], now: float) -> list[Heard]:
        self.partial = words
        self._agreed, self._matched = self._matched, set()
        return self._scan(now)

    def final_result(self, words: list[Word], now: float) -> list[Heard]:
        self.utterance = len(self.settled)
        self.settled.extend(words)
        self.partial = []
        self._agreed, self._matched = set(), set()
        return self._scan(now)

    def tick(self, now: float) -> list[Heard]:
        """Audio up to ``now`` has been heard (with no new words)."""
        return self._scan(now)

    def wants_final(self, now: float) -> bool:
        """A forbidden word ends the partial words (agreed on, not a repeat) and nothing has followed
        it for ``early_final_s``: its words' confidence, which only a final result carries, is
        wanted now (the listener asks the recogniser to finish the utterance)."""
        return self._waiting is not None and now - self._waiting >= self.early_final_s - 1e-6  # float sums

    def new_segment(self) -> None:
        """The recogniser was reset (the device spoke): words before and after never join."""
        self.settled, self.partial, self.utterance = [], [], 0
        self._agreed, self._matched = set(), set()

    def _scan(self, now: float) -> list[Heard]:
        tokens = self.settled + self.partial
        texts = [w.text for w in tokens]
        heard: list[Heard] = []
        self._waiting = None
        for start, end, intent in self.patterns.matches(texts, self.seats):
            last = tokens[end - 1]
            stable = (
                end <= len(self.settled)
                or end < len(tokens)
                or not can_grow(last.text)
                or now - last.end >= self.settle_s
            )
            key = (intent.intent, intent.seat, intent.word, intent.seats, tokens[start].start)
            if intent.intent == "forbidden":  # heard only in a final result, when the recogniser is sure
                if end > len(self.settled):
                    self._matched.add(key)
                    agreed = not self.agree or key in self._agreed
                    if end == len(tokens) and agreed and not self._repeated(key):
                        self._waiting = last.end
                    continue
                if min(w.conf for w in tokens[start:end]) < self.forbidden_conf or self._repeated(key):
                    continue
            if end > len(self.settled):  # in the partial words: they may still change
                self._matched.add(key)
                stable = stable and (not self.agree or key in self._agreed)
            if stable and not self._delivered(key):
                self.delivered.append(key)
                context = tuple(tokens[min(start, self.utterance) : len(self.settled)])
                forbidden = intent.intent == "forbidden"
                said = " ".join(texts[start:end])
                heard.append(Heard(intent, last.end, said, context if forbidden else ()))
        if tokens and tokens[-1].text in self.patterns.end_words:
            last = tokens[-1]
            quiet = now - last.end >= self.end_pause_s
            if quiet and not any(abs(last.end - t) < SAME_WORDS_S for t in self.ended):
                self.ended.append(last.end)
                heard.append(Heard(Intent("end"), last.end, last.text))
        return heard

    def _repeated(self, key: Key) -> bool:
        """A forbidden word of the same kind began less than REPEAT_S before (or at about) this one."""
        kind = self.patterns.kind_of
        given = [(kind(k[2]) or "", k[4]) for k in self.delivered if k[0] == "forbidden"]
        return repeated(kind(key[2]) or "", key[4], given, SAME_WORDS_S)

    def _delivered(self, key: Key) -> bool:
        """The same intent, starting at about the same time, was delivered. A
        word of a partial result without times is stamped when it first
        appeared, up to LAG_S after it was really said (the final result's time)."""
        return any(k[:4] == key[:4] and k[4] - LAG_S <= key[4] < k[4] + SAME_WORDS_S for k in self.delivered)
