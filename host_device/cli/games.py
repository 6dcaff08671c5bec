"""``host-device games list|show|seat|export|check|recover``: the stored games."""

from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import DealRoles, Game, IllegalInput, Team
from engine.outputs import (
    AlibiRefused,
    BestMoveMade,
    CheckMade,
    FoulGiven,
    GameEnded,
    GoldenMinuteTaken,
    LifeSaved,
    NominationAccepted,
    NominationWithdrawn,
    PhaseStarted,
    PlayerLeft,
    Say,
    ShotTaken,
    SpeechesEnded,
    Tie,
    VisitMade,
    VoteCounted,
)
from engine.serial import to_dict
from engine.state import Phase, RoundKind
from engine.summary import summary
from host_device.base.errors import HostDeviceError
from host_device.base.names import spreadsheet_cell
from host_device.base.text import columns
from host_device.cli import flags, site_export
from host_device.cli.arguments import game_id
from host_device.cli.chapters import add_command as add_chapters_command
from host_device.cli.players import add_seat_command
from host_device.cli.protocol import add_command as add_protocol_command
from host_device.club import export
from host_device.club.build import build_record, record_of
from host_device.club.evidence import WITHDRAWN, foul_of, given
from host_device.club.protocol import ALONE, HOW_LEFT, points_lines
from host_device.club.scoring import Table, club_table
from host_device.store.db import Store
from host_device.store.faults import DamagedGame, StoreError
from host_device.store.recover import recover
from voices.catalogue import listed
from voices.words import (
    MODE_NAMES,
    ROLE_GENITIVE,
    ROUND_NAMES,
    WINNER,
    WINS,
    local_time,
    preset_name,
    role_name,
)

# one row an input; each row also names its game's rules, winner and roles (seat=role ...);
# a finished game's rows name who the seat is, and its "points" rows (one a seat) his points
CSV_FIELDS = ["game", "preset", "winner", "roles", "seq", "t", "type", "seat", "target", "count"]
CSV_FIELDS += export.CSV_FIELDS


def _with_store(command: Callable[[argparse.Namespace, Store], int], args: argparse.Namespace) -> int:
    """Run a reading command on the store, closed afterwards."""
    if getattr(args, "id", 0) is None and not args.all:
        raise StoreError("укажите номер игры или --all")
    store = Store(Path(args.store) if args.store else None, create=False)
    try:
        return command(args, store)
    finally:
        store.close()


def replay_with_outputs(store: Store, game_id: int) -> tuple[Game, list[tuple[dict[str, Any], list[Any]]]]:
    row = store.games.game(game_id)
    game = Game(store.games.preset(row.id))
    steps = []
    for seq, _, inp in store.games.inputs(game_id):
        try:
            steps.append((to_dict(inp), game.handle(inp)))
        except IllegalInput as exc:
            raise DamagedGame(game_id, f"не воспроизводится: запись {seq}: {exc}") from None
    return game, steps


def _won(winner: str | None) -> str:
    return WINS[Team(winner)] if winner else "не окончена"


def _warn(text: str) -> None:
    print(f"host-device: {text}", file=sys.stderr, flush=True)


def result_of(game: Game, steps: list[tuple[dict[str, Any], list[Any]]]) -> dict[str, Any]:
    told = summary(o for _, outputs in steps for o in outputs)
    state = game.state
    return {
        "preset": game.preset.name,
        "winner": state.winner.value if state.winner else None,
        "days": state.day,
        "out": told["out"],
        "checks": told["checks"],
        "candidates": told["candidates"],
        "inputs": [inp for inp, _ in steps],
        "events": [to_dict(o) for _, outputs in steps for o in outputs],
    }


