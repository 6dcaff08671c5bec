"""The panel on gpiozero's mock pins, and the keyboard panel."""

import contextlib
import io
import os
import queue
import threading
import time

import pytest

from hardware.events import ButtonReleased, Held, Press, Release, StuckButton
from hardware.gpio_panel import GpioPanel, NoGpio, mock_pin_factory
from hardware.keyboard_panel import KeyboardPanel, key_for
from hardware.panel import BLINK, OFF, ON, PULSE, LedPattern
from hardware.pinmap import PinMap, default_pinmap
from tests.helpers.terminal import Tty


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def drain(q):
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def panel(clock):
    panel = GpioPanel(default_pinmap(12), clock, pin_factory=mock_pin_factory())
    yield panel
    panel.close()


def press(panel, key):
    panel.buttons[key].pin.drive_low()


def release(panel, key):
    panel.buttons[key].pin.drive_high()


def test_a_press_is_stamped_at_its_first_edge(panel, clock):
    clock.now = 12.5
    press(panel, 7)
    clock.now = 12.6
    release(panel, 7)
    assert drain(panel.events) == [Press(key=7, at=12.5)]


def test_host_buttons(panel, clock):
    for key in ("next", "pause", "undo"):
        clock.now += 1
        press(panel, key)
        release(panel, key)
    events = drain(panel.events)
    assert [e.key for e in events if isinstance(e, Press)] == ["next", "pause", "undo"]
    # next and pause also tell their release (the box acts on a short press when it is let go)
    assert [e.key for e in events if isinstance(e, Release)] == ["next", "pause"]


def test_holding_next_3_s_and_pause_5_s_is_reported_once_and_not_as_stuck(panel, clock):
    press(panel, "next")
    clock.now = 2.9
    panel.poll()
    assert drain(panel.events) == [Press(key="next", at=0.0)]
    clock.now = 3.2
    panel.poll()
    panel.poll()
    assert drain(panel.events) == [Held(key="next", seconds=3.0, at=3.0)]
    clock.now = 3.5
    release(panel, "next")
    assert drain(panel.events) == [Release(key="next", at=3.5)]
    clock.now = 4.0
    press(panel, "pause")
    clock.now = 8.9
    panel.poll()
    assert drain(panel.events) == [Press(key="pause", at=4.0)]
    clock.now = 9.0
    panel.poll()
    assert drain(panel.events) == [Held(key="pause", seconds=5.0, at=9.0)]
    # a seat held 5 s is stuck (the default limit); a host button only 5 s after its hold
    clock.now = 10.0
    panel.poll()
    assert drain(panel.events) == []
    clock.now = 14.0
    panel.poll()
    assert drain(panel.events) == [StuckButton(key="pause", at=14.0)]


def test_a_host_button_down_at_start_is_no_hold(clock):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    pinmap = default_pinmap(10)
    pause_pin = dict(pinmap.host)["pause"]
    factory.pin(pause_pin).drive_low()  # held down as the panel opens (a jammed button at boot)
    panel = GpioPanel(pinmap, clock, pin_factory=factory)
    try:
        clock.now = 6.0
        panel.poll()
        assert not any(isinstance(e, Held) for e in drain(panel.events))
    finally:
        panel.close()


def test_contact_bounce_is_one_press(panel, clock):
    press(panel, 3)
    for ms in (2, 4, 6, 8):  # chatter within the 30 ms debounce
        clock.now = ms / 1000
        release(panel, 3) if ms % 4 == 2 else press(panel, 3)
    clock.now = 0.5
    release(panel, 3)
    clock.now = 0.51  # bounce on release: not a press either
    press(panel, 3)
    clock.now = 0.52
    release(panel, 3)
    assert drain(panel.events) == [Press(key=3, at=0.0)]
    clock.now = 1.0  # a real second press, well after
    press(panel, 3)
    assert drain(panel.events) == [Press(key=3, at=1.0)]


