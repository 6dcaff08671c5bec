"""Turn a speech transcript into intents, with the patterns kept as data.

Intents come out in the order they were said: nominate, withdraw, forbidden
words, and "end" when the transcript's last word is "спасибо" or "пас". In
one's own turn of the city's nomination round the patterns of
:meth:`IntentPatterns.for_round` also take the short answer («Игрок номер
семь») as a nomination; in the last word that has a best move, those of
:meth:`IntentPatterns.for_best_move` take three seat numbers as it.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.presets import MAX_SEATS, Preset
from engine.state import State
from engine.steps import Listen, listening
from host_device.base.errors import HostDeviceError, os_reason, toml_place
from host_device.listening.numbers import normalise, number_words, read_number

_TOKEN = re.compile(r"[0-9]+|[a-zа-я]+(?:-[a-zа-я]+)*")
_SENTENCE_END = re.compile(r"[.!?…;|]+")
_PATTERN_TOKEN = re.compile(r"\[|\]|[^\s\[\]]+")


def tokenise(text: str) -> list[str]:
    """The words of a transcript as the patterns see them (lower case, ё as е)."""
    return _TOKEN.findall(normalise(text))


class PatternError(HostDeviceError, ValueError):
    """A pattern file that cannot be read."""


@dataclass(frozen=True)
class Intent:
    intent: str  # nominate | withdraw | end | forbidden | golden | pass (city) | best_move
    seat: int | None = None
    word: str | None = None
    seats: tuple[int, ...] = ()  # best_move: the three seats named

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"intent": self.intent}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.word is not None:
            data["word"] = self.word
        if self.seats:
            data["seats"] = list(self.seats)
        return data


# ---------------------------------------------------------------- patterns


@dataclass(frozen=True)
class _Word:
    options: tuple[str, ...]
    prefix: bool

    def matches(self, token: str) -> bool:
        if self.prefix:
            return any(token.startswith(option) for option in self.options)
        return token in self.options


@dataclass(frozen=True)
class _Optional:
    items: tuple[_Element, ...]


@dataclass(frozen=True)
class _Slot:
    name: str


_Element = _Word | _Optional | _Slot


def compile_pattern(text: str) -> tuple[_Element, ...]:
    stack: list[list[_Element]] = [[]]
    for token in _PATTERN_TOKEN.findall(normalise(text)):
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise PatternError(f"образец {text!r}: ']' без '['")
            items = stack.pop()
            stack[-1].append(_Optional(tuple(items)))
        elif token.startswith("{") and token.endswith("}"):
            stack[-1].append(_Slot(token[1:-1]))
        else:
            prefix = token.endswith("*")
            options = tuple(option.rstrip("*") for option in token.split("|"))
            stack[-1].append(_Word(options, prefix))
    if len(stack) != 1:
        raise PatternError(f"образец {text!r}: '[' без ']'")
    if not stack[0]:
        raise PatternError(f"образец {text!r} пуст")
    return tuple(stack[0])


def _match(
    elements: tuple[_Element, ...], tokens: list[str], at: int, seats: int, found: tuple[int, ...] = ()
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Yield (end, the seats of the slots) for each way ``elements`` match from ``at``."""
    if not elements:
        yield at, found
        return
    head, rest = elements[0], elements[1:]
    if isinstance(head, _Optional):
        yield from _match(head.items + rest, tokens, at, seats, found)
        yield from _match(rest, tokens, at, seats, found)
        return
    if at >= len(tokens):
        return
    if isinstance(head, _Word):
        if head.matches(tokens[at]):
            yield from _match(rest, tokens, at + 1, seats, found)
        return
    number = read_number(tokens[at])
    if number is not None and 1 <= number <= seats:
        yield from _match(rest, tokens, at + 1, seats, (*found, number))


# ---------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class _Rule:
    intent: str
    word: str | None
    patterns: tuple[tuple[_Element, ...], ...]


