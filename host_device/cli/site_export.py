"""``games export --format mafiaratings | mwt | polemica``: finished games in
a rating site's own format (host_device/club/sites/), one game, every one
(``--all``), an evening (``--date``) or a tournament's (``--tournament``);
one Russian line a game on stderr says what the format cannot carry and who
has no id on the site (``players link``). JSON and CSV stay ``games export``'s own."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import write_text
from host_device.cli.protocol import day_argument
from host_device.club.build import record_of
from host_device.club.protocol import local_day
from host_device.club.record import GameRecord
from host_device.club.sites import NotCarried, SiteGame, mafiaratings, mwt, polemica
from host_device.store.db import Store
from host_device.store.faults import DamagedGame, StoreError

EXPORTERS: dict[str, Callable[[GameRecord, dict[str, str]], SiteGame]] = {
    "mafiaratings": mafiaratings.export,
    "mwt": mwt.export,
    "polemica": polemica.export,
}
SITE_FORMATS = tuple(EXPORTERS)
CHOICES = ("json", "csv", *SITE_FORMATS)  # games export --format


def _warn(text: str) -> None:
    print(f"host-device: {text}", file=sys.stderr, flush=True)


def _ids(args: argparse.Namespace, store: Store) -> list[int]:
    if args.tournament:
        return [gid for gid, _, _ in store.tournaments.games(store.tournaments.get(args.tournament).id)]
    if args.date is not None:
        day = args.date.isoformat()
        found = [g.id for g in store.games.all() if local_day(g.started_at) == day]
        if not found:
            raise StoreError(f"{day}: в этот день игр не было (см.: host-device games list)")
        return found
    if args.all:
        return [g.id for g in store.games.all()]
    if args.id is None:
        raise StoreError("укажите номер игры, --all, --date ДАТА или --tournament ИМЯ")
    return [args.id]


def cmd_site_export(args: argparse.Namespace) -> int:
    """The chosen games in the site's format: one object for one game, else a list."""
    store = Store(Path(args.store) if args.store else None, create=False)
    try:
        one = args.id is not None and not (args.all or args.date or args.tournament)
        ids = _ids(args, store)
        linked = store.roster.site_ids(args.format)
        exported, left_out = [], 0
        for gid in ids:
            try:
                exported.append(EXPORTERS[args.format](record_of(store, gid), linked))
            except (NotCarried, DamagedGame) as exc:
                if one:
                    raise
                _warn(f"не выгружена: {exc}")
                left_out += 1
    finally:
        store.close()
    data: Any = exported[0].data if one else [g.data for g in exported]
    put_out(args.to, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    for game in exported:
        _warn(game.line())
    if left_out:
        _warn(f"выгружено игр: {len(exported)}; не выгружено: {left_out}")
    return 1 if left_out and not exported else 0


def _dispatch(json_or_csv: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    if args.format in EXPORTERS:
        return cmd_site_export(args)
    if args.date is not None or args.tournament:
        raise HostDeviceError("--date и --tournament — для форматов сайтов: " + ", ".join(SITE_FORMATS))
    return json_or_csv(args)


def register(export: argparse.ArgumentParser) -> None:
    """``games export``'s site formats: --date and --tournament, and the sites' formats run here."""
    export.add_argument("--date", type=day_argument, metavar="ГГГГ-ММ-ДД", help="игры вечера (для сайтов)")
    export.add_argument("--tournament", metavar="ТУРНИР", help="игры турнира (для сайтов)")
    export.set_defaults(func=functools.partial(_dispatch, export.get_default("func")))


def put_out(to: str | None, text: str) -> None:
    """An export's text written whole to ``to`` (replaced only once complete), or printed."""
    if to:
        try:
            write_text(Path(to), text)
        except OSError as exc:
            raise StoreError(f"{to}: не удалось записать выгрузку: {os_reason(exc)}") from None
    else:
        sys.stdout.write(text)