def test_twelve_seats_pressing_at_once_are_all_seen_once(panel, clock):
    barrier = threading.Barrier(12)

    def seat(n):
        barrier.wait()
        press(panel, n)

    threads = [threading.Thread(target=seat, args=(n,)) for n in range(1, 13)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = drain(panel.events)
    assert sorted(e.key for e in events) == list(range(1, 13))


def test_a_stuck_button_is_reported_once_and_ignored_until_released(panel, clock):
    press(panel, 4)
    clock.now = 4.9
    panel.poll()
    assert drain(panel.events) == [Press(key=4, at=0.0)]
    clock.now = 5.0
    panel.poll()
    panel.poll()
    assert drain(panel.events) == [StuckButton(key=4, at=5.0)]
    clock.now = 6.0
    press(panel, 4)  # chatter while stuck: ignored
    assert drain(panel.events) == []
    clock.now = 7.0
    release(panel, 4)
    assert drain(panel.events) == [ButtonReleased(key=4, at=7.0)]
    clock.now = 8.0
    press(panel, 4)
    assert drain(panel.events) == [Press(key=4, at=8.0)]


def test_a_button_held_at_start_is_not_a_press(clock):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class HeldDownPin(MockPWMPin):
        """GPIO4 (seat 1's button) is held down from the start: its pull-up cannot raise it."""

        def _set_pull(self, value):
            super()._set_pull(value)
            if self.info.name == "GPIO4":
                self.drive_low()

    panel = GpioPanel(default_pinmap(10), clock, pin_factory=MockFactory(pin_class=HeldDownPin))
    try:
        assert drain(panel.events) == []
        clock.now = 6
        panel.poll()
        assert drain(panel.events) == [StuckButton(key=1, at=6)]
    finally:
        panel.close()


def test_led_on_and_off(panel):
    panel.set_led(5, ON)
    assert panel.leds[5].value == 1
    panel.set_led(5, OFF)
    assert panel.leds[5].value == 0
    panel.all_leds(ON)
    assert all(led.value == 1 for led in panel.leds.values())


def test_led_blink_and_pulse_histories(panel):
    led = panel.leds[2]
    panel.set_led(2, LedPattern("blink", 0.01, 0.01))
    time.sleep(0.1)
    panel.set_led(2, OFF)
    states = [s.state for s in led.pin.states]
    assert states.count(1) >= 3 and states.count(0) >= 3  # on, off, on, off ...
    panel.set_led(3, LedPattern("pulse", 0.4, 0.4))  # 25 frames a second: ten steps of fade in
    time.sleep(0.5)
    panel.set_led(3, OFF)
    levels = {round(s.state, 2) for s in panel.leds[3].pin.states}
    assert any(0 < v < 1 for v in levels)  # PWM: in-between brightness


def test_pulse_without_pwm_blinks(clock):
    from gpiozero.pins.mock import MockFactory

    panel = GpioPanel(default_pinmap(10), clock, pin_factory=MockFactory())  # no PWM pins
    try:
        assert type(panel.leds[1]).__name__ == "LED"
        panel.set_led(1, PULSE)
        time.sleep(0.05)
        panel.set_led(1, OFF)
        assert 1 in [s.state for s in panel.leds[1].pin.states]
        panel.set_led(1, BLINK)
    finally:
        panel.close()


def test_no_gpio_is_one_line_suggesting_the_keyboard(clock, monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "")
    with pytest.raises(NoGpio, match=r"нет GPIO: это не Raspberry Pi.* --panel keyboard") as refused:
        GpioPanel(default_pinmap(10), clock)
    assert "\n" not in str(refused.value) and "pin factory" not in str(refused.value)  # no English


# ------------------------------------------------------------ the keyboard panel


def test_keys_map_to_seats_and_host_buttons():
    assert [key_for(c, 12) for c in "1290-=npu"] == [1, 2, 9, 10, 11, 12, "next", "pause", "undo"]
    assert key_for("-", 10) == key_for("q", 12) == "unknown" and key_for("\x01", 12) is None
    # assist mode's host keys
    assert [key_for(c, 10) for c in "fvwyxgkctrh\n\x1b"] == [
        "foul",
        "nominate",
        "withdraw",
        "confirm",
        "reject",
        "count",
        "kill",
        "check",
        "timer",
        "roles",
        "help",
        "enter",
        "cancel",
    ]


def test_keyboard_panel_reads_keys_and_draws_leds(clock):
    r, w = os.pipe()
    out = Tty()
    panel = KeyboardPanel(12, clock, keys_fd=r, out=out)
    try:
        clock.now = 3.0
        os.write(w, b"1n=x")
        deadline = time.monotonic() + 5
        events = []
        while len(events) < 4 and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                events.append(panel.events.get(timeout=0.1))
        assert events == [
            Press(key=1, at=3.0),
            Press(key="next", at=3.0),
            Release(key="next", at=3.0),  # a host button's key: a short press, let go at once
            Press(key=12, at=3.0),
        ]
        panel.set_led(2, ON)
        panel.set_led(3, BLINK)
        assert panel.line().startswith("1○ 2● 3◐ 4○")
        assert out.getvalue().count("\r") == 3  # drawn at start and on each change
    finally:
        panel.close()
        os.close(w)
        os.close(r)


def test_keyboard_panel_tab_opens_a_line_for_the_speakers_words(clock):
    from hardware.events import TypedLine

    r, w = os.pipe()
    out = Tty()
    panel = KeyboardPanel(10, clock, keys_fd=r, out=out, width=80)
    try:
        clock.now = 5.0
        os.write(w, "\tя выставляю игрока номер семь\n".encode())  # «т», «г», «н»: letters, not buttons
        os.write(w, "\tпас\x7f\x7fрдон\x1b".encode())  # edited, then dropped with Esc
        os.write(w, b"\t  \n")  # an empty line sends nothing
        os.write(w, "\tспасибо\rn".encode())  # after Enter the keys are buttons again
        deadline = time.monotonic() + 5
        events = []
        while len(events) < 4 and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                events.append(panel.events.get(timeout=0.1))
        assert events == [
            TypedLine(text="я выставляю игрока номер семь", at=5.0),
            TypedLine(text="спасибо", at=5.0),
            Press(key="next", at=5.0),
            Release(key="next", at=5.0),
        ]
        assert panel.events.empty()
        panel.typed = "выставляю"
        assert panel.line() == "слова говорящего: выставляю▌ (Enter — сказать, Esc — отмена)"
        panel.typed = None
        panel.status = "День 1 · речи · говорит игрок 3 · 0:42"
        assert panel.line() == "День 1 · речи · говорит игрок 3 · 0:42 │ 1○ 2○ 3○ 4○ 5○ 6○ 7○ 8○ 9○ 10○"
        panel.width = 40
        assert len(panel.line()) == 39  # never wider than the terminal: a wrapped line cannot be redrawn
        panel.write_line("00:01.0 Ведущий: Наступает ночь.")
        assert out.getvalue().endswith(
            "\r\x1b[K00:01.0 Ведущий: Наступает ночь.\n\r" + panel.line() + "\x1b[K"
        )
    finally:
        panel.close()
        os.close(w)
        os.close(r)


def test_keyboard_keys_are_short_presses_and_shift_n_holds_next(clock):
    """The box counts «Дальше» when it is let go, and opens its menu when it
    is held: the keyboard sends both (n, and N or Т for the hold)."""
    r, w = os.pipe()
    panel = KeyboardPanel(10, clock, keys_fd=r, out=io.StringIO())
    try:
        clock.now = 7.0
        for char in "np3NТu":
            panel.key(char)
        events = [panel.events.get_nowait() for _ in range(panel.events.qsize())]
        held = [Press(key="next", at=7.0), Held(key="next", seconds=3.0, at=7.0), Release(key="next", at=7.0)]
        assert events == [
            Press(key="next", at=7.0),
            Release(key="next", at=7.0),
            Press(key="pause", at=7.0),
            Release(key="pause", at=7.0),
            Press(key=3, at=7.0),  # a seat's button has no hold: its press is all
            *held,
            *held,
            Press(key="undo", at=7.0),
        ]
    finally:
        panel.close()
        os.close(w)
        os.close(r)


def test_keyboard_panel_has_keys_for_twelve_seats(clock):
    with pytest.raises(ValueError, match="1 to 12 seats"):
        KeyboardPanel(13, clock, keys_fd=0, out=io.StringIO())


def test_custom_pin_map_on_mock_pins(clock):
    pinmap = PinMap(seats=((20, 21),), host=(("next", 5), ("pause", 6), ("undo", 13)))
    panel = GpioPanel(pinmap, clock, pin_factory=mock_pin_factory())
    try:
        panel.buttons[1].pin.drive_low()
        assert drain(panel.events) == [Press(key=1, at=0.0)]
        assert panel.buttons[1].pin.info.name == "GPIO20" and panel.leds[1].pin.info.name == "GPIO21"
    finally:
        panel.close()


class _Refuse:
    """An import finder that makes ``lgpio`` fail as a missing or broken library would."""

    def __init__(self, error):
        self.error = error

    def find_spec(self, name, path=None, target=None):
        if name == "lgpio":
            raise self.error
        return None


def _no_factory(monkeypatch, error):
    import sys

    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "")
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_Refuse(error), *sys.meta_path])


