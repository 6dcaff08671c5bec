"""Whole games from scripts. The expected results are worked out by hand from
the rule texts (see each script's comment), not recorded from a run."""

import json
import subprocess
import sys

import pytest

from host_device.cli.main import main
from host_device.scripts.play import play
from host_device.scripts.script import load_script
from tests.helpers.paths import ROOT

SCENARIOS = ROOT / "tests" / "scenarios"

EXPECTED = {
    "examples/classic-game": {
        "winner": None,
        "days": 2,
        "out": [{"seat": 5, "day": 1, "how": "vote"}, {"seat": 1, "night": 1, "how": "shot"}],
        "checks": [
            {"night": 1, "by": "don", "seat": 6, "result": True},
            {"night": 1, "by": "sheriff", "seat": 3, "result": True},
        ],
        "candidates": {"1": [5, 8]},
        "ignored": [],  # docs/scripts.md's script does what its comment says: nothing in it is refused
        "forbidden": [],
    },
    "examples/classic-full-game": {
        "winner": "red",
        "days": 3,
        "out": [
            {"seat": 3, "day": 1, "how": "vote"},
            {"seat": 1, "night": 1, "how": "shot"},  # the Don is out: two shots suffice
            {"seat": 5, "day": 2, "how": "vote"},  # 4 : 4, then 5 : 3 in the revote
            {"seat": 6, "night": 2, "how": "shot"},
            {"seat": 8, "day": 3, "how": "vote"},  # the lone candidate on day 3 leaves
        ],
        "checks": [
            {"night": 1, "by": "sheriff", "seat": 5, "result": True},
            {"night": 2, "by": "sheriff", "seat": 8, "result": True},
        ],
        "candidates": {"1": [3, 5], "2": [5, 8], "3": [8]},
        "ignored": [
            {"night": 1, "what": "don", "seat": 3, "target": 6, "reason": "seat 3 is out of the game"}
        ],
        "forbidden": [],
        "best_move": {"seat": 1, "seats": [3, 5, 8], "black": 3},  # the Don and both mafia: after the game
    },
    "examples/event-game": {
        "winner": "black",
        "days": 4,
        "out": [
            {"seat": 4, "night": 1, "how": "shot"},
            {"seat": 1, "day": 2, "how": "vote"},
            {"seat": 3, "night": 2, "how": "shot"},
            {"seat": 5, "day": 3, "how": "vote"},
            {"seat": 6, "night": 3, "how": "shot"},
            {"seat": 8, "day": 4, "how": "vote"},  # 3 black : 3 red
        ],
        "checks": [{"night": 1, "by": "commissar", "seat": 2, "result": True}],
        "candidates": {"1": [], "2": [1], "3": [5], "4": [8]},
        "ignored": [],
        "forbidden": [{"day": 1, "seat": 3, "word": "честно"}],
    },
    "examples/classic-silenced-opener": {
        "winner": None,
        "days": 2,
        "out": [{"seat": 7, "day": 2, "how": "vote"}],  # the last candidate takes the non-voters
        "checks": [],
        "candidates": {"1": [], "2": [9, 7]},  # day 2 opens with 3: seat 1 was silenced, 2 spoke first
        "ignored": [],
        "forbidden": [],
    },
    "examples/event-late-nomination": {
        "winner": None,
        "days": 1,
        "out": [],
        "checks": [],
        "candidates": {"1": [5]},  # the nomination of 9 came after «Время!»: 5 stays, alone on day 1
        "ignored": [
            {
                "day": 1,
                "what": "nominate",
                "seat": 1,
                "target": 9,
                "reason": "said 31 s into a time of 30 s: after the time was up",
            }
        ],
        "forbidden": [],
    },
    "tests/scenarios/classic_fouls_and_all_leave": {
        "winner": None,
        "days": 2,
        "out": [
            {"seat": 2, "day": 1, "how": "vote"},
            {"seat": 4, "day": 1, "how": "vote"},
            {"seat": 9, "day": 2, "how": "disqualified"},
        ],
        "checks": [
            {"night": 1, "by": "don", "seat": 6, "result": True},
            {"night": 1, "by": "sheriff", "seat": 3, "result": True},
        ],
        "candidates": {"1": [2, 4], "2": [5]},
        "ignored": [
            {"day": 1, "what": "speech", "seat": 9, "reason": "this seat had no speech this day"},
            {"day": 2, "what": "votes", "round": 0, "reason": "no such vote round this day"},
        ],
        "forbidden": [],
    },
    "tests/scenarios/classic_silent_votes_and_misses": {
        "winner": "red",
        "days": 4,
        "out": [
            {"seat": 8, "day": 1, "how": "vote"},  # nobody pressed: the ten non-voters' votes, to the last
            {"seat": 3, "day": 2, "how": "vote"},  # the lone candidate leaves (night 1: nobody shot)
            {"seat": 2, "night": 2, "how": "shot"},  # the two black left shoot together
            {"seat": 5, "day": 3, "how": "vote"},  # the lone candidate again (night 3: nobody shot)
            {"seat": 9, "day": 4, "how": "vote"},  # 3 : 3 (1, 4, 6 against the three non-voters), then
        ],  # the revote nobody pressed in: six to the last candidate, 9, the last black: red wins
        "checks": [],
        "candidates": {"1": [4, 8], "2": [3], "3": [5], "4": [7, 9]},
        "ignored": [],
        "forbidden": [],
    },
    "examples/city-game": {
        "winner": "red",
        "days": 4,
        "out": [
            {"seat": 5, "day": 2, "how": "vote"},  # the revote after a tie of two
            {"seat": 4, "night": 2, "how": "shot"},
            {"seat": 9, "day": 3, "how": "vote"},
            {"seat": 1, "night": 3, "how": "shot"},  # the Doctor's self-heal again counted for nothing
            {"seat": 2, "day": 4, "how": "vote"},
        ],
        "checks": [
            {"night": 1, "by": "sheriff", "seat": 5, "result": True},
            {"night": 2, "by": "sheriff", "seat": 2, "result": True},
        ],
        "candidates": {"1": [5, 8], "2": [4, 5], "3": [9, 2], "4": [2]},  # day 2: seat 3's alibi
        "ignored": [],
        "forbidden": [],
        "saved": [{"night": 1, "seat": 1}],
        "alibi": [{"day": 2, "seat": 3}, {"day": 3, "seat": 7}, {"day": 4, "seat": 8}],
    },
}


