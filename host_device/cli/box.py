"""The appliance's commands: ``doctor``, ``hardware test|wiring``, ``service``, ``card``."""

from __future__ import annotations

from typing import Any

from host_device.appliance import card, doctor, selftest, service, wiring
from host_device.cli import flags


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
    p.set_defaults(func=card.cmd_card)