def test_lgpio_whose_library_cannot_load_is_named_with_its_package(clock, monkeypatch):
    _no_factory(
        monkeypatch, OSError("liblgpio.so.1: cannot open shared object file: No such file or directory")
    )
    with pytest.raises(NoGpio) as caught:
        GpioPanel(default_pinmap(10), clock)
    message = str(caught.value)
    assert "liblgpio.so.1" in message and "sudo apt-get install python3-lgpio" in message
    assert "\n" not in message


def test_lgpio_missing_on_a_pi_names_the_debian_package(clock, monkeypatch, tmp_path):
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\0")
    monkeypatch.setattr("hardware.gpio_panel.PI_MODEL", model)
    _no_factory(monkeypatch, ModuleNotFoundError("No module named 'lgpio'"))
    with pytest.raises(
        NoGpio, match=r"lgpio .*sudo apt-get install python3-lgpio, then rm -rf .venv && ./run"
    ):
        GpioPanel(default_pinmap(10), clock)


def test_keyboard_panel_lines_fit_80_columns_and_keep_their_ends(clock):
    """At 80 columns the step's line is cut, not the LEDs (seat 10 stays);
    the typed line keeps its label and its keys, the words their end."""
    from tests.helpers.terminal import screen

    r, w = os.pipe()
    out = Tty()
    panel = KeyboardPanel(10, clock, keys_fd=r, out=out, width=80)
    try:
        panel.status = "День 1 · голосование · за игрока 10 · окно голосования открыто · 0:07 · ПАУЗА"
        panel.set_led(10, ON)
        line = panel.line()
        assert len(line) == 79 and line.endswith(" │ 1○ 2○ 3○ 4○ 5○ 6○ 7○ 8○ 9○ 10●")
        assert line.startswith("День 1 · голосование · за игрока 10 · окно") and "… │" in line
        for char in "\tя выставляю игрока номер семь и ещё говорю долго, очень долго, до конца":
            panel.key(char)
        typing = [row for row in screen(out.getvalue()) if row][-1]  # under the LEDs' legend
        assert typing.startswith("слова говорящего: …") and typing.endswith(
            "до конца▌ (Enter — сказать, Esc — отмена)"
        )
        assert len(typing) == 79
        panel.width = 30  # narrower than the label and the hint: the words still show
        assert panel.line() == "слова говорящего: … до конца▌"
    finally:
        panel.close()
        os.close(w)
        os.close(r)


