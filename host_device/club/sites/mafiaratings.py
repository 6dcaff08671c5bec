"""A finished game as mafiaratings' game JSON: what their ``api/ops/game.php``
``op=create`` takes (its ``json`` parameter, described by ``Game::api_help`` in
``include/game.php``; github.com/szotin/mafiaratings at 0ab7207). Quoted in
docs/club.md. Their round N is night N then day N: the club's day D is their
day D-1 (round D-1), the club's night N (after day N) their night N (round N)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.roles import Role, Team
from host_device.club.record import GameRecord, SeatRecord, vote_rounds
from host_device.club.sites import SiteGame, classic_only, unlinked, votes_of

SITE = "mafiaratings"
ROLES = {Role.CIVILIAN: "civ", Role.SHERIFF: "sheriff", Role.MAFIA: "maf", Role.DON: "don"}
WINNERS = {Team.RED: "civ", Team.BLACK: "maf"}
# the features letters this export fills: g don checks, s sheriff checks, d u t death with
# its round and type, l legacy (the best move), h shooting, v voting, n nominating, w warnings
FEATURES = "gsdutlhvnw"
FOULS_TO_LEAVE = 4  # «warnings»: four fouls; a host's disqualification for less is «kickOut»


def day_round(day: int) -> int:
    return day - 1


def _death(record: GameRecord, seat: SeatRecord) -> dict[str, Any] | None:
    left = seat.left
    if left is None:
        return None
    if left.how == "vote":
        return {"round": day_round(left.day or 1), "type": "day"}
    if left.how == "shot":
        return {"round": left.night or 0, "type": "night"}
    rnd = day_round(left.day) if left.day is not None else left.night or 0
    return {"round": rnd, "type": "warnings" if seat.fouls >= FOULS_TO_LEAVE else "kickOut"}


def _votes(record: GameRecord) -> dict[int, dict[int, list[int | bool]]]:
    """voter -> their round -> his votes that day in order (the kill-all answer as a boolean)."""
    votes: dict[int, dict[int, list[int | bool]]] = {}
    for vote in votes_of(record):
        votes.setdefault(vote.voter, {}).setdefault(day_round(vote.day), []).append(vote.target)
    return votes


def _by_round(values: Mapping[int, Any], first: int = 0) -> list[Any]:
    """{round: value} as their array, one item a round from ``first``, null where none."""
    if not values:
        return []
    return [values.get(rnd) for rnd in range(first, max(values) + 1)]


def export(record: GameRecord, ids: Mapping[str, str]) -> SiteGame:
    """The game's JSON object for mafiaratings; ``ids``: a player's roster id -> his id there."""
    classic_only(record, SITE)
    votes = _votes(record)
    players = []
    for seat in record.seats:
        player: dict[str, Any] = {"role": ROLES[seat.role]}
        if seat.player is not None and seat.player in ids:
            site_id = ids[seat.player]
            player["id"] = int(site_id) if site_id.isdecimal() else site_id
        if seat.name:
            player["name"] = seat.name
        death = _death(record, seat)
        if death is not None:
            player["death"] = death
        if seat.fouls:
            player["warnings"] = seat.fouls
        for action in record.nights:
            if (
                action.kind == "check"
                and action.target == seat.seat
                and action.by in (Role.DON, Role.SHERIFF)
            ):
                player[action.by.value] = action.night
        if record.extras.get(seat.seat):
            player["bonus"] = record.extras[seat.seat]
        if record.best_move is not None and record.best_move.seat == seat.seat:
            player["legacy"] = list(record.best_move.named)
        said = {rnd: v if len(v) > 1 else v[0] for rnd, v in votes.get(seat.seat, {}).items()}
        if said:
            player["voting"] = _by_round(said)
        named = {day_round(n.day): n.target for n in record.nominations if n.by == seat.seat}
        if named:
            player["nominating"] = _by_round(named)
        shots = {a.night: a.target for a in record.nights if a.kind == "shot" and a.seat == seat.seat}
        if shots:
            player["shooting"] = _by_round(shots, first=1)
        players.append(player)
    features = FEATURES + ("k" if any(r.kind == "all" for r in vote_rounds(record)) else "")
    data: dict[str, Any] = {
        "features": features,
        "startTime": record.started_at,
        "endTime": record.finished_at,
        "language": "ru",
        "winner": WINNERS[record.winner] if record.winner else None,
        "players": players,
    }
    return SiteGame(SITE, record.id, data, _lost(record), unlinked(record, ids))


def _lost(record: GameRecord) -> tuple[str, ...]:
    lost = ["судья (запись его не знает)", "правила (код правил сайта)"]
    if any(not f.withdrawn for f in record.fouls):
        lost.append("моменты замечаний и кто их дал (только их число)")
    if any(s.left is not None and s.left.how == "disqualified" and s.left.day is None for s in record.seats):
        lost.append("что удаление было ночью (у сайта только круг)")
    return tuple(lost)


def read(data: Mapping[str, Any]) -> dict[str, Any]:
    """Their JSON read back into the club's terms (what a round trip compares): roles by
    seat, each vote as (club day, voter, target or the kill-all answer) in order, each
    nomination (club day, by, target), each shot (night, by, target), each check
    (night, by role, target), each departure (seat, how, club day or night), the legacy."""
    roles, votes, nominations, shots, checks, left = {}, [], [], [], [], {}
    legacy: tuple[int, list[int]] | None = None
    back = {name: role for role, name in ROLES.items()}
    for seat, player in enumerate(data["players"], 1):
        roles[seat] = back[player.get("role", "civ")]
        for rnd, vote in enumerate(player.get("voting", [])):
            for one in vote if isinstance(vote, list) else [] if vote is None else [vote]:
                votes.append((rnd + 1, seat, one))
        for rnd, target in enumerate(player.get("nominating", [])):
            if target is not None:
                nominations.append((rnd + 1, seat, target))
        for night, target in enumerate(player.get("shooting", []), 1):
            if target is not None:
                shots.append((night, seat, target))
        for role in ("don", "sheriff"):
            if role in player:
                checks.append((player[role], role, seat))
        if "death" in player:
            death = player["death"]
            how = {"day": "vote", "night": "shot"}.get(death["type"], "disqualified")
            left[seat] = (how, death["round"] + 1 if death["type"] != "night" else death["round"])
        if "legacy" in player:
            legacy = (seat, player["legacy"])
    return {
        "roles": roles,
        "votes": sorted(votes),
        "nominations": sorted(nominations),
        "shots": sorted(shots),
        "checks": sorted(checks),
        "left": left,
        "legacy": legacy,
        "winner": data["winner"],
    }
