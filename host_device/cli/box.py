"""The appliance's commands: ``doctor``, ``hardware test|wiring``, ``service``, ``card``."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from host_device.appliance import doctor, selftest, service, wiring
from host_device.appliance.card import card_html
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import replacing
from host_device.cli import flags
from voices.words import preset_name


def cmd_card(args: argparse.Namespace) -> int:
    target = Path(args.to)
    kind = target.suffix.lower()
    if kind not in (".html", ".pdf"):
        raise HostDeviceError(f"--to {args.to}: памятка — файл .html или .pdf")
    html = card_html(args.preset)
    try:
        if kind == ".html":
            with replacing(target) as tmp:
                tmp.write_text(html, encoding="utf-8")
        else:
            write_pdf(html, target)
    except OSError as exc:
        raise HostDeviceError(f"{target}: не удалось записать: {os_reason(exc)}") from None
    print(f"host-device: памятка игрокам ({preset_name(args.preset)}) сохранена в {target}")
    return 0


def write_pdf(html: str, target: Path) -> None:
    """Chromium prints the HTML to an A4 PDF."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise HostDeviceError(
            "PDF печатает браузер Chromium: sudo apt-get install chromium (или --to card.html)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "card.html"
        page.write_text(html, encoding="utf-8")
        out = Path(tmp) / "card.pdf"
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer"]
        result = subprocess.run(
            [*command, f"--print-to-pdf={out}", page.as_uri()], capture_output=True, text=True, timeout=120
        )
        if result.returncode != 0 or not out.exists():
            raise HostDeviceError(f"Chromium не напечатал памятку: {result.stderr.strip()[-200:]}")
        with replacing(target) as final:
            final.write_bytes(out.read_bytes())


def add_commands(commands: Any) -> None:
    p = commands.add_parser("doctor", help="check everything the box needs, and say what to fix")
    flags.auto(p)
    flags.devices(p)
    flags.seats(p)
    flags.model(p)
    p.add_argument("--no-model", action="store_true", help="this table plays without speech recognition")
    flags.store(p)
    p.set_defaults(func=doctor.cmd_doctor)

    hardware = commands.add_parser("hardware", help="the table's hardware")
    sub = hardware.add_subparsers(dest="hardware_command", required=True, metavar="ACTION")
    p = sub.add_parser("test", help="light each LED, see each button, hear the microphone, play a phrase")
    flags.auto(p)
    flags.devices(p)
    flags.seats(p)
    p.set_defaults(func=selftest.cmd_hardware_test)
    p = sub.add_parser("wiring", help="draw the panel's wiring (the pin map on the 40-pin header) as SVG")
    flags.seats(p)
    flags.config(p, "the config's [panel] pins (default pins without)")
    p.add_argument("--to", required=True, metavar="FILE.svg")
    p.set_defaults(func=wiring.cmd_wiring)

    unit = commands.add_parser("service", help="the box as a systemd service, started at boot")
    sub = unit.add_subparsers(dest="service_command", required=True, metavar="ACTION")
    for name, func, text in (
        ("unit", service.cmd_unit, "print the unit file (nothing installed)"),
        ("install", service.cmd_install, "install, enable and start the service (as root)"),
        ("remove", service.cmd_remove, "stop, disable and remove the service (as root)"),
        ("status", service.cmd_status, "the service's state and its last log lines"),
    ):
        p = sub.add_parser(name, help=text)
        if name in ("unit", "install"):
            p.add_argument("--user", help="who the box runs as (default: the user who called sudo)")
            flags.config(p, "the config file the box reads")
        p.set_defaults(func=func)

    p = commands.add_parser("card", help="a one-page Russian card for the players (A4, HTML or PDF)")
    p.add_argument("--preset", default="classic", choices=("classic", "event", "city"))
    p.add_argument("--to", required=True, metavar="FILE.html|FILE.pdf")
    p.set_defaults(func=cmd_card)
