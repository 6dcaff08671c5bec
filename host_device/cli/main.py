"""The ``host-device`` command line."""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
from pathlib import Path

from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.stopping import INTERRUPTED, SaidInterrupted
from host_device.base.text import one_line
from host_device.cli import flags
from host_device.cli.box import add_commands as add_box_commands
from host_device.cli.club import add_commands as add_club_commands
from host_device.cli.games import add_commands as add_games_commands
from host_device.cli.listen import add_commands as add_listen_commands
from host_device.cli.parser import EXIT_BAD_INPUT, Parser
from host_device.cli.players import add_commands as add_players_commands
from host_device.cli.run import add_commands as add_run_commands
from host_device.cli.run import add_demo_command
from host_device.cli.tournament import add_commands as add_tournament_commands
from host_device.cli.voices import add_commands
from host_device.listening.intents import load_patterns
from host_device.scripts.play import play
from host_device.scripts.script import load_script

EXIT_INTERRUPTED = 130  # as a shell reports a program ended by Ctrl-C
EXIT_BROKEN_PIPE = 141  # as a shell reports a program ended by SIGPIPE


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def cmd_play(args: argparse.Namespace) -> int:
    result = play(load_script(Path(args.script)))
    print(json.dumps(result, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from host_device.scripts.simulate import simulate, write_timeline

    store = None
    if args.store:
        from host_device.store import Store

        store = Store(Path(args.store))
        if store.notice:
            print(f"host-device: {store.notice}", file=sys.stderr, flush=True)
    if (args.resume or args.die_after) and store is None:
        raise HostDeviceError("--resume и --die-after — только с --store ПУТЬ")
    try:
        result, runtime = simulate(
            load_script(Path(args.script)),
            store=store,
            resume=args.resume,
            die_after=args.die_after,
            mode=args.mode,
        )
    finally:
        if store is not None:
            store.close()
    if args.timeline:
        try:
            write_timeline(runtime, Path(args.timeline))
        except OSError as exc:
            raise HostDeviceError(
                f"{args.timeline}: не удалось записать ход игры: {os_reason(exc)}"
            ) from None
    print(json.dumps(result, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0


def cmd_intents(args: argparse.Namespace) -> int:
    patterns = load_patterns(Path(args.patterns) if args.patterns else None)
    text = " ".join(args.text) if args.text else sys.stdin.read()
    if args.round:
        patterns = patterns.for_round()
    if args.best_move:
        patterns = patterns.for_best_move()
    for intent in patterns.parse(text, args.seats):
        print(_json(intent.to_dict()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="host-device",
        description="Ведущий для живой игры в мафию: ведёт игру голосом по-русски, за столом с кнопками "
        "и огоньками, или помогает ведущему-человеку как таймер и диктор.",
        epilog="Справка по команде: host-device КОМАНДА --help. Все команды: docs/commands.md; "
        "руководство для клуба: docs/guide/README.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="КОМАНДА")

    p = commands.add_parser("play", help="сыграть игру по сценарию (без звука и часов) и напечатать итог")
    p.add_argument("script", metavar="СЦЕНАРИЙ.json", help="сценарий игры (docs/scripts.md)")
    flags.pretty(p)
    p.set_defaults(func=cmd_play)

    p = commands.add_parser("simulate", help="сыграть сценарий через весь ход игры в ускоренном времени")
    p.add_argument("script", metavar="СЦЕНАРИЙ.json", help="сценарий игры (docs/scripts.md)")
    p.add_argument("--timeline", metavar="ХОД.jsonl", help="записать каждое действие со временем игры")
    p.add_argument("--store", metavar="ПУТЬ", help="записать игру в это хранилище игр")
    p.add_argument("--resume", action="store_true", help="продолжить неоконченную игру хранилища")
    flags.mode(p, "assist: ведущий по сценарию начинает каждый шаг и подтверждает каждое выдвижение")
    p.add_argument(
        "--die-after", type=int, metavar="N", help=argparse.SUPPRESS
    )  # crash tests: SIGKILL after N inputs
    flags.pretty(p)
    p.set_defaults(func=cmd_simulate)

    p = commands.add_parser("intents", help="что слышно в тексте речи: по строке JSON на намерение")
    p.add_argument("text", nargs="*", metavar="ТЕКСТ", help="текст речи (без него — читается со входа)")
    flags.seats(p)
    p.add_argument("--patterns", metavar="ФАЙЛ.toml", help="другой файл шаблонов")
    p.add_argument("--round", action="store_true", help="как в своём ходе круга выдвижений (город)")
    p.add_argument(
        "--best-move", action="store_true", help="как в последнем слове убитого первой ночью (лучший ход)"
    )
    p.set_defaults(func=cmd_intents)

    add_commands(commands)
    add_listen_commands(commands)
    add_demo_command(commands)
    add_run_commands(commands)
    add_games_commands(commands)
    add_players_commands(commands)
    add_tournament_commands(commands)
    add_box_commands(commands)
    add_club_commands(commands)
    return parser


OWN_LOGGERS = ("host_device", "engine", "voices", "hardware")


def set_up_logging() -> None:
    """The project's warnings on stderr, in Russian, one line each; a library's own warnings
    and errors (English, for its developers: psycopg's, uvicorn's) only with HOST_DEVICE_DEBUG=1,
    which shows everything at debug level as it is logged. A program that set logging up
    already (a test's capture) keeps its own."""
    root = logging.getLogger()
    if root.handlers:
        return
    if os.environ.get("HOST_DEVICE_DEBUG"):
        logging.basicConfig(format="%(name)s: %(levelname)s: %(message)s", level=logging.DEBUG)
        return
    handler = logging.StreamHandler()
    try:  # on a terminal a warning starts on a clean line: a game's status line may stand there
        clean = "\r\x1b[K" if sys.stderr.isatty() else ""
    except (OSError, ValueError, AttributeError):
        clean = ""
    handler.setFormatter(logging.Formatter(clean + "host-device: внимание: %(message)s"))
    handler.addFilter(lambda record: record.name.split(".")[0] in OWN_LOGGERS or record.name == "root")
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    set_up_logging()
    argv = sys.argv[1:] if argv is None else argv
    args = None
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help, or a bad argument (already said in one line)
            return int(done.code or 0)
        status = int(args.func(args))
        sys.stdout.flush()  # a reader that has gone is found here, not at exit
        return status
    except HostDeviceError as exc:
        message = one_line(str(exc))
        if getattr(exc, "no_devices", False) and hasattr(args, "audio"):
            message += f"; без звука: {shlex.join(['host-device', *with_null_audio(argv)])}"
        print(f"host-device: ошибка: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as exc:  # Ctrl-C: one line; a file being written is replaced only once whole
        if not isinstance(exc, SaidInterrupted):
            print(f"\n{INTERRUPTED}", file=sys.stderr, flush=True)  # past the terminal's «^C»
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `| head`: the reader has gone; say nothing more to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def with_null_audio(argv: list[str]) -> list[str]:
    """The same command line with ``--audio null`` (in place of another ``--audio``)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--audio":
            skip = True
        elif not arg.startswith("--audio="):
            out.append(arg)
    return [*out, "--audio", "null"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
