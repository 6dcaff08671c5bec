"""Game scripts for ``host-device play``: reading and checking them.

Every problem is a :class:`ScriptError` whose message names the place in the
file (``days[0].votes[1]["5"]``) and what is wrong there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import HostDeviceError, Preset, Role, UnknownPreset, get_preset


class ScriptError(HostDeviceError, ValueError):
    def __init__(self, where: str, message: str) -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class ScriptDay:
    fouls: dict[int, int] = field(default_factory=dict)
    speeches: dict[int, str] = field(default_factory=dict)
    late_fouls: dict[int, int] = field(default_factory=dict)
    votes: list[dict[str, list[int]]] = field(default_factory=list)  # keys: seat or "all"


@dataclass(frozen=True)
class ScriptNight:
    shots: dict[int, int] = field(default_factory=dict)
    checks: dict[Role, int] = field(default_factory=dict)  # checker role -> seat checked


@dataclass(frozen=True)
class Script:
    preset: Preset
    roles: dict[int, Role]
    days: list[ScriptDay]
    nights: list[ScriptNight]


def load_script(path: Path) -> Script:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(str(path), f"cannot read the script: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScriptError(str(path), "the script is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{path}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}") from None
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
                f"{where}.{unknown[0]}" if where else unknown[0],
                f"unknown key; known keys here: {', '.join(sorted(keys))}",
            )
        return value

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ScriptError(where, f"must be an object, not {_kind(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise ScriptError(where, f"must be an array, not {_kind(value)}")
        return value

    def seat(self, value: Any, where: str) -> int:
        seats = self.preset.seats
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScriptError(where, f"must be a seat number 1..{seats}, not {_kind(value)}")
        if not 1 <= value <= seats:
            raise ScriptError(where, f"seat {value} is out of range 1..{seats} ({self.preset.name})")
        return value

    def seat_key(self, key: str, where: str) -> int:
        return self.seat(key, f'{where}["{key}"]')

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScriptError(where, f"must be a whole number of fouls (0 or more), not {_kind(value)}")
        return value

    def fouls(self, value: Any, where: str) -> dict[int, int]:
        data = self.mapping(value, where)
        return {self.seat_key(k, where): self.count(v, f'{where}["{k}"]') for k, v in data.items()}

    def seats(self, value: Any, where: str) -> list[int]:
        return [self.seat(v, f"{where}[{i}]") for i, v in enumerate(self.array(value, where))]


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int | float):
        return f"{value} (a number)"
    if isinstance(value, str):
        return f'"{value}" (a string)'
    return "an array" if isinstance(value, list) else "an object"


def parse_script(data: Any) -> Script:
    if not isinstance(data, dict):
        raise ScriptError("", f"the script must be a JSON object, not {_kind(data)}")
    name = data.get("preset", "classic")
    if not isinstance(name, str):
        raise ScriptError("preset", f"must be a preset name, not {_kind(name)}")
    try:
        preset = get_preset(name)
    except UnknownPreset as exc:
        raise ScriptError("preset", str(exc)) from None
    read = _Reader(preset)
    read.obj(data, "", {"preset", "roles", "days", "nights", "comment"})
    roles = _roles(read, data.get("roles", {}))
    days = [_day(read, d, f"days[{i}]") for i, d in enumerate(read.array(data.get("days", []), "days"))]
    nights = [
        _night(read, n, f"nights[{i}]") for i, n in enumerate(read.array(data.get("nights", []), "nights"))
    ]
    return Script(preset=preset, roles=roles, days=days, nights=nights)


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
    data = read.obj(value, where, {"fouls", "speeches", "late_fouls", "votes", "comment"})
    speeches: dict[int, str] = {}
    for key, text in read.mapping(data.get("speeches", {}), f"{where}.speeches").items():
        seat = read.seat_key(key, f"{where}.speeches")
        if not isinstance(text, str):
            raise ScriptError(f'{where}.speeches["{key}"]', f"must be a transcript string, not {_kind(text)}")
        speeches[seat] = text
    votes: list[dict[str, list[int]]] = []
    for i, rnd in enumerate(read.array(data.get("votes", []), f"{where}.votes")):
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
        votes=votes,
    )


def _night(read: _Reader, value: Any, where: str) -> ScriptNight:
    checkers = {rule.checker.value: rule.checker for rule in read.preset.checks}
    data = read.obj(value, where, {"shots", "comment", *checkers})
    shots = {
        read.seat_key(key, f"{where}.shots"): read.seat(target, f'{where}.shots["{key}"]')
        for key, target in read.mapping(data.get("shots", {}), f"{where}.shots").items()
    }
    checks = {
        role: read.seat(data[name], f"{where}.{name}") for name, role in checkers.items() if name in data
    }
    return ScriptNight(shots=shots, checks=checks)
