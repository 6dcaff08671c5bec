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


def test_a_default_for_every_table_the_header_can_wire():
    eight, ten = default_pinmap(8), default_pinmap(10)
    assert eight.seats == ten.seats[:8] and len({p for pair in eight.seats for p in pair}) == 16
    with pytest.raises(
        PinMapError, match=r"нет готовой раскладки выводов на 14 мест \(на разъёме — от 1 до 12\)"
    ):
        default_pinmap(14)


def test_config_may_override_host_buttons_and_timing():
    panel = {"host": {"undo": 15}, "debounce_ms": 20, "stuck_after_s": 3, "allow_reserved": True}
    pinmap = pinmap_from_config(panel, 10)
    assert dict(pinmap.host)["undo"] == 15 and pinmap.debounce_ms == 20 and pinmap.stuck_after_s == 3


def test_a_full_custom_seat_table():
    seats = {str(n): [2 * n + 2, 2 * n + 3] for n in range(1, 4)}
    pinmap = pinmap_from_config({"seats": seats, "host": {"next": 20, "pause": 21, "undo": 22}}, 3)
    assert pinmap.seats == ((4, 5), (6, 7), (8, 9))


@pytest.mark.parametrize(
    ("panel", "seats", "message"),
    [
        (
            {"host": {"undo": 4}},
            10,
            r"\[panel\].host.undo: GPIO4 уже занят \(\[panel\].seats.1: кнопка\)",
        ),
        ({"host": {"next": 28}}, 10, r"\[panel\].host.next: GPIO28 нет на 40-контактном разъёме"),
        ({"host": {"next": "GPIO4"}}, 10, r"\[panel\].host.next: 'GPIO4' — не номер GPIO"),
        (
            {"host": {"start": 1}},
            10,
            r"\[panel\].host.start: нет такой кнопки ведущего; кнопки ведущего: next, pause, undo",
        ),
        (
            {"seats": {"1": [2, 3], "2": [4, 5]}},
            10,
            r"\[panel\].seats: в раскладке мест 2, а в игре 10",
        ),
        (
            {"seats": {"1": [2, 3], "3": [4, 5]}},
            2,
            r"\[panel\].seats: места должны идти 1..2 без пропусков",
        ),
        ({"seats": {"one": [2, 3]}}, 1, r"\[panel\].seats.one: места нумеруются"),
        ({"seats": {"1": [2]}}, 1, r"\[panel\].seats.1: должно быть \[GPIO кнопки, GPIO светодиода\]"),
        ({"seats": [1]}, 1, r"\[panel\].seats: должен быть разделом"),
        ({"seats": {"1": [2, 3]}}, 1, r"\[panel\].host: нет вывода для next, pause, undo"),
        ({}, 14, r"14 мест: выводов разъёма хватает не больше чем на 12 мест .* --panel web"),
        ({"debounce_ms": 0}, 10, r"\[panel\].debounce_ms: число от 1 до 1000, а не 0"),
        ({"debounce_ms": float("nan")}, 10, r"\[panel\].debounce_ms: число от 1 до 1000, а не nan"),
        ({"debounce_ms": float("inf")}, 10, r"\[panel\].debounce_ms: число от 1 до 1000, а не inf"),
        ({"stuck_after_s": 1e9}, 10, r"\[panel\].stuck_after_s: число от 0.5 до 600"),
        ({"host": 5}, 10, r"\[panel\].host: должен быть разделом next / pause / undo = GPIO, а не 5"),
        ({"host": [1]}, 10, r"\[panel\].host: должен быть разделом next / pause / undo = GPIO, а не \[1\]"),
        ({"host": "x"}, 10, r"\[panel\].host: должен быть разделом"),
        ({"seats": {"01": [2, 3]}}, 1, r"\[panel\].seats.01: места нумеруются 1, 2, 3"),
        ({"seats": {"١": [2, 3]}}, 1, r"\[panel\].seats.١: места нумеруются 1, 2, 3 … \(цифры 0-9\)"),
        # the pins kept free by default (HAT EEPROM, I2C, UART) are refused unless allowed
        (
            {"host": {"undo": 15}},
            10,
            r"\[panel\].host.undo: GPIO15 — это UART RXD, по умолчанию он свободен; выберите другой вывод "
            r"или, если этот интерфейс выключен, задайте \[panel\].allow_reserved = true",
        ),
        ({"host": {"next": 2}}, 10, r"\[panel\].host.next: GPIO2 — это I2C SDA"),
        ({"allow_reserved": 1}, 10, r"\[panel\].allow_reserved: true или false, а не 1"),
        ({"colour": "red"}, 10, r"\[panel\].colour: нет такой настройки"),
    ],
)
def test_bad_pin_maps_name_the_entry(panel, seats, message):
    with pytest.raises(PinMapError, match=message):
        pinmap_from_config(panel, seats)


