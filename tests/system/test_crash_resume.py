"""A real process is killed (SIGKILL) in every kind of step of a scripted
game, resumed from the store each time, and ends with the same result as the
game played without interruption. (Every input of the classic and the city
example as a kill point, resumed in-process, is
tests/host_device/runtime/test_resume_says_what_the_step_says.py: what the
resumed game says, not only how it ends.)"""

import json
import signal
import subprocess
import sys

import pytest

from engine import Game, Phase
from host_device.store import Store
from tests.helpers.paths import ROOT

SCRIPT = ROOT / "examples" / "classic-full-game.json"
OUTCOME = ("winner", "days", "out", "checks", "candidates")


def simulate(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_device", "simulate", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, builtin_pack):
    path = tmp_path_factory.mktemp("store") / "full.sqlite3"
    proc = simulate("--store", str(path))
    assert proc.returncode == 0, proc.stderr
    store = Store(path)
    inputs = [inp for _, _, inp in store.games.inputs(1)]
    store.close()
    return json.loads(proc.stdout), inputs


KINDS = (Phase.INTRO_MAFIA, Phase.SPEECH, Phase.VOTE, Phase.LAST_WORD, Phase.NIGHT_HUNT, Phase.NIGHT_CHECK)


def kill_points(inputs, count=4):
    """About ``count`` points spread over the game, and the first input of every kind of step."""
    game = Game("classic")
    phases = []
    for inp in inputs:
        game.handle(inp)
        phases.append(game.phase)
    step = max(1, len(inputs) // count)
    points = set(range(1, len(inputs), step))
    for phase in KINDS:
        points.add(next(i + 1 for i, p in enumerate(phases) if p is phase))
    return sorted(points), phases


def test_the_points_cover_speeches_votes_and_nights(uninterrupted):
    _, inputs = uninterrupted
    points, phases = kill_points(inputs)
    covered = {phases[n - 1] for n in points}  # the step the game is in when it dies
    assert set(KINDS) <= covered and len(points) >= len(KINDS) + 2


def test_killed_and_resumed_games_end_as_the_uninterrupted_one(uninterrupted, tmp_path):
    expected, inputs = uninterrupted
    points, _ = kill_points(inputs)
    for n in points:
        store = tmp_path / f"crash-{n}.sqlite3"
        killed = simulate("--store", str(store), "--die-after", str(n))
        assert killed.returncode == -signal.SIGKILL, (n, killed.stderr)
        resumed = simulate("--store", str(store), "--resume")
        assert resumed.returncode == 0, (n, resumed.stderr)
        result = json.loads(resumed.stdout)
        assert {k: result[k] for k in OUTCOME} == {k: expected[k] for k in OUTCOME}, n
        # what the resumed table reports ignored was ignored in the uninterrupted game too
        assert all(item in expected["ignored"] for item in result["ignored"]), (n, result["ignored"])
        check = subprocess.run(
            [sys.executable, "-m", "host_device", "games", "check", "--store", str(store)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert check.returncode == 0 and check.stdout.strip() == "игра 1: в порядке", (n, check.stdout)


def test_an_assist_mode_game_killed_and_resumed_ends_the_same(uninterrupted, tmp_path):
    expected, inputs = uninterrupted
    points, _ = kill_points(inputs, count=6)
    for n in points[::2]:
        store = tmp_path / f"assist-{n}.sqlite3"
        killed = simulate("--mode", "assist", "--store", str(store), "--die-after", str(n))
        assert killed.returncode == -signal.SIGKILL, (n, killed.stderr)
        resumed = simulate("--mode", "assist", "--store", str(store), "--resume")
        assert resumed.returncode == 0, (n, resumed.stderr)
        result = json.loads(resumed.stdout)
        assert {k: result[k] for k in OUTCOME} == {k: expected[k] for k in OUTCOME}, n
        stored = Store(store)
        assert [inp for _, _, inp in stored.games.inputs(1)] == inputs, n  # the record host mode gives
        stored.close()


def test_resume_needs_an_unfinished_game(uninterrupted, tmp_path):
    store = tmp_path / "s.sqlite3"
    assert simulate("--store", str(store)).returncode == 0
    proc = simulate("--store", str(store), "--resume")
    assert proc.returncode == 2 and "no unfinished game to resume" in proc.stderr
    proc = simulate("--resume")
    assert proc.returncode == 2 and "--resume и --die-after — только с --store ПУТЬ" in proc.stderr
