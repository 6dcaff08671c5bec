"""The phrase catalogue: keys to Russian text with slots, loaded from data.

A phrase is planned as a list of clips and pauses: one clip for each stretch
of text between slots, one for each slot value, and a pause for the
punctuation between them. A voice pack holds exactly the clips that
:meth:`Catalogue.clips` lists.

A list of seats is said "три, пять и восемь" (the last joined by
:data:`AND`). A phrase may have two texts, ``{ one = "…", many = "…" }``: the
``one`` text is said when its list holds one seat («выставлен игрок номер
восемь» beside «выставлены игроки номер три и пять»). The text of a phrase
starts each sentence with a capital, whatever word a slot puts there
(«Дон засыпает.»).

The ``[spoken]`` table says how a neural voice (Piper) is to say a phrase or a
slot's value whose stress its phonemizer gets wrong: the same text with «+»
before the stressed vowel (voices/stress.py), or ё written for е. It is keyed
like ``[phrases]`` (a phrase key) or by a value's clip (``"seat=7"``);
:attr:`Catalogue.spoken` holds the clips whose spoken text differs.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from host_device.base.files import read_text
from voices.errors import CatalogueError, SlotError, UnknownPhrase
from voices.forms import FORMS
from voices.stress import MARK, check, unmarked

SLOT_FIELDS = ("seat", "seats", "count", "seconds", "role", "team", "word")  # fields of engine.outputs.Say
_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")
_EDGE = re.compile(r"^([^\w]*)(.*?)([^\w?!.]*)$", re.S)
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([^\W\d_])")
AND = "word=and"  # the clip of «и» before the last seat of a list
AND_TEXT = "и"
LIST_FIELD = "seats"

PAUSE_WORD_MS = 40  # between clips with only a space between them
PAUSE_COMMA_MS = 150  # , : — ;
PAUSE_STOP_MS = 300  # . ! ?


def pause_for(punctuation: str) -> int:
    if any(ch in punctuation for ch in ".!?"):
        return PAUSE_STOP_MS
    if any(ch in punctuation for ch in ",:;—–-"):
        return PAUSE_COMMA_MS
    return PAUSE_WORD_MS


@dataclass(frozen=True)
class Clip:
    key: str
    text: str


@dataclass(frozen=True)
class Pause:
    ms: int


PlanItem = Clip | Pause


@dataclass(frozen=True)
class _Text:
    key: str
    text: str  # spoken text, with its closing ?!. kept for intonation
    before: str  # punctuation before it
    after: str  # punctuation after it


@dataclass(frozen=True)
class _Slot:
    field: str
    form: str


@dataclass(frozen=True)
class Phrase:
    key: str
    template: str
    parts: tuple[_Text | _Slot, ...]
    one: Phrase | None = None  # said instead when the list slot holds one seat

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(p.field for p in self.parts if isinstance(p, _Slot))


def _parse(key: str, template: str) -> Phrase:
    parts: list[_Text | _Slot] = []
    pos = 0
    pieces = 0
    for match in [*_SLOT.finditer(template), None]:
        raw = template[pos : match.start() if match else len(template)]
        lead, words, trail = _EDGE.match(raw).groups()  # type: ignore[union-attr]
        if words.strip():
            parts.append(_Text(f"{key}#{pieces}", words.strip(), lead, trail + _closing(words)))
            pieces += 1
        elif raw.strip() and parts:
            parts.append(_Text("", "", raw, ""))  # punctuation only: a pause marker
        if match is None:
            break
        field = match.group(1)
        if field not in SLOT_FIELDS:
            raise CatalogueError(f"phrase {key!r}: unknown slot {{{field}}}; slots: {', '.join(SLOT_FIELDS)}")
        form = _form_of(field, match.group(2))
        if form not in FORMS:
            raise CatalogueError(f"phrase {key!r}: unknown form {form!r}; forms: {', '.join(FORMS)}")
        parts.append(_Slot(field, form))
        pos = match.end()
    return Phrase(key, template, tuple(parts))


def _phrase(key: str, text: str | Mapping[str, str]) -> Phrase:
    if isinstance(text, str):
        return _parse(key, text)
    return dataclasses.replace(_parse(key, text["many"]), one=_parse(f"{key}.one", text["one"]))


def _marked_with_placeholder(text: str | Mapping[str, str]) -> str | Mapping[str, str]:
    if isinstance(text, str):
        return text.replace(MARK, _PLACEHOLDER)
    return {form: t.replace(MARK, _PLACEHOLDER) for form, t in text.items()}


def listed(words: list[str]) -> str:
    """ "три", "три и пять", "три, пять и восемь"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {AND_TEXT} {words[-1]}"


