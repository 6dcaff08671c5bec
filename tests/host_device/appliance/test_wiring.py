"""``hardware wiring --to FILE.svg``: the picture holds every seat's pins,
and every wire can be traced: measured on the drawing itself, no wire
crosses a pin but its own, a pin's label, a part, or another wire."""

import itertools
import xml.etree.ElementTree as ET

import pytest

from hardware.pinmap import HEADER_PIN, default_pinmap
from host_device.appliance.wiring import GROUND
from host_device.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"


def drawn(path):
    root = ET.parse(path).getroot()
    groups = root.iter(f"{SVG}g")
    return root, [g.attrib for g in groups if g.get("class") in ("button", "led")]


def test_the_diagram_holds_every_seats_button_and_led_and_the_host_buttons(tmp_path, capsys):
    for seats in (10, 12):
        path = tmp_path / f"w{seats}.svg"
        assert main(["hardware", "wiring", "--seats", str(seats), "--to", str(path)]) == 0
        root, parts = drawn(path)
        pinmap = default_pinmap(seats)
        for seat, (button, led) in enumerate(pinmap.seats, start=1):
            assert {"class": "button", "data-seat": str(seat), "data-gpio": str(button)}.items() <= next(
                p for p in parts if p.get("data-seat") == str(seat) and p["class"] == "button"
            ).items()
            assert next(p for p in parts if p.get("data-seat") == str(seat) and p["class"] == "led")[
                "data-gpio"
            ] == str(led)
        hosts = {p["data-host"]: int(p["data-gpio"]) for p in parts if "data-host" in p}
        assert hosts == dict(pinmap.host)
        for p in parts:
            assert int(p["data-physical"]) == HEADER_PIN[int(p["data-gpio"])]
        pins = [c for c in root.iter() if "pin" in c.get("class", "").split()]
        assert len(pins) == 40 and sum("gnd" in c.get("class") for c in pins) == 8
        text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert "330 Ω" in text and f"Место {seats}: кнопка" in text


