"""The pin map and the config file: defaults, validation, wiring table."""

import pytest

from hardware.pinmap import (
    HEADER_PIN,
    RESERVED,
    PinMap,
    PinMapError,
    check_pinmap,
    default_pinmap,
    pinmap_from_config,
    wiring_table,
)
from host_device.config import ConfigError, load_config


@pytest.mark.parametrize("seats", [10, 12])
def test_defaults_use_each_pin_once_and_only_header_pins(seats):
    pinmap = default_pinmap(seats)
    check_pinmap(pinmap, seats)
    pins = [p for pair in pinmap.seats for p in pair] + [p for _, p in pinmap.host]
    assert len(pins) == len(set(pins)) == 2 * seats + 3
    assert all(p in HEADER_PIN for p in pins)


def test_ten_seats_leave_i2c_and_the_hat_eeprom_free():
    pins = {p for pair in default_pinmap(10).seats for p in pair} | {p for _, p in default_pinmap(10).host}
    assert not pins & {0, 1, 2, 3, 15}
    assert {p for p in pins if p in RESERVED} == {14}


def test_twelve_seats_leave_one_pin():
    pinmap = default_pinmap(12)
    pins = {p for pair in pinmap.seats for p in pair} | {p for _, p in pinmap.host}
    assert set(range(28)) - pins == {1}


def test_no_default_for_other_tables():
    with pytest.raises(PinMapError, match="no default pin map for 8 seats"):
        default_pinmap(8)


def test_wiring_table_names_gpio_and_header_pin():
    rows = wiring_table(default_pinmap(10))
    assert rows[0] == ("seat 1 button", 4, 7) and rows[1] == ("seat 1 LED", 17, 11)
    assert rows[-3][0] == "host next" and len(rows) == 23


def test_config_may_override_host_buttons_and_timing():
    pinmap = pinmap_from_config({"host": {"undo": 15}, "debounce_ms": 20, "stuck_after_s": 3}, 10)
    assert dict(pinmap.host)["undo"] == 15 and pinmap.debounce_ms == 20 and pinmap.stuck_after_s == 3


def test_a_full_custom_seat_table():
    seats = {str(n): [2 * n, 2 * n + 1] for n in range(1, 4)}
    pinmap = pinmap_from_config({"seats": seats, "host": {"next": 20, "pause": 21, "undo": 22}}, 3)
    assert pinmap.seats == ((2, 3), (4, 5), (6, 7))


@pytest.mark.parametrize(
    ("panel", "seats", "message"),
    [
        (
            {"host": {"undo": 4}},
            10,
            r"\[panel\].host.undo: GPIO4 is already used by \[panel\].seats.1 button",
        ),
        ({"host": {"next": 28}}, 10, r"\[panel\].host.next: GPIO28 does not exist on the 40-pin header"),
        ({"host": {"next": "GPIO4"}}, 10, r"\[panel\].host.next: 'GPIO4' is not a GPIO number"),
        (
            {"host": {"start": 1}},
            10,
            r"\[panel\].host.start: unknown host button; host buttons: next, pause, undo",
        ),
        (
            {"seats": {"1": [2, 3], "2": [4, 5]}},
            10,
            r"\[panel\].seats: the pin map has 2 seats, the game has 10",
        ),
        (
            {"seats": {"1": [2, 3], "3": [4, 5]}},
            2,
            r"\[panel\].seats: seats must be numbered 1..2 without gaps",
        ),
        ({"seats": {"one": [2, 3]}}, 1, r"\[panel\].seats.one: seats are numbered"),
        ({"seats": {"1": [2]}}, 1, r"\[panel\].seats.1: must be \[button GPIO, LED GPIO\]"),
        ({"seats": [1]}, 1, r"\[panel\].seats: must be a table"),
        ({"seats": {"1": [2, 3]}}, 1, r"\[panel\].host: no pin for next, pause, undo"),
        ({}, 8, r"\[panel\].seats: no default pin map for 8 seats"),
        ({"debounce_ms": 0}, 10, r"\[panel\].debounce_ms: must be a positive number"),
        ({"colour": "red"}, 10, r"\[panel\].colour: unknown setting"),
    ],
)
def test_bad_pin_maps_name_the_entry(panel, seats, message):
    with pytest.raises(PinMapError, match=message):
        pinmap_from_config(panel, seats)


def test_seat_count_is_checked_against_the_game():
    with pytest.raises(PinMapError, match="the pin map has 10 seats, the game has 12"):
        check_pinmap(default_pinmap(10), 12)
    with pytest.raises(PinMapError, match="GPIO5 is already used"):
        check_pinmap(PinMap(seats=((5, 5),), host=(("next", 6), ("pause", 7), ("undo", 8))), 1)


def test_config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[panel]\ndebounce_ms = 25\n[panel.host]\nundo = 15\n[audio]\nmicrophone = "USB"\nspeaker = 0\n'
    )
    config = load_config(path)
    assert config.microphone == "USB" and config.speaker == 0
    assert config.pinmap(10).debounce_ms == 25
    path.write_text("[panel.host]\nundo = 4\n")
    with pytest.raises(PinMapError, match=rf"{path}: \[panel\].host.undo: GPIO4 is already used"):
        load_config(path).pinmap(10)


def test_the_assist_section(tmp_path):
    from host_device.runtime.assist import AssistSettings

    path = tmp_path / "config.toml"
    path.write_text('[assist]\nauto_accept = true\nvotes = "counts"\nnight = "buttons"\ntimers = [90, 120]\n')
    assert load_config(path).assist == AssistSettings(
        auto_accept=True, votes="counts", night="buttons", timers=(90, 120)
    )
    path.write_text("[audio]\nspeaker = 0\n")
    assert load_config(path).assist == AssistSettings()


def test_no_config_file_means_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_CONFIG", str(tmp_path / "absent.toml"))
    config = load_config()
    assert config.path is None and config.pinmap(12) == default_pinmap(12)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[panel", "not valid TOML"),
        ("[screen]\n", r"\[screen\]: unknown section"),
        ("[audio]\nvolume = 3\n", r"\[audio\].volume: unknown setting"),
        ("[audio]\nspeaker = true\n", r"\[audio\].speaker: a device name or index"),
        ("[assist]\nauto_accept = 1\n", r"\[assist\].auto_accept: true or false, not 1"),
        ('[assist]\nvotes = "hands"\n', r"\[assist\].votes: \"buttons\" or \"counts\", not 'hands'"),
        ('[assist]\nnight = "auto"\n', r"\[assist\].night: \"host\" or \"buttons\""),
        ("[assist]\ntimers = [90, 0]\n", r"\[assist\].timers: a list of seconds from 1 to 3600"),
        ("[assist]\ntimers = 90\n", r"\[assist\].timers: a list of seconds"),
        (
            "[assist]\nspeed = 2\n",
            r"\[assist\].speed: unknown setting; settings: auto_accept, night, timers, votes",
        ),
    ],
)
def test_bad_config_files(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")
