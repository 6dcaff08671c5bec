"""Inputs, events and effects as plain ``{"type": ..., ...}`` objects."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from engine.inputs import INPUT_TYPES, BestMove, DealRoles, Foul, Input
from engine.outputs import Output
from engine.roles import Role
from host_device.base.errors import HostDeviceError

_INPUTS = {cls.TYPE: cls for cls in INPUT_TYPES}


class BadRecord(HostDeviceError, ValueError):
    """A stored input that cannot be read back."""


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def to_dict(item: Input | Output) -> dict[str, Any]:
    data: dict[str, Any] = {"type": item.TYPE}
    for f in dataclasses.fields(item):
        value = getattr(item, f.name)
        if isinstance(item, DealRoles):
            value = {str(seat): role.value for seat, role in item.roles}
        data[f.name] = _plain(value)
    return data


def input_from_dict(data: dict[str, Any]) -> Input:
    cls = _INPUTS.get(data.get("type", ""))
    if cls is None:
        raise BadRecord(f"unknown input type {data.get('type')!r}")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        if cls is DealRoles:
            roles = tuple((int(seat), Role(role)) for seat, role in fields["roles"].items())
            return DealRoles(roles=roles)
        if cls is BestMove:  # a list in JSON, a tuple in the input
            if not isinstance(fields["seats"], list):
                raise TypeError("seats must be a list of seat numbers")
            fields["seats"] = tuple(fields["seats"])
        if cls is Foul and "confidence" in fields:  # the same; absent from a foul stored before it was kept
            if not isinstance(fields["confidence"], list):
                raise TypeError("confidence must be a list of numbers")
            fields["confidence"] = tuple(float(c) for c in fields["confidence"])
        return cls(**fields)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise BadRecord(f"bad {cls.TYPE} input {data!r}: {exc}") from None
