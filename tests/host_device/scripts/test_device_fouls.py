"""A script's forbidden words become the device's fouls (issue 39), by the
script's strictness, the same in play (the engine) and simulate (the runtime,
as the live device hears them)."""

import pytest

from engine import Foul
from engine.outputs import FoulGiven
from host_device.scripts.play import Play
from host_device.scripts.script import ScriptError, parse_script
from host_device.scripts.simulate import simulate

ROLES = {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}
SPEECHES = {
    "2": "Честно говоря, я мирный, проверьте меня сегодня ночью, шериф. Честное слово! Я выставляю игрока номер пять",
    "4": "клянусь, сто процентов, боже мой, честно; я выставляю игрока номер восемь",
    "7": "это нечестно, какое счастье, чистота",
}


def script(strictness=None, speeches=SPEECHES):
    data = {"roles": ROLES, "days": [{"speeches": speeches, "votes": [{"5": [1, 2, 3]}]}]}
    return parse_script({**data, **({"strictness": strictness} if strictness else {})})


def fouls(record):
    return [(i.seat, i.by, i.word) for i in record if isinstance(i, Foul)]


def test_strict_each_word_is_the_devices_foul_and_the_fourth_removes_the_speaker():
    runner = Play(script("foul"))
    result = runner.run()
    assert fouls(runner.game.record) == [
        (2, "device", "честно"),
        (2, "device", "честно"),  # said again 4 s later (as said: 0.4 s a word): another foul
        (4, "device", "клянусь"),
        (4, "device", "сто процентов"),
        (4, "device", "боже мой"),
        (4, "device", "честно"),
    ]
    assert {"seat": 4, "how": "disqualified", "day": 1} in [
        {k: o[k] for k in ("seat", "how", "day")} for o in result["out"]
    ]
    assert result["candidates"] == {"1": [5]}  # his nomination after the 4th foul is not his to make
    assert {"day": 1, "what": "nominate", "seat": 4, "target": 8} in [
        {k: i[k] for k in ("day", "what", "seat", "target")} for i in result["ignored"] if "target" in i
    ]
    assert [f["word"] for f in result["forbidden"]] == [
        "честно",
        "честно",
        "клянусь",
        "сто процентов",
        "боже мой",
        "честно",
    ]


@pytest.mark.parametrize("strictness", [None, "warn", "off"])
def test_warn_the_default_and_off_give_no_foul_and_report_the_words(strictness):
    runner = Play(script(strictness))
    result = runner.run()
    assert fouls(runner.game.record) == []
    assert len(result["forbidden"]) == 6


@pytest.mark.parametrize("strictness", ["foul", "warn", "off"])
def test_simulate_gives_the_same_fouls_as_play(strictness):
    played = Play(script(strictness))
    expected = played.run()
    result, runtime = simulate(script(strictness), lambda key, slots: 1.5)
    assert result == expected
    assert fouls(runtime.game.record) == fouls(played.game.record)
    remarks = [e for e in runtime.timeline.as_dicts() if e["type"] == "say" and e["key"] == "remark"]
    assert len(remarks) == (6 if strictness == "warn" else 0)
    given = [e for e in runtime.timeline.as_dicts() if e["type"] == "say" and e["key"] == "foul_heard"]
    assert len(given) == (6 if strictness == "foul" else 0)


def test_the_device_foul_is_in_the_outputs_with_the_word():
    runner = Play(script("foul", {"2": "честно"}))
    runner.run()
    assert FoulGiven(seat=2, count=1, by="device", word="честно") in runner.outputs


@pytest.mark.parametrize("bad", ["strict", 1, ["foul"]])
def test_a_bad_strictness_is_named(bad):
    with pytest.raises(ScriptError, match="strictness"):
        script(bad)


@pytest.mark.parametrize("strictness", ["foul", "warn"])
def test_in_assist_mode_the_device_proposes_each_and_the_host_gives_them(strictness):
    played = Play(script(strictness))
    played.run()
    _result, runtime = simulate(script(strictness), lambda key, slots: 1.5, mode="assist")
    proposed = [
        e for e in runtime.timeline.as_dicts() if e["type"] == "proposal" and e["input"]["type"] == "foul"
    ]
    assert len(proposed) == 6  # never given by the device itself: put to the host
    given = [(seat, word) for seat, _, word in fouls(runtime.game.record)]
    assert given == [(seat, word) for seat, _, word in fouls(played.game.record)]
    assert {by for _, by, _ in fouls(runtime.game.record)} <= {"host"}
