"""``host-device run``: its arguments, checked, and the choice between one
game (host_device/session) and the appliance (``--box``). It sits above
both, so neither imports the other through it."""

from __future__ import annotations

import argparse
from typing import Any

from engine import HostDeviceError
from hardware.factory import AUDIO, PANELS
from host_device.arguments import SPEED, game_id, number_in


def cmd_run(args: argparse.Namespace) -> int:
    if args.deal == "host" and args.mode != "assist":
        raise HostDeviceError("--deal host: the host enters the roles only in assist mode (--mode assist)")
    if args.box:
        from host_device.appliance.box import Box

        return Box(args).run()
    from host_device.session.host import Host

    return Host(args).run()


def add_commands(commands: Any) -> None:
    p = commands.add_parser("run", help="host a game at the table")
    p.add_argument(
        "--mode",
        default="host",
        choices=("host", "assist"),
        help="host: the device hosts the game; assist: a human host leads from his keys and screen",
    )
    p.add_argument(
        "--preset",
        default="classic",
        help="classic (10 seats), event (12 seats) or city (6 … 16 seats, --seats)",
    )
    p.add_argument(
        "--seats",
        type=number_in(6, 16, "--seats"),
        help="city: the table's size (default 10, or [city] seats)",
    )
    p.add_argument(
        "--deal",
        choices=("device", "cards", "host"),
        help="device (host mode's default): the device deals and shows each role on its LED; cards: "
        "players drew cards and register them on the buttons; host (assist mode's default): the host "
        "types the roles on his screen",
    )
    p.add_argument("--seed", type=int, help="the deal's random seed (default: a new deal every game)")
    p.add_argument(
        "--panel",
        default="gpio",
        choices=PANELS,
        help="gpio: the table's buttons and LEDs; keyboard: this terminal's keys; mock: no hardware; "
        "web: phones (/seat/N) as every seat's button and LED (needs --web)",
    )
    p.add_argument("--audio", default="device", choices=AUDIO)
    p.add_argument("--wav", metavar="FILE.wav", help="with --audio file: what the microphone hears")
    p.add_argument("--model", metavar="DIR", help="the speech model (default: the installed one)")
    p.add_argument("--config", metavar="FILE.toml")
    p.add_argument(
        "--speed",
        type=SPEED,
        default=1.0,
        help="how many times faster than life (for trying it out; default 1)",
    )
    p.add_argument(
        "--days", type=number_in(1, 100, "--days"), help="stop after this many days (for trying it out)"
    )
    p.add_argument("--verbose", action="store_true", help="print what is heard")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="host mode: print nothing of the game (no phrases, no status line)",
    )
    p.add_argument("--store", metavar="PATH", help="the game store (default: in the data directory)")
    p.add_argument(
        "--web", metavar="[HOST:]PORT", help="serve the table page (PORT: every interface; 127.0.0.1:PORT)"
    )
    p.add_argument("--resume", type=game_id, metavar="ID", help="resume this unfinished game")
    p.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    p.add_argument(
        "--box",
        action="store_true",
        help="the appliance: ready at start, run by the host buttons (next: a game; hold next: the menu; "
        "hold pause: power off), game after game",
    )
    p.add_argument("--no-ambience", action="store_true", help="no night sound under the night phases")
    p.set_defaults(func=cmd_run)
