"""Game scripts for ``host-device play``: reading and checking them.

Every problem is a :class:`ScriptError` whose message names the place in the
file (``days[0].votes[1]["5"]``) and what is wrong there.
"""

from __future__ import annotations

import errno
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import BadTable, Preset, Role, UnknownPreset, get_preset
from engine.presets import CLASSIC, MAX_SEATS, TABLE_SIZES, DayFormat
from host_device.base.errors import HostDeviceError
from host_device.base.files import read_text
from host_device.base.text import shorten
from host_device.config import Strictness

SIZES = f"{TABLE_SIZES[0]} … {MAX_SEATS}"

# Named limits on what a script may carry (docs/engine.md, "Input limits"); each error names its limit.
MAX_SCRIPT_BYTES = 1_000_000
MAX_DAYS = 40  # days (and nights) in a script: far more than any game lasts
MAX_FOULS = 10  # fouls for one seat in one entry (the fourth already disqualifies)
MAX_VOTE_ROUNDS = 10  # vote rounds in a day (a main vote, revotes, the all-leave question)
MAX_VOTERS = 100  # presses listed for one candidate (repeats are the engine's to refuse)
MAX_TEXT = 5_000  # characters in one transcript or comment
QUOTED = 24  # characters of a value quoted in a message

# The pacing of a transcript (part of the format, so that ``play`` and
# ``simulate`` hear the same words): a speaker's first utterance (a
# nomination or a withdrawal; in the city's round, each name or «пас») comes
# FIRST_WORDS_S after his time starts, each next one UTTERANCE_GAP_S later
# (ROUND_GAP_S in the city's round). One said at or after the end of his time
# is not heard (004: nominations «в течение своей речи и только в это время»)
# and is reported under ``ignored``.
FIRST_WORDS_S = 1.0
UTTERANCE_GAP_S = 2.0
MAX_OVER_S = 60  # a script's speaker going on after «Время!»: at most this long
ROUND_GAP_S = 1.0


def said_at(index: int, gap: float) -> float:
    """When the utterance ``index`` (from 0) of a transcript is said, in seconds into the speaker's time."""
    return FIRST_WORDS_S + index * gap


def too_late(at: float, seconds: int | None) -> str | None:
    """Why an utterance said ``at`` seconds into a time of ``seconds`` is not heard, or None."""
    if seconds is None or at < seconds:
        return None
    return f"said {at:g} s into a time of {seconds} s: after the time was up"


class ScriptError(HostDeviceError, ValueError):
    def __init__(self, where: str, message: str) -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class ScriptDay:
    fouls: dict[int, int] = field(default_factory=dict)
    speeches: dict[int, str] = field(default_factory=dict)
    late_fouls: dict[int, int] = field(default_factory=dict)
    # a speaker who goes on talking this many seconds after «Время!» has been said (simulate only:
    # the device's grace, its «…, время!» and the foul are a matter of the clock; docs/fouls.md)
    over: dict[int, float] = field(default_factory=dict)
    votes: list[dict[str, list[int]]] = field(default_factory=list)  # keys: seat or "all"
    golden: list[int] = field(default_factory=list)  # city: the candidates who take the golden minute


@dataclass(frozen=True)
class ScriptNight:
    shots: dict[int, int] = field(default_factory=dict)
    checks: dict[Role, int] = field(default_factory=dict)  # checker role -> seat checked
    visits: dict[Role, int] = field(default_factory=dict)  # city: the Doctor's heal, the Lover's visit
    best_move: tuple[int, ...] = ()  # the best move of the player this night kills, said in his last word


@dataclass(frozen=True)
class Script:
    preset: Preset
    roles: dict[int, Role]
    days: list[ScriptDay]
    nights: list[ScriptNight]
    strictness: Strictness = Strictness.WARN  # the device's fouls for the forbidden words heard


