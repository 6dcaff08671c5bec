"""``run --mode host`` on the mock panel and the audio doubles, fast."""

import itertools

import pytest

from engine import CLASSIC, EVENT, DealRoles, Role
from host_device.cli.main import main
from host_device.runtime.clock import VirtualClock
from host_device.runtime.signals import ROLE_SIGNALS
from host_device.session.deal import deal
from host_device.session.devices import needs_typed_speech
from host_device.session.host import Host
from tests.helpers.host import args
from tests.helpers.sound import MIC_WAV


def virtual(**overrides):
    """``run`` on the mock panel and a virtual wall clock: no test waits for the wall."""
    return Host(args(**overrides), clock=VirtualClock(limit=3600))


def test_the_deal_is_seeded_and_has_the_presets_counts():
    a, b = deal(CLASSIC, 3), deal(CLASSIC, 3)
    assert a == b and deal(CLASSIC, 4) != a
    roles = [r for _, r in a.roles]
    assert sorted(roles) == sorted([Role.SHERIFF, Role.DON, Role.MAFIA, Role.MAFIA])
    assert sorted(r for _, r in deal(EVENT, 1).roles) == sorted([Role.COMMISSAR] + [Role.MAFIA] * 3)


def test_a_hosted_day_on_the_mock_panel(monkeypatch, tmp_path, builtin_pack, capsys):
    import io

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))  # without a model: typed speech
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = virtual()
    assert host.listener is None
    seat_one_led = host.panel.leds[1].pin  # the mock pin keeps its history after the panel is closed
    assert host.run() == 0
    tl = host.runtime.timeline.as_dicts()
    dealt = dict(deal(CLASSIC, 7).roles)
    # each seat saw his role on his own LED, for the same time, before the first night
    wakes = next(e["t"] for e in tl if e["type"] == "say" and e["key"] == "mafia_wakes")
    shown = [e for e in tl if e["type"] == "led" and e["t"] < wakes]
    lit = {e["seat"]: e["pattern"] for e in shown if e["pattern"] != "off"}
    assert lit == {seat: ROLE_SIGNALS[dealt.get(seat, Role.CIVILIAN)] for seat in range(1, 11)}
    durations = set()
    for seat in range(1, 11):
        on = next(e["t"] for e in shown if e["seat"] == seat and e["pattern"] != "off")
        off = next(e["t"] for e in shown if e["seat"] == seat and e["pattern"] == "off")
        durations.add(round(off - on, 3))
    assert durations == {4.0}
    # the phrases were played, and the device's own voice is gated
    labels = [p.label for p in host.speaker.played]
    assert (
        labels[:3] == ["game_starts", "deal_roles", "look_at_your_light"]
        and "speech" in labels
        and "time_up" in labels
    )
    assert "tone" in labels  # ten seconds before the end of a speech
    assert len(host.gate._playbacks) == len(labels)
    # the speaker's LED on the mock pins
    assert 1.0 in [s.state for s in seat_one_led.states]
    assert host.runtime.stopped and host.game.state.day == 2
    # the terminal shows what the table hears, in order, and nothing of the roles
    out = capsys.readouterr().out
    said = [line.split("Ведущий: ", 1)[1] for line in out.splitlines() if "Ведущий: " in line]
    assert said[:3] == [
        "Начинаем игру.",
        "Раздаём роли. Все закрывают глаза.",
        "Игрок номер один, откройте глаза и посмотрите на свой огонёк.",
    ]
    first_speech = said.index("Игрок номер один, ваша минута.")
    assert said[:first_speech].count("Наступает ночь.") == 1  # after the deal, not at it too
    assert "Игрок номер один, ваша минута." in said and "Время!" in said
    assert len(said) == len(labels) - labels.count("tone")  # every phrase played is shown
    assert not any(word in out for word in ("мафия —", "Дон —", "Шериф —", "мирный житель", "●", "◐"))


