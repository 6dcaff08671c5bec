"""``host-device run`` and ``host-device demo``: their arguments; for run, checked, and the choice between one
game (host_device/session) and the appliance (``--box``). It sits above
both, so neither imports the other through it."""

from __future__ import annotations

import argparse
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.cli import flags
from host_device.cli.arguments import game_id, number_in
from host_device.session import demo


def cmd_run(args: argparse.Namespace) -> int:
    if args.deal == "host" and args.mode != "assist":
        raise HostDeviceError("--deal host: роли вводит ведущий только в режиме помощника (--mode assist)")
    if args.box:
        from host_device.appliance.box import Box

        return Box(args).run()
    from host_device.session.host import Host

    return Host(args).run()


def add_commands(commands: Any) -> None:
    p = commands.add_parser("run", help="host a game at the table")
    flags.mode(p, "host: the device hosts the game; assist: a human host leads from his keys and screen")
    p.add_argument(
        "--preset",
        default="classic",
        help="classic (10 seats), event (12 seats) or city (6 … 16 seats, --seats)",
    )
    flags.seats(p, default=None, help="city: the table's size (default 10, or [city] seats)")
    p.add_argument(
        "--deal",
        choices=("device", "cards", "host"),
        help="device (host mode's default): the device deals and shows each role on its LED; cards: "
        "players drew cards and register them on the buttons; host (assist mode's default): the host "
        "types the roles on his screen",
    )
    p.add_argument("--seed", type=int, help="the deal's random seed (default: a new deal every game)")
    flags.devices(
        p,
        panel_help="gpio: the table's buttons and LEDs; keyboard: this terminal's keys; mock: no hardware; "
        "web: phones (/seat/N) as every seat's button and LED (needs --web)",
    )
    flags.model(p)
    flags.speed(p, "how many times faster than life (for trying it out; default 1)")
    p.add_argument(
        "--days", type=number_in(1, 100, "--days"), help="stop after this many days (for trying it out)"
    )
    p.add_argument("--verbose", action="store_true", help="print what is heard")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="host mode: print nothing of the game (no phrases, no status line)",
    )
    flags.store(p)
    flags.club_db(p)
    flags.web(p)
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


def add_demo_command(commands: Any) -> None:
    p = commands.add_parser(
        "demo", help="a whole game hosted with simulated players, printed (and said) live"
    )
    p.add_argument(
        "script", nargs="?", metavar="SCRIPT.json", help="the players' script (default: an example)"
    )
    flags.speed(p)
    p.add_argument(
        "--audio", default="device", choices=("device", "null"), help="say the phrases aloud (device)"
    )
    flags.mode(p, "assist: a scripted human host starts each step (his keys are printed)")
    flags.web(p)
    p.add_argument(
        "--preset",
        choices=sorted(demo.PRESET_SCRIPTS),
        help="the example game of these rules (default classic)",
    )
    p.set_defaults(func=demo.cmd_demo)
