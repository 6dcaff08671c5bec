"""``host-device hardware wiring --to FILE.svg``: the panel's wiring drawn from
the pin map — the Pi's 40-pin header, each seat's button and LED (with its
resistor), the host's buttons, and ground — so that a club can build the
panel from a picture.

Every button goes from its GPIO to ground (the Pi's internal pull-up is
used); every LED goes from its GPIO through a 330 Ω resistor to the LED's
long leg (anode), its short leg (cathode) to ground.

The routing, so that every wire can be traced: a pin of the header's left
column (the odd pins) is wired to a part on the left, a pin of the right
column to a part on the right, so no wire crosses the other column. A wire
leaves its pin down into the gap below its row (between the pins' labels),
runs out in that gap to a lane of its own, along the lane to its part's row,
and into the part. The parts of a side are in the order of their pins, each
row no higher than its wire's gap, and the lanes nearer the header belong to
the lower pins: so no two wires ever cross. The parts' other ends join the
side's ground rail, which is wired the same way to a GND pin of that column.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from hardware.pinmap import HEADER_PIN, PinMap
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import replacing
from host_device.config import load_config

GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
RESISTOR = "330 Ω"
HOST_NAMES = {"next": "«Дальше»", "pause": "«Пауза»", "undo": "«Отмена»"}  # the host's buttons
PITCH = 22  # between the header's rows
HALF_COLUMNS = 12  # from the header's middle to a column of pins
PIN_LABEL = 12, 64  # a pin's label: from, to (outwards from its column)
LANE_GAP = 6
ROW = 26  # between parts
PART = 40  # a part's length; its wire comes in at 0, its ground leaves at PART
RAIL_GAP = 12  # from a part's end to the ground rail
LABEL_W = 330  # room for a part's label
TOP = 90


@dataclass(frozen=True)
class Row:
    label: str
    kind: str  # button, led, ground
    physical: int
    data: str  # the group's data attributes


@dataclass(frozen=True)
class Side:
    """One column of the header and the parts wired to it: ``sign`` -1 left, +1 right."""

    sign: int
    rows: tuple[Row, ...]  # in the order of their pins, top to bottom
    centre: int

    @property
    def column(self) -> int:
        return self.centre + self.sign * HALF_COLUMNS

    def x(self, out: float) -> float:
        """The x at ``out`` pixels outwards from this side's column."""
        return self.column + self.sign * out

    @property
    def part_at(self) -> int:
        return PIN_LABEL[1] + 8 + len(self.rows) * LANE_GAP + 8

    @property
    def rail_at(self) -> int:
        return self.part_at + PART + RAIL_GAP

    def lane(self, index: int) -> float:
        return self.x(PIN_LABEL[1] + 8 + (len(self.rows) - 1 - index) * LANE_GAP)

    def heights(self) -> list[float]:
        """Each row's y: in order, ROW apart, never above its wire's gap."""
        ys: list[float] = []
        for row in self.rows:
            gap = pin_xy(row.physical)[1] + PITCH / 2
            ys.append(max(gap, ys[-1] + ROW if ys else TOP))
        return ys


def pin_xy(physical: int, centre: int = 0) -> tuple[int, int]:
    row = (physical - 1) // 2
    return centre + (-HALF_COLUMNS if physical % 2 else HALF_COLUMNS), TOP + row * PITCH