def test_run_quiet_prints_nothing_of_the_game(monkeypatch, tmp_path, builtin_pack, capsys):
    import io

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert virtual(quiet=True).run() == 0
    out = capsys.readouterr().out
    assert "Ведущий:" not in out
    # a trial (--days 1) is never offered again: the line says so, and how to carry it on all the same
    assert (
        "пробная игра (--days 1) остановлена; сама она не предлагается, продолжить: host-device run --resume"
        in out
    )


@pytest.mark.slow
def test_run_with_the_listener_and_the_cli(ko_model_dir, capsys, builtin_pack):
    assert (
        main(
            [
                "run",
                "--panel",
                "mock",
                "--audio",
                "file",
                "--wav",
                str(MIC_WAV),
                "--model",
                str(ko_model_dir),
                "--speed",
                "2000",
                "--days",
                "1",
                "--seed",
                "1",
                "--new",  # another test's game is unfinished in the store: do not wait for a button
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "host-device: пробная игра (--days 1) остановлена; сама она не предлагается" in out


def registration(preset="classic"):
    from engine import Game
    from host_device.runtime.cards import CardRegistration
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime

    sched = Scheduler()
    runtime = Runtime(Game(preset), sched, lambda key, slots: 1.0)
    dealt = []
    cards = CardRegistration(runtime, dealt.append, window_s=6.0)
    cards.start()
    return sched, runtime, cards, dealt


def answer(sched, cards, seats):
    """Press during the next window, then let it close."""
    while not cards.open:
        sched.run_due(sched.next_time())
    for seat in seats:
        cards.press(seat)
    while cards.open:
        sched.run_due(sched.next_time())


def says(runtime):
    return [(e["key"], e.get("role")) for e in runtime.timeline.dicts() if e["type"] == "say"]


def test_cards_are_registered_group_by_group():
    sched, runtime, cards, dealt = registration()
    answer(sched, cards, [3, 5, 8])  # the mafia
    answer(sched, cards, [3])  # the Don
    answer(sched, cards, [6])  # the Sheriff
    assert dealt == [DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF), (8, Role.MAFIA)))]
    assert says(runtime) == [
        ("deal_roles", None),
        ("mafia_press", None),
        ("press_your_button", "don"),
        ("press_your_button", "sheriff"),
    ]


def test_a_wrong_count_repeats_the_step_without_saying_who():
    sched, runtime, cards, dealt = registration()
    answer(sched, cards, [3, 5])  # one mafia did not press
    answer(sched, cards, [3, 5, 8])
    answer(sched, cards, [1])  # a "Don" who is not among the mafia
    answer(sched, cards, [8])
    answer(sched, cards, [8, 6])  # two "Sheriffs"
    answer(sched, cards, [5])  # a mafia pressing as the Sheriff
    answer(sched, cards, [6])
    assert cards.repeats == 4
    assert dict(dealt[0].roles) == {3: Role.MAFIA, 5: Role.MAFIA, 8: Role.DON, 6: Role.SHERIFF}
    assert [k for k, _ in says(runtime)].count("count_again") == 4
    windows = [
        e
        for e in runtime.timeline.dicts()
        if e["type"] == "say" and e["key"] in ("mafia_press", "press_your_button")
    ]
    gaps = [round(b["t"] - a["t"], 3) for a, b in itertools.pairwise(windows)]
    # each window lasts the same whatever was pressed: the prompt (1 s) and 6 s; a repeat adds «Повторим» (1 s)
    assert sorted(set(gaps)) == [7.0, 8.0] and gaps.count(8.0) == 4


def test_event_cards():
    sched, _runtime, cards, dealt = registration("event")
    answer(sched, cards, [2, 7, 11])
    answer(sched, cards, [4])
    assert dict(dealt[0].roles) == {2: Role.MAFIA, 7: Role.MAFIA, 11: Role.MAFIA, 4: Role.COMMISSAR}