def load_script(path: Path) -> Script:
    try:
        text = read_text(path, MAX_SCRIPT_BYTES)  # a regular file, within the limit: a FIFO never blocks
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise ScriptError(
                str(path), f"the script is larger than {MAX_SCRIPT_BYTES:,} bytes (the limit)"
            ) from None
        raise ScriptError(str(path), f"cannot read the script: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScriptError(str(path), "the script is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{path}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise ScriptError(
            str(path), "arrays or objects nested too deeply (a script needs five levels)"
        ) from None
    except ValueError:  # an integer of thousands of digits
        raise ScriptError(str(path), "a number of over 4300 digits; seats and counts are small") from None
    return parse_script(data)


class _Reader:
    def __init__(self, preset: Preset) -> None:
        self.preset = preset

    def obj(self, value: Any, where: str, keys: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ScriptError(where, f"must be an object, not {_kind(value)}")
        unknown = sorted(set(value) - keys)
        if unknown:
            raise ScriptError(
                f"{where}.{shorten(unknown[0], QUOTED)}" if where else shorten(unknown[0], QUOTED),
                f"unknown key; known keys here: {', '.join(sorted(keys))}",
            )
        return value

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ScriptError(where, f"must be an object, not {_kind(value)}")
        return value

    def array(self, value: Any, where: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            raise ScriptError(where, f"must be an array, not {_kind(value)}")
        if len(value) > limit:
            raise ScriptError(where, f"{len(value)} entries; the limit is {limit}")
        return value

    def text(self, value: Any, where: str, what: str) -> str:
        if not isinstance(value, str):
            raise ScriptError(where, f"must be {what}, not {_kind(value)}")
        if len(value) > MAX_TEXT:
            raise ScriptError(where, f"{len(value)} characters; the limit is {MAX_TEXT}")
        return value

    def seat(self, value: Any, where: str) -> int:
        seats = self.preset.seats
        if isinstance(value, str) and value.isascii() and value.isdigit() and not value.startswith("0"):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            digits = " written with the digits 0-9" if isinstance(value, str) else ""
            raise ScriptError(where, f"must be a seat number 1..{seats}{digits}, not {_kind(value)}")
        if not 1 <= value <= seats:
            seat = shorten(value, QUOTED)
            raise ScriptError(where, f"seat {seat} is out of range 1..{seats} ({self.preset.name})")
        return value

    def seat_key(self, key: str, where: str) -> int:
        return self.seat(key, f'{where}["{shorten(key, QUOTED)}"]')

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FOULS:
            raise ScriptError(where, f"must be a number of fouls from 0 to {MAX_FOULS}, not {_kind(value)}")
        return value

    def fouls(self, value: Any, where: str) -> dict[int, int]:
        data = self.mapping(value, where)
        return {self.seat_key(k, where): self.count(v, f'{where}["{k}"]') for k, v in data.items()}

    def over(self, value: Any, where: str) -> dict[int, float]:
        """Seconds a speaker goes on after «Время!», by seat: 0 … MAX_OVER_S."""
        data = self.mapping(value, where)
        over = {}
        for key, seconds in data.items():
            number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
            if not number or not 0 <= seconds <= MAX_OVER_S:
                raise ScriptError(
                    f'{where}["{shorten(key, QUOTED)}"]',
                    f"must be seconds from 0 to {MAX_OVER_S} after «Время!», not {_kind(seconds)}",
                )
            over[self.seat_key(key, where)] = float(seconds)
        return over

    def seats(self, value: Any, where: str) -> list[int]:
        return [self.seat(v, f"{where}[{i}]") for i, v in enumerate(self.array(value, where, MAX_VOTERS))]


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int | float):
        return f"{shorten(value, QUOTED)} (a number)"
    if isinstance(value, str):
        return f'"{shorten(value, QUOTED)}" (a string)'
    return "an array" if isinstance(value, list) else "an object"


def parse_script(data: Any) -> Script:
    if not isinstance(data, dict):
        raise ScriptError("", f"the script must be a JSON object, not {_kind(data)}")
    name = data.get("preset", CLASSIC.name)
    if not isinstance(name, str):
        raise ScriptError("preset", f"must be a preset name, not {_kind(name)}")
    try:
        preset = get_preset(name)
    except UnknownPreset as exc:
        raise ScriptError("preset", str(exc)) from None
    city = preset.day_format is DayFormat.DISCUSSION
    if city:  # a variable table: the script names it
        if "seats" not in data:
            raise ScriptError("seats", f'the {name} rules need the table\'s size: "seats": {SIZES}')
        seats = data["seats"]
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise ScriptError("seats", f"must be a number of seats {SIZES}, not {_kind(seats)}")
        try:
            preset = get_preset(name, seats)
        except BadTable as exc:
            raise ScriptError("seats", str(exc)) from None
    read = _Reader(preset)
    keys = {"preset", "roles", "days", "nights", "comment", "strictness", *(("seats",) if city else ())}
    read.obj(data, "", keys)
    strictness = data.get("strictness", Strictness.WARN.value)
    if not isinstance(strictness, str) or strictness not in {s.value for s in Strictness}:
        raise ScriptError("strictness", f'must be "off", "warn" or "foul", not {_kind(strictness)}')
    _comment(read, data, "")
    roles = _roles(read, data.get("roles", {}))
    days = [
        _day(read, d, f"days[{i}]") for i, d in enumerate(read.array(data.get("days", []), "days", MAX_DAYS))
    ]
    nights = [
        _night(read, n, f"nights[{i}]")
        for i, n in enumerate(read.array(data.get("nights", []), "nights", MAX_DAYS))
    ]
    return Script(preset=preset, roles=roles, days=days, nights=nights, strictness=Strictness(strictness))


def _comment(read: _Reader, data: dict[str, Any], where: str) -> None:
    if "comment" in data:
        read.text(data["comment"], f"{where}.comment" if where else "comment", "a string")


def _roles(read: _Reader, value: Any) -> dict[int, Role]:
    preset = read.preset
    allowed = [*sorted(role.value for role in preset.special_roles), Role.CIVILIAN.value]
    roles: dict[int, Role] = {}
    for key, name in read.mapping(value, "roles").items():
        seat = read.seat_key(key, "roles")
        if name not in allowed:
            raise ScriptError(
                f'roles["{key}"]',
                f"unknown role {_kind(name)} in the {preset.name} preset; roles: {', '.join(allowed)}",
            )
        roles[seat] = Role(name)
    for role, want in preset.roles:
        got = sum(1 for r in roles.values() if r is role)
        if got != want:
            raise ScriptError(
                "roles", f"the {preset.name} preset needs {want} {role.value}, the script gives {got}"
            )
    return roles


def _day(read: _Reader, value: Any, where: str) -> ScriptDay:
    city = read.preset.day_format is DayFormat.DISCUSSION
    keys = (
        {"speeches", "golden", "votes", "comment"}
        if city
        else {"fouls", "speeches", "late_fouls", "over", "votes", "comment"}
    )
    data = read.obj(value, where, keys)
    _comment(read, data, where)
    speeches: dict[int, str] = {}
    for key, text in read.mapping(data.get("speeches", {}), f"{where}.speeches").items():
        seat = read.seat_key(key, f"{where}.speeches")
        speeches[seat] = read.text(text, f'{where}.speeches["{key}"]', "a transcript string")
    votes: list[dict[str, list[int]]] = []
    for i, rnd in enumerate(read.array(data.get("votes", []), f"{where}.votes", MAX_VOTE_ROUNDS)):
        at = f"{where}.votes[{i}]"
        votes.append(
            {
                ("all" if key == "all" else str(read.seat_key(key, at))): read.seats(voters, f'{at}["{key}"]')
                for key, voters in read.mapping(rnd, at).items()
            }
        )
    return ScriptDay(
        fouls=read.fouls(data.get("fouls", {}), f"{where}.fouls"),
        speeches=speeches,
        late_fouls=read.fouls(data.get("late_fouls", {}), f"{where}.late_fouls"),
        over=read.over(data.get("over", {}), f"{where}.over"),
        votes=votes,
        golden=read.seats(data.get("golden", []), f"{where}.golden"),
    )


def _night(read: _Reader, value: Any, where: str) -> ScriptNight:
    checkers = {rule.checker.value: rule.checker for rule in read.preset.checks}
    visitors = {role.value: role for role in read.preset.visits}
    keys = {"shots", "comment", *checkers, *visitors, *(("best_move",) if read.preset.best_move else ())}
    data = read.obj(value, where, keys)
    _comment(read, data, where)
    shots = {
        read.seat_key(key, f"{where}.shots"): read.seat(target, f'{where}.shots["{key}"]')
        for key, target in read.mapping(data.get("shots", {}), f"{where}.shots").items()
    }
    checks = {
        role: read.seat(data[name], f"{where}.{name}") for name, role in checkers.items() if name in data
    }
    visits = {
        role: read.seat(data[name], f"{where}.{name}") for name, role in visitors.items() if name in data
    }
    best_move = tuple(read.seats(data.get("best_move", []), f"{where}.best_move"))
    return ScriptNight(shots=shots, checks=checks, visits=visits, best_move=best_move)
