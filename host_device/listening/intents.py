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
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.presets import MAX_SEATS, Preset
from engine.state import State
from engine.steps import Listen, listening
from host_device.base.errors import HostDeviceError, os_reason, toml_place
from host_device.base.files import read_text
from host_device.listening.numbers import normalise, number_words, read_number
from voices.forms import CERTAIN_PERCENTS, cardinal, morph, percent

# a hyphenated word is read as its parts: «по-честному» is «по» «честному», «ей-богу» is «ей» «богу»
_TOKEN = re.compile(r"[0-9]+|[a-zа-я]+")
_SENTENCE_END = re.compile(r"[.!?…;|]+")
MAX_PATTERNS_BYTES = 1_000_000  # a patterns file given with --patterns
_PATTERN_TOKEN = re.compile(r"\[|\]|[^\s\[\]]+")

# One oath, one foul: a forbidden word of the same kind («честно»; an oath or a bet; an appeal to
# religion; a per cent) said again less than REPEAT_S after the one given began is the same foul. A
# written speech (a script, typed words) is timed as if said: SPOKEN_WORD_S a word, SPOKEN_PAUSE_S
# more at a sentence's end, so a script and the live device count the same words alike (docs/fouls.md).
REPEAT_S = 3.0
SPOKEN_WORD_S = 0.4  # about 150 words a minute, a speech's pace
SPOKEN_PAUSE_S = 0.5


def tokenise(text: str) -> list[str]:
    """The words of a transcript as the patterns see them (lower case, ё as е, «%» as «процентов»)."""
    return _TOKEN.findall(normalise(text).replace("%", " процентов "))


def spoken_times(text: str) -> list[float]:
    """When each token of ``text`` would begin if it were said (seconds from its start)."""
    times, t = [], 0.0
    for part in _SENTENCE_END.split(normalise(text)):
        words = tokenise(part)
        times += [t + n * SPOKEN_WORD_S for n in range(len(words))]
        t += len(words) * SPOKEN_WORD_S + (SPOKEN_PAUSE_S if words else 0.0)
    return times


def repeated(kind: str, start: float, given: list[tuple[str, float]], early_s: float = 0.0) -> bool:
    """Whether a forbidden word of ``kind`` beginning at ``start`` is the same foul as one of ``given``
    (kind, start): it began less than REPEAT_S after it (or up to ``early_s`` before: times that drift)."""
    return any(k == kind and t - early_s <= start < t + REPEAT_S for k, t in given)


WORDS_KEPT = 20_000  # distinct heard words whose lemmas (and the patterns they begin) are kept: an evening's


@lru_cache(maxsize=WORDS_KEPT)
def lemmas(token: str) -> frozenset[str]:
    """Every dictionary form pymorphy3 gives for a word (ё as е): «клянусь» -> {клясться}."""
    return frozenset(normalise(parse.normal_form) for parse in morph().parse(token))


@cache
def _percent_words() -> dict[tuple[str, ...], int]:
    """The per cents a player may not claim, as the tokens that say them: ("девяносто", "девять")."""
    said = {tuple(tokenise(cardinal(n))): n for n in CERTAIN_PERCENTS}
    said[("тысяча",)] = said[("тысячу",)] = 1000  # «на тысячу процентов»
    return {**said, **{(str(n),): n for n in CERTAIN_PERCENTS}}


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
class _Option:
    text: str
    kind: str  # word (the word itself) | prefix (stem*) | lemma (~lemma: any form of the word)

    def matches(self, token: str) -> bool:
        match self.kind:
            case "prefix":
                return token.startswith(self.text)
            case "lemma":
                return self.text in lemmas(token)
            case _:
                return token == self.text


