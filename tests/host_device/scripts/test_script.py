"""Bad scripts end with exit status 2 and one line naming the place in the file."""

import json

import pytest

from host_device.cli.main import main

ROLES = {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}
CITY = {"2": "mafia", "5": "mafia", "9": "mafia", "4": "sheriff", "6": "doctor", "7": "lover"}


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ([1, 2], "the script must be a JSON object, not an array"),
        ({"preset": "town"}, "preset: unknown preset 'town'; known presets: city, classic, event"),
        ({"preset": 3}, "preset: must be a preset name, not 3 (a number)"),
        ({"preset": "city"}, 'seats: the city rules need the table\'s size: "seats": 6 … 16'),
        ({"preset": "city", "seats": "10"}, 'seats: must be a number of seats 6 … 16, not "10" (a string)'),
        (
            {"preset": "city", "seats": 20},
            "seats: city: 20 seats; the city rules are played at 6 to 16 seats",
        ),
        (
            {"roles": ROLES, "seats": 10},
            "seats: unknown key; known keys here: comment, days, nights, preset, roles",
        ),
        (
            {"preset": "city", "seats": 10, "roles": {**CITY, "8": "doctor"}},
            "roles: the city preset needs 1 doctor, the script gives 2",
        ),
        (
            {"preset": "city", "seats": 10, "roles": {**CITY, "3": "don"}},
            'roles["3"]: unknown role "don" (a string) in the city preset; roles: doctor, lover, mafia, sheriff, civilian',
        ),
        (
            {"preset": "city", "seats": 10, "roles": CITY, "days": [{"fouls": {"3": 1}}]},
            "days[0].fouls: unknown key; known keys here: comment, golden, speeches, votes",
        ),
        (
            {
                "preset": "city",
                "seats": 6,
                "roles": {"1": "mafia", "2": "mafia", "3": "sheriff", "4": "doctor"},
                "nights": [{"lover": 3}],
            },
            "nights[0].lover: unknown key; known keys here: comment, doctor, sheriff, shots",
        ),
        (
            {"preset": "city", "seats": 10, "roles": CITY, "nights": [{"doctor": 11}]},
            "nights[0].doctor: seat 11 is out of range 1..10 (city)",
        ),
        ({"roles": ROLES, "days": [{"golden": [3]}]}, "days[0].golden: unknown key; known keys here"),
        ({"roles": ROLES, "nights": [{"doctor": 3}]}, "nights[0].doctor: unknown key; known keys here"),
        (
            {"roles": ROLES, "dayz": []},
            "dayz: unknown key; known keys here: comment, days, nights, preset, roles",
        ),
        (
            {"roles": {**ROLES, "2": "doctor"}},
            'roles["2"]: unknown role "doctor" (a string) in the classic preset',
        ),
        (
            {"roles": {"3": "don", "5": "mafia", "6": "sheriff"}},
            "roles: the classic preset needs 2 mafia, the script gives 1",
        ),
        ({"roles": {**ROLES, "11": "civilian"}}, 'roles["11"]: seat 11 is out of range 1..10 (classic)'),
        (
            {"roles": {**ROLES, "x": "civilian"}},
            'roles["x"]: must be a seat number 1..10 written with the digits 0-9, not "x" (a string)',
        ),
        ({"roles": ROLES, "days": {}}, "days: must be an array, not an object"),
        ({"roles": ROLES, "days": [3]}, "days[0]: must be an object, not 3 (a number)"),
        (
            {"roles": ROLES, "days": [{"fouls": {"4": -1}}]},
            'days[0].fouls["4"]: must be a number of fouls from 0 to 10, not -1 (a number)',
        ),
        ({"roles": ROLES, "days": [{"fouls": {"4": True}}]}, 'days[0].fouls["4"]: must be a number of fouls'),
        # fouls by the billion once hung the runner: every count has a named limit
        (
            {"roles": ROLES, "days": [{"fouls": {"4": 1000000000}}]},
            'days[0].fouls["4"]: must be a number of fouls from 0 to 10, not 1000000000 (a number)',
        ),
        # seat numbers are ASCII digits, written without a leading zero
        (
            {"roles": {**ROLES, "²": "civilian"}},
            'roles["²"]: must be a seat number 1..10 written with the digits',
        ),
        (
            {"roles": {**ROLES, "٣": "civilian"}},
            'roles["٣"]: must be a seat number 1..10 written with the digits',
        ),
        (
            {"roles": {**ROLES, "３": "civilian"}},
            'roles["３"]: must be a seat number 1..10 written with the digits',
        ),
        (
            {"roles": {**ROLES, "01": "civilian"}},
            'roles["01"]: must be a seat number 1..10 written with the digits',
        ),
        (
            {"roles": ROLES, "nights": [{"shots": {"3": "٣"}}]},
            'nights[0].shots["3"]: must be a seat number 1..10 written with the digits 0-9, not "٣"',
        ),
        ({"roles": ROLES, "days": [{}] * 41}, "days: 41 entries; the limit is 40"),
        ({"roles": ROLES, "nights": [{}] * 41}, "nights: 41 entries; the limit is 40"),
        ({"roles": ROLES, "days": [{"votes": [{}] * 11}]}, "days[0].votes: 11 entries; the limit is 10"),
        (
            {"roles": ROLES, "days": [{"votes": [{"5": [1] * 101}]}]},
            'days[0].votes[0]["5"]: 101 entries; the limit is 100',
        ),
        (
            {"roles": ROLES, "days": [{"speeches": {"1": "пас " * 2000}}]},
            'days[0].speeches["1"]: 8000 characters; the limit is 5000',
        ),
        ({"roles": ROLES, "comment": ["x"]}, "comment: must be a string, not an array"),
        ({"roles": ROLES, "days": [{"comment": 5}]}, "days[0].comment: must be a string, not 5 (a number)"),
        (
            {"roles": {**ROLES, "9" * 4000: "civilian"}},
            'roles["99999999999999999999999…"]: seat (a number of about 4000 digits) is out of range',
        ),
        (
            {"roles": ROLES, "days": [{}, {"speeches": {"1": 5}}]},
            'days[1].speeches["1"]: must be a transcript string, not 5 (a number)',
        ),
        (
            {"roles": ROLES, "days": [{"votes": [{"5": [1, 12]}]}]},
            'days[0].votes[0]["5"][1]: seat 12 is out of range 1..10',
        ),
        ({"roles": ROLES, "days": [{"votes": [{"5": 1}]}]}, 'days[0].votes[0]["5"]: must be an array, not 1'),
        ({"roles": ROLES, "days": [{"votes": [[]]}]}, "days[0].votes[0]: must be an object, not an array"),
        (
            {"roles": ROLES, "days": [{"late_fouls": {"4": None}}]},
            'days[0].late_fouls["4"]: must be a number of fouls from 0 to 10, not null',
        ),
        ({"roles": ROLES, "nights": [{"shots": {"3": "1"}}]}, None),  # "1" is read as seat 1: fine
        ({"roles": ROLES, "days": [{}] * 40, "nights": [{}] * 40}, None),  # at the limits: fine
        (
            {"roles": ROLES, "nights": [{"shots": {"3": 1.5}}]},
            'nights[0].shots["3"]: must be a seat number 1..10',
        ),
        (
            {"roles": ROLES, "nights": [{"commissar": 2}]},
            "nights[0].commissar: unknown key; known keys here: best_move, comment, don, sheriff, shots",
        ),
        (
            {"roles": ROLES, "nights": [{"best_move": 3}]},
            "nights[0].best_move: must be an array, not 3 (a number)",
        ),
        (
            {"roles": ROLES, "nights": [{"best_move": [3, 5, 11]}]},
            "nights[0].best_move[2]: seat 11 is out of range 1..10 (classic)",
        ),
        (
            {
                "preset": "event",
                "roles": {"2": "mafia", "7": "mafia", "11": "mafia", "4": "commissar"},
                "nights": [{"best_move": [3, 5, 8]}],
            },
            "nights[0].best_move: unknown key; known keys here: comment, commissar, shots",
        ),
        (
            {"roles": ROLES, "nights": [{"don": False}]},
            "nights[0].don: must be a seat number 1..10, not false (a boolean)",
        ),
        (
            {"preset": "event", "roles": {"1": "mafia"}},
            "roles: the event preset needs 1 commissar, the script gives 0",
        ),
    ],
)
def test_bad_script_is_one_clear_line_and_exit_2(tmp_path, capsys, script, message):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    status = main(["play", str(path)])
    captured = capsys.readouterr()
    if message is None:
        assert status == 0 and json.loads(captured.out)
        return
    assert status == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.err.startswith("host-device: ошибка: ")
    assert message in captured.err