def protocol(
    game: Game, steps: list[tuple[dict[str, Any], list[Any]]], names: dict[str, str] | None = None
) -> list[str]:
    """The game as a club writes it down (in Russian, for the club)."""
    lines = [f"Игра: {preset_name(game.preset.name)}, {game.preset.seats} игроков"]
    if names:
        lines.append(
            "Игроки: "
            + ", ".join(f"{seat} — {name}" for seat, name in sorted(names.items(), key=lambda n: int(n[0])))
        )
    window = 0  # the candidate whose vote window is open (0: the all-leave question)
    hands: dict[int, int] = {}  # the host's counts of hands in this round, by candidate
    hunted: set[int] = set()  # the nights the mafia was woken
    alone = 0  # the lone candidate said to leave without a vote
    ended: set[int] = set()  # the nights that killed or saved
    today = 0  # the day of the step the game is in
    for inp, outputs in steps:
        if inp["type"] == "deal_roles":
            roles = ", ".join(
                f"{seat} — {role_name(role)}"
                for seat, role in sorted(inp["roles"].items(), key=lambda r: int(r[0]))
            )
            lines.append(f"Рассадка и роли: {roles}; остальные — мирные жители")
        elif inp["type"] == "tally":
            hands[window] = hands.get(window, 0) + inp["count"]
        for o in outputs:
            today = o.day if isinstance(o, PhaseStarted) else today
            match o:
                case Say(phrase="vote_question", seat=seat):
                    window = seat or 0
                case Say(phrase="single_candidate_leaves", seat=seat):
                    alone = seat or 0
                case Say(phrase="all_leave_question"):
                    window = 0
                case SpeechesEnded(day=day, candidates=c):
                    said = f"кандидаты — {listed([str(x) for x in c])}" if c else "никто не выставлен"
                    lines.append(f"День {day}: {said}")
                case NominationAccepted(day=day, seat=seat, target=target):
                    lines.append(f"День {day}: игрок {seat} выставил игрока {target}")
                case NominationWithdrawn(day=day, seat=seat, target=target):
                    lines.append(f"День {day}: игрок {seat} снял игрока {target}")
                case VoteCounted():
                    lines.append(_vote_line(o, hands))
                    hands = {}
                case Tie(day=day, seats=seats):
                    tied = listed([str(x) for x in seats])
                    lines.append(f"День {day}: голоса разделились поровну — {tied}")
                case PlayerLeft(seat=seat, how=how, day=day, night=night):
                    ended |= {night} if night is not None else set()
                    when = f"день {day}" if day is not None else f"ночь {night}"
                    reason = ALONE if seat == alone else HOW_LEFT[how]
                    lines.append(f"Игрок {seat} покидает игру: {when}, {reason}")
                case PhaseStarted(phase="night_hunt", day=night):
                    hunted.add(night)
                case PhaseStarted(phase="morning", day=day) if day - 1 in hunted - ended:
                    lines.append(f"Ночь {day - 1}: промах, никто не убит")
                case BestMoveMade(night=night, seat=seat, seats=seats):
                    named = listed([str(x) for x in seats])
                    lines.append(f"День {night + 1}: лучший ход игрока {seat} (убит ночью {night}) — {named}")
                case ShotTaken(night=night, seat=seat, target=target):
                    lines.append(f"Ночь {night}: игрок {seat} стреляет в {target}")
                case CheckMade(night=night, by=by, seat=seat, target=target, result=result):
                    lines.append(
                        f"Ночь {night}: проверка {ROLE_GENITIVE[by]} (игрок {seat}) — игрок {target}: "
                        f"{'да' if result else 'нет'}"
                    )
                case VisitMade(night=night, by=by, seat=seat, target=target, ignored=ignored):
                    what = "лечит" if by.value == "doctor" else "навещает"
                    why = {
                        "self_again": "себя второй раз",
                        "same_as_last_night": "того же, что прошлой ночью",
                    }
                    note = f" (не засчитано: {why[ignored]})" if ignored else ""
                    lines.append(
                        f"Ночь {night}: {role_name(by.value)} (игрок {seat}) {what} игрока {target}{note}"
                    )
                case LifeSaved(night=night, seat=seat):
                    ended.add(night)
                    lines.append(f"Ночь {night}: доктор спас игрока {seat}")
                case AlibiRefused(day=day, seat=seat, target=target):
                    lines.append(f"День {day}: у игрока {target} алиби — игрок {seat} не может его выставить")
                case GoldenMinuteTaken(day=day, seat=seat):
                    lines.append(f"День {day}: игрок {seat} берёт золотую минуту")
                case FoulGiven(seat=seat, count=count):
                    lines.append(
                        f"День {today}: замечание игроку {seat} ({count}-е) — {given(foul_of(inp, today))}"
                    )
                case GameEnded(winner=winner):
                    lines.append(WINNER[winner])
                case _:
                    pass
    return lines


