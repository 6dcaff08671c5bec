"""The city rules at the table: assist mode led by the host's keys (the
roles, the round, the golden minute, the night entered by the host, no
fouls), host mode run on the mock panel, the secrets of the city's night
(two games that differ only in secrets sound the same), and demo --preset city."""


from engine import Game, Phase, Role, city_preset
from host_device.config import AssistSettings
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from tests.helpers.assist import PHRASE_S, typed, wait
from tests.helpers.paths import ROOT


def city_assist():
    settings = AssistSettings()
    rt = Runtime(
        Game(city_preset(10)),
        Scheduler(),
        lambda key, slots: PHRASE_S,
        Settings(**runtime_settings(settings)),
    )
    return rt, Assist(rt, settings)


def test_assist_mode_leads_a_city_day_and_night_from_the_keys():
    rt, assist = city_assist()
    assert all(typed(assist, "259\n4\n6\n7\n"))  # black 2 5 9, the Sheriff 4, the Doctor 6, the Lover 7
    assert dict(rt.game.record[0].roles) == {
        2: Role.MAFIA,
        5: Role.MAFIA,
        9: Role.MAFIA,
        4: Role.SHERIFF,
        6: Role.DOCTOR,
        7: Role.LOVER,
    }
    typed(assist, "n" * 10)  # the calm day's introductions
    assert rt.game.phase is Phase.INTRO_MAFIA
    typed(assist, "nn")  # the mafia met; the morning
    assert rt.game.phase is Phase.DISCUSSION
    assert typed(assist, "f") == [False] and assist.message == "[f]: в этих правилах нет фолов"
    typed(assist, "n")
    assert rt.game.phase is Phase.NOMINATION and rt.game.state.speaker == 1
    typed(assist, "v5")  # seat 1 names 5; seat 2 is called
    assert rt.game.state.candidates == [5] and rt.game.state.speaker == 2
    typed(assist, "n" * 9)  # the others pass
    assert rt.game.phase is Phase.JUSTIFICATION and rt.game.state.speaker == 5
    assert typed(assist, "z5") == [True, True] and rt.game.state.golden_asked == [5]
    typed(assist, "n")  # his justification ends; nobody else can ask: his golden minute
    assert rt.game.phase is Phase.GOLDEN_MINUTE
    typed(assist, "nn")  # the minute, then the candidates
    assert rt.game.phase is Phase.VOTE
    wait(rt, rt.window[1] - rt.sched.now + 0.1)  # nobody pressed: "nobody" wins
    assert rt.game.phase is Phase.NIGHT_HUNT and rt.game.state.out == []
    typed(assist, "k1n")  # the mafia shot 1
    typed(assist, "n")  # the Sheriff's step
    assert rt.game.state.step_role is Role.DOCTOR
    assert typed(assist, "l") == [False] and "вводится, когда просыпается любовница" in assist.message
    typed(assist, "d1n")  # the Doctor healed 1
    typed(assist, "l3n")  # the Lover visited 3
    assert rt.game.phase is Phase.MORNING and rt.game.state.out == [] and rt.game.state.alibi == {2: 3}
    said = [e["key"] for e in rt.timeline.dicts() if e["type"] == "say"]
    assert said[-2:] == ["city_nobody_killed", "doctor_saved"]
    typed(assist, "nn")  # the discussion, then the round from seat 2
    assert rt.game.state.speaker == 2
    typed(assist, "v3")
    assert rt.game.state.candidates == [] and "у игрока 3 алиби" in assist.message


def test_host_mode_runs_a_city_day_on_the_mock_panel(monkeypatch, tmp_path, builtin_pack):
    import io

    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(preset="city", seats=8, audio="null", store=str(tmp_path / "g.db")))
    assert host.run() == 0
    said = [e["key"] for e in host.runtime.timeline.dicts() if e["type"] == "say"]
    for key in (
        "calm_day",
        "mafia_meets",
        "city_morning",
        "discussion",
        "nomination",
        "doctor_wakes",
        "lover_wakes",
    ):
        assert key in said, key
    assert said.count("nomination") == 8 and host.game.state.day == 2
    callers = [
        e["seat"] for e in host.runtime.timeline.dicts() if e["type"] == "led" and e["pattern"] == "on"
    ]
    assert callers[-8:] == list(range(1, 9))  # the caller's seat lit in the round, day 1 from seat 1


