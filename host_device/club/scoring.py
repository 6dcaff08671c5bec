"""The points of a game: one pure function of (record, scoring table).
Points are recomputed from the record every time and never stored; the
table is data (``host_device/club/data/fiim.toml`` or the club's own file,
named by ``[club] scoring`` in the config)."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from importlib import resources
from pathlib import Path
from typing import Any

from engine.roles import Role, Team
from host_device.base.errors import HostDeviceError, os_reason, toml_place
from host_device.base.files import read_text
from host_device.club.record import GameRecord

DEFAULT = "fiim.toml"
SHIPPED = (DEFAULT, "fiim-mafiaratings.toml", "fiim-mafiaratings-7.toml", "maf-world-cup.toml")  # club/data/
# every key a table must have, by section (a key not listed here is refused)
ROLES = tuple(role.value for role in Role)
KEYS: dict[str, tuple[str, ...]] = {
    "win": ROLES,
    "loss": ROLES,
    "best_move": ("black_2", "black_3"),
    "penalty": ("disqualified", "foul"),
    "extra": ("min", "max", "step"),
}
# [best_move_rules], optional (a table without it gives the best move as before): who may get
# the best move's points (mafiaratings' FIIM: a red player shot on night 1, and nobody once
# two or more players left on day 1)
RULES = ("red_only", "night_1_only", "day_1_voted_out_max")
CI = ("max", "share")  # [ci], optional: the compensation of the first killed (tournament standings)
# [standings], optional: what ranks a tournament's players first, the total (default) or the
# points per game played (the MAF World Cup's "total points divided by total number of played games"),
# and which order of tiebreakers follows (host_device/tournament/data/tiebreakers.toml)
RANK_BY = ("total", "average")
TIEBREAKERS = ("mafiaratings", "polemica")
# [round_multipliers], optional: "ROUND = FACTOR", from that round (тур) of a tournament on, every
# point of a game counts FACTOR times (a final's weight; mafiaratings' round "weight")
MULTIPLIER_MAX = 10.0
# [played], optional: points every game played gives, counted with the extra points (mafiaratings'
# FIIM from version 4: «автодопы», "extra": {"matter":1,"points":"… 0.3"}, matter 1 = played)
# [rating], optional: which rating the club's pages and figures show: the club's Elo (default) or
# mafiaratings' (host_device/club/rating.py), and for theirs the class of the games (their K)
RATING_METHODS = ("club", "mafiaratings")
RATING_GAMES = ("club", "tournament", "elite")
OPTIONAL = ("name", "best_move_rules", "ci", "standings", "round_multipliers", "played", "rating")
LIMIT = 100.0  # no line of a table is worth more than this (a typo's guard)
MAX_TABLE_BYTES = 1_000_000  # a club's table file: far more than any table


class ScoringError(HostDeviceError, ValueError):
    pass


@dataclass(frozen=True)
class Table:
    name: str
    win: dict[Role, float]
    loss: dict[Role, float]
    best_move: dict[int, float]  # black seats named -> points (0 and 1: none)
    disqualified: float
    foul: float
    extra_min: float
    extra_max: float
    extra_step: float
    source: str = DEFAULT  # the file it came from, for messages
    red_only: bool = False  # best move: only a red player's
    night_1_only: bool = False  # best move: only for one shot on night 1
    day_1_voted_out_max: int | None = None  # best move: none once more players were voted out on day 1
    ci_max: float | None = None  # [ci]: the cap of Ci (None: no Ci)
    ci_share: float = 0.4  # [ci]: Ci = min(first kills · max / round(games · share), max)
    rank_by: str = "total"  # [standings].rank_by: "total" or "average" (points per game played)
    tiebreakers: str = "mafiaratings"  # [standings].tiebreakers: whose order of tiebreakers
    played: float = 0.0  # [played].extra: points each game played gives, among the extra points
    rating: str = "club"  # [rating].method: the club's Elo or mafiaratings' rating
    rating_games: str = "club"  # [rating].games: mafiaratings' class of the games (their K)
    round_multipliers: tuple[tuple[int, float], ...] = ()  # [round_multipliers]: (from round, factor)

    def multiplier(self, round_no: int) -> float:
        """The factor of a game of tournament round ``round_no``: the last ``[round_multipliers]``
        line at or before it, else 1."""
        factor = 1.0
        for first, value in self.round_multipliers:
            if round_no >= first:
                factor = value
        return factor

    def best_move_counts(self, record: GameRecord) -> bool:
        """Whether this table gives the game's best move its points."""
        best = record.best_move
        if best is None:
            return False
        seat = next((s for s in record.seats if s.seat == best.seat), None)
        if seat is None:
            return False
        if self.red_only and seat.team is not Team.RED:
            return False
        if self.night_1_only and not (seat.left and seat.left.how == "shot" and seat.left.night == 1):
            return False
        if self.day_1_voted_out_max is not None:
            day_1 = sum(
                1 for s in record.seats if s.left is not None and s.left.how == "vote" and s.left.day == 1
            )
            if day_1 > self.day_1_voted_out_max:
                return False
        return True

    def extra(self, value: float) -> float:
        """The host's extra points as this table counts them: within its
        range, rounded to its step, a half away from zero (0.25 at a step of
        0.1 is 0.3, -0.25 is -0.3; decimal, so 0.15 is not 0.1499…: what the
        host entered on the table's step is kept as entered)."""
        value = min(max(value, self.extra_min), self.extra_max)
        step = Decimal(repr(self.extra_step))
        steps = (Decimal(repr(value)) / step).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        return round(float(steps * step), 6)


