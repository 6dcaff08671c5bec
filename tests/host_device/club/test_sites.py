"""The rating sites' formats (host_device/club/sites/): the example full game
in each, checked against a schema written from the site's own source (quoted
in docs/club.md) and field by field; mafiaratings' and Polemica's objects
read back into the same roles, votes, nominations, shots, checks and best move."""

import dataclasses
import re

import pytest

from engine.roles import Role
from host_device.club.build import record_of
from host_device.club.record import Ballot, Departure, FoulRecord, VoteRound
from host_device.club.sites import NotCarried, classic_only, mafiaratings, mwt, polemica, votes_of
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

# --- mafiaratings: include/game.php, Game::api_help and Game::feature_flags_help (0ab7207) ---
MR_GAME = {"id", "features", "clubId", "eventId", "tournamentId", "rating", "startTime", "endTime"}
MR_GAME |= {"timezone", "language", "rules", "winner", "moderator", "players"}
MR_PLAYER = {"id", "name", "role", "arranged", "death", "warnings", "don", "sheriff", "bonus", "legacy"}
MR_PLAYER |= {"comment", "voting", "nominating", "shooting"}
MR_FEATURES = set("agsdutclhvknwroi")  # GAME_FEATURE_FLAG_* letters ('p', splitting, removed)
MR_DEATH_TYPES = {"day", "night", "warnings", "techFouls", "kickOut", "teamKickOut", "giveUp"}
MR_ROLES = {"civ": 6, "sheriff": 1, "maf": 2, "don": 1}  # check_game_result: 6 civilians (sheriff one)


def _seat(value):
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10


def check_mafiaratings(data):
    """Every way ``data`` departs from their game JSON (an empty list: none)."""
    bad = [f"game key {k}" for k in set(data) - MR_GAME]
    features = set(data["features"])
    bad += [f"feature {f}" for f in features - MR_FEATURES]
    if data["winner"] not in ("civ", "maf", "tie"):
        bad.append("winner")
    players = data["players"]
    if len(players) != 10:
        return [*bad, "players: always 10"]
    roles = [p.get("role", "civ") for p in players]
    bad += [f"role count {r}" for r, n in MR_ROLES.items() if roles.count(r) != n]
    for seat, p in enumerate(players, 1):
        bad += [f"{seat}: key {k}" for k in set(p) - MR_PLAYER]
        death = p.get("death")
        if death is not None:  # d, u and t without c: an object with its round and type
            if set(death) != {"round", "type"} or death["type"] not in MR_DEATH_TYPES:
                bad.append(f"{seat}: death {death}")
            elif not isinstance(death["round"], int) or death["round"] < 0:
                bad.append(f"{seat}: death round")
            elif death["type"] == "night" and death["round"] == 0:
                bad.append(f"{seat}: shot in night 0")  # check_deaths: not possible
        if "warnings" in p and not (
            isinstance(p["warnings"], int) and "w" in features and "r" not in features
        ):
            bad.append(f"{seat}: warnings")  # w without r: their number
        for role, letter in (("don", "g"), ("sheriff", "s")):
            if role in p and not (isinstance(p[role], int) and p[role] >= 1 and letter in features):
                bad.append(f"{seat}: {role} check round")
        if "legacy" in p and not ("l" in features and all(_seat(x) for x in p["legacy"])):
            bad.append(f"{seat}: legacy")
        if "legacy" in p and (death is None or death["type"] != "night" or death["round"] > 1):
            bad.append(f"{seat}: legacy not killed in night 1")  # check_game_result
        for vote in p.get("voting", []):
            items = vote if isinstance(vote, list) else [vote]
            kill_all = items[-1] if items and isinstance(items[-1], bool) else None
            if kill_all is not None and "k" not in features:
                bad.append(f"{seat}: kill-all vote without k")
            if not all(x is None or _seat(x) for x in items[: len(items) - (kill_all is not None)]):
                bad.append(f"{seat}: vote {vote}")
        if not all(x is None or _seat(x) for x in p.get("nominating", [])):
            bad.append(f"{seat}: nominating")
        if "shooting" in p and roles[seat - 1] not in ("maf", "don"):
            bad.append(f"{seat}: a red player shooting")
        if not all(x is None or _seat(x) for x in p.get("shooting", [])):
            bad.append(f"{seat}: shooting")
        if death is not None:  # nothing after his death (check_game_result cuts it)
            for key in ("nominating", "voting", "shooting"):
                if len(p.get(key, [])) > death["round"] + 1:
                    bad.append(f"{seat}: {key} after death")
    return bad