def test_the_city_night_sounds_the_same_whatever_the_secrets(builtin_pack):
    """Two city games that differ only in roles and the night's presses: every
    phrase and every LED the table sees at the same second, until the morning."""
    from host_device.scripts.script import parse_script
    from host_device.scripts.simulate import simulate

    def game(roles, night):
        script = parse_script(
            {"preset": "city", "seats": 10, "roles": roles, "days": [{}, {}], "nights": [night]}
        )
        _, rt = simulate(script)
        return [
            (e["t"], e["key"])
            for e in rt.timeline.as_dicts()
            if e["type"] == "say" and e["key"] not in ("killed", "city_nobody_killed", "doctor_saved")
        ][:400]

    a = game(
        {"2": "mafia", "5": "mafia", "9": "mafia", "4": "sheriff", "6": "doctor", "7": "lover"},
        {"shots": {"2": 1, "5": 1, "9": 1}, "sheriff": 5, "doctor": 1, "lover": 3},
    )
    b = game(
        {"1": "mafia", "3": "mafia", "8": "mafia", "10": "sheriff", "2": "doctor", "6": "lover"},
        {"shots": {"1": 4}, "doctor": 2},
    )
    mornings = [i for i, (_, key) in enumerate(a) if key == "city_morning"]
    cut = mornings[1]  # the second morning: after the first night
    assert [key for _, key in a[cut - 3 : cut]] == ["call", "call", "lover_sleeps"]
    assert a[: cut + 1] == b[: cut + 1]
    assert a != b  # the mornings' news differ


def test_demo_of_the_city_rules(capsys, builtin_pack):
    from host_device.cli.main import main

    assert main(["demo", "--preset", "city", "--speed", "100000", "--audio", "null"]) == 0
    out = capsys.readouterr().out
    assert (
        "Ведущий: Доктор спас жизнь этой ночью." in out and "Ведущий: У игрока номер три есть алиби." in out
    )
    assert out.splitlines()[-1] == "Итог: победа мирных жителей, дней: 4"
    assert main(["demo", "--preset", "event", "examples/city-game.json", "--audio", "null"]) == 2
    err = capsys.readouterr().err
    assert "--preset event: сценарий examples/city-game.json — игра по правилам «город» (--preset city)" in err


class Keys:
    """A terminal for the keyboard panel: the keys written in advance to a pipe."""

    def __init__(self, text):
        import os

        self.read, write = os.pipe()
        os.write(write, text.encode())
        os.close(write)

    def fileno(self):
        return self.read

    def __iter__(self):
        return iter(())

    def close(self):
        import os

        os.close(self.read)


def test_run_city_on_the_keyboard_panel_in_both_modes(monkeypatch, tmp_path, builtin_pack):
    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    none = Keys("")
    monkeypatch.setattr("sys.stdin", none)
    hosted = Host(
        args(preset="city", seats=8, panel="keyboard", audio="null", store=str(tmp_path / "a.db"), quiet=True)
    )
    assert hosted.run() == 0 and hosted.game.state.day == 2
    none.close()  # after the panel is closed: its reader has stopped
    # assist mode: the roles typed, then «дальше» through the calm day, the day and the night
    keys = Keys("25\n4\n6\n7\n" + "n" * 30)
    monkeypatch.setattr("sys.stdin", keys)
    assisted = Host(
        args(
            mode="assist",
            deal="host",
            preset="city",
            seats=8,
            panel="keyboard",
            audio="null",
            speed=1.0,
            store=str(tmp_path / "b.db"),
        )
    )
    assert assisted.run() == 0
    state = assisted.game.state
    assert state.day == 2 and dict(state.roles) == {
        2: Role.MAFIA,
        5: Role.MAFIA,
        4: Role.SHERIFF,
        6: Role.DOCTOR,
        7: Role.LOVER,
    }
    said = [e["key"] for e in assisted.runtime.timeline.dicts() if e["type"] == "say"]
    assert said.count("nomination") == 8 and "doctor_wakes" in said and "lover_wakes" in said
    keys.close()


def test_the_protocol_of_a_city_game(tmp_path, builtin_pack):

    from host_device.cli.games import protocol, replay_with_outputs
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store

    store = Store(tmp_path / "g.sqlite3", create=True)
    simulate(load_script(ROOT / "examples" / "city-game.json"), store=store)
    game, steps = replay_with_outputs(store, 1)
    lines = protocol(game, steps)
    store.close()
    for line in (
        "Игра: город, 10 игроков",
        "День 1: игрок 5 берёт золотую минуту",
        "День 1, голосование: за 5 — 3 (1, 3, 4); за 8 — 2 (2, 9); никого не убивать — 5",
        "Ночь 1: доктор (игрок 6) лечит игрока 1",
        "Ночь 1: любовница (игрок 7) навещает игрока 3",
        "Ночь 1: доктор спас игрока 1",
        "День 2: у игрока 3 алиби — игрок 2 не может его выставить",
        "Ночь 3: доктор (игрок 6) лечит игрока 6 (не засчитано: себя второй раз)",
        "Победа: мирные",
    ):
        assert line in lines, line