@dataclass(frozen=True)
class SeatPoints:
    seat: int
    player: str | None  # the roster id, None: nobody named
    result: float  # the win or the loss of his role
    best_move: float = 0.0
    fouls: float = 0.0
    disqualified: float = 0.0
    extra: float = 0.0

    @property
    def total(self) -> float:
        return round(self.result + self.best_move + self.fouls + self.disqualified + self.extra, 6)


def points(record: GameRecord, table: Table) -> dict[int, SeatPoints]:
    """Every seat's points in a finished game, with their breakdown; an
    unfinished game has none (its result, and so its points, are secret)."""
    if record.winner is None:
        return {}
    best = record.best_move if table.best_move_counts(record) else None
    out = {}
    for seat in record.seats:
        won = seat.team is record.winner
        out[seat.seat] = SeatPoints(
            seat=seat.seat,
            player=seat.player,
            result=(table.win if won else table.loss)[seat.role],
            best_move=table.best_move.get(best.black, 0.0) if best and best.seat == seat.seat else 0.0,
            fouls=round(seat.fouls * table.foul, 6),
            disqualified=table.disqualified if seat.left and seat.left.how == "disqualified" else 0.0,
            extra=round(table.extra(record.extras.get(seat.seat, 0.0)) + table.played, 6),
        )
    return out


def totals(records: Iterable[GameRecord], table: Table) -> dict[str, float]:
    """Each roster player's points over ``records`` (a seat without one counts for nobody)."""
    found: dict[str, float] = {}
    for record in records:
        for item in points(record, table).values():
            if item.player is not None:
                found[item.player] = round(found.get(item.player, 0.0) + item.total, 6)
    return found


def default_table() -> Table:
    return shipped_table(DEFAULT)


def shipped_table(name: str) -> Table:
    """A table shipped with the device (host_device/club/data/): ``fiim.toml`` (today's default),
    ``fiim-mafiaratings.toml`` (mafiaratings' FIIM, line by line), ``maf-world-cup.toml`` (the MAF
    World Cup's published ranking, with its round multiplier)."""
    source = resources.files("host_device.club") / "data" / name
    return parse_table(source.read_text(encoding="utf-8"), name)


