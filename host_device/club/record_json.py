"""A record as plain JSON data and back: what a box sends the club's
database (host_device/club/package.py) and what the club's pages read from
it. ``record_from_dict(record_to_dict(r)) == r`` for every record."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engine.roles import Role, Team
from host_device.base.errors import HostDeviceError
from host_device.club.record import (
    Ballot,
    BestMove,
    Departure,
    FoulRecord,
    GameRecord,
    NightAction,
    Nomination,
    SeatRecord,
    VoteRound,
)

FORMAT = 1  # the layout below; a reader refuses another


class BadRecordData(HostDeviceError):
    """Stored record data that does not read as a record."""


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    data = asdict(record)
    data["format"] = FORMAT
    data["extras"] = {str(seat): points for seat, points in record.extras.items()}
    return data


def record_from_dict(data: dict[str, Any]) -> GameRecord:
    """A record from its JSON data; data of another layout is BadRecordData naming what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        got = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BadRecordData(f"запись игры в формате {got!r}, а эта версия читает {FORMAT}")
    try:
        return GameRecord(
            id=int(data["id"]),
            started_at=str(data["started_at"]),
            finished_at=data["finished_at"],
            preset=str(data["preset"]),
            mode=str(data["mode"]),
            winner=None if data["winner"] is None else Team(data["winner"]),
            days=int(data["days"]),
            seats=tuple(
                SeatRecord(
                    seat=int(s["seat"]),
                    role=Role(s["role"]),
                    player=s["player"],
                    name=s["name"],
                    fouls=int(s["fouls"]),
                    left=None if s["left"] is None else Departure(**s["left"]),
                )
                for s in data["seats"]
            ),
            nominations=tuple(Nomination(**n) for n in data["nominations"]),
            ballots=tuple(Ballot(**b) for b in data["ballots"]),
            nights=tuple(NightAction(**{**n, "by": Role(n["by"])}) for n in data["nights"]),
            rounds=tuple(  # absent from a record sent before they were kept (see vote_rounds)
                VoteRound(**{**r, "counts": tuple((int(c), int(n)) for c, n in r["counts"])})
                for r in data.get("rounds", ())
            ),
            nights_played=tuple(int(n) for n in data.get("nights_played", ())),
            best_move=None
            if data["best_move"] is None
            else BestMove(
                int(data["best_move"]["seat"]),
                tuple(int(s) for s in data["best_move"]["named"]),
                int(data["best_move"]["black"]),
            ),
            extras={int(seat): float(points) for seat, points in data["extras"].items()},
            uuid=data.get("uuid"),
            fouls=tuple(_foul(f) for f in data.get("fouls", [])),  # none in a record from before
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadRecordData(f"запись игры не читается ({type(exc).__name__}: {exc})") from None


def _foul(data: dict[str, Any]) -> FoulRecord:
    """A foul (what the device heard and a withdrawal: absent from a record sent before issue 45)."""
    confidence = data.get("confidence", [])
    if not isinstance(confidence, list | tuple):
        raise TypeError("confidence: a list of numbers")
    return FoulRecord(**{**data, "confidence": tuple(float(c) for c in confidence)})
