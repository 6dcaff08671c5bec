"""``hardware wiring --to FILE.svg``: the picture holds every seat's pins."""

import xml.etree.ElementTree as ET

from hardware.pinmap import HEADER_PIN, default_pinmap
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
        pins = [c for c in root.iter(f"{SVG}circle") if "pin" in c.get("class", "")]
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