def load_table(path: Path | None = None) -> Table:
    """The club's table from ``path`` (``[club] scoring``), or the default."""
    if path is None:
        return default_table()
    if str(path) in SHIPPED:  # a shipped table by its name: scoring = "fiim-mafiaratings.toml"
        return shipped_table(str(path))
    if path.name == str(path):  # a bare name the config found no file beside it of (config.py _beside)
        raise ScoringError(
            f"{path}: такой таблицы очков нет ни рядом с конфигом, ни в комплекте "
            f"({', '.join(SHIPPED)}); проверьте [club] scoring"
        )
    try:
        text = read_text(path, MAX_TABLE_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        raise ScoringError(
            f"{path}: таблица очков не читается: {os_reason(exc)}; проверьте [club] scoring"
        ) from None
    return parse_table(text, str(path))


def parse_table(text: str, source: str) -> Table:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScoringError(f"{source}: ошибка в TOML{toml_place(exc)}") from None
    except (RecursionError, ValueError):
        raise ScoringError(f"{source}: ошибка в TOML: файл не читается как таблица очков") from None
    for section in data:
        if section not in OPTIONAL and section not in KEYS:
            raise ScoringError(
                f"{source}: [{section:.40}]: нет такого раздела; разделы: {', '.join((*KEYS, *OPTIONAL[1:]))}"
            )
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise ScoringError(f'{source}: name: название таблицы — строка, например name = "Наш клуб"')
    values = {section: _section(data, section, source) for section in KEYS}
    extra = values["extra"]
    if not extra["min"] <= 0 <= extra["max"]:
        raise ScoringError(f"{source}: extra.min и extra.max: ноль должен быть внутри (например -1.0 и 1.0)")
    if extra["step"] <= 0 or extra["step"] > extra["max"] - extra["min"]:
        raise ScoringError(
            f"{source}: extra.step: шаг больше нуля и не больше всего диапазона (например 0.1)"
        )
    return Table(
        name=name,
        win={Role(role): value for role, value in values["win"].items()},
        loss={Role(role): value for role, value in values["loss"].items()},
        best_move={2: values["best_move"]["black_2"], 3: values["best_move"]["black_3"]},
        disqualified=values["penalty"]["disqualified"],
        foul=values["penalty"]["foul"],
        extra_min=extra["min"],
        extra_max=extra["max"],
        extra_step=extra["step"],
        source=source,
        **_rules(data.get("best_move_rules", {}), source),
        **_ci(data.get("ci"), source),
        **_standings(data.get("standings", {}), data.get("round_multipliers", {}), source),
        **_played(data.get("played"), source),
        **_rating(data.get("rating"), source),
    )


def _rating(body: Any, source: str) -> dict[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, dict) or set(body) - {"method", "games"}:
        raise ScoringError(f'{source}: [rating]: ключи method и games, например method = "mafiaratings"')
    method, games = body.get("method", "club"), body.get("games", "club")
    if method not in RATING_METHODS:
        raise ScoringError(f'{source}: rating.method: "club" или "mafiaratings", а не {method!r:.40}')
    if games not in RATING_GAMES:
        raise ScoringError(f'{source}: rating.games: "club", "tournament" или "elite", а не {games!r:.40}')
    return {"rating": method, "rating_games": games}


def _played(body: Any, source: str) -> dict[str, Any]:
    if body is None:
        return {}
    value = body.get("extra") if isinstance(body, dict) and set(body) == {"extra"} else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not -1 <= value <= 1:
        raise ScoringError(f"{source}: [played]: один ключ extra — число от -1 до 1, например extra = 0.3")
    return {"played": float(value)}


def _standings(body: Any, multipliers: Any, source: str) -> dict[str, Any]:
    if not isinstance(body, dict) or set(body) - {"rank_by", "tiebreakers"}:
        raise ScoringError(
            f'{source}: [standings]: ключи rank_by и tiebreakers, например rank_by = "average"'
        )
    rank_by = body.get("rank_by", "total")
    if rank_by not in RANK_BY:
        raise ScoringError(
            f'{source}: standings.rank_by: "total" (сумма) или "average" (за игру), а не {rank_by!r:.40}'
        )
    order = body.get("tiebreakers", "mafiaratings")
    if order not in TIEBREAKERS:
        raise ScoringError(
            f'{source}: standings.tiebreakers: "mafiaratings" или "polemica", а не {order!r:.40}'
        )
    if not isinstance(multipliers, dict):
        raise ScoringError(
            f"{source}: [round_multipliers]: раздел строк «тур = множитель», например 11 = 1.25"
        )
    lines = []
    for key, value in multipliers.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 3) or not 1 <= int(key) <= 999:
            raise ScoringError(
                f"{source}: round_multipliers.{key:.40}: ключ — номер тура от 1, например 11 = 1.25"
            )
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MULTIPLIER_MAX:
            raise ScoringError(
                f"{source}: round_multipliers.{key}: множитель больше 0 и не больше {MULTIPLIER_MAX:g},"
                f" например 1.25, а не {value!r:.40}"
            )
        lines.append((int(key), float(value)))
    return {"rank_by": rank_by, "tiebreakers": order, "round_multipliers": tuple(sorted(lines))}


def _ci(body: Any, source: str) -> dict[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, dict) or set(body) != set(CI):
        raise ScoringError(f"{source}: [ci]: ключи {', '.join(CI)}, например max = 0.4, share = 0.4")
    for key in CI:
        value = body[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
            raise ScoringError(f"{source}: ci.{key}: число больше 0 и не больше 1, например 0.4")
    return {"ci_max": float(body["max"]), "ci_share": float(body["share"])}


def _rules(body: Any, source: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ScoringError(f"{source}: [best_move_rules]: раздел с ключами {', '.join(RULES)}")
    for key in body:
        if key not in RULES:
            raise ScoringError(
                f"{source}: best_move_rules.{key:.40}: нет такого ключа; ключи: {', '.join(RULES)}"
            )
    out: dict[str, Any] = {}
    for key in ("red_only", "night_1_only"):
        if key in body:
            if not isinstance(body[key], bool):
                raise ScoringError(f"{source}: best_move_rules.{key}: true или false, а не {body[key]!r:.40}")
            out[key] = body[key]
    if "day_1_voted_out_max" in body:
        value = body["day_1_voted_out_max"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
            raise ScoringError(f"{source}: best_move_rules.day_1_voted_out_max: целое от 0 до 9, например 1")
        out["day_1_voted_out_max"] = value
    return out


def _section(data: dict[str, Any], section: str, source: str) -> dict[str, float]:
    keys = KEYS[section]
    body = data.get(section)
    if not isinstance(body, dict):
        raise ScoringError(f"{source}: [{section}]: нет раздела; нужны ключи {', '.join(keys)}")
    for key in body:
        if key not in keys:
            raise ScoringError(f"{source}: {section}.{key:.40}: нет такого ключа; ключи: {', '.join(keys)}")
    out = {}
    for key in keys:
        if key not in body:
            raise ScoringError(f"{source}: {section}.{key}: нет ключа; допишите, например {key} = 0.0")
        value = body[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ScoringError(f"{source}: {section}.{key}: число, например 0.5, а не {value!r:.40}")
        if abs(value) > LIMIT:
            raise ScoringError(
                f"{source}: {section}.{key}: {value} — слишком много; не больше {LIMIT:g} по модулю"
            )
        out[key] = float(value)
    return out


def club_table(config: Path | None = None) -> Table:
    """The table the club's config names (``[club] scoring``), else the default."""
    from host_device.config import load_config

    return load_table(load_config(config).scoring)
