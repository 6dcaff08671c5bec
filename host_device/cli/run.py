"""``host-device run`` and ``host-device demo``: their arguments; for run, checked, and the choice between one
game (host_device/session) and the appliance (``--box``). It sits above
both, so neither imports the other through it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.stopping import Stopped, said_stopped, stopped_by_signals
from host_device.cli import flags
from host_device.cli.arguments import game_id, number_in
from host_device.session import demo
from host_device.session.options import GameOptions
from host_device.store.tournaments import checked_name as tournament_name
from host_device.tournament.seating_file import FileTable, read_table


def cmd_run(args: argparse.Namespace) -> int:
    if args.deal == "host" and args.mode != "assist":
        raise HostDeviceError("--deal host: роли вводит ведущий только в режиме помощника (--mode assist)")
    options = game_options(args)
    if args.box:
        from host_device.appliance.box import Box

        return Box(options).run()
    return run_games(options)


def run_games(options: GameOptions) -> int:
    """``run``: its game, and while the host asks for it after an end, the
    evening's next one, with the console's address kept
    (host_device/session/evening.py); SIGTERM and SIGHUP end it as Ctrl-C does (exit 0; Ctrl-C's is 130)."""
    from host_device.session.evening import NEXT, next_game
    from host_device.session.host import Host

    with stopped_by_signals():
        try:
            host = Host(options)
            status = host.run()
            while host.after is not None and host.after.choice == NEXT:
                options = next_game(options)
                host = Host(options, console_token=host.console_token)
                status = host.run()
        except Stopped as exc:
            said_stopped(exc)
            return 0
    return status


def game_options(args: argparse.Namespace) -> GameOptions:
    """``run``'s arguments, once, as the session takes them."""
    return GameOptions(
        **flags.device_options(args).__dict__,
        mode=args.mode,
        preset=args.preset,
        seats=args.seats,
        deal=args.deal,
        seed=args.seed,
        speed=args.speed,
        days=args.days,
        verbose=args.verbose,
        quiet=args.quiet,
        club_db=args.club_db,
        web=args.web,
        resume=args.resume,
        new=args.new,
        ambience=not args.no_ambience,
        tournament=_tournament(args),
        tournament_table=_tournament_file(args),
    )


def _tournament(args: argparse.Namespace) -> tuple[str, int, int] | None:
    given = (args.tournament, args.table, args.round)
    if args.tournament_file is not None and args.tournament is None:
        return None
    if all(v is None for v in given):
        return None
    if args.box and args.tournament is not None and args.table is not None:
        return (tournament_name(args.tournament), args.table, args.round or 0)  # 0: the round after its last
    if any(v is None for v in given) or args.box:
        raise HostDeviceError(
            "--tournament, --table и --round — вместе (с --box: --tournament и --table, тур — следующий)"
        )
    return (tournament_name(args.tournament), args.table, args.round)


def _tournament_file(args: argparse.Namespace) -> FileTable | None:
    """``--tournament-file FILE --table T --round R``: the table read now, before any game is made."""
    if args.tournament_file is None:
        return None
    if args.tournament is not None or args.box or args.table is None or args.round is None:
        raise HostDeviceError(
            "--tournament-file, --table и --round — вместе, без --tournament и без --box: стол и тур из файла"
        )
    return read_table(Path(args.tournament_file), args.table, args.round)


def add_commands(commands: Any) -> None:
    p = commands.add_parser("run", help="вести игру за столом")
    flags.mode(p, "host: игру ведёт устройство; assist: ведёт человек, с клавиш и своего экрана")
    flags.preset(p)
    flags.seats(p, default=None, help="город: мест за столом (по умолчанию 10, или [city].seats)")
    p.add_argument(
        "--deal",
        choices=("device", "cards", "host"),
        help="device (по умолчанию без ведущего): роли раздаёт устройство и показывает каждому его огоньком; "
        "cards: игроки вытянули карты и отмечают их кнопками; host (по умолчанию в режиме помощника): "
        "роли вводит ведущий на своём экране",
    )
    p.add_argument(
        "--seed", type=int, metavar="N", help="зерно раздачи (по умолчанию: новая раздача каждую игру)"
    )
    flags.devices(
        p,
        panel_help="gpio: кнопки и огоньки стола; keyboard: клавиши этого терминала; mock: без пульта; "
        "web: телефоны (/seat/N) как кнопки и огоньки всех мест (нужен --web)",
    )
    flags.model(p)
    flags.speed(p, "во сколько раз быстрее жизни (чтобы попробовать; по умолчанию 1)")
    p.add_argument(
        "--days",
        type=number_in(1, 100, "--days"),
        metavar="N",
        help="остановиться после стольких дней (чтобы попробовать)",
    )
    p.add_argument("--verbose", action="store_true", help="печатать то, что слышно")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="без ведущего: ничего не печатать об игре (ни фраз, ни строки состояния)",
    )
    flags.store(p)
    flags.club_db(p)
    flags.web(p)
    p.add_argument("--resume", type=game_id, metavar="ИГРА", help="продолжить эту неоконченную игру")
    p.add_argument("--new", action="store_true", help="начать новую игру, даже если есть неоконченная")
    p.add_argument(
        "--box",
        action="store_true",
        help="коробка: готова при включении, управляется кнопками ведущего («Дальше» — игра; "
        "«Дальше», удержанная, — меню; «Пауза», удержанная, — выключение), игра за игрой",
    )
    p.add_argument("--no-ambience", action="store_true", help="без ночного звука под ночными фазами")
    p.add_argument(
        "--tournament",
        metavar="НАЗВАНИЕ",
        help="игра турнира: места называются по его рассадке (с --box: каждая игра — следующий тур стола)",
    )
    p.add_argument(
        "--table", type=number_in(1, 20, "--table"), metavar="T", help="стол турнира (с --tournament)"
    )
    p.add_argument(
        "--round",
        type=number_in(1, 100, "--round"),
        metavar="R",
        help="тур турнира (с --tournament; с --box — первый тур коробки)",
    )
    p.add_argument(
        "--tournament-file",
        metavar="ФАЙЛ",
        help="игра турнира без его хранилища: места называются по файлу рассадки "
        "(tournament export --what seating --format json), с --table и --round",
    )
    p.set_defaults(func=cmd_run)


def add_demo_command(commands: Any) -> None:
    p = commands.add_parser("demo", help="целая игра с игроками по сценарию: напечатана (и сказана) вживую")
    p.add_argument(
        "script", nargs="?", metavar="СЦЕНАРИЙ.json", help="сценарий (по умолчанию: пример этих правил)"
    )
    flags.speed(p)
    p.add_argument(
        "--audio",
        default="device",
        choices=("device", "null"),
        help="device (по умолчанию): говорить фразы вслух; null: молча",
    )
    flags.mode(p, "assist: ведущий по сценарию начинает каждый шаг (его клавиши напечатаны)")
    flags.web(p)
    flags.preset(p, default=None, help="пример игры по этим правилам (по умолчанию classic)")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    script = Path(args.script) if args.script else None
    demo.demo(script, args.speed, args.audio, sys.stdout, args.mode, args.web, args.preset)  # with its result
    return 0