# --- MWT: include/mwt_game.php, convert_game_to_mwt (writes) and convert_mwt_game (reads) ---
MWT_GAME = {"tournament_id", "table_number", "part_number", "session_number", "referee_user_id", "result"}
MWT_RESULT = {"start_time", "end_time", "result", "black_count", "red_count", "players", "is_replacement"}
MWT_RESULT |= {"player_roles", "game_autobonus", "game_bonus", "penalty", "penalty_disciplinary"}
MWT_RESULT |= {"reveal_don", "reveal_sheriff", "player_fouls", "leaves", "comment", "killed_first"}
MWT_RESULT |= {"best_move_value", "best_move"}
MWT_TEN = ["players", "is_replacement", "player_roles", "game_autobonus", "game_bonus", "penalty"]
MWT_TEN += ["penalty_disciplinary", "player_fouls"]
MWT_LEAVE = {"p_num", "leave_type", "votes_count", "nights_before_count", "days_before_count"}
MWT_LEAVE |= {"players_before_count", "game_ended", "leave_along_count"}
MWT_TIME = re.compile(r"^\d{4}-\d\d-\d\d \d{1,2}:\d\d:\d\d$")  # date('Y-m-d G:i:s')


def check_mwt(data):
    bad = [f"game key {k}" for k in set(data) - MWT_GAME]
    result = data["result"]
    bad += [f"result key {k}" for k in set(result) - MWT_RESULT]
    bad += [
        f"missing {k}" for k in MWT_RESULT - set(result) - {"killed_first", "best_move_value", "best_move"}
    ]
    bad += [f"{k}: not 10" for k in MWT_TEN if len(result[k]) != 10]
    bad += [f"role {r}" for r in result["player_roles"] if r not in ("red", "black", "sheriff", "don")]
    bad += [f"time {k}" for k in ("start_time", "end_time") if not MWT_TIME.match(result[k])]
    if result["result"] not in ("red", "black"):
        bad.append("result")
    for leave in result["leaves"]:
        if set(leave) != MWT_LEAVE or leave["leave_type"] not in (1, 2, 3, 4) or not _seat(leave["p_num"]):
            bad.append(f"leave {leave}")
    bad += [
        f"reveal {x}"
        for x in result["reveal_don"] + result["reveal_sheriff"]
        if x is not None and not _seat(x)
    ]
    return bad


# --- Polemica: polemica-library (23aa7c1) model/game/PolemicaGame.kt and its parts ---
PO_GAME = {"id", "name", "master", "referee", "scoringVersion", "scoringType", "version", "zeroVoting"}
PO_GAME |= {"tags", "players", "checks", "shots", "stage", "votes", "comKiller", "bonuses", "started"}
PO_GAME |= {"stop", "isLive", "result", "num", "table", "phase", "factor"}
PO_PLAYER = {"position", "username", "role", "techs", "fouls", "guess", "player", "disqual", "award"}
PO_PLAYER_NEEDED = {"position", "username", "role", "techs", "fouls"}  # non-null in the data class
PO_STAGES = {"dealing", "briefing", "comIntro", "speech", "voting", "voted", "shooting", "shooted"}
PO_STAGES |= {"reSpeech", "lift", "checks", "toVoting", "toLift", "liftResult", "toDay", "toNight"}
PO_STAGES |= {"donCheck", "comCheck", "guess", "comKill", "gameOver"}
PO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$")  # LocalDateTime


def _stage(stage):
    return set(stage) <= {"type", "day", "player", "voting"} and stage["type"] in PO_STAGES


def check_polemica(data):
    bad = [f"game key {k}" for k in set(data) - PO_GAME]
    if not PO_TIME.match(data["started"]) or data["result"] not in (0, 1):
        bad.append("started or result")
    for p in data["players"]:
        bad += [f"player key {k}" for k in set(p) - PO_PLAYER]
        bad += [f"player needs {k}" for k in PO_PLAYER_NEEDED - set(p)]
        if not _seat(p["position"]) or p["role"] not in (0, 1, 2, 3):
            bad.append(f"player {p['position']}")
        for foul in p["fouls"] + p["techs"]:
            if set(foul) != {"time", "stage"} or not PO_TIME.match(foul["time"]) or not _stage(foul["stage"]):
                bad.append(f"foul {foul}")
        if "disqual" in p and not _stage(p["disqual"]):
            bad.append("disqual")
        if "guess" in p and not (set(p["guess"]) <= {"civs", "mafs", "vice"}):
            bad.append("guess")
        if "player" in p and "id" not in p["player"]:
            bad.append("player id")
    for v in data["votes"]:
        if not (
            set(v) <= {"day", "num", "voter", "candidate"} and _seat(v["voter"]) and _seat(v["candidate"])
        ):
            bad.append(f"vote {v}")
    bad += [f"shot {s}" for s in data["shots"] if set(s) != {"night", "shooter", "victim"}]
    bad += [
        f"check {c}"
        for c in data["checks"]
        if set(c) != {"night", "role", "player"} or c["role"] not in (0, 3)
    ]
    return bad