def side_rows(pinmap: PinMap) -> tuple[list[Row], list[Row]]:
    """(left, right): every connection, and each side's ground, in the order of their pins."""
    rows: list[Row] = []
    for seat, (button, led) in enumerate(pinmap.seats, start=1):
        rows.append(Row(f"Место {seat}: кнопка", "button", HEADER_PIN[button], f'data-seat="{seat}"'))
        rows.append(
            Row(f"Место {seat}: светодиод, {RESISTOR}", "led", HEADER_PIN[led], f'data-seat="{seat}"')
        )
    for key, pin in pinmap.host:
        rows.append(Row(f"Ведущий: {HOST_NAMES[key]}", "button", HEADER_PIN[pin], f'data-host="{key}"'))
    sides: tuple[list[Row], list[Row]] = ([], [])
    for parity, found in ((1, sides[0]), (0, sides[1])):
        found += [r for r in rows if r.physical % 2 == parity]
        if found:
            middle = sorted(r.physical for r in found)[len(found) // 2]
            gnd = min((g for g in GROUND if g % 2 == parity), key=lambda g: abs(g - middle))
            found.append(Row(f"Земля: GND, контакт {gnd}", "ground", gnd, ""))
            found.sort(key=lambda r: r.physical)
    return sides


def wiring_svg(pinmap: PinMap) -> str:
    bcm = {pin: gpio for gpio, pin in HEADER_PIN.items()}
    left_rows, right_rows = side_rows(pinmap)
    reach = [
        PIN_LABEL[1] + 8 + len(rows) * LANE_GAP + 8 + PART + RAIL_GAP + 10 + LABEL_W
        for rows in (left_rows, right_rows)
    ]
    centre = 20 + HALF_COLUMNS + reach[0]
    sides = [Side(-1, tuple(left_rows), centre), Side(1, tuple(right_rows), centre)]
    bottom = max([TOP + 20 * PITCH, *(max(s.heights(), default=0) + 30 for s in sides)])
    width, height = centre + HALF_COLUMNS + reach[1] + 20, int(bottom) + 90
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="20" y="28" font-size="18">Пульт на {pinmap.seat_count} мест: подключение к Raspberry Pi'
        "</text>",
        '<text x="20" y="48" fill="#555">Кнопка: GPIO → кнопка → земля (GND). Светодиод: GPIO → резистор → '
        "длинная ножка, короткая ножка → земля. Номера GPIO — BCM.</text>",
        '<text x="20" y="66" fill="#555">Контакт 1 (3V3) — квадратный, как его площадка на плате; он в том '
        "конце разъёма, где слот microSD.</text>",
        f'<g id="header"><rect x="{centre - 26}" y="{TOP - 14}" width="52" height="{20 * PITCH - 8}" '
        'fill="#2d5" fill-opacity="0.15" stroke="#333"/>',
    ]
    for physical in range(1, 41):
        x, y = pin_xy(physical, centre)
        gpio = bcm.get(physical)
        kind = "gnd" if physical in GROUND else "power" if physical in POWER else "gpio"
        fill = {"gnd": "black", "power": "red", "gpio": "#fc3"}[kind]
        label = "GND" if kind == "gnd" else POWER.get(physical, f"GPIO{gpio}")
        data = f'class="pin {kind}" data-physical="{physical}"' + (
            f' data-gpio="{gpio}"' if gpio is not None else ""
        )
        if physical == 1:
            out.append(
                f'<rect {data} x="{x - 6}" y="{y - 6}" width="12" height="12" fill="{fill}" stroke="black"/>'
            )
        else:
            out.append(f'<circle {data} cx="{x}" cy="{y}" r="6" fill="{fill}"/>')
        side = sides[0] if physical % 2 else sides[1]
        tx, anchor = side.x(PIN_LABEL[0]), "end" if physical % 2 else "start"
        out.append(
            f'<text class="pin-label" x="{tx}" y="{y + 4}" text-anchor="{anchor}" font-size="9">'
            f"{physical} {label}</text>"
        )
    out.append("</g>")
    for side in sides:
        out += _side_svg(side, bcm)
    out.append(
        f'<text x="20" y="{height - 20}" fill="#555">Земля (GND): контакты {", ".join(map(str, GROUND))} — '
        "любой подходит; провода земли каждой стороны сведены на одну шину.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _side_svg(side: Side, bcm: dict[int, int]) -> list[str]:
    out: list[str] = []
    ys = side.heights()
    anchor = "end" if side.sign < 0 else "start"
    rail = side.x(side.rail_at)
    for index, (row, y) in enumerate(zip(side.rows, ys, strict=True)):
        px, py = pin_xy(row.physical, side.centre)
        gap, lane = py + PITCH / 2, side.lane(index)
        end = rail if row.kind == "ground" else side.x(side.part_at)
        colour = {"button": "#06c", "led": "#c30", "ground": "black"}[row.kind]
        gpio = bcm.get(row.physical)
        data = f' data-gpio="{gpio}"' if gpio is not None else ""
        out.append(f'<g class="{row.kind}" {row.data}{data} data-physical="{row.physical}">')
        out.append(
            f'<polyline class="wire" points="{px},{py} {px},{gap} {lane},{gap} {lane},{y} {end},{y}" '
            f'fill="none" stroke="{colour}" stroke-width="1.4"/>'
        )
        a, b = side.x(side.part_at), side.x(side.part_at + 22)
        if row.kind == "button":
            out.append(
                f'<rect x="{min(a, b)}" y="{y - 7}" width="22" height="14" rx="3" fill="white" '
                f'stroke="{colour}"/>'
            )
        elif row.kind == "led":
            tip, base = side.x(side.part_at + 38), side.x(side.part_at + 28)
            out.append(
                f'<rect x="{min(a, b)}" y="{y - 4}" width="22" height="8" fill="#eee" stroke="{colour}"/>'
            )
            out.append(f'<line x1="{b}" y1="{y}" x2="{base}" y2="{y}" stroke="{colour}"/>')
            out.append(f'<polygon points="{base},{y - 6} {base},{y + 6} {tip},{y}" fill="{colour}"/>')
        if row.kind != "ground":
            start = side.x(side.part_at + (22 if row.kind == "button" else 38))
            out.append(f'<line class="to-ground" x1="{start}" y1="{y}" x2="{rail}" y2="{y}" stroke="black"/>')
        where = f" — GPIO{gpio} (контакт {row.physical})" if gpio is not None else ""
        out.append(
            f'<text class="label" x="{side.x(side.rail_at + 10)}" y="{y + 4}" text-anchor="{anchor}">'
            f"{escape(row.label)}{where}</text>"
        )
        out.append("</g>")
    if ys:
        low = ys[-1] + 14
        out.append(
            f'<line class="rail" x1="{rail}" y1="{ys[0]}" x2="{rail}" y2="{low}" stroke="black" '
            'stroke-width="2"/>'
        )
        for i, half in enumerate((8, 5, 2)):  # the ground sign at the rail's foot
            out.append(
                f'<line x1="{rail - half}" y1="{low + 3 * i}" x2="{rail + half}" y2="{low + 3 * i}" '
                'stroke="black"/>'
            )
    return out


def draw_wiring(config_path: Path | None, seats: int, target: Path) -> int:
    """``hardware wiring``: the panel's wiring for ``seats`` seats, as an SVG at ``target``."""
    config = load_config(config_path)
    pinmap = config.pinmap(seats)
    if target.suffix.lower() != ".svg":
        raise HostDeviceError(f"--to {target}: рисунок — файл SVG (--to wiring.svg)")
    try:
        with replacing(target) as tmp:
            tmp.write_text(wiring_svg(pinmap), encoding="utf-8")
    except OSError as exc:
        raise HostDeviceError(f"{target}: не удалось записать: {os_reason(exc)}") from None
    print(f"host-device: подключение пульта на {seats} мест нарисовано в {target}")
    return 0
