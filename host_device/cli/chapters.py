"""``host-device games chapters GAME [--from ЧЧ:ММ:СС]``: a finished game's
chapter marks for a video's description, one a line (docs/chapters.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.text import shorten
from host_device.cli.arguments import game_id
from host_device.club.chapters import MIN_COUNT, NotFinished, game_chapters, lines, parse_from
from host_device.store.db import Store


def from_argument(text: str) -> int:
    try:
        return parse_from(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 30)!r} — не время; нужно ЧЧ:ММ:СС (или ММ:СС) — где в записи "
            "трансляции начинается игра, например 01:02:03"
        ) from None


def cmd_chapters(args: argparse.Namespace) -> int:
    store = Store(Path(args.store) if args.store else None, create=False)
    try:
        preset = store.games.preset(args.id)
        timed = [(t, inp) for _, t, inp in store.games.inputs(args.id)]
    finally:
        store.close()
    try:
        found = lines(game_chapters(preset, timed), args.start)
    except NotFinished:
        raise HostDeviceError(
            f"игра {args.id} не окончена: её главы назвали бы, кто ушёл и кто убит, до конца игры"
        ) from None
    print("\n".join(found))
    if len(found) < MIN_COUNT:
        print(
            f"host-device: глав {len(found)}: YouTube показывает главы, только если их не меньше трёх",
            file=sys.stderr,
            flush=True,
        )
    return 0


def add_command(sub: Any) -> None:
    """``games chapters`` (its --store is added with the other games commands')."""
    p = sub.add_parser(
        "chapters", help="главы оконченной игры для описания видео: «01:35 День 1 — речь игрока 1»"
    )
    p.add_argument("id", type=game_id, metavar="ИГРА", help="номер игры (host-device games list)")
    p.add_argument(
        "--from",
        dest="start",
        type=from_argument,
        default=0,
        metavar="ЧЧ:ММ:СС",
        help="где в записи трансляции начинается игра (первые слова коробки); по умолчанию 00:00:00",
    )
    p.set_defaults(func=cmd_chapters)
