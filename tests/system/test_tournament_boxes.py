"""A tournament night on two boxes: twenty players, ten rounds, two tables. The organiser's
machine creates the tournament and publishes its seating in the club's database (a real
PostgreSQL); for every round each table is a real ``run`` process with its own store (a box:
no tournament in it, no players) that takes its table and round from the database, names its
seats from it, plays its game (tests/helpers/tournament_table.py: nominations typed, nobody
votes or shoots, so the plan decides who wins) and sends it to the club's database. The
standings exported from the database then equal the ones counted here by hand: from the
published seating, each game's dealt roles (``--seed``) and its winner."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.presets import CLASSIC
from engine.roles import BLACK_ROLES, Role
from host_device.cli.main import main
from host_device.clubdb.db import ClubDB
from host_device.session.deal import deal
from host_device.store import Store
from tests.helpers.phones import Run
from tests.helpers.postgres import fresh_database, postgres_server
from tests.helpers.tournament_table import play

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names
NAMES = [f"Игрок {k:02d}" for k in range(1, 21)]
ROUNDS, TABLES = 10, 2
SPEED = 300.0


def cli(capsys: Any, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def plan_of(round_no: int, table: int) -> str:
    return "black" if (2 * round_no + table) % 3 == 0 else "red"


def seed_of(round_no: int, table: int) -> int:
    return 100 * round_no + table


def winner_of(path: Path, game_id: int) -> str | None:
    store = Store(path, create=False)
    try:
        return store.games.game(game_id).winner
    finally:
        store.close()


@pytest.fixture
def url(fresh_database: str) -> str:
    with ClubDB.open(fresh_database) as db:
        db.init()
    return fresh_database


def by_hand(seating: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each player's games, total, wins, wins as red, as black, as the Sheriff, as the Don:
    the default table gives a win 1 and a loss 0, whatever the role; nothing else happens."""
    name_of = {row["id"]: row["игрок"] for row in seating}
    counts = {
        name: dict.fromkeys(("games", "total", "wins", "red", "black", "sheriff", "don"), 0) for name in NAMES
    }
    for r in range(1, ROUNDS + 1):
        for t in range(1, TABLES + 1):
            roles = dict(deal(CLASSIC, seed_of(r, t)).roles)
            seats = sorted(
                (row["место"], row["id"]) for row in seating if (row["тур"], row["стол"]) == (r, t)
            )
            for seat, pid in seats:
                role = roles.get(seat, Role.CIVILIAN)
                black = role in BLACK_ROLES
                mine = counts[name_of[pid]]
                mine["games"] += 1
                if black == (plan_of(r, t) == "black"):
                    mine["total"] += 1
                    mine["wins"] += 1
                    mine["black" if black else "red"] += 1
                    mine["sheriff"] += role is Role.SHERIFF
                    mine["don"] += role is Role.DON
    return counts


def places(counts: dict[str, dict[str, int]]) -> dict[str, int]:
    """A place: one more than the players ahead on the total, then the wins, then the wins as
    the Sheriff or the Don (the tiebreakers; extra points and the first killed are all 0)."""

    def key(c: dict[str, int]) -> tuple[int, int, int]:
        return (c["total"], c["wins"], c["sheriff"] + c["don"])

    return {name: 1 + sum(key(o) > key(c) for o in counts.values()) for name, c in counts.items()}


def guarded(failed: list[BaseException], *args: Any) -> None:
    """A table's driver (:func:`play`) whose failure is kept for the test, not lost with its thread."""
    try:
        play(*args)
    except BaseException as exc:
        failed.append(exc)


def test_twenty_players_on_two_boxes_over_ten_rounds_are_ranked_as_counted_by_hand(
    url: str, tmp_path: Path, capsys: Any, builtin_pack: Any
) -> None:
    organiser = tmp_path / "organiser.sqlite3"
    cli(capsys, "players", "add", *NAMES, "--store", str(organiser))
    cli(capsys, "tournament", "create", "Кубок", *NAMES, "--rounds", str(ROUNDS), "--store", str(organiser))
    cli(capsys, "tournament", "publish", "Кубок", "--club-db", url, "--store", str(organiser))
    with ClubDB.open(url) as db:
        seating = db.tournaments.seating_of("Кубок")["rows"]
    boxes = {t: tmp_path / f"box{t}.sqlite3" for t in range(1, TABLES + 1)}
    started = time.monotonic()
    for r in range(1, ROUNDS + 1):
        runs = {}
        for t, box in boxes.items():
            argv = ["--panel", "mock", "--audio", "null", "--speed", str(SPEED), "--store", str(box)]
            argv += ["--club-db", url, "--tournament", "Кубок", "--table", str(t), "--round", str(r)]
            argv += ["--seed", str(seed_of(r, t))]
            runs[t] = Run(argv, tmp_path, f"r{r}t{t}")
        failed: list[BaseException] = []
        try:
            drivers = [
                threading.Thread(
                    target=guarded, args=(failed, runs[t], boxes[t], r - 1, plan_of(r, t)), daemon=True
                )
                for t in boxes
            ]
            for d in drivers:
                d.start()
            for d in drivers:
                d.join(300)
            assert not any(d.is_alive() for d in drivers), f"round {r}: a table's driver still plays"
            if failed:
                raise failed[0]
            for t, run in runs.items():
                assert run.proc.wait(60) == 0, run.stderr()
                said = "\n".join(run.lines())
                assert f"Стол {t} · игра {r}: турнир «Кубок», места названы по рассадке из базы клуба" in said
                assert winner_of(boxes[t], r) == plan_of(r, t), said[-2000:]
        finally:
            for run in runs.values():
                run.close()
    played_s = time.monotonic() - started
    # every game reached the club's database, as a table of its round (the boxes' senders)
    deadline = time.monotonic() + 60
    with ClubDB.open(url) as db:
        while len(games := db.tournaments.games("Кубок")) < ROUNDS * TABLES:
            assert time.monotonic() < deadline, games
            time.sleep(0.2)
    assert sorted((r, t) for _g, r, t in games) == [(r, t) for r in range(1, 11) for t in (1, 2)]
    exported = json.loads(
        cli(
            capsys,
            "tournament",
            "export",
            "Кубок",
            "--format",
            "json",
            "--club-db",
            url,
            "--store",
            str(organiser),
        )
    )
    counts = by_hand(seating)
    place = places(counts)
    rows = {row["игрок"]: row for row in exported["rows"]}
    assert set(rows) == set(NAMES)
    for name, c in counts.items():
        row = rows[name]
        seen = (
            row["игр"],
            row["сумма"],
            row["победы"],
            row["красным"],
            row["чёрным"],
            row["шерифом"],
            row["доном"],
        )
        assert seen == (c["games"], c["total"], c["wins"], c["red"], c["black"], c["sheriff"], c["don"]), name
        assert row["место"] == place[name], (name, row, c)
    assert sorted(rows[n]["место"] for n in NAMES) == [row["место"] for row in exported["rows"]]  # best first
    assert len({c["total"] for c in counts.values()}) > 1  # the games told the players apart
    print(f"ten rounds on two boxes: {played_s:.0f} s")