def test_reserved_pins_when_allowed_and_in_the_twelve_seat_default():
    assert dict(pinmap_from_config({"host": {"undo": 15}, "allow_reserved": True}, 10).host)["undo"] == 15
    assert pinmap_from_config({}, 12) == default_pinmap(
        12
    )  # the default needs them (the guide's wiring table: tests/host_device/cli/test_guide.py)


def test_seat_count_is_checked_against_the_game():
    with pytest.raises(PinMapError, match="в раскладке мест 10, а в игре 12"):
        check_pinmap(default_pinmap(10), 12)
    with pytest.raises(PinMapError, match="GPIO5 уже занят"):
        check_pinmap(PinMap(seats=((5, 5),), host=(("next", 6), ("pause", 7), ("undo", 8))), 1)


def test_config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[panel]\ndebounce_ms = 25\nallow_reserved = true\n[panel.host]\nundo = 15\n[audio]\nmicrophone = "USB"\nspeaker = 0\n'
    )
    config = load_config(path)
    assert config.microphone == "USB" and config.speaker == 0
    assert config.pinmap(10).debounce_ms == 25
    path.write_text("[panel.host]\nundo = 4\n")
    with pytest.raises(PinMapError, match=rf"{path}: \[panel\].host.undo: GPIO4 уже занят"):
        load_config(path).pinmap(10)


def test_the_assist_section(tmp_path):
    from host_device.config import AssistSettings

    path = tmp_path / "config.toml"
    path.write_text('[assist]\nauto_accept = true\nvotes = "counts"\nnight = "buttons"\ntimers = [90, 120]\n')
    assert load_config(path).assist == AssistSettings(
        auto_accept=True, votes="counts", night="buttons", timers=(90, 120)
    )
    path.write_text("[audio]\nspeaker = 0\n")
    assert load_config(path).assist == AssistSettings()


def test_no_config_file_means_defaults(tmp_path, monkeypatch):
    monkeypatch.delenv("HOST_DEVICE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nothing"))
    config = load_config()
    assert config.path is None and config.pinmap(12) == default_pinmap(12)


def test_a_config_named_by_the_environment_must_exist(tmp_path, monkeypatch, capsys):
    from host_device.cli.main import main

    monkeypatch.setenv("HOST_DEVICE_CONFIG", str(tmp_path / "absent.toml"))
    with pytest.raises(
        ConfigError, match=r"absent.toml: нет такого файла настроек \(его называет \$HOST_DEVICE_CONFIG\)"
    ):
        load_config()
    assert main(["hardware", "test", "--auto", "--panel", "mock", "--audio", "null"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "absent.toml: нет такого файла настроек" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[panel", "ошибка в TOML"),
        ("[screen]\n", r"\[screen\]: нет такого раздела"),
        ("[audio]\nvolume = 3\n", r"\[audio\].volume: нет такой настройки"),
        ("[audio]\nspeaker = true\n", r"\[audio\].speaker: имя устройства или его номер"),
        ("[assist]\nauto_accept = 1\n", r"\[assist\].auto_accept: true или false, а не 1"),
        ('[assist]\nvotes = "hands"\n', r"\[assist\].votes: \"buttons\" или \"counts\", а не 'hands'"),
        ('[assist]\nnight = "auto"\n', r"\[assist\].night: \"host\" или \"buttons\""),
        ("[assist]\ntimers = [90, 0]\n", r"\[assist\].timers: список секунд от 1 до 3600"),
        ("[assist]\ntimers = 90\n", r"\[assist\].timers: список секунд"),
        ("[assist]\ntimers = [1, 2, 3, 4, 5, 6, 7]\n", r"\[assist\].timers: таймеров 7; можно не больше 6"),
        ("panel = 5\n", r"panel = 5: \[panel\] — раздел с настройками, а не значение"),
        ("audio = 5\n", r"audio = 5: \[audio\] — раздел с настройками, а не значение"),
        ("assist = 5\n", r"assist = 5: \[assist\] — раздел с настройками, а не значение"),
        ("[audio]\nspeaker = -1\n", r"\[audio\].speaker: имя устройства или его номер \(0 …\), а не -1"),
        ("x = " + "[" * 2000 + "]" * 2000 + "\n", "вложены слишком глубоко"),
        ("x = " + "9" * 5000 + "\n", "ошибка в TOML"),
        ("# " + "x" * 100_001 + "\n", "больше 100,000 байт"),
        (
            "[assist]\nspeed = 2\n",
            r"\[assist\].speed: нет такой настройки; настройки: auto_accept, night, timers, votes",
        ),
    ],
)
def test_bad_config_files(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)
    with pytest.raises(ConfigError, match="нет такого файла настроек"):
        load_config(tmp_path / "nope.toml")