@dataclass(frozen=True)
class _Word:
    options: tuple[_Option, ...]

    def matches(self, token: str) -> bool:
        return any(option.matches(token) for option in self.options)

    def words(self) -> list[str]:
        """The options that are whole words (not stems, not lemmas, not digits)."""
        return [o.text for o in self.options if o.kind == "word" and not o.text.isdigit()]


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
            if token[1:-1] not in ("seat", "percent"):
                raise PatternError(f"образец {text!r}: {token} — бывает {{seat}} или {{percent}}")
            stack[-1].append(_Slot(token[1:-1]))
        else:
            stack[-1].append(_Word(tuple(_option(option, text) for option in token.split("|"))))
    if len(stack) != 1:
        raise PatternError(f"образец {text!r}: '[' без ']'")
    if not stack[0]:
        raise PatternError(f"образец {text!r} пуст")
    if all(isinstance(element, _Optional) for element in stack[0]):  # it would match no word at all
        raise PatternError(f"образец {text!r}: всё в скобках — нужно хотя бы одно слово без них")
    return tuple(stack[0])


def _option(option: str, pattern: str) -> _Option:
    if option.startswith("~"):
        kind, option = "lemma", option[1:]
    elif option.endswith("*"):
        kind, option = "prefix", option[:-1]
    else:
        kind = "word"
    if not option or "-" in option:  # a hyphenated word is heard as its parts: write them apart
        raise PatternError(f"образец {pattern!r}: слово {option!r} — не одно слово (через дефис — раздельно)")
    return _Option(option, kind)


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
    if head.name == "percent":  # a per cent a player may not claim: one to three words
        for length in range(min(3, len(tokens) - at), 0, -1):
            claimed = _percent_words().get(tuple(tokens[at : at + length]))
            if claimed is not None:
                yield from _match(rest, tokens, at + length, seats, (*found, claimed))
        return
    number = read_number(tokens[at])
    if number is not None and 1 <= number <= seats:
        yield from _match(rest, tokens, at + 1, seats, (*found, number))


def _may_begin(elements: tuple[_Element, ...], token: str) -> bool:
    """Whether a match of ``elements`` may begin with ``token`` (never False where one can)."""
    for element in elements:
        if isinstance(element, _Optional):
            if _may_begin(element.items, token):
                return True
            continue  # left out: the next element begins it
        if isinstance(element, _Word):
            return element.matches(token)
        if element.name == "percent":
            return any(said[0] == token for said in _percent_words())
        return read_number(token) is not None
    return True


# ---------------------------------------------------------------- the catalogue


PERCENT_WORD = "{percent}"  # a forbidden entry's word: the per cent claimed, named («девяносто процентов»)


@dataclass(frozen=True)
class _Rule:
    intent: str
    word: str | None
    patterns: tuple[tuple[_Element, ...], ...]
    kind: str | None = None  # a forbidden word's kind: честно | клятва | религия | проценты

    def named(self, found: tuple[int, ...]) -> str | None:
        """The word a remark names: the entry's, or the per cent claimed."""
        return percent(found[-1]) if self.word == PERCENT_WORD and found else self.word

    def names(self) -> list[str]:
        """Every word this rule may name."""
        if self.word == PERCENT_WORD:
            return [percent(n) for n in CERTAIN_PERCENTS]
        return [] if self.word is None else [self.word]


