"""``host-device games list|show|export|check``: the stored games."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path
from typing import Any

from engine import Game, IllegalInput
from engine.outputs import (
    CheckMade,
    FoulGiven,
    GameEnded,
    NominationAccepted,
    NominationWithdrawn,
    PlayerLeft,
    ShotTaken,
    SpeechesEnded,
    Tie,
    VoteCounted,
)
from engine.serial import BadRecord, to_dict
from host_device.store import Store, StoreError


def _store(args: argparse.Namespace, create: bool = False) -> Store:
    store = Store(Path(args.store) if args.store else None, create=create)
    if store.moved_aside is not None:
        print(f"host-device: the game store {store.path} was corrupt; it was moved to {store.moved_aside}")
    return store


def replay_with_outputs(store: Store, game_id: int) -> tuple[Game, list[tuple[dict[str, Any], list[Any]]]]:
    row = store.game(game_id)
    game = Game(row.preset)
    steps = []
    for _, _, inp in store.inputs(game_id):
        steps.append((to_dict(inp), game.handle(inp)))
    return game, steps


def result_of(game: Game, steps: list[tuple[dict[str, Any], list[Any]]]) -> dict[str, Any]:
    from host_device.play import Runner
    from host_device.script import Script

    collector = Runner(Script(game.preset, {}, [], []), game=game)
    for _, outputs in steps:
        collector.observe(outputs)
    state = game.state
    return {
        "preset": game.preset.name,
        "winner": state.winner.value if state.winner else None,
        "days": state.day,
        "out": collector.out,
        "checks": collector.checks,
        "candidates": collector.candidates,
        "inputs": [inp for inp, _ in steps],
        "events": [to_dict(o) for _, outputs in steps for o in outputs],
    }


def protocol(
    game: Game, steps: list[tuple[dict[str, Any], list[Any]]], names: dict[str, str] | None = None
) -> list[str]:
    """The game as a club writes it down (in Russian, for the club)."""
    lines = [f"Игра: {game.preset.name}, {game.preset.seats} игроков"]
    if names:
        lines.append(
            "Игроки: "
            + ", ".join(f"{seat} — {name}" for seat, name in sorted(names.items(), key=lambda n: int(n[0])))
        )
    for inp, outputs in steps:
        if inp["type"] == "deal_roles":
            roles = ", ".join(
                f"{seat} — {role}" for seat, role in sorted(inp["roles"].items(), key=lambda r: int(r[0]))
            )
            lines.append(f"Рассадка и роли: {roles}; остальные — мирные")
        for o in outputs:
            match o:
                case SpeechesEnded(day=day, candidates=c):
                    lines.append(f"День {day}: выставлены {', '.join(map(str, c)) or 'никто'}")
                case NominationAccepted(day=day, seat=seat, target=target):
                    lines.append(f"День {day}: игрок {seat} выставил игрока {target}")
                case NominationWithdrawn(day=day, seat=seat, target=target):
                    lines.append(f"День {day}: игрок {seat} снял игрока {target}")
                case VoteCounted(day=day, kind=kind, counts=counts, voters=voters):
                    who = "; ".join(
                        f"{c if c else 'все'}: {n} ({', '.join(map(str, dict(voters)[c])) or '—'})"
                        for c, n in counts
                    )
                    lines.append(f"День {day}, голосование ({kind}): {who}")
                case Tie(day=day, seats=seats):
                    lines.append(f"День {day}: автокатастрофа между {', '.join(map(str, seats))}")
                case PlayerLeft(seat=seat, how=how, day=day, night=night):
                    when = f"день {day}" if day is not None else f"ночь {night}"
                    reason = {
                        "vote": "заголосован",
                        "shot": "убит ночью",
                        "disqualified": "дисквалифицирован",
                    }[how]
                    lines.append(f"Игрок {seat} покидает игру: {reason} ({when})")
                case ShotTaken(night=night, seat=seat, target=target):
                    lines.append(f"Ночь {night}: игрок {seat} стреляет в {target}")
                case CheckMade(night=night, by=by, seat=seat, target=target, result=result):
                    lines.append(
                        f"Ночь {night}: проверка {by.value} (игрок {seat}) — игрок {target}: "
                        f"{'да' if result else 'нет'}"
                    )
                case FoulGiven(seat=seat, count=count):
                    lines.append(f"Замечание игроку {seat} ({count}-е)")
                case GameEnded(winner=winner):
                    lines.append(f"Победа: {'мирные' if winner.value == 'red' else 'мафия'}")
                case _:
                    pass
    return lines


def cmd_list(args: argparse.Namespace) -> int:
    store = _store(args)
    for g in store.games():
        state = g.winner or ("не окончена" if g.finished_at is None else "-")
        print(f"{g.id}\t{g.started_at}\t{g.preset}\t{g.mode}\t{state}\t{g.days} дн.")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    store = _store(args)
    game, steps = replay_with_outputs(store, args.id)
    lines = protocol(game, steps, store.names(args.id))
    undone = store.undone(args.id)
    if undone:
        lines.append(f"Отменено ведущим: записей {len(undone)} (в ходе игры они не учтены)")
    print("\n".join(lines))
    return 0


def cmd_name(args: argparse.Namespace) -> int:
    store = _store(args)
    row = store.game(args.id)
    seats = Game(row.preset).preset.seats
    if not 1 <= args.seat <= seats:
        raise StoreError(f"seat {args.seat}: the {row.preset} game has seats 1..{seats}")
    store.set_name(args.id, args.seat, args.name)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    store = _store(args)
    ids = [g.id for g in store.games()] if args.all else [args.id]
    if not args.all and args.id is None:
        raise StoreError("give a game ID, or --all")
    exported = []
    for game_id in ids:
        game, steps = replay_with_outputs(store, game_id)
        exported.append((game_id, game, steps))
    if args.format == "json":
        objects = [
            {
                "id": gid,
                "names": store.names(gid),
                **result_of(game, steps),
                "undone": [{"seq": seq, "t": t, **to_dict(inp)} for seq, t, inp in store.undone(gid)],
            }
            for gid, game, steps in exported
        ]
        text = json.dumps(objects if args.all else objects[0], ensure_ascii=False, indent=1)
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["game", "seq", "t", "type", "seat", "target", "roles"])
        for gid, _, _ in exported:
            for seq, t, inp in store.inputs(gid):
                data = to_dict(inp)
                writer.writerow(
                    [
                        gid,
                        seq,
                        t,
                        data["type"],
                        data.get("seat", ""),
                        data.get("target", ""),
                        json.dumps(data.get("roles", ""), ensure_ascii=False) if "roles" in data else "",
                    ]
                )
        text = buffer.getvalue()
    if args.to:
        try:
            Path(args.to).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise StoreError(f"{args.to}: cannot write the export: {exc.strerror}") from None
    else:
        print(text)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    store = _store(args)
    bad = 0
    for g in store.games():
        try:
            game = store.replay(g.id)
        except (IllegalInput, BadRecord) as exc:
            print(f"game {g.id}: does not replay: {exc}")
            bad += 1
            continue
        state = game.state
        if g.finished_at is not None and (
            (state.winner.value if state.winner else None) != g.winner or state.day != g.days
        ):
            stored = f"{g.winner} on day {g.days}"
            print(f"game {g.id}: replays to {state.winner} on day {state.day}, the store says {stored}")
            bad += 1
            continue
        print(f"game {g.id}: ok")
    return 1 if bad else 0


def add_commands(commands: Any) -> None:
    games = commands.add_parser("games", help="the stored games: list, show, export, check")
    sub = games.add_subparsers(dest="games_command", required=True, metavar="ACTION")
    for name, func, helptext in (
        ("list", cmd_list, "every stored game"),
        ("check", cmd_check, "every stored game replays to its recorded result"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.set_defaults(func=func)
    p = sub.add_parser("show", help="one game's protocol")
    p.add_argument("id", type=int)
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("name", help="a player's name for a seat (empty removes it)")
    p.add_argument("id", type=int)
    p.add_argument("seat", type=int)
    p.add_argument("name")
    p.set_defaults(func=cmd_name)
    p = sub.add_parser("export", help="one game (or --all) as JSON or CSV")
    p.add_argument("id", type=int, nargs="?")
    p.add_argument("--all", action="store_true")
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("--to", metavar="FILE")
    p.set_defaults(func=cmd_export)
    for p in sub.choices.values():
        p.add_argument("--store", metavar="PATH", help="the store (default: in the data directory)")
