"""The host's terminal at 80×24, rendered to text (tests/helpers/terminal.py):
assist mode's screen while paused, and the lines that must fit."""

import io
import os
from types import SimpleNamespace

import pytest

from engine import Phase
from host_device.base.stopping import SaidInterrupted
from host_device.runtime.clock import VirtualClock
from host_device.screens.terminal import candidates_line
from host_device.session.host import Host
from tests.helpers.host import args
from tests.helpers.table import Table
from tests.helpers.terminal import Tty, screen


def terminal_host(monkeypatch, tmp_path, **overrides):
    """``run --panel keyboard`` on a virtual wall clock, its terminal an 80×24
    screen; keys are typed through the panel's own ``key()``. Returns the
    host, what it wrote, and the pipe standing in for the keys (to close)."""
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


def run(host, fds):
    """The game until the test's Ctrl-C (``stop``): said, and raised for main's exit 130."""
    try:
        with pytest.raises(SaidInterrupted):
            host.run()
    finally:
        for fd in fds:
            os.close(fd)


def to_the_speech(host, until=lambda: True):
    """The host presses n (every 50 ms of wall time) until the first speech, and ``until`` holds."""
    rt, clock = host.runtime, host.clock
    last = [0.0]

    def press():
        last[0] = clock.now()
        host.panel.key("n")

    clock.when(
        lambda: rt.game.phase is not Phase.SPEECH and not rt.sched.paused and clock.now() - last[0] > 0.05,
        press,
        repeat=True,
    )
    return lambda: rt.game.phase is Phase.SPEECH and until()


@pytest.mark.slow
def test_a_pause_in_assist_mode_shows_on_the_screen_at_once_with_the_keys_answers(
    monkeypatch, tmp_path, builtin_pack
):
    host, out, fds = terminal_host(monkeypatch, tmp_path, mode="assist", deal="device")
    clock, rt = host.clock, host.runtime
    seen = {}

    def at(name, key=None):
        def then():
            seen[name] = (clock.now(), screen(out.getvalue()))
            if key is not None:
                host.panel.key(key)

        return then

    def since(name, seconds):
        return lambda: name in seen and clock.now() - seen[name][0] >= seconds

    def stop():
        raise KeyboardInterrupt

    speaking = to_the_speech(host, lambda: rt.time_left() is not None and rt.time_left() < 55)
    clock.when(speaking, at("speaking", "p"))
    clock.when(since("speaking", 1.0), at("paused", "f"))
    clock.when(since("paused", 1.0), at("answered"))
    clock.when(since("answered", 0.1), stop)
    run(host, fds)
    paused = seen["paused"][1]
    assert "ПАУЗА" in paused[0] and "ПАУЗА — всё стоит; p — продолжить" in paused[1]
    assert rt.sched.paused  # still: the screen shows the pause while it lasts
    answered = seen["answered"][1]
    assert "› [f]: пауза (p — продолжить)" in answered


def test_the_rounds_are_named_in_russian():
    from engine.state import RoundKind
    from host_device.screens.terminal import round_name

    assert [round_name(kind) for kind in RoundKind] == [
        "Голосование",
        "Переголосование",
        "Голосование «все голосуемые покидают игру?»",
    ]


@pytest.mark.slow
def test_words_typed_after_tab_in_assist_mode_show_as_typed_and_are_heard(
    monkeypatch, tmp_path, builtin_pack
):
    """Tab on the keyboard panel in assist mode: the line being typed is on
    the host's screen (in 80 columns), and Enter hands the words on as the
    speaker's, a nomination in them waiting for y or x."""
    host, out, fds = terminal_host(monkeypatch, tmp_path, mode="assist", deal="device")
    clock, rt = host.clock, host.runtime
    seen = {}
    words = "выставляю игрока номер пять"

    def type_words():
        for char in "\t" + words:
            host.panel.key(char)
        seen["typing"] = clock.now()

    def look(name, *keys):
        def then():
            seen[name] = screen(out.getvalue())
            for key in keys:
                host.panel.key(key)
            seen[f"{name} at"] = clock.now()

        return then

    def stop():
        raise KeyboardInterrupt

    clock.when(to_the_speech(host), type_words)
    clock.when(lambda: clock.now() - seen.get("typing", clock.now()) >= 0.5, look("typing", "\r"))
    clock.when(lambda: clock.now() - seen.get("typing at", clock.now()) >= 0.5, look("heard"))
    clock.when(lambda: "heard" in seen, stop)
    run(host, fds)
    typing = [line for line in seen["typing"] if line]
    assert typing[-1] == f"слова говорящего: {words}▌ (Enter — сказать, Esc — отмена)"
    heard = "\n".join(seen["heard"])
    assert f"Услышано: «{words}»" in heard
    assert "Услышано выставление: игрок 1 выставляет игрока 5 — y принять, x отклонить" in heard
    assert [p.input.target for p in rt.proposals] == [5]


def test_in_the_first_night_victims_last_word_the_host_is_told_how_to_type_the_best_move():
    from engine import Advance, BestMove, Game, Shot
    from host_device.runtime.assist import Assist
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.screens.terminal import waiting_lines
    from tests.helpers.table import Table

    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    assist = Assist(runtime, role_entry=False)
    for inp in table.game.record:
        assert runtime.handle(inp)
    hint = "Лучший ход: Tab, три места («3 5 8»), Enter"
    assert waiting_lines(assist)[-1] == hint
    assert runtime.handle(BestMove(seat=1, seats=(2, 4, 6)))
    assert waiting_lines(assist)[-1] == f"{hint} — записан: 2, 4, 6"
    assert runtime.handle(Advance())  # «Дальше»: the speeches
    assert runtime.game.phase is Phase.SPEECH and not any(
        "Лучший ход" in line for line in waiting_lines(assist)
    )


def test_at_night_the_assist_screen_has_no_candidates():
    table = Table()
    table.day_speeches(nominations={1: 4})
    assist = SimpleNamespace(runtime=SimpleNamespace(game=table.game), last_counts=())
    assert candidates_line(assist) == "Кандидаты: 4"
    table.to_night()  # the state keeps the day's candidates (and Assist forgets the day's count)
    assert candidates_line(assist) == "Ночь: кандидатов нет"