def _form_of(field: str, form: str | None) -> str:
    return form or ("seat" if field == "seats" else field)


def slot_clip_key(form: str, value: int | str) -> str:
    return f"{form}={value}"


def _closing(words: str) -> str:
    stripped = words.rstrip()
    return stripped[-1] if stripped and stripped[-1] in "?!." else ""


_PLACEHOLDER = "ǂ"  # a letter no phrase has: a stress mark inside a word while the text is parsed


def _folded(text: str) -> str:
    return text.replace("ё", "е").replace("Ё", "Е")


def _texts(phrase: Phrase) -> dict[str, str]:
    every = [p for p in (phrase, phrase.one) if p is not None]
    return {part.key: part.text for p in every for part in p.parts if isinstance(part, _Text) and part.text}


def _slots(phrase: Phrase) -> list[tuple[str, ...]]:
    return [p.slots for p in (phrase, phrase.one) if p is not None]


class Catalogue:
    def __init__(
        self,
        phrases: Mapping[str, str | Mapping[str, str]],
        language: str = "ru",
        spoken: Mapping[str, str | Mapping[str, str]] | None = None,
    ) -> None:
        self.language = language
        self.phrases = {key: _phrase(key, text) for key, text in phrases.items()}
        self.spoken: dict[str, str] = {}  # clip key -> the text a neural voice is given, where it differs
        for key, text in (spoken or {}).items():
            self.spoken.update(self._spoken(key, text))

    def _spoken(self, key: str, text: str | Mapping[str, str]) -> dict[str, str]:
        """The clips of one ``[spoken]`` entry whose text differs, each checked against its clip."""
        if key in self.phrases and (isinstance(text, str) or set(text) == {"one", "many"}):
            marked = _phrase(key, _marked_with_placeholder(text))
            wanted = _texts(self.phrases[key])
            said = {k: v.replace(_PLACEHOLDER, MARK) for k, v in _texts(marked).items()}
            if _slots(marked) != _slots(self.phrases[key]):
                said = {}  # its slots differ
        elif key in self.clips() and isinstance(text, str):
            wanted, said = {key: self.clips()[key]}, {key: text}
        else:
            raise CatalogueError(
                f"spoken {key!r}: no such phrase or clip, or not its shape (a text, or one and many)"
            )
        if set(said) != set(wanted):
            raise CatalogueError(f"spoken {key!r}: its slots and clips differ from the phrase's")
        for clip, marked_text in said.items():
            check(marked_text, f"spoken {key!r}")
            if _folded(unmarked(marked_text)) != _folded(wanted[clip]):
                raise CatalogueError(
                    f"spoken {key!r}: {unmarked(marked_text)!r} is not {wanted[clip]!r} "
                    f"(only {MARK!r} marks and ё may differ)"
                )
        return {clip: text for clip, text in said.items() if text != wanted[clip]}

    @classmethod
    def from_toml(cls, text: str, source: str = "catalogue") -> Catalogue:
        try:
            data = tomllib.loads(text)
            phrases = data["phrases"]
            language = data.get("meta", {}).get("language", "ru")
        except tomllib.TOMLDecodeError as exc:
            raise CatalogueError(f"{source}: not valid TOML: {exc}") from None
        except KeyError:
            raise CatalogueError(f"{source}: no [phrases] table") from None
        for key, value in phrases.items():
            if isinstance(value, dict):
                if set(value) != {"one", "many"} or not all(isinstance(v, str) for v in value.values()):
                    raise CatalogueError(
                        f"{source}: phrase {key!r} must be a string or {{ one = \"…\", many = \"…\" }}"
                    )
            elif not isinstance(value, str):
                raise CatalogueError(f"{source}: phrase {key!r} must be a string")
        spoken = data.get("spoken", {})
        if not isinstance(spoken, dict) or not all(isinstance(v, str | dict) for v in spoken.values()):
            raise CatalogueError(f"{source}: [spoken] must map keys to texts")
        return cls(phrases, language, spoken)

    def names(self) -> list[str]:
        return sorted(self.phrases)

    def phrase(self, key: str) -> Phrase:
        try:
            return self.phrases[key]
        except KeyError:
            raise UnknownPhrase(key, difflib.get_close_matches(key, self.phrases, n=3)) from None

    # ------------------------------------------------------------ planning

    def _chosen(self, key: str, slots: Mapping[str, Any]) -> Phrase:
        """The phrase, or its ``one`` text when its list holds one seat."""
        phrase = self.phrase(key)
        listed = slots.get(LIST_FIELD)
        if phrase.one is not None and listed is not None and len(tuple(listed)) == 1:
            return phrase.one
        return phrase

    def plan(self, key: str, slots: Mapping[str, Any] | None = None) -> list[PlanItem]:
        """The clips and pauses that say ``key`` with these slot values."""
        slots = slots or {}
        phrase = self._chosen(key, slots)
        items: list[PlanItem] = []
        pending = ""  # punctuation since the last clip
        for part in phrase.parts:
            if isinstance(part, _Text):
                pending += part.before
                if part.text:
                    self._clip(items, Clip(part.key, part.text), pending)
                    pending = part.after
                continue
            values = self._values(phrase, part, slots)
            for n, value in enumerate(values):
                if n and n == len(values) - 1:
                    self._clip(items, Clip(AND, AND_TEXT), "")
                    pending = ""
                self._clip(
                    items, Clip(slot_clip_key(part.form, value), FORMS[part.form].words(value)), pending
                )
                pending = ","  # between the seats of a list
            pending = ""
        return items

    @staticmethod
    def _clip(items: list[PlanItem], clip: Clip, punctuation: str) -> None:
        if items:
            items.append(Pause(pause_for(punctuation)))
        items.append(clip)

    def _values(self, phrase: Phrase, part: _Slot, slots: Mapping[str, Any]) -> list[int | str]:
        if slots.get(part.field) is None:
            raise SlotError(f"phrase {phrase.key!r} needs the slot {part.field!r} ({phrase.template})")
        raw = slots[part.field]
        values = list(raw) if part.field == "seats" else [raw]
        known = FORMS[part.form].values()
        out: list[int | str] = []
        for value in values:
            value = getattr(value, "value", value)  # Role, Team
            if value not in known:
                allowed = (
                    f"{known[0]}..{known[-1]}" if isinstance(known[0], int) else ", ".join(map(str, known))
                )
                raise SlotError(
                    f"phrase {phrase.key!r}: {part.field}={value!r} cannot be said; it can be {allowed}"
                )
            out.append(value)
        return out

    def text(self, key: str, slots: Mapping[str, Any] | None = None) -> str:
        """The whole phrase as one text, exactly as it is said (for live
        synthesis, listings and ``say --text``)."""
        slots = slots or {}
        phrase = self._chosen(key, slots)

        def words(match: re.Match[str]) -> str:
            part = _Slot(match.group(1), _form_of(match.group(1), match.group(2)))
            return listed([FORMS[part.form].words(v) for v in self._values(phrase, part, slots)])

        text = _SLOT.sub(words, phrase.template)
        return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)

    def clips(self) -> dict[str, str]:
        """Every clip a complete pack holds: clip key -> text."""
        clips: dict[str, str] = {}
        every = [p for phrase in self.phrases.values() for p in (phrase, phrase.one) if p is not None]
        for phrase in every:
            for part in phrase.parts:
                if isinstance(part, _Slot) and part.field == LIST_FIELD:
                    clips[AND] = AND_TEXT
                if isinstance(part, _Text) and part.text:
                    clips[part.key] = part.text
                elif isinstance(part, _Slot):
                    for value in FORMS[part.form].values():
                        clips[slot_clip_key(part.form, value)] = FORMS[part.form].words(value)
        return dict(sorted(clips.items()))


@cache
def russian() -> Catalogue:
    source = resources.files("voices") / "data" / "ru.toml"
    return Catalogue.from_toml(source.read_text(encoding="utf-8"), str(source))


MAX_CATALOGUE_BYTES = 2_000_000  # a phrase catalogue given with --catalogue


def load_catalogue(path: Path | None) -> Catalogue:
    if path is None:
        return russian()
    try:
        return Catalogue.from_toml(read_text(path, MAX_CATALOGUE_BYTES), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    except (RecursionError, ValueError) as exc:  # nested too deep, thousands of digits (TOML's own: above)
        if isinstance(exc, CatalogueError):
            raise
        raise CatalogueError(f"{path}: not a phrase catalogue (nested too deep, or a huge number)") from None
