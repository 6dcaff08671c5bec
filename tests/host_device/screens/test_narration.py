"""What a terminal shows of a game in host mode and in the demo: the
narration's lines, the status line, the titles of each step."""

import io
import json
from pathlib import Path

import pytest

from engine import Advance, DealRoles, Game, Phase, Role
from engine.state import RoundKind, State, VoteRound
from host_device.base.stopping import SaidInterrupted
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.narration import Narration, StatusLine, status
from host_device.screens.titles import clock, elapsed, title
from host_device.session.demo import DEFAULT_SCRIPT, demo, result_lines
from tests.helpers.terminal import Tty

ROLES = DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF), (8, Role.MAFIA)))


@pytest.mark.parametrize(
    ("t", "text"),
    [(0.0, "00:00.0"), (59.94, "00:59.9"), (59.96, "01:00.0"), (779.96, "13:00.0"), (3600.04, "60:00.0")],
)
def test_elapsed_time_never_shows_sixty_seconds(t, text):
    assert elapsed(t) == text


def test_clock_counts_down_in_whole_seconds():
    assert [clock(s) for s in (60, 59.2, 0.4, 0)] == ["1:00", "1:00", "0:01", "0:00"]


def state(**fields):
    s = State(preset="classic", seats=10)
    for name, value in fields.items():
        setattr(s, name, value)
    return s


@pytest.mark.parametrize(
    ("fields", "text"),
    [
        ({"phase": Phase.ROLES}, "Раздача ролей"),
        ({"phase": Phase.INTRO_MAFIA}, "Ночь знакомства · мафия договаривается"),
        ({"phase": Phase.INTRO_MEET, "step_role": Role.DON}, "Ночь знакомства · знакомство Дона"),
        ({"phase": Phase.INTRO_MEET, "step_role": Role.SHERIFF}, "Ночь знакомства · знакомство Шерифа"),
        ({"phase": Phase.NIGHT_HUNT, "day": 1}, "Ночь 1 · охота мафии"),
        ({"phase": Phase.NIGHT_CHECK, "day": 1, "step_role": Role.DON}, "Ночь 1 · проверка Дона"),
        ({"phase": Phase.NIGHT_CHECK, "day": 2, "step_role": Role.SHERIFF}, "Ночь 2 · проверка Шерифа"),
        ({"phase": Phase.NIGHT_CHECK, "day": 1, "step_role": Role.COMMISSAR}, "Ночь 1 · проверка Комиссара"),
        ({"phase": Phase.MORNING, "day": 2}, "День 2 · утро"),
        ({"phase": Phase.SPEECH, "day": 1}, "День 1 · речи"),
        ({"phase": Phase.LAST_WORD, "day": 3}, "День 3 · последнее слово"),
        (
            {"phase": Phase.VOTE, "day": 2, "vote_round": VoteRound(RoundKind.REVOTE, (3, 5))},
            "День 2 · переголосование",
        ),
        (
            {"phase": Phase.VOTE, "day": 2, "vote_round": VoteRound(RoundKind.MAIN, (3,))},
            "День 2 · голосование",
        ),
        ({"phase": Phase.GAME_OVER, "day": 4}, "Игра окончена"),
    ],
)
def test_titles_name_the_day_or_night_and_its_step(fields, text):
    assert title(state(**fields)) == text


def test_status_shows_the_step_the_speaker_his_time_and_a_pause():
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    runtime.handle(ROLES)
    while runtime.game.phase is not Phase.SPEECH:
        runtime.handle(Advance())
    sched.run_due(runtime.speaking_until)  # the announcement said: his minute starts
    sched.run_due(sched.now + 17.5)
    assert status(runtime) == "День 1 · речи · говорит игрок 1 · 0:43"
    runtime.toggle_pause()
    assert status(runtime).endswith("· 0:43 · ПАУЗА")


def test_the_status_line_stays_under_the_lines_written_above_it():
    out = Tty()
    lines = StatusLine(out, width=20)
    lines.status = "День 1 · речи · говорит игрок 1 · 0:43"
    lines.write_line("00:01.0 Ведущий: Наступает ночь.")
    assert (
        out.getvalue() == "\r\x1b[K00:01.0 Ведущий: Наступает ночь.\n\rДень 1 · речи · гов\x1b[K"
    )  # 19 columns of 20


def narrated(script: Path) -> list[str]:
    out = io.StringIO()
    result = demo(script, speed=100_000, audio="null", out=out)
    end = len(result_lines(result, script))  # the script's own result after the game: its refusals
    return out.getvalue().splitlines()[2:-end]  # without the voice's line and the title naming the script


def test_two_games_that_differ_only_in_their_checks_print_the_same_lines(tmp_path, builtin_pack):
    script = json.loads(DEFAULT_SCRIPT.read_text("utf-8"))
    other = json.loads(DEFAULT_SCRIPT.read_text("utf-8"))
    other["nights"][0]["don"], other["nights"][0]["sheriff"] = 2, 3  # other secrets, the same public game
    other["nights"][1]["sheriff"] = 9
    assert other != script
    paths = []
    for n, data in enumerate((script, other)):
        path = tmp_path / f"{n}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        paths.append(path)
    first, second = narrated(paths[0]), narrated(paths[1])
    assert first == second
    presses = [line for line in first if "кнопка игрока" in line]
    votes = sum(
        len(voters) for day in script["days"] for rnd in day.get("votes", []) for voters in rnd.values()
    )
    assert len(presses) == votes  # every vote press is shown; no night press is