def test_not_json_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text('{"preset": "classic",\n  "roles": {3: "don"}}', encoding="utf-8")
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:13: not valid JSON" in err


def test_missing_file_and_non_utf8(tmp_path, capsys):
    assert main(["play", str(tmp_path / "none.json")]) == 2
    assert "none.json: cannot read the script: No such file or directory" in capsys.readouterr().err
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"comment": "\xe9"}')
    assert main(["play", str(path)]) == 2
    assert "latin.json: the script is not UTF-8 text" in capsys.readouterr().err


def test_missing_preset_means_classic_and_empty_script_runs_to_day_one(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"roles": ROLES}), encoding="utf-8")
    assert main(["play", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {
        "winner": None,
        "days": 1,
        "out": [],
        "checks": [],
        "candidates": {},
        "ignored": [],
        "forbidden": [],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "arrays or objects nested too deeply"),
        ('{"roles": {"3": ' + "9" * 5000 + "}}", "a number of over 4300 digits"),
        ('{"comment": "' + "x" * 1_000_001 + '"}', "the script is larger than 1,000,000 bytes (the limit)"),
        ("\udcff", "not UTF-8"),
    ],
)
def test_hostile_script_files_are_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "game.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    for command in ("play", "simulate"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and len(err) < 500


@pytest.mark.slow
def test_play_and_simulate_agree_when_fouls_end_the_game(tmp_path, capsys, builtin_pack):
    """A fourth foul that ends the game: nothing after it is reported as ignored, by either runner."""
    script = {
        "roles": ROLES,
        "days": [{"fouls": {"3": 4, "5": 4, "8": 4}}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    assert main(["play", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["simulate", str(path)]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert played["winner"] == "red" and played["ignored"] == []
    assert played == simulated


def test_play_and_simulate_reach_the_same_day_at_the_days_limit(tmp_path, capsys, builtin_pack):
    """A script of 40 days and nights where nobody leaves: both runners reach day 41
    (simulate once stopped silently at 24 h of virtual time); 300 days are refused by both."""
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"roles": ROLES, "days": [{}] * 40, "nights": [{}] * 40}), encoding="utf-8")
    results = []
    for command in ("play", "simulate"):
        assert main([command, str(path)]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1] and results[0]["days"] == 41 and results[0]["winner"] is None
    path.write_text(json.dumps({"roles": ROLES, "days": [{}] * 300, "nights": [{}] * 300}), encoding="utf-8")
    for command in ("play", "simulate"):
        assert main([command, str(path)]) == 2
        assert "days: 300 entries; the limit is 40" in capsys.readouterr().err


def test_the_citys_round_hears_a_name_only_within_the_callers_ten_seconds(tmp_path, capsys, builtin_pack):
    """The round's pacing (1 s, then 1 s apart): seat 2's tenth utterance,
    «выставляю шесть» at 10 s, is after his time and reported by both runners."""
    script = {
        "preset": "city",
        "seats": 10,
        "roles": {"2": "mafia", "5": "mafia", "9": "mafia", "4": "sheriff", "6": "doctor", "7": "lover"},
        "days": [
            {
                "speeches": {
                    "1": "я выставляю игрока номер пять",
                    "2": "выставляю игрока номер пять " * 9 + "выставляю игрока номер шесть",
                }
            }
        ],
    }
    path = tmp_path / "city.json"
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    results = []
    for command in ("play", "simulate"):
        assert main([command, str(path)]) == 0
        results.append(json.loads(capsys.readouterr().out))
    played, simulated = results
    assert played == simulated
    assert played["candidates"] == {"1": [5]}
    late = {
        "day": 1,
        "what": "nominate",
        "seat": 2,
        "target": 6,
        "reason": "said 10 s into a time of 10 s: after the time was up",
    }
    assert played["ignored"][-1] == late
    assert [i["target"] for i in played["ignored"]] == [5] * 9 + [6]


def test_the_citys_round_takes_the_short_answer_as_the_card_teaches(tmp_path, capsys, builtin_pack):
    """«Игрок номер пять» in one's own turn of the round nominates, in both runners."""
    script = {
        "preset": "city",
        "seats": 10,
        "roles": {"2": "mafia", "5": "mafia", "9": "mafia", "4": "sheriff", "6": "doctor", "7": "lover"},
        "days": [{"speeches": {"1": "Игрок номер пять", "2": "номер восемь", "3": "никого"}}],
    }
    path = tmp_path / "city.json"
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    results = []
    for command in ("play", "simulate"):
        assert main([command, str(path)]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1]
    assert results[0]["candidates"] == {"1": [5, 8]} and results[0]["ignored"] == []


def test_play_and_simulate_agree_on_the_best_move(tmp_path, capsys, builtin_pack):
    """The first night's victim says his best move in his last word: simulate hears it on
    the virtual clock (after «Лучший ход»), play gives it to the engine; the results agree."""
    script = {
        "roles": ROLES,
        "days": [{}, {"speeches": {"2": "я выставляю игрока номер три"}}],
        "nights": [{"shots": {"3": 1, "5": 1, "8": 1}, "best_move": [3, 5, 9]}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    assert main(["play", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["simulate", str(path)]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert played["best_move"] == {"seat": 1, "seats": [3, 5, 9]}  # the game goes on: no black count
    assert played == simulated


def test_play_and_simulate_agree_on_a_best_move_that_is_not_his_to_name(tmp_path, capsys, builtin_pack):
    """A best move given for the second night (its victim has none): both refuse it, and say why."""
    script = {
        "roles": ROLES,
        "days": [{}, {}, {}],
        "nights": [
            {"shots": {"3": 1, "5": 1, "8": 1}},
            {"shots": {"3": 2, "5": 2, "8": 2}, "best_move": [3, 5, 9]},
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    assert main(["play", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["simulate", str(path)]) == 0
    simulated = json.loads(capsys.readouterr().out)
    refused = [i for i in played["ignored"] if i.get("what") == "best_move"]
    assert len(refused) == 1 and refused[0]["night"] == 2 and "first night" in refused[0]["reason"]
    assert played == simulated


NOT_A_SEAT = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "1e308",
    "-1",
    "-0.0",
    "1" + "0" * 30,
    "2.5",
    "[[[1]]]",
]


@pytest.mark.parametrize("raw", NOT_A_SEAT)
@pytest.mark.parametrize(
    ("template", "where"),
    [
        ('{"roles": ROLES, "nights": [{"don": %s}]}', "nights[0].don"),
        ('{"roles": ROLES, "days": [{"fouls": {"4": %s}}]}', 'days[0].fouls["4"]'),
        ('{"preset": "city", "seats": %s}', "seats"),
    ],
)
def test_a_scripts_number_not_finite_or_out_of_range_is_one_line(tmp_path, capsys, template, where, raw):
    path = tmp_path / "game.json"
    path.write_text(template.replace("ROLES", json.dumps(ROLES)).replace("%s", raw), encoding="utf-8")
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and f"{where}: " in err
