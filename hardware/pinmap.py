"""The panel's pin map: which GPIO each seat's button and LED and each host
button use. Read from the config file's [panel] table, with defaults for 10
and 12 seats, and checked whole at start.

GPIO numbers are Broadcom (BCM) numbers on the Raspberry Pi's 40-pin header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hardware.events import HOST_KEYS
from host_device.base.errors import HostDeviceError
from host_device.base.text import shorten

GPIO_PINS = range(0, 28)  # BCM GPIO0..GPIO27 on the 40-pin header
RESERVED = {
    0: "ID_SD (HAT EEPROM)",
    1: "ID_SC (HAT EEPROM)",
    2: "I2C SDA",
    3: "I2C SCL",
    14: "UART TXD",
    15: "UART RXD",
}
# BCM number -> physical pin on the 40-pin header (for the wiring table)
HEADER_PIN = {
    2: 3,
    3: 5,
    4: 7,
    14: 8,
    15: 10,
    17: 11,
    18: 12,
    27: 13,
    22: 15,
    23: 16,
    24: 18,
    10: 19,
    9: 21,
    25: 22,
    11: 23,
    8: 24,
    7: 26,
    0: 27,
    1: 28,
    5: 29,
    6: 31,
    12: 32,
    13: 33,
    19: 35,
    16: 36,
    26: 37,
    20: 38,
    21: 40,
}


class PinMapError(HostDeviceError, ValueError):
    """A pin map that cannot be wired (the message names the entry)."""


@dataclass(frozen=True)
class PinMap:
    seats: tuple[tuple[int, int], ...]  # seat N (1-based) -> (button pin, LED pin)
    host: tuple[tuple[str, int], ...]  # host key -> button pin
    debounce_ms: int = 30
    stuck_after_s: float = 5.0

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def button_pins(self) -> dict[int | str, int]:
        keys: dict[int | str, int] = {seat: pins[0] for seat, pins in enumerate(self.seats, start=1)}
        keys.update(dict(self.host))
        return keys

    def led_pins(self) -> dict[int, int]:
        return {seat: pins[1] for seat, pins in enumerate(self.seats, start=1)}


# Defaults. Seats take (button, LED) pairs of neighbouring header pins; the
# host buttons come last. 10 seats (23 pins) leave I2C (GPIO2/3), GPIO15
# (UART RXD) and the HAT EEPROM pins free; 12 seats (27 pins) need I2C and
# the UART too and leave only GPIO1 free.
_ORDER = [4, 17, 27, 22, 10, 9, 11, 5, 6, 13, 19, 26, 18, 23, 24, 25, 8, 7, 12, 16, 20, 21, 14, 15, 2, 3, 0]


MAX_DEFAULT_SEATS = (len(_ORDER) - len(HOST_KEYS)) // 2  # 12: a button and an LED each, and the host's three


def default_pinmap(seats: int) -> PinMap:
    if not 1 <= seats <= MAX_DEFAULT_SEATS:
        raise PinMapError(
            f"нет готовой раскладки выводов на {seats} мест (на разъёме — от 1 до {MAX_DEFAULT_SEATS}): "
            "задайте [panel.seats] в настройках или играйте местами-телефонами (--panel web)"
        )
    pins = _ORDER[: 2 * seats + len(HOST_KEYS)]
    pairs = tuple((pins[2 * i], pins[2 * i + 1]) for i in range(seats))
    host = tuple(zip(HOST_KEYS, pins[2 * seats :], strict=True))
    return PinMap(seats=pairs, host=host)


def _pin(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinMapError(f"{where}: {value!r:.40} — не номер GPIO (BCM, 0..27)")
    if value not in GPIO_PINS:
        raise PinMapError(f"{where}: GPIO{value} нет на 40-контактном разъёме (BCM 0..27)")
    return value


def pinmap_from_config(panel: dict[str, Any], seats: int, where: str = "[panel]") -> PinMap:
    """The pin map of a config's [panel] table for a game of ``seats`` seats.

    [panel]
    debounce_ms = 30
    stuck_after_s = 5
    [panel.seats]        # seat = [button GPIO, LED GPIO]; leave out for the default
    1 = [4, 17]
    [panel.host]         # next, pause, undo
    next = 8
    """
    if not isinstance(panel, dict):
        raise PinMapError(
            f"{where}: должен быть разделом ([panel] со своими настройками), а не {panel!r:.40}"
        )
    base = default_pinmap(seats) if seats <= MAX_DEFAULT_SEATS and "seats" not in panel else None
    known = {"debounce_ms", "stuck_after_s", "seats", "host", "allow_reserved"}
    for key in panel:
        if key not in known:
            raise PinMapError(f"{where}.{key}: нет такой настройки; настройки: {', '.join(sorted(known))}")
    allow_reserved = panel.get("allow_reserved", False)
    if not isinstance(allow_reserved, bool):
        raise PinMapError(f"{where}.allow_reserved: true или false, а не {allow_reserved!r:.40}")
    given: dict[str, int] = {}  # the pins the config names (checked against RESERVED)
    if "seats" in panel:
        table = panel["seats"]
        if not isinstance(table, dict):
            raise PinMapError(f"{where}.seats: должен быть разделом: место = [кнопка, светодиод]")
        numbers = []
        for key in table:
            text = str(key)
            if not (text.isascii() and text.isdigit()) or text.startswith("0") or len(text) > 2:
                shown = shorten(text, 20)
                raise PinMapError(f"{where}.seats.{shown}: места нумеруются 1, 2, 3 … (цифры 0-9)")
            numbers.append(int(text))
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise PinMapError(f"{where}.seats: места должны идти 1..{len(numbers)} без пропусков")
        if len(numbers) != seats:
            raise PinMapError(f"{where}.seats: в раскладке мест {len(numbers)}, а в игре {seats}")
        pairs = []
        for n in range(1, seats + 1):
            value = table[str(n)] if str(n) in table else table[n]
            if not isinstance(value, list) or len(value) != 2:
                raise PinMapError(f"{where}.seats.{n}: должно быть [GPIO кнопки, GPIO светодиода]")
            pairs.append((_pin(value[0], f"{where}.seats.{n}"), _pin(value[1], f"{where}.seats.{n}")))
            given[f"{where}.seats.{n}: кнопка"], given[f"{where}.seats.{n}: светодиод"] = pairs[-1]
        seat_pairs = tuple(pairs)
    elif base is not None:
        seat_pairs = base.seats
    else:
        raise PinMapError(
            f"{seats} мест: выводов разъёма хватает не больше чем на {MAX_DEFAULT_SEATS} мест с кнопкой и "
            "светодиодом (и три кнопки ведущего); за столом больше — места-телефоны: --panel web"
        )
    host = dict(base.host) if base is not None else {}
    host_table = panel.get("host", {})
    if not isinstance(host_table, dict):
        raise PinMapError(
            f"{where}.host: должен быть разделом {' / '.join(HOST_KEYS)} = GPIO, а не {host_table!r:.40}"
        )
    for key, value in host_table.items():
        if key not in HOST_KEYS:
            raise PinMapError(
                f"{where}.host.{key:.20}: нет такой кнопки ведущего; кнопки ведущего: {', '.join(HOST_KEYS)}"
            )
        host[key] = given[f"{where}.host.{key}"] = _pin(value, f"{where}.host.{key}")
    missing = [k for k in HOST_KEYS if k not in host]
    if missing:
        raise PinMapError(f"{where}.host: нет вывода для {', '.join(missing)}")
    pinmap = PinMap(
        seats=seat_pairs,
        host=tuple((k, host[k]) for k in HOST_KEYS),
        debounce_ms=_between(panel.get("debounce_ms", 30), f"{where}.debounce_ms", 1, 1000),
        stuck_after_s=_between(panel.get("stuck_after_s", 5.0), f"{where}.stuck_after_s", 0.5, 600),
    )
    check_pinmap(pinmap, seats, where)
    if not allow_reserved:
        for name, pin in given.items():
            if pin in RESERVED:
                raise PinMapError(
                    f"{name}: GPIO{pin} — это {RESERVED[pin]}, по умолчанию он свободен; "
                    "выберите другой вывод или, если этот интерфейс выключен, "
                    f"задайте {where.split(': ')[-1]}.allow_reserved = true"
                )
    return pinmap


def _between(value: Any, where: str, low: float, high: float) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise PinMapError(f"{where}: число от {low:g} до {high:g}, а не {value!r:.40}")
    return value


def check_pinmap(pinmap: PinMap, seats: int, where: str = "[panel]") -> None:
    """Every pin once, every pin real, as many seats as the game has."""
    if pinmap.seat_count != seats:
        raise PinMapError(f"{where}: в раскладке мест {pinmap.seat_count}, а в игре {seats}")
    used: dict[int, str] = {}
    entries = [(f"{where}.seats.{n}: кнопка", b) for n, (b, _) in enumerate(pinmap.seats, start=1)]
    entries += [(f"{where}.seats.{n}: светодиод", led) for n, (_, led) in enumerate(pinmap.seats, start=1)]
    entries += [(f"{where}.host.{k}", p) for k, p in pinmap.host]
    for name, pin in entries:
        _pin(pin, name)
        if pin in used:
            raise PinMapError(f"{name}: GPIO{pin} уже занят ({used[pin]})")
        used[pin] = name