def _vote_line(counted: VoteCounted, hands: dict[int, int]) -> str:
    """«День 1, голосование: за 5 — 7 (1, 2, 4); за 8 — 3 (3; не голосовали — 2)»."""
    voters = dict(counted.voters)
    parts = []
    for candidate, count in counted.counts:
        pressed = voters.get(candidate, ())
        how = [", ".join(map(str, pressed))] if pressed else []
        if hands.get(candidate):
            how.append(f"по рукам — {hands[candidate]}")
        automatic = count - len(pressed) - hands.get(candidate, 0)
        if automatic > 0:
            how.append(f"не голосовали — {automatic}")
        who = "за" if candidate == 0 else f"за {candidate}"
        parts.append(f"{who} — {count}" + (f" ({'; '.join(how)})" if how else ""))
    if counted.nobody is not None:  # city: the non-voters, for killing nobody
        parts.append(f"никого не убивать — {counted.nobody}")
    kind = ROUND_NAMES[RoundKind(counted.kind)]
    return f"День {counted.day}, {kind}: {'; '.join(parts)}"


LIST_HEADER = ("№", "начата", "правила", "режим", "итог", "дней")


def cmd_list(args: argparse.Namespace, store: Store) -> int:
    settled = {g.id: g for g in store.games.settle(write=False)}  # a game whose record ends it is finished
    rows = [LIST_HEADER]
    for g in (settled.get(row.id, row) for row in store.games.all()):
        days: int | str = g.days
        mode = MODE_NAMES.get(g.mode, g.mode)
        if g.finished_at is None:  # the day it reached, from its record
            try:
                days = store.games.replay(g.id).state.day
                if store.games.settings(g.id).get("trial_days"):
                    mode += " (проба)"
            except StoreError:
                days = "?"
        winner = Team(g.winner) if g.winner in set(Team) else None  # a damaged row's value is no team
        result = (
            WINS[winner]
            if winner
            else ("не окончена" if g.finished_at is None else "—" if not g.winner else "?")
        )
        id_, started, preset, mode_, result_, days_ = (
            str(cell) if isinstance(cell, str | int) else "?"  # a damaged row's blob or null
            for cell in (g.id, local_time(g.started_at), preset_name(g.preset), mode, result, days)
        )
        rows.append((id_, started, preset, mode_, result_, days_))
    for line in columns(rows):
        print(line)
    return 0


class RolesHidden(HostDeviceError):
    """An unfinished game's protocol or export asked for without ``--roles``."""


def _refuse_unfinished(gid: int, game: Game, roles: bool) -> None:
    """A game still going: its protocol and export would name the roles and the checks."""
    if game.state.phase is not Phase.GAME_OVER and not roles:
        raise RolesHidden(
            f"игра {gid} не окончена: её протокол и выгрузка раскрыли бы роли и проверки; "
            "ведущему, который их знает: --roles"
        )


