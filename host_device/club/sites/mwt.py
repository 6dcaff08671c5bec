"""A finished game as Mafia World Tour's (FIIM) game: the object mafiaratings
sends to MWT and reads from it (``include/mwt_game.php``: ``convert_game_to_mwt``
writes it, ``convert_mwt_game`` reads it; github.com/szotin/mafiaratings at
0ab7207). Quoted in docs/club.md. A leave's ``nights_before_count`` and
``days_before_count`` are the nights and days played before it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engine.roles import Role, Team
from host_device.club.record import GameRecord, SeatRecord, vote_rounds
from host_device.club.sites import SiteGame, classic_only, unlinked

SITE = "mwt"
ROLES = {Role.CIVILIAN: "red", Role.MAFIA: "black", Role.SHERIFF: "sheriff", Role.DON: "don"}
VOTED, KILLED, DISQUALIFIED = 1, 2, 3  # leave_type: заголосован днём, убит ночью, дисквалифицирован
DISCIPLINARY = -0.5  # their penalty_disciplinary of a disqualified player (kickOut, warnings)


def _time(stamp: str | None) -> str | None:
    """Their start_time / end_time: PHP's date('Y-m-d G:i:s') on the local clock."""
    if stamp is None:
        return None
    moment = datetime.fromisoformat(stamp).astimezone()
    return f"{moment:%Y-%m-%d} {moment.hour}:{moment:%M:%S}"


def _leave(record: GameRecord, seat: SeatRecord) -> dict[str, Any] | None:
    left = seat.left
    if left is None:
        return None
    votes = 0
    if left.how == "vote":
        kind, nights, days = VOTED, (left.day or 1) - 1, left.day or 1
        last = [r for r in vote_rounds(record) if r.day == left.day and r.kind != "all"]
        votes = dict(last[-1].counts).get(seat.seat, 0) if last else 0
    elif left.how == "shot":
        kind, nights, days = KILLED, left.night or 0, left.night or 0
    elif left.day is not None:
        kind, nights, days = DISQUALIFIED, left.day - 1, left.day
    else:
        kind, nights, days = DISQUALIFIED, left.night or 0, left.night or 0
    return {
        "leave_type": kind,
        "votes_count": votes,
        "nights_before_count": nights,
        "days_before_count": days,
        "p_num": seat.seat,
    }


def _leaves(record: GameRecord) -> list[dict[str, Any]]:
    """The leaves in their order, each with the players before it, how many left along with
    it (one vote's seats together) and whether it ended the game, as convert_game_to_mwt."""
    leaves = [x for x in (_leave(record, s) for s in record.seats) if x is not None]
    leaves.sort(key=lambda x: (x["nights_before_count"], x["days_before_count"], x["leave_type"]))
    begin = 0
    for i, leave in enumerate(leaves):
        leave["players_before_count"] = len(record.seats) - i
        leave["game_ended"] = int(i == len(leaves) - 1)
        prev = leaves[begin]
        if i > 0 and (
            leave["leave_type"] != VOTED
            or prev["leave_type"] != VOTED
            or (leave["nights_before_count"], leave["days_before_count"])
            != (prev["nights_before_count"], prev["days_before_count"])
        ):
            for j in range(begin, i):
                leaves[j]["leave_along_count"] = i - begin
            begin = i
    for j in range(begin, len(leaves)):
        leaves[j]["leave_along_count"] = len(leaves) - begin
    return leaves


def _reveals(record: GameRecord, role: Role) -> list[int | None]:
    """The seat the role checked each night, in order of nights (None: no check that night)."""
    nights = {a.night: a.target for a in record.nights if a.kind == "check" and a.by is role}
    return [nights.get(n) for n in range(1, max(nights) + 1)] if nights else []


def export(record: GameRecord, ids: Mapping[str, str]) -> SiteGame:
    """The game's object for MWT; ``ids``: a player's roster id -> his id there."""
    classic_only(record, SITE)
    extras = [record.extras.get(s.seat, 0.0) for s in record.seats]
    best = record.best_move
    result: dict[str, Any] = {
        "start_time": _time(record.started_at),
        "end_time": _time(record.finished_at),
        "result": "black" if record.winner is Team.BLACK else "red",
        "black_count": sum(s.left is None and s.team is Team.BLACK for s in record.seats),
        "red_count": sum(s.left is None and s.team is Team.RED for s in record.seats),
        "players": [
            (int(ids[s.player]) if ids[s.player].isdecimal() else ids[s.player])
            if s.player is not None and s.player in ids
            else None
            for s in record.seats
        ],
        "is_replacement": [0] * len(record.seats),
        "player_roles": [ROLES[s.role] for s in record.seats],
        "game_autobonus": [1] * len(record.seats),
        "game_bonus": [max(x, 0.0) for x in extras],
        "penalty": [min(x, 0.0) for x in extras],
        "penalty_disciplinary": [
            DISCIPLINARY if s.left is not None and s.left.how == "disqualified" else 0 for s in record.seats
        ],
        "reveal_don": _reveals(record, Role.DON),
        "reveal_sheriff": _reveals(record, Role.SHERIFF),
        "player_fouls": [s.fouls for s in record.seats],
        "leaves": _leaves(record),
        "comment": "",
    }
    first = [
        s.seat for s in record.seats if s.left is not None and s.left.how == "shot" and s.left.night == 1
    ]
    if first:  # the first killed; his best move, if he made one
        result["killed_first"] = first[0]
        if best is not None and best.seat == first[0]:
            result |= {"best_move_value": list(best.named), "best_move": best.black}
    data: dict[str, object] = {
        "tournament_id": None,
        "table_number": None,
        "session_number": None,
        "result": result,
    }
    return SiteGame(SITE, record.id, data, _lost(record), unlinked(record, ids))


def _lost(record: GameRecord) -> tuple[str, ...]:
    lost = [
        "выставления, каждый голос и выстрелы (у MWT только итог: кто ушёл и сколько голосов)",
        "судья и турнир, стол, тур MWT (tournament_id, table_number, session_number: впишите с сайта)",
    ]
    if any(not f.withdrawn for f in record.fouls):
        lost.append("моменты замечаний (только их число)")
    return tuple(lost)