def test_narration_writes_each_phrase_when_it_is_said_and_skips_an_unsaid_one():
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    lines = []
    Narration(runtime, lambda key, slots: f"{key} {slots}", lines.append)
    runtime.say("night_falls")
    runtime.say("call", seat=4)
    assert lines == []  # nothing is shown before it is said
    sched.run_due(1.0)
    assert lines == ["00:00.0 Ведущий: night_falls {}"]
    runtime.timeline.dropped.add(runtime.timeline.entries[-1].n)  # the step ended before it began
    sched.run_due(5.0)
    assert lines == ["00:00.0 Ведущий: night_falls {}"]


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "koi8-r"])
def test_a_line_the_terminal_cannot_encode_does_not_silence_it(encoding):
    """A character the terminal's (or the journal's) encoding cannot write
    is replaced: the line and every line after it are still printed."""
    from host_device.screens.narration import PlainLines

    for make in (PlainLines, StatusLine):
        raw = io.BytesIO()
        lines = make(io.TextIOWrapper(raw, encoding=encoding, errors="strict", write_through=True))
        lines.write_line("набрано: «\ud800»")
        lines.write_line("next line")
        printed = raw.getvalue().decode(encoding)
        assert "next line" in printed and "\ud800" not in printed, (make, printed)
        assert "набрано" in printed or encoding == "ascii"


# ---------------------------------------------------------------- host mode on the keyboard panel, at 80×24


def keyboard_host(monkeypatch, tmp_path, **overrides):
    """``run --panel keyboard`` in host mode on a virtual wall clock, its
    terminal an 80×24 screen (tests/helpers/terminal.py); keys are typed
    through the panel's own ``key()``."""
    import os

    from host_device.runtime.clock import VirtualClock
    from host_device.session.host import Host
    from tests.helpers.host import args
    from tests.helpers.terminal import Tty

    r, w = os.pipe()

    class Keys(io.StringIO):
        def fileno(self):
            return r

    out = Tty()
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", Keys(""))
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=None: os.terminal_size((80, 24)))
    settings = dict(panel="keyboard", store=str(tmp_path / "games.sqlite3"), days=1, speed=1.0)
    host = Host(args(**(settings | overrides)), clock=VirtualClock(limit=3600))
    host.panel.width = 80
    return host, out, (r, w)


def test_a_pause_on_the_keyboard_panel_shows_at_once_and_keys_in_it_say_what_they_did(
    monkeypatch, tmp_path, builtin_pack
):
    """`p` in host mode: «Пауза.» is printed and «ПАУЗА» is on the status line
    while the game stands; `u` says why it does nothing here; `n` says that
    it moved on; the start-up hint offers no `u`."""
    import os

    from tests.helpers.terminal import screen

    host, out, fds = keyboard_host(monkeypatch, tmp_path)
    clock, rt = host.clock, host.runtime
    seen = {}

    def speaking():
        return rt.game.phase is Phase.SPEECH and rt.time_left() is not None and rt.time_left() < 50

    def paused_for(seconds):
        return lambda: rt.sched.paused and clock.now() - seen["at"] >= seconds

    def pause():
        seen["at"] = clock.now()
        host.panel.key("p")

    def look(name, *keys):
        def then():
            seen[name] = screen(out.getvalue())
            for key in keys:
                host.panel.key(key)

        return then

    def stop():
        seen["end"] = screen(out.getvalue())
        raise KeyboardInterrupt

    clock.when(speaking, pause)
    clock.when(paused_for(2.0), look("paused", "u", "n"))
    clock.when(paused_for(4.0), look("keys", "p"))
    clock.when(lambda: "keys" in seen and not rt.sched.paused and clock.now() - seen["at"] > 6, stop)
    try:
        with pytest.raises(SaidInterrupted):  # the test's Ctrl-C: said, raised for main's exit 130
            host.run()
    finally:
        for fd in fds:
            os.close(fd)
    hint = next(line for line in out.getvalue().splitlines() if "клавиши:" in line)
    assert "p — пауза" in hint and "u —" not in hint
    paused = [line for line in seen["paused"] if line]
    assert paused[-1].startswith("День 1 · речи · говорит игрок 1 · ") and "ПАУЗА" in paused[-1]
    assert paused[-1].endswith("10○")  # every seat's LED, at 80 columns
    assert paused[-2].endswith("Ведущий: Пауза.")  # said and shown as the pause begins
    keys = [line for line in seen["keys"] if line]
    assert keys[-3].endswith("    [u] отмена: нет: игру ведёт устройство, отмена — в режиме помощника")
    assert keys[-2].endswith("    «Дальше» на паузе: шаг пройден, объявление — после паузы")
    assert "ПАУЗА" in keys[-1] and "говорит игрок 2" in keys[-1]  # «Дальше» moved on, in the pause
    after = [line for line in seen["end"] if line]
    assert "ПАУЗА" not in after[-1]
    resumed = after.index(next(line for line in after if line.endswith("Ведущий: Продолжаем.")))
    assert after.index(keys[-2]) < resumed