def cmd_show(args: argparse.Namespace, store: Store) -> int:
    game, steps = replay_with_outputs(store, args.id)
    _refuse_unfinished(args.id, game, args.roles)
    try:
        names = store.roster.names(args.id)
    except DamagedGame as exc:
        _warn(f"{exc}; показана без имён")
        names = {}
    lines = protocol(game, steps, names)
    undone = store.games.undone(args.id)
    if undone:
        lines.append(f"Отменено ведущим: записей {len(undone)} (в ходе игры они не учтены)")
    try:
        extras = store.roster.extras(args.id)
    except DamagedGame as exc:
        _warn(f"{exc}; показана без доп. баллов")
        extras = {}
    row = store.games.game(args.id)
    record = build_record(row, game.preset, store.games.inputs(args.id), extras=extras, undone=undone)
    withdrawn = [f for f in record.fouls if f.withdrawn]  # the device's, on their day, with what was heard
    lines += [f"День {f.day}: {WITHDRAWN} замечание игроку {f.seat} — {given(f)}" for f in withdrawn]
    lines += points_lines(record, club_table(Path(args.config) if args.config else None), names)
    print("\n".join(lines))
    return 0


def _export_one(store: Store, gid: int, table: Table, told: bool) -> tuple[dict[str, Any], list[list[Any]]]:
    """One game as the JSON object and the CSV rows of the export (who sat
    where and the points: a finished game only); RolesHidden for an
    unfinished game unless ``told`` (``--roles``)."""
    game, steps = replay_with_outputs(store, gid)
    _refuse_unfinished(gid, game, told)
    names = store.roster.names(gid)
    result = result_of(game, steps)
    record = record_of(store, gid)
    obj = {
        "id": gid,
        "names": names,
        **result,
        "undone": [{"seq": seq, "t": t, **to_dict(inp)} for seq, t, inp in store.games.undone(gid)],
        **export.json_part(record, table),
    }
    winner = result["winner"] or ""
    deals = (to_dict(inp)["roles"] for _, _, inp in store.games.inputs(gid) if isinstance(inp, DealRoles))
    dealt: dict[str, str] = next(deals, {})
    roles = " ".join(f"{seat}={role}" for seat, role in sorted(dealt.items(), key=lambda r: int(r[0])))
    rows = []
    for seq, t, inp in store.games.inputs(gid):
        data = to_dict(inp)
        rows.append(
            [
                gid,
                game.preset.name,
                winner,
                roles,
                seq,
                f"{t:.1f}",
                data["type"],
                data.get("seat", ""),
                data.get("target", ""),
                data.get("count", ""),
                *export.csv_who(record, data.get("seat")),
            ]
        )
    for seat, club in export.csv_points(record, table):
        rows.append([gid, game.preset.name, winner, roles, "", "", "points", seat, "", "", *club])
    return obj, rows


def cmd_export(args: argparse.Namespace, store: Store) -> int:
    ids = [g.id for g in store.games.all()] if args.all else [args.id]
    table = club_table(Path(args.config) if args.config else None)
    objects, rows, skipped, going = [], [], 0, []
    for gid in ids:
        try:
            obj, game_rows = _export_one(store, gid, table, args.roles)
        except DamagedGame as exc:
            if not args.all:
                raise
            _warn(f"пропущена: {exc}")
            skipped += 1
            continue
        except RolesHidden:
            if not args.all:
                raise
            going.append(gid)
            continue
        objects.append(obj)
        rows += game_rows
    if args.format == "json":
        text = json.dumps(objects if args.all else objects[0], ensure_ascii=False, indent=1) + "\n"
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_FIELDS)
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
        text = buffer.getvalue()
    site_export.put_out(args.to, text)
    if going:
        ids_text = ", ".join(map(str, going))
        _warn(f"не выгружены неоконченные игры ({ids_text}): их роли тайна до конца игры; ведущему: --roles")
    if skipped:
        _warn(
            f"выгружено игр: {len(objects)}; пропущено повреждённых: {skipped} (см.: host-device games check)"
        )
    return 1 if skipped else 0