@dataclass(frozen=True)
class IntentPatterns:
    rules: tuple[_Rule, ...]
    end_words: frozenset[str]
    pass_words: frozenset[str] = frozenset()  # city (003): the nomination round's «никого»
    round_patterns: tuple[tuple[_Element, ...], ...] = ()  # city (003): «игрок номер N» in the round
    best_move_patterns: tuple[tuple[_Element, ...], ...] = ()  # the first night's victim's three seats

    def for_round(self) -> IntentPatterns:
        """The patterns for one's own turn of the city's nomination round: a
        nomination is the formula or the short answer («Игрок номер семь»)."""
        rules = tuple(
            _Rule(r.intent, r.word, r.patterns + self.round_patterns) if r.intent == "nominate" else r
            for r in self.rules
        )
        return dataclasses.replace(self, rules=rules, round_patterns=())

    def heard_in(self, listens: Listen) -> IntentPatterns:
        """The patterns a step hears with: the round's in the city's
        nomination round, the best move's in the last word that has one."""
        match listens:
            case Listen.ROUND:
                return self.for_round()
            case Listen.BEST_MOVE:
                return self.for_best_move()
            case _:
                return self

    def for_best_move(self) -> IntentPatterns:
        """The patterns for the last word that has a best move: «лучший ход:
        три, пять, восемь», or just the three numbers, name the three seats."""
        best = _Rule("best_move", None, self.best_move_patterns)
        return dataclasses.replace(self, rules=(best, *self.rules), best_move_patterns=())

    @classmethod
    def from_toml(cls, text: str, source: str = "patterns") -> IntentPatterns:
        try:
            data = tomllib.loads(text)
            rules = [
                _Rule(name, None, tuple(compile_pattern(p) for p in data[name]["patterns"]))
                for name in ("nominate", "withdraw", *(("golden",) if "golden" in data else ()))
            ]
            rules += [
                _Rule("forbidden", entry["word"], tuple(compile_pattern(p) for p in entry["patterns"]))
                for entry in data.get("forbidden", [])
            ]
            end_words = frozenset(normalise(word) for word in data["end"]["words"])
            pass_words = frozenset(normalise(word) for word in data.get("pass", {}).get("words", []))
            round_patterns = tuple(compile_pattern(p) for p in data.get("round", {}).get("patterns", []))
            best_moves = tuple(compile_pattern(p) for p in data.get("best_move", {}).get("patterns", []))
        except tomllib.TOMLDecodeError as exc:
            raise PatternError(f"{source}: ошибка в TOML{toml_place(exc)}") from None
        except KeyError as exc:
            raise PatternError(f"{source}: нет записи {exc}") from None
        except TypeError:
            raise PatternError(f"{source}: не тот вид записи ('patterns', 'words' — списки строк)") from None
        return cls(tuple(rules), end_words, pass_words, round_patterns, best_moves)

    def parse(self, text: str, seats: int) -> list[Intent]:
        """The intents of a transcript, in order. A forbidden word said again
        in the same sentence (one utterance: a written speech's sentence, as
        the live device's few seconds, :data:`.hearing.REPEAT_S`) is one."""
        sentence_of = [
            n for n, part in enumerate(_SENTENCE_END.split(normalise(text))) for _ in tokenise(part)
        ]
        tokens = tokenise(text)
        found, seen = [], set()
        for start, _, intent in self.matches(tokens, seats):
            if intent.intent == "forbidden":
                if (intent.word, sentence_of[start]) in seen:
                    continue
                seen.add((intent.word, sentence_of[start]))
            found.append(intent)
        if tokens and tokens[-1] in self.end_words:
            found.append(Intent("end"))
        elif tokens and tokens[-1] in self.pass_words:
            found.append(Intent("pass"))
        return found

    def matches(self, tokens: list[str], seats: int) -> list[tuple[int, int, Intent]]:
        """(start, end, intent) for each pattern found in the tokens, left to right."""
        found: list[tuple[int, int, Intent]] = []
        at = 0
        while at < len(tokens):
            hit = self._first_match(tokens, at, seats)
            if hit is None:
                at += 1
                continue
            end, intent = hit
            found.append((at, end, intent))
            at = end
        return found

    def vocabulary(self) -> set[str]:
        """Every whole word the patterns can match (stems and slots aside) and the
        number words of the seats: the words a recogniser must know."""
        words = {*self.end_words, *self.pass_words} | {w for w, n in number_words().items() if n <= MAX_SEATS}

        def walk(elements: tuple[_Element, ...]) -> None:
            for element in elements:
                if isinstance(element, _Word) and not element.prefix:
                    words.update(o for o in element.options if not o.isdigit())
                elif isinstance(element, _Optional):
                    walk(element.items)

        for rule in self.rules:
            for pattern in rule.patterns:
                walk(pattern)
        for pattern in (*self.round_patterns, *self.best_move_patterns):
            walk(pattern)
        return words

    def unreachable(self, knows: Callable[[str], bool], seats: int) -> list[str]:
        """What can never be heard with a recogniser that knows only the words
        ``knows`` accepts: each intent no pattern of which can be said, the
        seats whose number words are all unknown, the end words unknown."""

        def sayable(elements: tuple[_Element, ...]) -> bool:
            return all(
                not isinstance(e, _Word) or e.prefix or any(knows(o) for o in e.options) for e in elements
            )

        def has_seat(elements: tuple[_Element, ...]) -> bool:
            return any(
                isinstance(e, _Slot) or (isinstance(e, _Optional) and has_seat(e.items)) for e in elements
            )

        silent_seats = [
            n for n in range(1, seats + 1) if not any(knows(w) for w, m in number_words().items() if m == n)
        ]
        lines = []
        for rule in self.rules:
            name = rule.intent if rule.word is None else f"{rule.intent} «{rule.word}»"
            if not any(sayable(p) for p in rule.patterns):
                lines.append(f"{name}: никогда (в каждом образце есть слово, которого модель не знает)")
            elif silent_seats and any(has_seat(p) for p in rule.patterns):
                seats_text = ", ".join(map(str, silent_seats))
                lines.append(f"{name}: никогда для мест {seats_text} (слова их номеров модели неизвестны)")
        lines += [
            f"конец речи словом «{w}»: никогда (слово модели неизвестно)"
            for w in sorted(self.end_words)
            if not knows(w)
        ]
        return lines

    def _first_match(self, tokens: list[str], at: int, seats: int) -> tuple[int, Intent] | None:
        for rule in self.rules:
            for pattern in rule.patterns:
                for end, found in _match(pattern, tokens, at, seats):
                    if rule.intent == "best_move":
                        return end, Intent(rule.intent, seats=found)
                    return end, Intent(rule.intent, seat=found[-1] if found else None, word=rule.word)
        return None


def for_step(patterns: IntentPatterns, preset: Preset, state: State) -> IntentPatterns:
    """The patterns the step ``state`` is in hears (its own speaker's words typed, in any step)."""
    listens = listening(preset, state)
    return patterns if listens is None else patterns.heard_in(listens)


@cache
def russian_patterns() -> IntentPatterns:
    source = resources.files("host_device.listening") / "data" / "intents_ru.toml"
    return IntentPatterns.from_toml(source.read_text(encoding="utf-8"), str(source))


def load_patterns(path: Path | None) -> IntentPatterns:
    if path is None:
        return russian_patterns()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PatternError(f"{path}: не читается: {os_reason(exc)}") from None
    return IntentPatterns.from_toml(text, str(path))
