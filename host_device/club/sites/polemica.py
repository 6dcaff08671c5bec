"""A finished game as Polemica's game object: the body of ``POST
/v1/competitions/{id}/games`` as their own client library models a game
(github.com/Vyasma-Mafia/polemica-library at 23aa7c1,
``model/game/PolemicaGame.kt`` and its parts, read by ``utils/GameUtils.kt``).
Quoted in docs/club.md. Polemica's day D and night N are the club's (night N
follows day N); a vote's ``num`` 0 is the day's nominations (voter: who named,
candidate: whom), 1, 2 … its rounds, and no ``num`` an answer «yes» to the
all-leave question."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from engine.roles import Role, Team
from host_device.club.record import GameRecord, vote_rounds
from host_device.club.sites import SiteGame, classic_only, unlinked, votes_of

SITE = "polemica"
ROLES = {Role.DON: 0, Role.MAFIA: 1, Role.CIVILIAN: 2, Role.SHERIFF: 3}  # their enum Role
RESULTS = {Team.RED: 0, Team.BLACK: 1}  # their PolemicaGameResult: RED_WIN(0), BLACK_WIN(1)


def _moment(record: GameRecord, seconds: float) -> str:
    """A moment of the game as their LocalDateTime (the game's start plus ``seconds``)."""
    start = datetime.fromisoformat(record.started_at)
    moment = (start + timedelta(seconds=seconds)).astimezone()  # the box's local clock
    return moment.replace(tzinfo=None).isoformat(timespec="milliseconds")


def export(record: GameRecord, ids: Mapping[str, str]) -> SiteGame:
    """The game's object for Polemica; ``ids``: a player's roster id -> his id there."""
    classic_only(record, SITE)
    players = []
    for seat in record.seats:
        player: dict[str, Any] = {
            "position": seat.seat,
            "username": seat.name or f"Игрок {seat.seat}",
            "role": ROLES[seat.role],
            "techs": [],
            "fouls": [
                {"time": _moment(record, f.at), "stage": {"type": "speech", "day": f.day}}
                for f in record.fouls
                if f.seat == seat.seat and not f.withdrawn
            ],
        }
        if seat.player is not None and seat.player in ids:
            site_id = ids[seat.player]
            player["player"] = {"id": int(site_id) if site_id.isdecimal() else site_id, "username": seat.name}
        left = seat.left
        if left is not None and left.how == "disqualified":
            by_day = left.day is not None
            day = left.day if by_day else left.night
            player["disqual"] = {"type": "speech" if by_day else "shooting", "day": day}
        best = record.best_move
        if best is not None and best.seat == seat.seat:
            player["guess"] = {"mafs": list(best.named)}
        if record.extras.get(seat.seat):
            player["award"] = record.extras[seat.seat]
        players.append(player)
    votes: list[dict[str, Any]] = [
        {"day": n.day, "num": 0, "voter": n.by, "candidate": n.target} for n in record.nominations
    ]
    tied = {r.day: r.candidates for r in vote_rounds(record) if r.kind != "all"}
    for vote in votes_of(record):
        if isinstance(vote.target, bool):  # the all-leave question: a «yes» only, without num
            if vote.target and tied.get(vote.day):
                votes.append({"day": vote.day, "voter": vote.voter, "candidate": tied[vote.day][0]})
            continue
        votes.append({"day": vote.day, "num": vote.round, "voter": vote.voter, "candidate": vote.target})
    data: dict[str, Any] = {
        "started": _moment(record, 0),
        "result": RESULTS[record.winner] if record.winner else None,
        "players": players,
        "checks": [
            {"night": a.night, "role": ROLES[a.by], "player": a.target}
            for a in record.nights
            if a.kind == "check" and a.by in (Role.DON, Role.SHERIFF)
        ],
        "shots": [
            {"night": a.night, "shooter": a.seat, "victim": a.target}
            for a in record.nights
            if a.kind == "shot" and a.seat is not None
        ],
        "votes": votes,
        "bonuses": [],
    }
    return SiteGame(SITE, record.id, data, _lost(record), unlinked(record, ids))


def _lost(record: GameRecord) -> tuple[str, ...]:
    lost = ["судья (запись его не знает)", "номер игры и стол в турнире (задаются на сайте)"]
    if any(not f.withdrawn for f in record.fouls):
        lost.append("этап замечания (известны день и время, этап записан как речь)")
    return tuple(lost)


def read(data: Mapping[str, Any]) -> dict[str, Any]:
    """Their object read back into the club's terms, as mafiaratings.read gives them."""
    back = {number: role for role, number in ROLES.items()}
    roles = {p["position"]: back[p["role"]] for p in data["players"]}
    votes = [(v["day"], v["voter"], v["candidate"]) for v in data["votes"] if v.get("num")]
    nominations = [(v["day"], v["voter"], v["candidate"]) for v in data["votes"] if v.get("num") == 0]
    guess = next(((p["position"], p["guess"]["mafs"]) for p in data["players"] if "guess" in p), None)
    return {
        "roles": roles,
        "votes": sorted(votes),
        "nominations": sorted(nominations),
        "shots": sorted((s["night"], s["shooter"], s["victim"]) for s in data["shots"]),
        "checks": sorted(
            (c["night"], "don" if c["role"] == 0 else "sheriff", c["player"]) for c in data["checks"]
        ),
        "legacy": guess,
        "winner": "civ" if data["result"] == 0 else "maf",
    }