@pytest.fixture
def record(store):
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    store.roster.seat_by_name(1, 4, "Аня")
    return record_of(store, 1)


def eventful(record):
    """The example with what it lacks: seat 10 disqualified on day 3 for four fouls, extra
    points, and on day 2 an all-leave question after the revote (seats 2 and 4: yes)."""
    seats = tuple(
        dataclasses.replace(s, fouls=4, left=Departure("disqualified", day=3)) if s.seat == 10 else s
        for s in record.seats
    )
    fouls = tuple(FoulRecord(10, 3 if n == 3 else 2, "host", at=600.0 + n) for n in range(4))
    ballots = (*record.ballots, Ballot(2, 3, "all", 2, None), Ballot(2, 3, "all", 4, None))
    rounds = (*record.rounds, VoteRound(2, 3, "all", ((0, 2),)))
    return dataclasses.replace(
        record, seats=seats, fouls=fouls, ballots=ballots, rounds=rounds, extras={2: 0.3, 7: -0.2}
    )


def test_mafiaratings_game_json_field_by_field(record):
    data = mafiaratings.export(record, {record.seat(4).player: "4321"}).data
    assert check_mafiaratings(data) == []
    assert data["features"] == "gsdutlhvnw" and data["winner"] == "civ" and data["language"] == "ru"
    p = data["players"]
    assert [x["role"] for x in p] == [
        "civ",
        "civ",
        "don",
        "civ",
        "maf",
        "sheriff",
        "civ",
        "maf",
        "civ",
        "civ",
    ]
    assert p[3]["id"] == 4321 and p[3]["name"] == "Аня" and "id" not in p[0]
    # their round D-1 is the club's day D; night N is round N
    assert p[0]["death"] == {"round": 1, "type": "night"} and p[0]["legacy"] == [3, 5, 8]
    assert p[2]["death"] == {"round": 0, "type": "day"} and p[4]["death"] == {"round": 1, "type": "day"}
    assert p[5]["death"] == {"round": 2, "type": "night"} and p[7]["death"] == {"round": 2, "type": "day"}
    assert p[4]["sheriff"] == 1 and p[7]["sheriff"] == 2 and "don" not in p[4]
    assert p[4]["shooting"] == [1] and p[7]["shooting"] == [1, 6]
    assert p[0]["nominating"] == [3] and p[3]["nominating"] == [None, 8, 8]
    # day 1: 6 pressed for 3, the four silent counted for 5 (the last candidate); day 2: a revote
    assert p[0]["voting"] == [3] and p[9]["voting"] == [5, [8, 8]] and p[8]["voting"] == [3, [8, 5]]


def test_mafiaratings_fouls_disqualification_extras_and_the_kill_all_question(record):
    made = mafiaratings.export(eventful(record), {})
    data = made.data
    assert check_mafiaratings(data) == []
    p = data["players"]
    assert "k" in data["features"]
    assert p[9]["death"] == {"round": 2, "type": "warnings"} and p[9]["warnings"] == 4
    assert p[1]["bonus"] == 0.3 and p[6]["bonus"] == -0.2
    assert p[1]["voting"] == [3, [5, 5, True]] and p[6]["voting"] == [3, [5, 5, False]]
    assert any("моменты замечаний" in x for x in made.lost)


def test_mafiaratings_reads_back_into_the_same_game(record):
    for game in (record, eventful(record)):
        back = mafiaratings.read(mafiaratings.export(game, {}).data)
        assert back["roles"] == {s.seat: s.role for s in game.seats}
        assert back["votes"] == sorted((v.day, v.voter, v.target) for v in votes_of(game))
        assert back["nominations"] == sorted((n.day, n.by, n.target) for n in game.nominations)
        assert back["shots"] == sorted((a.night, a.seat, a.target) for a in game.nights if a.kind == "shot")
        checks = [(a.night, a.by.value, a.target) for a in game.nights if a.kind == "check"]
        assert back["checks"] == sorted(checks)
        assert back["legacy"] == (1, [3, 5, 8]) and back["winner"] == "civ"
        left = {s.seat: (s.left.how, s.left.day or s.left.night) for s in game.seats if s.left}
        assert back["left"] == left