def cmd_check(args: argparse.Namespace, store: Store) -> int:
    bad = 0
    problems = store.integrity()
    if problems:
        salvage = f"спасти игры: host-device games recover {shlex.quote(str(store.path))}"
        print(f"файл хранилища повреждён ({'; '.join(problems)}); {salvage}")
        bad += 1
    settled = {g.id: g for g in store.games.settle(write=not problems)}  # never a write into a damaged file
    for line in store.roster.problems():
        print(line)
        bad += 1
    for g in store.games.all():
        try:
            game = store.games.replay(g.id)
            store.roster.names(g.id)
            store.roster.extras(g.id)
            store.games.undone(g.id)
        except DamagedGame as exc:
            print(f"игра {g.id}: {exc.reason}")
            bad += 1
            continue
        state = game.state
        if g.id in settled:
            writable = not (store.read_only or problems)
            marked = "отмечена сейчас" if writable else "не отмечена (в хранилище нельзя писать)"
            ended = settled[g.id]
            print(
                f"игра {g.id}: окончена ({_won(ended.winner)}, день {ended.days}), "
                f"но не была отмечена оконченной: {marked}"
            )
            continue
        if g.finished_at is not None and (
            (state.winner.value if state.winner else None) != g.winner or state.day != g.days
        ):
            stored = f"{_won(g.winner)} в день {g.days}"
            won = _won(state.winner.value if state.winner else None)
            print(f"игра {g.id}: воспроизводится до «{won}» в день {state.day}, а в хранилище — {stored}")
            bad += 1
            continue
        print(f"игра {g.id}: в порядке")
    return 1 if bad else 0


def cmd_recover(args: argparse.Namespace) -> int:
    target = Store(Path(args.store) if args.store else None)
    if target.notice:
        _warn(target.notice)
    try:
        report = recover(Path(args.file), target)
    finally:
        target.close()
    for line in report.lines:
        print(line)
    print(
        f"спасено игр: {report.recovered}, в {target.path}; "
        f"не прочитано: {report.failed}, спасены раньше: {report.already}"
        + (f"; в список клуба добавлено игроков: {report.players}" if report.players else "")
    )
    return 1 if report.failed else 0


def add_commands(commands: Any) -> None:
    games = commands.add_parser(
        "games", help="сохранённые игры: список, протокол, места, выгрузка, проверка, спасение, вечер"
    )
    sub = games.add_subparsers(dest="games_command", required=True, metavar="ДЕЙСТВИЕ")
    for name, func, helptext in (
        ("list", cmd_list, "все сохранённые игры"),
        ("check", cmd_check, "каждая сохранённая игра переигрывается в свой записанный итог (иначе код 1)"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.set_defaults(func=functools.partial(_with_store, func))
    roles = "и неоконченную игру (её роли и проверки: для ведущего, который их знает)"
    p = sub.add_parser("show", help="протокол одной игры")
    p.add_argument("id", type=game_id, metavar="ИГРА", help="номер игры (host-device games list)")
    p.add_argument("--roles", action="store_true", help=roles)
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков (баллы игры)")
    p.set_defaults(func=functools.partial(_with_store, cmd_show))
    add_seat_command(sub)
    p = sub.add_parser("export", help="выгрузить одну игру (или все: --all) в JSON, CSV или формат сайта")
    p.add_argument("id", type=game_id, nargs="?", metavar="ИГРА", help="номер игры")
    p.add_argument("--all", action="store_true", help="все оконченные игры")
    p.add_argument("--format", choices=site_export.CHOICES, default="json", help="по умолчанию json")
    p.add_argument("--to", metavar="ФАЙЛ", help="записать в файл (без него — напечатать)")
    p.add_argument("--roles", action="store_true", help=roles)
    flags.config(p, help="файл настроек, где [club].scoring называет таблицу очков")
    p.set_defaults(func=functools.partial(_with_store, cmd_export))
    site_export.register(p)  # the sites' formats, --date, --tournament
    p = sub.add_parser(
        "recover", help="спасти в это хранилище каждую читаемую игру повреждённого или отложенного хранилища"
    )
    p.add_argument(
        "file",
        metavar="ФАЙЛ",
        help="файл повреждённого хранилища (или отложенного в сторону: .corrupt-ДАТА в имени)",
    )
    p.set_defaults(func=cmd_recover)
    add_protocol_command(sub)
    add_chapters_command(sub)
    for p in sub.choices.values():
        flags.store(p)