def test_typed_speech_stands_in_for_a_missing_model(monkeypatch, tmp_path, builtin_pack):
    import io
    import queue
    import time

    from engine import Advance, Phase
    from hardware.events import TypedLine
    from host_device.session.devices import TerminalLines

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    host = Host(args())
    assert host.listener is None and host.lines_in is not None and host.typed_speech
    assert not needs_typed_speech(None, "keyboard")  # the keyboard panel reads the same terminal
    assert not needs_typed_speech(object(), "gpio") and needs_typed_speech(None, "gpio")

    inbox = queue.Queue()
    TerminalLines(inbox).start(io.StringIO("я выставляю игрока номер семь\n\nпас\n")).join(5)
    typed = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert [t.text for t in typed] == ["я выставляю игрока номер семь", "пас"]  # blank lines are nothing
    assert all(isinstance(t, TypedLine) for t in typed)

    # a typed line is heard as the speaker's words
    host.runtime.handle(deal(CLASSIC, 7))
    while host.game.phase is not Phase.SPEECH:
        host.runtime.handle(Advance())
    speaker = host.game.state.speaker
    host._input(TypedLine(text="я выставляю игрока номер семь", at=time.monotonic()))
    assert host.game.state.nominations == {speaker: 7}
    host._input(TypedLine(text="спасибо", at=time.monotonic()))  # «спасибо» ends his speech
    assert host.game.state.speaker != speaker
    host.panel.close()


def test_a_lost_speaker_pauses_the_game_with_blinking_leds_until_it_is_back(
    monkeypatch, tmp_path, builtin_pack
):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    host = Host(args(audio="device", wav=None))  # the real output stream, on the ALSA null sink
    try:
        assert host.speaker.alive
        led = host.panel.leds[3].pin
        host.speaker._stream.abort()  # as if the speaker were unplugged
        opened = []
        monkeypatch.setattr(host.speaker, "reopen", lambda: bool(opened))
        host.health.tick()
        assert host.health.speaker_lost and host.sched.paused
        import time as _time

        deadline = _time.monotonic() + 5  # the blinking runs on gpiozero's own thread, on its wall clock
        while not {round(s.state) for s in led.states} >= {0, 1} and _time.monotonic() < deadline:
            _time.sleep(0.01)
        assert {round(s.state) for s in led.states} >= {0, 1}
        host.health.polled = 0.0
        host.health.tick()  # still gone
        assert host.sched.paused
        opened.append(True)
        host.health.polled = 0.0
        host.health.tick()  # back
        assert not host.health.speaker_lost and not host.sched.paused
    finally:
        host.speaker.close()
        host.panel.close()


def test_the_speaker_reopens_after_being_lost():
    import time as _time

    from hardware.speaker import SoundDeviceSpeaker

    speaker = SoundDeviceSpeaker(22050, _time.monotonic)
    speaker._stream.abort()
    assert not speaker.alive
    assert speaker.reopen() and speaker.alive
    speaker.device = "no-such-device"
    assert speaker.reopen() is False


@pytest.mark.slow
def test_run_records_the_game_and_resumes_it(monkeypatch, tmp_path, builtin_pack):
    import io

    from hardware.events import Press
    from host_device.store import Store

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    path = tmp_path / "games.sqlite3"
    first = virtual(store=str(path))
    assert first.run() == 0  # day 1, then stopped: the game is unfinished
    store = Store(path)
    (row,) = store.games.unfinished()
    stored = len(list(store.games.inputs(row.id)))
    assert stored == len(first.game.record) and store.games.replay(row.id).state == first.game.state
    store.close()

    again = virtual(store=str(path), resume=row.id, new=False, days=2)
    assert again.run() == 0
    assert again.game.state.day == 3 and len(again.game.record) > stored
    assert any(e["type"] == "say" and e["key"] == "game_resumed" for e in again.runtime.timeline.dicts())
    store = Store(path)
    assert len(list(store.games.inputs(row.id))) == len(again.game.record)
    assert store.games.replay(row.id).state == again.game.state
    store.close()

    # a trial (--days) is never offered: the next game starts without a question
    fresh = virtual(store=str(path), new=False)
    assert fresh.run() == 0
    assert fresh.game_id == 2 and not fresh.resumed
    assert next(p.label for p in fresh.speaker.played) == "game_starts"

    store = Store(path, create=True)
    table_game = store.games.new_game("classic", "host")  # a game played for real, cut off at the deal
    store.games.new_game("event", "host")  # another table's rules: not offered here
    store.games.new_game("classic", "simulate")  # a simulation: not offered at a table
    store.close()
    asked = virtual(store=str(path), new=False)  # an unfinished game is found: the table chooses
    asked.inbox.put(Press(key="undo", at=0.0))
    assert asked.run() == 0
    assert asked.game_id == table_game + 3 and not asked.resumed
    assert next(p.label for p in asked.speaker.played) == "unfinished_game"