def test_the_diagram_follows_the_configs_pins(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[panel]\nallow_reserved = true\n[panel.host]\nnext = 2\nundo = 3\n", encoding="utf-8")
    path = tmp_path / "w.svg"
    assert main(["hardware", "wiring", "--config", str(config), "--to", str(path)]) == 0
    _, parts = drawn(path)
    assert {p["data-host"]: p["data-gpio"] for p in parts if "data-host" in p}["next"] == "2"


def test_a_bad_target_is_one_line(tmp_path, capsys):
    assert main(["hardware", "wiring", "--to", str(tmp_path / "w.png")]) == 2
    assert "SVG" in capsys.readouterr().err


# ---------------------------------------------------------------- the drawing's geometry

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def text_box(t) -> Box:
    """Generous: every glyph as wide as 0.62 of the font size, ascent 0.8, descent 0.25."""
    size = float(t.get("font-size", 12))
    x, y, width = float(t.get("x")), float(t.get("y")), len(t.text or "") * size * 0.62
    x0 = {"start": x, "end": x - width, "middle": x - width / 2}[t.get("text-anchor", "start")]
    return x0, y - size * 0.8, x0 + width, y + size * 0.25


def shape_box(e) -> Box:
    tag = e.tag.removeprefix(SVG)
    if tag == "circle":
        x, y, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
        return x - r, y - r, x + r, y + r
    if tag == "rect":
        x, y, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
        return x, y, x + w, y + h
    xs, ys = zip(*points(e.get("points")), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def points(text):
    return [tuple(map(float, p.split(","))) for p in text.split()]


def segments_of(e):
    if e.tag == f"{SVG}line":
        return [((float(e.get("x1")), float(e.get("y1"))), (float(e.get("x2")), float(e.get("y2"))))]
    p = points(e.get("points"))
    return list(itertools.pairwise(p))


def crosses_box(segment, box) -> bool:
    """Whether the segment meets the box (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return False
    return True


def meet(a, b) -> bool:
    """Whether two segments touch or cross (collinear overlaps included)."""

    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 1e-9) - (v < -1e-9)

    def on(p, q, r):
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])

    (p1, p2), (p3, p4) = a, b
    d1, d2, d3, d4 = orient(p3, p4, p1), orient(p3, p4, p2), orient(p1, p2, p3), orient(p1, p2, p4)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return any(d == 0 and on(*seg, r) for d, seg, r in ((d1, b, p1), (d2, b, p2), (d3, a, p3), (d4, a, p4)))


def geometry(path):
    root = ET.parse(path).getroot()
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") in ("button", "led", "ground")]
    pins = {int(e.get("data-physical")): e for e in root.iter() if "pin" in e.get("class", "").split()}
    return root, groups, pins


def check_traceable(path):
    root, groups, pins = geometry(path)
    labels = [text_box(t) for t in root.iter(f"{SVG}text")]  # a pin's, a part's, any
    wires = {}
    for g in groups:
        (wire,) = [e for e in g if e.tag == f"{SVG}polyline"]
        wires[id(g)] = segments_of(wire)
        own = int(g.get("data-physical"))
        first = wires[id(g)][0][0]
        assert crosses_box((first, first), shape_box(pins[own])), "a wire starts at its own pin"
        for segment in wires[id(g)]:
            for physical, pin in pins.items():
                assert physical == own or not crosses_box(segment, shape_box(pin)), (g.attrib, physical)
            for box in labels:
                assert not crosses_box(segment, box), (g.attrib, box)
    parts = {id(g): [shape_box(e) for e in g if e.tag in (f"{SVG}rect", f"{SVG}polygon")] for g in groups}
    others = {id(g): [s for e in g if e.get("class") == "to-ground" for s in segments_of(e)] for g in groups}
    rails = [s for e in root.iter(f"{SVG}line") if e.get("class") == "rail" for s in segments_of(e)]
    for g, h in itertools.permutations(groups, 2):
        for segment in wires[id(g)]:
            assert not any(crosses_box(segment, box) for box in parts[id(h)]), (g.attrib, h.attrib)
            assert not any(meet(segment, s) for s in wires[id(h)] + others[id(h)]), (g.attrib, h.attrib)
    for g in groups:
        *_, last = wires[id(g)]
        touching = [r for r in rails if meet(last, r)]
        if g.get("class") == "ground":  # the rail's own wire, from a GND pin, ends on it
            assert int(g.get("data-physical")) in GROUND and len(touching) == 1
        else:
            assert not touching, g.attrib
            (to_ground,) = others[id(g)]
            assert sum(meet(to_ground, r) for r in rails) == 1, g.attrib  # every part is grounded
    assert len([g for g in groups if g.get("class") == "ground"]) == len(rails)
    return root, pins


@pytest.mark.parametrize("seats", [10, 12])
def test_every_wire_can_be_traced_and_ground_is_drawn(tmp_path, seats):
    path = tmp_path / "w.svg"
    assert main(["hardware", "wiring", "--seats", str(seats), "--to", str(path)]) == 0
    root, pins = check_traceable(path)
    assert pins[1].tag == f"{SVG}rect" and all(pins[n].tag == f"{SVG}circle" for n in range(2, 41))
    assert any("Контакт 1" in (t.text or "") for t in root.iter(f"{SVG}text"))


def test_a_config_with_its_own_pins_is_traced_too(tmp_path):
    """Seats on both columns, the host's buttons at the top, pins out of order."""
    config = tmp_path / "c.toml"
    config.write_text(
        "[panel]\nallow_reserved = true\n[panel.seats]\n"
        "1 = [21, 2]\n2 = [14, 3]\n3 = [26, 15]\n4 = [18, 4]\n5 = [0, 20]\n6 = [1, 16]\n"
        "[panel.host]\nnext = 17\npause = 27\nundo = 22\n",
        encoding="utf-8",
    )
    path = tmp_path / "w.svg"
    assert main(["hardware", "wiring", "--seats", "6", "--config", str(config), "--to", str(path)]) == 0
    check_traceable(path)


def test_sixteen_seats_cannot_be_wired_and_the_line_says_what_can(tmp_path, capsys):
    """The header has 28 GPIO pins: 12 seats and the host's three buttons at most."""
    assert main(["hardware", "wiring", "--seats", "16", "--to", str(tmp_path / "w.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "16" in err and "12" in err and "--panel web" in err, err
    assert not (tmp_path / "w.svg").exists()