def test_host_mode_says_in_one_line_why_an_assist_key_does_nothing():
    """The keyboard panel sends assist mode's keys in host mode too: each says why not, in 80 columns."""
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    lines = []
    Narration(runtime, lambda key, slots: key, lines.append)
    for key in ("undo", "reject", "foul", "kill", "unknown"):
        assert not runtime.press(key)
    assert lines == [
        "00:00.0    [u] отмена: нет: игру ведёт устройство, отмена — в режиме помощника",
        "00:00.0    [x] отклонить: нет: услышанное выставление устройство берёт само",
        "00:00.0    [f] фол: нет: фолы даёт ведущий-человек (режим помощника)",
        "00:00.0    [k] убит: нет: это клавиша режима помощника (--mode assist)",
        "00:00.0    клавиша не назначена (n — дальше, p — пауза, Tab — слова)",
    ]
    assert max(map(len, lines)) < 80


def test_a_press_outside_the_vote_window_is_printed_as_not_counted():
    """«Кто за то…» is being said, the window not yet open: a press then is
    not a vote, and a second press in the window is not one either."""
    from engine import Nominate

    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    lines = []
    Narration(runtime, lambda key, slots: key, lines.append)
    runtime.handle(ROLES)
    while runtime.game.phase is not Phase.SPEECH:
        runtime.handle(Advance())
    runtime.handle(Nominate(seat=1, target=4))
    runtime.handle(Advance())
    runtime.handle(Nominate(seat=2, target=7))  # two candidates: day 1 has a vote
    for _ in range(20):
        if runtime.game.phase is Phase.VOTE:
            break
        runtime.handle(Advance())
    sched.run_due(sched.now + 0.5)
    assert runtime.window is not None and sched.now < runtime.window[0]
    assert not runtime.press(1)
    sched.run_due(runtime.window[0])
    assert runtime.press(2) and not runtime.press(2)
    presses = [line.split("    ", 1)[1] for line in lines if "кнопка" in line]
    assert presses == [
        "кнопка игрока 1 — не засчитано: окно голосования закрыто",
        "кнопка игрока 2",
        "кнопка игрока 2 — не засчитано",
    ]


def test_without_a_terminal_the_status_is_a_plain_line_when_it_changes():
    from host_device.session.host import status as host_status

    assert host_status is status  # the host draws this one
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    runtime.handle(ROLES)
    while runtime.game.phase is not Phase.SPEECH:
        runtime.handle(Advance())
    out = io.StringIO()
    lines = StatusLine(out)
    assert not lines.live
    for _ in range(12):  # the heartbeat while the speech runs: its seconds are left out
        sched.run_due(sched.now + 0.25)
        lines.status = status(runtime, timer=lines.live)
        lines.draw()
    lines.write_line("00:30.0 Ведущий: Игрок номер один, ваша минута.")
    lines.close()
    assert (
        out.getvalue() == "День 1 · речи · говорит игрок 1\n00:30.0 Ведущий: Игрок номер один, ваша минута.\n"
    )


def test_a_turn_skipped_before_it_was_announced_is_a_line():
    """«Дальше» three times at once: seat 3's turn ends before «Игрок номер
    три, ваша минута» is said; the phrase is not said, and the log says so."""
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    lines = []
    Narration(runtime, lambda key, slots: f"{key} {slots.get('seat')}", lines.append)
    runtime.handle(ROLES)
    while not (runtime.game.phase is Phase.SPEECH and runtime.timer and sched.now >= runtime.timer[0]):
        sched.run_due(sched.next_time())
    for _ in range(3):
        runtime.press("next")
    sched.run_due(sched.now + 10)
    assert any(line.endswith("игрок 3: слово пропущено (не объявлено)") for line in lines), lines
    assert not any(line.endswith("Ведущий: speech 3") for line in lines)
    assert any(line.endswith("Ведущий: speech 4") for line in lines)


def test_a_best_move_heard_is_a_line_with_its_seats():
    from engine import Shot
    from host_device.listening.intents import Intent
    from tests.helpers.table import Table

    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    sched = Scheduler()
    runtime = Runtime(Game("classic"), sched, lambda key, slots: 2.0)
    for inp in table.game.record:
        runtime.handle(inp)
    lines = []
    Narration(runtime, lambda key, slots: f"{key} {slots.get('seats')}", lines.append)
    assert runtime.heard(Intent("best_move", seats=(3, 5, 8)))
    sched.run_due(sched.now + 60)
    assert any(line.endswith("игрок 1: «… лучший ход: 3, 5, 8 …»") for line in lines), lines
    assert any(line.endswith("Ведущий: best_move_accepted (3, 5, 8)") for line in lines), lines