def test_the_resume_question_is_answered_by_typing_on_any_panel(monkeypatch, tmp_path, builtin_pack, capsys):
    import io

    from hardware.events import TypedLine
    from host_device.store import Store

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    path = tmp_path / "games.sqlite3"
    store = Store(path, create=True)
    game = store.games.new_game("classic", "host")
    store.close()
    asked = virtual(store=str(path), new=False)
    for text in ("может быть", "n"):  # the mock panel has no buttons to press: the terminal answers
        asked.inbox.put(TypedLine(text=text, at=0.0))
    assert asked.run() == 0
    assert asked.game_id == game and asked.resumed
    out = capsys.readouterr().out
    assert (
        "не окончена: «Дальше» — продолжить её, «Отмена» — новая игра (или наберите n или u и Enter)" in out
    )
    assert f"«может быть»: n — продолжить игру {game}, u — новая игра" in out
    assert f"продолжаем игру {game} (Раздача ролей)" in out


def test_a_store_that_cannot_record_pauses_the_game():
    from engine import DealRoles, Game, Role
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.store import StoreError

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)

    def full(inp):
        raise StoreError("database or disk is full")

    runtime.before_input.append(full)
    assert not runtime.handle(
        DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF)))
    )
    assert runtime.sched.paused and runtime.game.record == ()
    assert [e["key"] for e in runtime.timeline.dicts() if e["type"] == "say"] == ["store_full"]


def test_run_in_assist_mode_led_by_the_hosts_keys(monkeypatch, tmp_path, builtin_pack, capsys, caplog):
    """``run --mode assist`` on the mock panel: the host types the roles and
    presses next through a day and a night; the screen is drawn, the game is
    stored, and no typed speech competes with his keys."""
    import io
    import time

    from engine import Phase
    from hardware.events import HostKey, Press
    from host_device.store import Store

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    store = tmp_path / "games.sqlite3"
    host = virtual(mode="assist", deal=None, store=str(store), speed=500.0)
    assert "роли не ввести (--deal cards или --deal device)" in caplog.text
    assert host.assist is not None and host.keys is None
    assert host.typed_speech  # no model: the speaker's words may be typed, a foul in them proposed (issue 47)
    clock = host.clock
    for key in [3, 5, 8, "enter", 3, "enter", 6, "enter"]:  # the host's keyboard beside the panel
        host.inbox.put(HostKey(Press(key=key, at=0.0)))
    pressed = [0.0]

    def next_press():  # the panel's host button, every 20 ms of wall time while the game runs
        pressed[0] = clock.now()
        return Press(key="next", at=clock.now())

    clock.when(
        lambda: not host.runtime.sched.paused and clock.now() - pressed[0] >= 0.02, next_press, repeat=True
    )
    assert host.run() == 0
    game = host.runtime.game
    assert game.state.day == 2 and game.phase is Phase.MORNING and host.runtime.stopped
    assert dict(game.record[0].roles) == {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}
    out = capsys.readouterr().out
    # the host's screen: drawn first for the roles, last as the game stops
    assert "Роли: отметьте трёх чёрных игроков (мафию и Дона)" in out and "День 2 · утро" in out
    assert "роль" not in out  # no roles shown: the host view was never turned on
    # what the listener reports goes to the host's screen
    from host_device.listening.hearing import Heard
    from host_device.listening.intents import Intent
    from host_device.listening.listener import Transcript

    host._input(Transcript("я выставляю игрока", False, time.monotonic()))
    assert host.assist.transcript == "я выставляю игрока"
    host._input(Heard(Intent("nominate", seat=4), time.monotonic(), "я выставляю игрока номер четыре"))
    assert host.assist.transcript == "я выставляю игрока номер четыре"
    stored = Store(store)
    assert stored.games.all()[-1].mode == "assist"
    assert [inp for _, _, inp in stored.games.inputs(stored.games.all()[-1].id)] == list(game.record)


