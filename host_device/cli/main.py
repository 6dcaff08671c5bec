"""The ``host-device`` command line."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.text import one_line
from host_device.cli import flags
from host_device.cli.box import add_commands as add_box_commands
from host_device.cli.club import add_commands as add_club_commands
from host_device.cli.games import add_commands as add_games_commands
from host_device.cli.listen import add_commands as add_listen_commands
from host_device.cli.players import add_commands as add_players_commands
from host_device.cli.run import add_commands as add_run_commands
from host_device.cli.run import add_demo_command
from host_device.cli.voices import add_commands
from host_device.listening.intents import load_patterns
from host_device.scripts.play import play
from host_device.scripts.script import load_script

EXIT_BAD_INPUT = 2
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
        raise HostDeviceError("--resume и --die-after — только с --store PATH")
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


# argparse's own messages, as a club reads them (the arguments' names and values kept)
ARGPARSE_RU = (
    (r"unrecognized arguments: (.*)", r"лишние аргументы: \1"),
    (r"the following arguments are required: (.*)", r"не хватает аргументов: \1"),
    (r"one of the arguments (.*) is required", r"нужен один из аргументов: \1"),
    (r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)", r"\1: нет варианта \2 (есть: \3)"),
    (r"argument (\S+): invalid \S+ value: (.*)", r"\1: не подходит значение \2"),
    (r"argument (\S+): expected one argument", r"\1: нужно значение"),
    (r"argument (\S+): expected (.*) arguments?", r"\1: нужно значений: \2"),
    (r"argument (\S+): not allowed with argument (\S+)", r"\1: нельзя вместе с \2"),
    (r"argument (\S+): ignored explicit argument (.*)", r"\1: лишнее значение \2"),
    (r"ambiguous option: (\S+) could match (.*)", r"\1: подходит к нескольким: \2"),
    (r"argument (\S+): (.*)", r"\1: \2"),  # an argument type's own message (host_device/cli/arguments.py)
)


def argparse_ru(message: str) -> str:
    for pattern, russian in ARGPARSE_RU:
        if re.fullmatch(pattern, message, re.DOTALL):
            return re.sub(pattern, russian, message, flags=re.DOTALL)
    return message


class Parser(argparse.ArgumentParser):
    """Argument errors in one line, naming the argument and where to read more."""

    def error(self, message: str) -> NoReturn:
        line = one_line(argparse_ru(message), 300)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: ошибка: {line} (см.: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="host-device", description="A voice-driven host for physical Mafia tables.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("play", help="play a whole game from a JSON script and print the result")
    p.add_argument("script", metavar="SCRIPT.json")
    flags.pretty(p)
    p.set_defaults(func=cmd_play)

    p = commands.add_parser("simulate", help="play a script through the whole runtime on virtual time")
    p.add_argument("script", metavar="SCRIPT.json")
    p.add_argument("--timeline", metavar="OUT.jsonl", help="write every effect with its virtual time")
    p.add_argument("--store", metavar="PATH", help="record the game in this game store")
    p.add_argument("--resume", action="store_true", help="carry on the store's unfinished game")
    flags.mode(p, "assist: a scripted human host starts each step and confirms each nomination")
    p.add_argument(
        "--die-after", type=int, metavar="N", help=argparse.SUPPRESS
    )  # crash tests: SIGKILL after N inputs
    flags.pretty(p)
    p.set_defaults(func=cmd_simulate)

    p = commands.add_parser("intents", help="print the intents heard in a transcript, one JSON per line")
    p.add_argument("text", nargs="*", metavar="TEXT", help="the transcript (read from stdin if absent)")
    flags.seats(p)
    p.add_argument("--patterns", metavar="FILE.toml", help="another pattern file")
    p.add_argument(
        "--round", action="store_true", help="as heard in one's own turn of the city's nomination round"
    )
    p.add_argument(
        "--best-move", action="store_true", help="as heard in the last word of the first night's victim"
    )
    p.set_defaults(func=cmd_intents)

    add_commands(commands)
    add_listen_commands(commands)
    add_demo_command(commands)
    add_run_commands(commands)
    add_games_commands(commands)
    add_players_commands(commands)
    add_box_commands(commands)
    add_club_commands(commands)
    _club_outbox_until_merged(commands)
    return parser


def _club_outbox_until_merged(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """TEMPORARY (branch clubdb-sender): ``club send`` and ``club status`` on
    the group host_device/cli/club.py makes, until the lead wires
    ``club_outbox.add(sub)`` at its marked merge point (then this goes)."""
    from host_device.cli import club_outbox

    club = commands.choices["club"]
    sub = next(a for a in club._actions if isinstance(a, argparse._SubParsersAction))
    club_outbox.add(sub)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(format="host-device: внимание: %(message)s", level=logging.WARNING)
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
            message += f"; без звука: host-device {' '.join(with_null_audio(argv))}"
        print(f"host-device: ошибка: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl-C: quietly; a file being written is replaced only once whole
        print(file=sys.stderr)
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
