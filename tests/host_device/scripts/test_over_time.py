"""A script's speaker going on after «Время!» (issue 45 item 6): the day's
"over" says how long; simulate runs the device's watch on it as the live
device does (docs/fouls.md "After «Время!»"), and a forbidden word the
transcript puts after the time is said only by a speaker who goes on."""

import pytest

from engine import Foul
from host_device.cli.main import main
from host_device.runtime.discipline import GRACE_S, TIME_WORD
from host_device.scripts.play import Play
from host_device.scripts.script import ScriptError, parse_script
from host_device.scripts.simulate import simulate

ROLES = {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}
PHRASE_S = 1.5  # every phrase's length in these runs
# 30 utterances fill the minute (one every 2 s from 1 s in): the oath after them is past the time
LONG = " ".join(f"я выставляю игрока номер {n}." for n in [5, 6, 7, 8, 9, 10] * 5) + " Клянусь."


def script(over=None, strictness="foul", speeches=None):
    day = {"speeches": speeches or {"4": "я мирный"}, **({"over": over} if over is not None else {})}
    return parse_script({"roles": ROLES, "strictness": strictness, "days": [day]})


def run(data):
    result, runtime = simulate(data, lambda key, slots: PHRASE_S)
    said = [e for e in runtime.timeline.as_dicts() if e["type"] == "say"]
    return result, runtime, said


def device_fouls(runtime):
    return [(i.seat, i.word) for i in runtime.game.record if isinstance(i, Foul) and i.by == "device"]


def warned(said, seat):
    return [e for e in said if e["key"] == "time_over" and e.get("seat") == seat]


def test_stopping_within_the_grace_is_nothing():
    _, runtime, said = run(script({"4": GRACE_S - 0.5}))
    assert warned(said, 4) == [] and device_fouls(runtime) == []


def test_going_on_past_the_grace_is_warned_once_and_under_warn_no_foul():
    _, runtime, said = run(script({"4": GRACE_S + PHRASE_S / 2}, strictness="warn"))
    assert len(warned(said, 4)) == 1 and device_fouls(runtime) == []


def test_going_on_after_the_warning_is_the_foul_under_foul():
    _, runtime, said = run(script({"4": 8}))
    assert len(warned(said, 4)) == 1
    assert device_fouls(runtime) == [(4, TIME_WORD)]


def test_stopping_at_the_warning_is_no_foul_even_under_foul():
    _, runtime, said = run(script({"4": GRACE_S + 0.5}))
    assert len(warned(said, 4)) == 1 and device_fouls(runtime) == []


def test_nobody_going_on_gives_no_watch_and_the_step_ends_at_once():
    _, runtime, said = run(script())
    assert all(e["key"] != "time_over" for e in said) and device_fouls(runtime) == []


def test_a_forbidden_word_after_the_time_was_never_said_unless_he_goes_on():
    result, runtime, _ = run(script(speeches={"4": LONG}))
    assert [(f["word"], "late" in f) for f in result["forbidden"]] == [("клянусь", True)]
    assert device_fouls(runtime) == []
    result, runtime, _ = run(script({"4": 30}, speeches={"4": LONG}))
    assert [(f["word"], "late" in f) for f in result["forbidden"]] == [("клянусь", False)]
    assert (4, "клянусь") in device_fouls(runtime) and (4, TIME_WORD) in device_fouls(runtime)


def test_play_reports_the_late_word_as_simulate_does():
    data = script(speeches={"4": LONG})
    assert Play(data).run()["forbidden"] == run(data)[0]["forbidden"]


def test_play_has_no_clock_for_it_and_says_so_in_one_line(tmp_path, capsys):
    with pytest.raises(ScriptError, match=r"days\[0\]\.over: .*simulate"):
        Play(script({"4": 5})).run()
    path = tmp_path / "over.json"
    path.write_text('{"roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}, "days": [{"over": {"4": 5}}]}')
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "simulate" in err


@pytest.mark.parametrize("bad", [-1, 61, "5", True])
def test_a_bad_over_is_one_line_naming_it(bad):
    with pytest.raises(ScriptError, match=r'days\[0\]\.over\["4"\]: must be seconds from 0 to 60'):
        script({"4": bad})