def test_keyboard_panel_without_a_terminal_writes_plain_lines_when_its_status_changes(clock):
    r, w = os.pipe()
    out = io.StringIO()  # a file or a pipe: nothing is redrawn in place
    panel = KeyboardPanel(10, clock, keys_fd=r, out=out)
    try:
        panel.status = "День 1 · речи · говорит игрок 3"
        for _ in range(8):  # the heartbeat, four times a second
            panel.draw()
        panel.set_led(3, ON)  # an LED: not written without a terminal (it may carry a role)
        panel.write_line("00:01.0 Ведущий: Игрок номер три, ваша минута.")
        panel.status = "День 1 · речи · говорит игрок 4"
        panel.draw()
        panel.close()
        assert out.getvalue() == (
            "День 1 · речи · говорит игрок 3\n"
            "00:01.0 Ведущий: Игрок номер три, ваша минута.\n"
            "День 1 · речи · говорит игрок 4\n"
        )
    finally:
        os.close(w)
        os.close(r)


def test_keyboard_panel_draws_each_deal_signal_with_its_own_symbol_and_its_legend(clock):
    """At the deal the Don's fast blinking, the mafia's blinking, the Doctor's
    flashes and the Lover's slow blinking each have their own symbol on the
    screen, and the legend above the status line says each in the card's words."""
    from engine import Role
    from hardware.panel import PATTERN_WORDS, PATTERNS
    from host_device.runtime.signals import ROLE_SIGNALS
    from tests.helpers.terminal import screen

    r, w = os.pipe()
    out = Tty()
    panel = KeyboardPanel(len(Role), clock, keys_fd=r, out=out, width=80)
    try:
        for seat, role in enumerate(Role, 1):
            panel.set_led(seat, PATTERNS[ROLE_SIGNALS[role]])
        rows = [row for row in screen(out.getvalue()) if row]
        leds = rows[-1].split()
        drawn = {role: leds[seat - 1].removeprefix(str(seat)) for seat, role in enumerate(Role, 1)}
        same = {(a, b) for a in Role for b in Role if drawn[a] == drawn[b]}
        assert same == {(a, b) for a in Role for b in Role if ROLE_SIGNALS[a] == ROLE_SIGNALS[b]}
        assert drawn[Role.DON] != drawn[Role.MAFIA] and drawn[Role.DOCTOR] != drawn[Role.LOVER]
        legend = " ".join(rows[:-1])
        assert legend.startswith("огоньки:") and all(len(row) < 80 for row in rows)
        for name, words in PATTERN_WORDS.items():
            shown = f"{'○' if name == 'off' else drawn[next(r for r in Role if ROLE_SIGNALS[r] == name)]} {words}"
            assert shown in legend, shown
    finally:
        panel.close()
        os.close(w)
        os.close(r)


def test_the_guide_gives_the_keyboard_panels_legend():
    from hardware.keyboard_panel import SYMBOLS
    from hardware.panel import PATTERN_WORDS
    from tests.helpers.paths import ROOT

    guide = " ".join((ROOT / "docs" / "guide" / "evening.md").read_text("utf-8").split())
    assert [name for name, words in PATTERN_WORDS.items() if f"{SYMBOLS[name]} {words}" not in guide] == []