def test_bad_assist_choices_are_one_line(capsys, tmp_path, builtin_pack):
    assert main(["run", "--mode", "host", "--deal", "host", "--panel", "mock", "--audio", "null"]) == 2
    assert "--deal host: роли вводит ведущий только в режиме помощника" in capsys.readouterr().err
    config = tmp_path / "c.toml"
    config.write_text('[assist]\nvotes = "hands"\n')
    assert (
        main(["run", "--mode", "assist", "--config", str(config), "--panel", "mock", "--audio", "null"]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("host-device: ошибка: ") and '[assist].votes: "buttons" или "counts"' in err
    assert "Traceback" not in err


def test_run_help_lists_speed_and_quiet(capsys):
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--speed N" in out and "--quiet" in out and "--days" in out


def test_voices_check_on_a_folder_that_is_no_pack_exits_2(tmp_path, capsys):
    assert main(["voices", "check", str(tmp_path)]) == 2
    assert "not a voice pack" in capsys.readouterr().err


def test_a_game_is_resumed_only_in_the_mode_it_was_played_in(monkeypatch, tmp_path, builtin_pack, capsys):
    """A human host's game (assist mode) is not offered to nor resumed by a
    device-hosted run, nor the device's by assist mode, nor a simulation by run."""
    import io

    from host_device.cli.main import main
    from host_device.store import Store

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    path = tmp_path / "games.sqlite3"
    store = Store(path, create=True)
    assisted = store.games.new_game("classic", "assist")
    simulated = store.games.new_game("classic", "simulate")
    store.close()
    hosted = virtual(store=str(path), new=False)  # nothing of this mode unfinished: no question
    assert hosted.run() == 0 and not hosted.resumed and hosted.game_id == simulated + 1
    base = ["run", "--panel", "mock", "--audio", "null", "--store", str(path), "--resume"]
    assert main([*base, str(assisted)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "шла в режиме «с ведущим»" in err and "--mode assist" in err
    assert main([*base, str(simulated)]) == 2
    assert "— симуляция" in capsys.readouterr().err
    assert main([*base, str(hosted.game_id), "--mode", "assist"]) == 2
    assert "шла в режиме «автоведущий»" in capsys.readouterr().err


def test_with_pages_the_end_waits_for_the_hosts_answer(monkeypatch, tmp_path, builtin_pack, capsys):
    """The bug: run ended with the game (its pages with it). Now the session waits after the end
    (the table page's review, the console's extra points) until the host says: «Закончить вечер» (u)."""
    import io

    from hardware.events import TypedLine
    from host_device.session.evening import END
    from host_device.web.inputs import ExtraPoints
    from tests.helpers.store import almost_over

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    gid = almost_over(tmp_path / "g.db")
    from host_device.store import Store

    host = virtual(web="127.0.0.1:0", store=tmp_path / "g.db", days=None, new=False, resume=gid)
    said_by = {}
    command_line = Store(tmp_path / "g.db")  # `games extra 1 4 0,3` while the pages are up (issue 47)

    def long_after_the_end():
        ended = host.after is not None and host.after.waiting
        if ended and "extra" not in said_by:
            command_line.roster.set_extra(gid, 4, 0.3)
            said_by["extra"] = host.sched.now
        over = ended and host.sched.now > host.runtime.speaking_until + 60
        if over and "t" not in said_by:
            said_by["t"] = host.sched.now
            said_by["shown"] = dict(host.console.seating.extras)  # what the console shows by now
        return over

    host.clock.when(
        long_after_the_end, ExtraPoints(4, None, 1), TypedLine(text="да?", at=0), TypedLine(text="u", at=0)
    )
    assert host.run() == 0
    command_line.close()
    assert said_by["shown"] == {4: 0.3}  # the console shows the command line's value
    assert host.game.state.winner is not None and host.after.choice == END
    assert host.sched.now >= said_by["t"]  # a minute after its last word, the session was still there
    out = capsys.readouterr().out
    assert "«Следующая игра» (n, «Дальше») или «Закончить вечер» (u, «Отмена», Ctrl-C)" in out
    assert "«да?»: n — следующая игра, u — закончить вечер" in out
    store = Store(tmp_path / "g.db")
    assert store.roster.extras(gid) == {4: 0.4}  # the console's «+0,1» after the end, on the record's 0,3
    store.close()


def test_the_end_is_on_the_console_and_the_terminal_only_once_it_is_said(
    monkeypatch, tmp_path, builtin_pack, capsys
):
    """Issue 47: «игра окончена: победа …» was printed, and the console asked «Следующая игра»
    with the winner and the roles, at the step's entry — seconds before the device said
    «…Победа мирных жителей!». Now the question, the terminal's line, the console's winner, roles
    and title come at the end of the phrase, not before."""
    import io

    from hardware.events import TypedLine
    from host_device.runtime.timeline import Said
    from host_device.screens.views import console_view
    from tests.helpers.store import almost_over

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    gid = almost_over(tmp_path / "g.db")
    host = virtual(web="127.0.0.1:0", store=tmp_path / "g.db", days=None, new=False, resume=gid)
    seen = []  # (time, the console's winner, a role shown, its title) at each step's entry and tick

    def look():
        if host.console is not None and host.game.phase.value == "game_over":
            v = console_view(host.console)
            seen.append((host.sched.now, v["winner"], any("role" in x for x in v["seats"]), v["title"]))
        return False

    asked = []
    begin = host.after.begin
    host.after.begin = lambda *a: (asked.append(host.sched.now), begin(*a))[1]
    host.runtime.step_hooks.append(lambda rt: look())
    host.clock.when(lambda: look() or (host.after.waiting and host.sched.now > asked[0] + 1), TypedLine(text="u", at=0))
    assert host.run() == 0
    (said,) = [e for e in host.runtime.timeline.in_order() if isinstance(e, Said) and e.key == "winner"]
    end = said.t + host.runtime.duration(said.key, dict(said.slots))
    assert asked and asked[0] >= end - 1e-6  # the question (and its terminal line) after the phrase
    early = [x for x in seen if x[0] < end - 1e-6]
    late = [x for x in seen if x[0] >= host.runtime.opened_until]  # the winner and the roles all said
    assert early and all(w is None and not role and t != "Игра окончена" for _, w, role, t in early)
    assert late and all(w == "red" and role and t == "Игра окончена" for _, w, role, t in late)
    out = capsys.readouterr().out
    assert "игра окончена: победа мирных; страницы открыты" in out


def test_assist_mode_without_a_model_has_the_consoles_field_for_the_speakers_words(
    monkeypatch, tmp_path, builtin_pack
):
    """Issue 47: host mode had it, assist mode had none — its foul proposals could not be used."""
    import io

    from tests.helpers.store import almost_over

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    almost_over(tmp_path / "g.db")
    host = virtual(mode="assist", web="127.0.0.1:0", store=tmp_path / "g.db", new=True, deal="device")
    assert host.listener is None and host.console is not None
    assert host.console.typed  # the console's view offers the field in a speech (screens/views.py)


def test_without_pages_the_session_ends_with_the_game(monkeypatch, tmp_path, builtin_pack):
    import io

    from tests.helpers.store import almost_over

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    gid = almost_over(tmp_path / "g.db")
    host = virtual(store=tmp_path / "g.db", days=None, new=False, resume=gid)
    assert host.run() == 0 and host.after is None and host.game.state.winner is not None
