"""A club that picks the MAF World Cup's table (``[club] scoring = "maf-world-cup.toml"``, or a
copy with its own [round_multipliers]) gets its round multiplier and its ranking by points per
game in ``tournament export`` (the same standings the terminal, the pages and the PDF draw)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from host_device.store import Store
from tests.helpers.outbox import finished_games
from tests.helpers.paths import ROOT
from tests.host_device.tournament.test_cli import NAMES, run

MWC = ROOT / "host_device" / "club" / "data" / "maf-world-cup.toml"
# the classic full game (tests/helpers/outbox.py): red wins, no removal, so its points at the
# MAF World Cup's table: six civilians 4, the sheriff 4.5, two mafia 1, the don 0.5
GAME = 6 * 4 + 4.5 + 2 * 1 + 0.5


@pytest.fixture
def played(tmp_path: Path, capsys: Any) -> Path:
    """A tournament of 20 players, two rounds; round 1's and round 2's table 1 played."""
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    for name in NAMES:
        store.roster.add_player(name)
    games = finished_games(store, 2)
    store.close()
    assert run(capsys, path, "tournament", "create", "Кубок", *NAMES, "--rounds", "2")[0] == 0
    for round_no, game in enumerate(games, 1):
        code, _out, err = run(
            capsys, path, "tournament", "game", "Кубок", str(game), "--round", str(round_no), "--table", "1"
        )
        assert code == 0, err
    return path


def exported(capsys: Any, path: Path, config: Path) -> list[dict[str, Any]]:
    target = path.parent / "t.json"
    code, _out, err = run(
        capsys,
        path,
        "tournament",
        "export",
        "Кубок",
        "--format",
        "json",
        "-o",
        str(target),
        "--config",
        str(config),
    )
    assert code == 0, err
    rows: list[dict[str, Any]] = json.loads(target.read_text("utf-8"))["rows"]
    return rows


def config_naming(tmp_path: Path, table: str) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'[club]\nscoring = "{table}"\n', "utf-8")
    return config


def test_the_world_cups_table_ranks_by_points_per_game(played: Path, capsys: Any, tmp_path: Path) -> None:
    rows = exported(capsys, played, config_naming(tmp_path, "maf-world-cup.toml"))
    assert sum(r["сумма"] for r in rows) == pytest.approx(2 * GAME)  # rounds 1 and 2: no multiplier yet
    per_game = [r["за игру"] for r in rows]
    assert per_game == sorted(per_game, reverse=True)  # the order is the points per game
    assert len(set(per_game)) > 2  # (not one number for all: the order means something)


def test_a_clubs_copy_with_round_2_doubled(played: Path, capsys: Any, tmp_path: Path) -> None:
    ours = tmp_path / "ours.toml"
    ours.write_text(MWC.read_text("utf-8").replace("11 = 1.25", "2 = 2.0"), "utf-8")
    rows = exported(capsys, played, config_naming(tmp_path, str(ours)))
    assert sum(r["сумма"] for r in rows) == pytest.approx(GAME + 2 * GAME)  # round 2's game counts twice