def test_the_city_example_shows_what_its_comment_says():
    from engine import Game
    from engine.outputs import AlibiRefused, GoldenMinuteTaken, NoVote, Tie, VisitMade
    from host_device.scripts.play import Play

    runner = Play(load_script(ROOT / "examples" / "city-game.json"))
    seen = []
    observe = runner.observe
    runner.observe = lambda outputs: (seen.extend(outputs), observe(outputs))
    runner.run()
    assert NoVote(day=1, reason="nobody") in seen
    assert AlibiRefused(day=2, seat=2, target=3) in seen
    assert [o.seat for o in seen if isinstance(o, GoldenMinuteTaken)] == [5, 4]
    assert Tie(day=2, seats=(4, 5)) in seen
    assert [o.ignored for o in seen if isinstance(o, VisitMade) and o.ignored] == ["self_again"]
    assert isinstance(runner.game, Game)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario(name):
    assert play(load_script(ROOT / f"{name}.json")) == EXPECTED[name]


def test_every_example_and_scenario_has_an_expectation():
    scripts = [*(ROOT / "examples").glob("*.json"), *SCENARIOS.glob("*.json")]
    assert sorted(str(p.relative_to(ROOT).with_suffix("")) for p in scripts) == sorted(EXPECTED)


def test_votes_for_a_candidate_without_a_window_are_reported(tmp_path):
    script = {
        "roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"},
        "days": [
            {
                "speeches": {"1": "я выставляю игрока номер два", "2": "я выставляю игрока номер четыре"},
                "votes": [{"2": [1, 1, 3], "7": [5]}],
            }
        ],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script))
    result = play(load_script(path))
    assert {
        "day": 1,
        "what": "votes",
        "round": 0,
        "candidate": "7",
        "reason": "no such window in this round (windows: 2, 4)",
    } in result["ignored"]
    assert {
        "day": 1,
        "what": "vote",
        "round": 0,
        "candidate": "2",
        "seat": 1,
        "reason": "already voted in this round",
    } in result["ignored"]
    assert result["out"] == [{"seat": 4, "day": 1, "how": "vote"}]  # 2 : 8


def test_shots_by_red_seats_and_rejected_nominations_are_reported(tmp_path):
    script = {
        "roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"},
        "days": [{"speeches": {"1": "я выставляю игрока номер два", "2": "я выставляю игрока номер два"}}],
        "nights": [{"shots": {"1": 2, "3": 2, "5": 2, "8": 2}}],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script))
    result = play(load_script(path))
    assert result["ignored"] == [
        {
            "day": 1,
            "what": "nominate",
            "seat": 2,
            "target": 2,
            "reason": "player 2 is already nominated today",
        },
        {"night": 1, "what": "shot", "seat": 1, "reason": "this seat is not mafia"},
    ]
    assert result["out"] == [{"seat": 2, "night": 1, "how": "shot"}]