def test_mwt_game_field_by_field(record):
    data = mwt.export(eventful(record), {record.seat(4).player: "77"}).data
    assert check_mwt(data) == []
    r = data["result"]
    assert r["result"] == "red" and r["players"][3] == 77 and r["players"][0] is None
    assert (
        r["player_roles"][2] == "don"
        and r["player_roles"][4] == "black"
        and r["player_roles"][5] == "sheriff"
    )
    assert (r["black_count"], r["red_count"]) == (0, 4)
    assert r["reveal_sheriff"] == [5, 8] and r["reveal_don"] == []
    assert r["killed_first"] == 1 and r["best_move_value"] == [3, 5, 8] and r["best_move"] == 3
    assert r["player_fouls"][9] == 4 and r["penalty_disciplinary"][9] == -0.5
    assert r["game_bonus"][1] == 0.3 and r["penalty"][6] == -0.2
    # in their order (nights, then days before), the votes of each voted-out seat's deciding round
    leaves = [
        (x["p_num"], x["leave_type"], x["nights_before_count"], x["days_before_count"]) for x in r["leaves"]
    ]
    assert leaves == [(3, 1, 0, 1), (1, 2, 1, 1), (5, 1, 1, 2), (6, 2, 2, 2), (8, 1, 2, 3), (10, 3, 2, 3)]
    assert [x["votes_count"] for x in r["leaves"]] == [6, 0, 5, 0, 0, 0]
    assert [x["players_before_count"] for x in r["leaves"]] == [10, 9, 8, 7, 6, 5]
    assert [x["game_ended"] for x in r["leaves"]] == [0, 0, 0, 0, 0, 1]


def test_polemica_game_field_by_field_and_back(record):
    game = eventful(record)
    data = polemica.export(game, {record.seat(4).player: "555"}).data
    assert check_polemica(data) == []
    p = {x["position"]: x for x in data["players"]}
    assert [p[n]["role"] for n in range(1, 11)] == [2, 2, 0, 2, 1, 3, 2, 1, 2, 2]
    assert p[4]["player"] == {"id": 555, "username": "Аня"} and "player" not in p[1]
    assert p[1]["guess"] == {"mafs": [3, 5, 8]} and p[2]["award"] == 0.3
    assert len(p[10]["fouls"]) == 4 and p[10]["disqual"] == {"type": "speech", "day": 3}
    assert data["shots"][:2] == [
        {"night": 1, "shooter": 5, "victim": 1},
        {"night": 1, "shooter": 8, "victim": 1},
    ]
    assert {"night": 1, "role": 3, "player": 5} in data["checks"]
    assert {"day": 1, "num": 0, "voter": 1, "candidate": 3} in data["votes"]  # a nomination
    assert {"day": 2, "num": 2, "voter": 9, "candidate": 5} in data["votes"]  # the revote
    assert {"day": 2, "voter": 2, "candidate": 5} in data["votes"]  # «yes» to all leaving: no num
    back = polemica.read(data)
    assert back["roles"] == {s.seat: s.role for s in game.seats}
    votes = [(v.day, v.voter, v.target) for v in votes_of(game) if not isinstance(v.target, bool)]
    assert back["votes"] == sorted(votes)
    assert back["nominations"] == sorted((n.day, n.by, n.target) for n in game.nominations)
    assert back["shots"] == sorted((a.night, a.seat, a.target) for a in game.nights if a.kind == "shot")
    assert back["legacy"] == (1, [3, 5, 8]) and back["winner"] == "civ"


def test_a_player_without_an_id_is_named_and_counted(record):
    made = mafiaratings.export(record, {})
    line = made.line()
    assert "без id на сайте: 10" in line and "Аня" in line and "место 1," in line
    assert len(made.data["players"]) == 10  # nobody dropped
    linked = mafiaratings.export(record, {record.seat(4).player: "1"}).line()
    assert "без id на сайте: 9" in linked and "Аня" not in linked


def test_only_a_finished_sport_game_goes_to_a_site(record):
    with pytest.raises(NotCarried, match="не окончена"):
        classic_only(dataclasses.replace(record, winner=None), "mafiaratings")
    doctor = tuple(dataclasses.replace(s, role=Role.DOCTOR) if s.seat == 2 else s for s in record.seats)
    for site in (mafiaratings, mwt, polemica):
        with pytest.raises(NotCarried, match="десять мест"):
            site.export(dataclasses.replace(record, seats=doctor), {})