@dataclass(frozen=True)
class IntentPatterns:
    rules: tuple[_Rule, ...]
    end_words: frozenset[str]
    pass_words: frozenset[str] = frozenset()  # city (003): the nomination round's «никого»
    round_patterns: tuple[tuple[_Element, ...], ...] = ()  # city (003): «игрок номер N» in the round
    best_move_patterns: tuple[tuple[_Element, ...], ...] = ()  # the first night's victim's three seats
    # token -> the (rule, pattern)s that may begin with it, in order: a scan tries only those (a speech's
    # words are scanned again at every partial result, and most words begin nothing)
    _starting: dict[str, tuple[tuple[_Rule, tuple[_Element, ...]], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _kinds: dict[str, str | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def kind_of(self, word: str | None) -> str | None:
        """The kind of a forbidden word named ``word`` (one foul a kind at a time: :func:`repeated`)."""
        if not self._kinds:  # built once: the tracker asks at every partial result
            for rule in reversed([r for r in self.rules if r.intent == "forbidden"]):  # the first wins
                self._kinds.update(dict.fromkeys(rule.names(), rule.kind))
        return self._kinds.get(word or "")

    def forbidden_words(self) -> list[str]:
        """Every word a remark may name, in the file's order."""
        return [word for r in self.rules if r.intent == "forbidden" for word in r.names()]

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
                _Rule(
                    "forbidden",
                    entry["word"],
                    tuple(compile_pattern(p) for p in entry["patterns"]),
                    entry.get("kind", entry["word"]),
                )
                for entry in data.get("forbidden", [])
            ]
            end_words = frozenset(normalise(word) for word in data["end"]["words"])
            pass_words = frozenset(normalise(word) for word in data.get("pass", {}).get("words", []))
            round_patterns = tuple(compile_pattern(p) for p in data.get("round", {}).get("patterns", []))
            best_moves = tuple(compile_pattern(p) for p in data.get("best_move", {}).get("patterns", []))
        except tomllib.TOMLDecodeError as exc:
            raise PatternError(f"{source}: ошибка в TOML{toml_place(exc)}") from None
        except PatternError:  # a pattern's own line («'[' без ']'», a hyphenated word): as it is
            raise
        except (RecursionError, ValueError):  # nested too deep, a number of thousands of digits
            raise PatternError(f"{source}: ошибка в TOML: файл не читается как образцы") from None
        except KeyError as exc:
            raise PatternError(f"{source}: нет записи {exc}") from None
        except TypeError:
            raise PatternError(f"{source}: не тот вид записи ('patterns', 'words' — списки строк)") from None
        return cls(tuple(rules), end_words, pass_words, round_patterns, best_moves)

    def parse(self, text: str, seats: int) -> list[Intent]:
        """The intents of a transcript, in order. A forbidden word of a kind
        given less than REPEAT_S before, the transcript timed as if said
        (:func:`spoken_times`), is the same foul: as the live device counts."""
        times = spoken_times(text)
        tokens = tokenise(text)
        found: list[Intent] = []
        given: list[tuple[str, float]] = []
        for start, _, intent in self.matches(tokens, seats):
            if intent.intent == "forbidden":
                kind = self.kind_of(intent.word) or ""
                if repeated(kind, times[start], given):
                    continue
                given.append((kind, times[start]))
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
                if isinstance(element, _Word):
                    words.update(element.words())
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
                not isinstance(e, _Word) or any(o.kind != "word" or knows(o.text) for o in e.options)
                for e in elements
            )

        def has_seat(elements: tuple[_Element, ...]) -> bool:
            return any(
                (isinstance(e, _Slot) and e.name == "seat")
                or (isinstance(e, _Optional) and has_seat(e.items))
                for e in elements
            )

        silent_seats = [
            n for n in range(1, seats + 1) if not any(knows(w) for w, m in number_words().items() if m == n)
        ]
        lines = []
        for rule in self.rules:
            word = "N процентов" if rule.word == PERCENT_WORD else rule.word
            name = rule.intent if word is None else f"{rule.intent} «{word}»"
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

    def _starts(self, token: str) -> tuple[tuple[_Rule, tuple[_Element, ...]], ...]:
        starting = self._starting.get(token)
        if starting is None:
            if len(self._starting) >= WORDS_KEPT:
                self._starting.clear()
            starting = tuple((r, p) for r in self.rules for p in r.patterns if _may_begin(p, token))
            self._starting[token] = starting
        return starting

    def _first_match(self, tokens: list[str], at: int, seats: int) -> tuple[int, Intent] | None:
        for rule, pattern in self._starts(tokens[at]):
            for end, found in _match(pattern, tokens, at, seats):
                if rule.intent == "best_move":
                    return end, Intent(rule.intent, seats=found)
                if rule.intent == "forbidden":
                    return end, Intent(rule.intent, word=rule.named(found))
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
        text = read_text(path, MAX_PATTERNS_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternError(f"{path}: не читается: {os_reason(exc)}") from None
    return IntentPatterns.from_toml(text, str(path))