# ------------------------------------------------------------ the command line


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_device", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_play_command_prints_one_json_object():
    proc = run_cli("play", "examples/classic-full-game.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED["examples/classic-full-game"]


def test_intents_command_prints_one_json_object_per_line():
    proc = run_cli("intents", "--seats", "12", "Я выставляю игрока номер 11, честно. Спасибо")
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [
        {"intent": "nominate", "seat": 11},
        {"intent": "forbidden", "word": "честно"},
        {"intent": "end"},
    ]


def test_intents_reads_stdin_and_knows_the_table_size(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("выставляю игрока номер одиннадцать"))
    assert main(["intents"]) == 0
    assert capsys.readouterr().out == ""  # 11 is not a seat at a table of 10
    assert main(["intents", "--seats", "0", "x"]) == 2
    assert "--seats: '0': за столом от 6 до 16 мест" in capsys.readouterr().err


def test_intents_with_a_missing_pattern_file(capsys, tmp_path):
    assert main(["intents", "--patterns", str(tmp_path / "none.toml"), "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.toml: не читается" in err


def test_intents_with_another_pattern_file(capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        '[nominate]\npatterns=["за {seat}"]\n[withdraw]\npatterns=["не {seat}"]\n[end]\nwords=["всё"]\n',
        encoding="utf-8",
    )
    assert main(["intents", "--patterns", str(path), "за пять всё"]) == 0
    assert capsys.readouterr().out.splitlines() == ['{"intent": "nominate", "seat": 5}', '{"intent": "end"}']


def best_move_script(tmp_path, nights, days=None):
    script = {
        "preset": "classic",
        "roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"},
        "days": days or [{}, {}],
        "nights": nights,
    }
    path = tmp_path / "best.json"
    path.write_text(json.dumps(script), "utf-8")
    return load_script(path)


def test_a_best_move_is_reported_without_its_black_count_before_the_game_ends(tmp_path):
    shots = {"3": 1, "5": 1, "8": 1}
    result = play(best_move_script(tmp_path, [{"shots": shots, "best_move": [3, 4, 8]}]))
    assert result["winner"] is None
    assert result["best_move"] == {"seat": 1, "seats": [3, 4, 8]}  # no "black": the game goes on
    assert result["ignored"] == []


def test_a_best_move_no_last_word_can_take_or_the_engine_refuses_is_reported(tmp_path):
    nights = [{"best_move": [3, 5, 8]}, {"shots": {"3": 2, "5": 2, "8": 2}, "best_move": [3, 5, 8]}]
    result = play(best_move_script(tmp_path, nights, days=[{}, {}, {}]))
    assert "best_move" not in result
    assert result["ignored"] == [
        {
            "night": 1,
            "what": "best_move",
            "seats": [3, 5, 8],
            "reason": "nobody has a last word after this night (a miss), so no best move",
        },
        {
            "night": 2,
            "what": "best_move",
            "seat": 2,
            "seats": [3, 5, 8],
            "reason": "only the player killed on the first night names a best move, in his last word",
        },
    ]
    own = play(best_move_script(tmp_path, [{"shots": {"3": 1, "5": 1, "8": 1}, "best_move": [1, 5, 8]}]))
    assert own["ignored"][0]["reason"] == "player 1 cannot name his own seat" and "best_move" not in own


def test_a_best_move_of_a_night_whose_last_word_is_never_reached_is_reported(tmp_path):
    """The bug: a best move in the script's last listed night, with no day after it, disappeared."""
    nights = [{"shots": {"3": 1, "5": 1, "8": 1}, "best_move": [3, 5, 8]}]
    result = play(best_move_script(tmp_path, nights, days=[{}]))  # the script ends at night 1's morning
    assert "best_move" not in result
    assert result["ignored"] == [
        {
            "night": 1,
            "what": "best_move",
            "seats": [3, 5, 8],
            "reason": "the script's days ran out before the last word after this night, so no best move",
        }
    ]
    said = play(best_move_script(tmp_path, nights))  # a second day: his last word is reached
    assert said["best_move"] == {"seat": 1, "seats": [3, 5, 8]} and said["ignored"] == []


def test_simulate_reports_the_unreached_best_move_as_play_does(tmp_path):
    from host_device.scripts.simulate import simulate

    nights = [{"shots": {"3": 1, "5": 1, "8": 1}, "best_move": [3, 5, 8]}]
    script = best_move_script(tmp_path, nights, days=[{}])
    assert simulate(script, lambda key, slots: 1.0)[0]["ignored"] == play(script)["ignored"] != []
