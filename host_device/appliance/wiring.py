"""``host-device hardware wiring --to FILE.svg``: the panel's wiring drawn from
the pin map — the Pi's 40-pin header, each seat's button and LED (with its
resistor), the host's buttons, and ground — so that a club can build the
panel from a picture.

Every button goes from its GPIO to ground (the Pi's internal pull-up is
used); every LED goes from its GPIO through a 330 Ω resistor to the LED's
long leg (anode), its short leg (cathode) to ground.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from xml.sax.saxutils import escape

from hardware.pinmap import HEADER_PIN, PinMap
from host_device.base.errors import HostDeviceError
from host_device.base.files import replacing
from host_device.config import load_config

GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
RESISTOR = "330 Ω"
HOST_NAMES = {"next": "«Дальше»", "pause": "«Пауза»", "undo": "«Отмена»"}  # the host's buttons
ROW = 26
HEADER_X, TOP = 100, 70
PARTS_X = 400


def _pin_xy(physical: int) -> tuple[int, int]:
    row = (physical - 1) // 2
    return HEADER_X + (0 if physical % 2 else 24), TOP + row * 18


def wiring_svg(pinmap: PinMap) -> str:
    bcm = {pin: gpio for gpio, pin in HEADER_PIN.items()}
    rows: list[tuple[str, str, int, str]] = []  # (label, kind, GPIO, data)
    for seat, (button, led) in enumerate(pinmap.seats, start=1):
        rows.append((f"Место {seat}: кнопка", "button", button, f'data-seat="{seat}"'))
        rows.append((f"Место {seat}: светодиод, {RESISTOR}", "led", led, f'data-seat="{seat}"'))
    for key, pin in pinmap.host:
        rows.append((f"Ведущий: {HOST_NAMES[key]}", "button", pin, f'data-host="{key}"'))
    height = TOP + max(20 * 18, len(rows) * ROW) + 60
    width = PARTS_X + 420
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="20" y="28" font-size="18">Пульт на {pinmap.seat_count} мест: подключение к Raspberry Pi'
        "</text>",
        '<text x="20" y="48" fill="#555">Кнопка: GPIO → кнопка → GND. Светодиод: GPIO → резистор → '
        "длинная ножка, короткая ножка → GND. Номера GPIO — BCM.</text>",
        f'<g id="header"><rect x="{HEADER_X - 14}" y="{TOP - 14}" width="52" height="{20 * 18 + 10}" '
        'fill="#2d5" fill-opacity="0.15" stroke="#333"/>',
    ]
    for physical in range(1, 41):
        x, y = _pin_xy(physical)
        gpio = bcm.get(physical)
        kind = "gnd" if physical in GROUND else "power" if physical in POWER else "gpio"
        fill = {"gnd": "black", "power": "red", "gpio": "#fc3"}[kind]
        label = "GND" if kind == "gnd" else POWER.get(physical, f"GPIO{gpio}")
        data = f' data-gpio="{gpio}"' if gpio is not None else ""
        out.append(
            f'<circle class="pin {kind}" data-physical="{physical}"{data} cx="{x}" cy="{y}" r="6" '
            f'fill="{fill}"/>'
        )
        tx, anchor = (x - 12, "end") if physical % 2 else (x + 12, "start")
        out.append(
            f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" font-size="9">{physical} {label}</text>'
        )
    out.append("</g>")
    x0 = PARTS_X
    for i, (label, kind, gpio, data) in enumerate(rows):
        y = TOP + i * ROW
        physical = HEADER_PIN[gpio]
        px, py = _pin_xy(physical)
        colour = "#06c" if kind == "button" else "#c30"
        out.append(f'<g class="{kind}" {data} data-gpio="{gpio}" data-physical="{physical}">')
        out.append(
            f'<polyline points="{px},{py} {x0 - 20},{py if i == 0 else y} {x0 - 20},{y} {x0},{y}" '
            f'fill="none" stroke="{colour}" stroke-width="1.2" stroke-opacity="0.6"/>'
        )
        if kind == "button":
            out.append(
                f'<rect x="{x0}" y="{y - 7}" width="22" height="14" rx="3" fill="white" stroke="{colour}"/>'
            )
        else:
            out.append(f'<rect x="{x0}" y="{y - 4}" width="22" height="8" fill="#eee" stroke="{colour}"/>')
            out.append(
                f'<polygon points="{x0 + 28},{y - 6} {x0 + 28},{y + 6} {x0 + 38},{y}" fill="{colour}"/>'
            )
        out.append(
            f'<text x="{x0 + 46}" y="{y + 4}">{escape(label)} — GPIO{gpio} (контакт {physical}) → GND</text>'
        )
        out.append("</g>")
    out.append(
        f'<text x="20" y="{height - 20}" fill="#555">Земля (GND): контакты {", ".join(map(str, GROUND))} — '
        "любая подходит; удобно свести все провода земли на одну шину.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def cmd_wiring(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config) if args.config else None)
    pinmap = config.pinmap(args.seats)
    target = Path(args.to)
    if target.suffix.lower() != ".svg":
        raise HostDeviceError(f"--to {args.to}: the picture is an SVG file (--to wiring.svg)")
    try:
        with replacing(target) as tmp:
            tmp.write_text(wiring_svg(pinmap), encoding="utf-8")
    except OSError as exc:
        raise HostDeviceError(f"{target}: cannot write: {exc.strerror}") from None
    print(f"host-device: {target}: the wiring of {args.seats} seats")
    return 0
