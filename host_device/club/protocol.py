"""The evening's protocol as data: one referee's form per finished game and
a summary of the evening, in Russian, ready for a renderer (HTML in
protocol_html.py, PDF in protocol_pdf.py) — both draw exactly these blocks,
so what the paper shows is decided here once.

The form follows the sport-mafia referee's sheet («протокол игры», FIIM
practice, as mafiaratings and Polemica keep it): the header (game, rules,
start, result), the seats (number, player, role, fouls, whom he nominated
each day, how he left, points), the votes of each day (who voted for whom,
round by round, the candidates on top), the nights (the shot, the checks),
the best move. An unfinished game is named on the summary and nothing else
of it is shown: no role, name, vote or point before a game ends."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine.roles import Role, Team
from engine.state import RoundKind
from host_device.club.record import Departure, GameRecord, NightAction
from host_device.club.scoring import SeatPoints
from voices.words import MODE_NAMES, ROLE_GENITIVE, WINS, local_time, preset_name, role_name

PointsOf = Callable[[GameRecord], Mapping[int, SeatPoints]]


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    tints: tuple[Team | None, ...] = ()  # per row: the team it is coloured by (none: plain)
    column_tints: tuple[Team | None, ...] = ()  # per column: the same, for a column a seat

    def tint(self, row: int | None, column: int) -> Team | None:
        """A cell's team colour (row None: the header): its row's, else its column's."""
        if row is not None and row < len(self.tints) and self.tints[row] is not None:
            return self.tints[row]
        return self.column_tints[column] if column < len(self.column_tints) else None


@dataclass(frozen=True)
class Page:
    title: str
    lines: tuple[str, ...]  # the header's facts, one a line
    tables: tuple[Table, ...]
    notes: tuple[str, ...] = ()  # below the tables


@dataclass(frozen=True)
class Evening:
    day: datetime.date
    summary: Page
    games: tuple[Page, ...]  # one page a finished game, in the order they started


def parse_day(text: str) -> datetime.date:
    """``YYYY-MM-DD`` as a date (ValueError otherwise)."""
    if len(text) != 10:
        raise ValueError(text)
    return datetime.date.fromisoformat(text)


def local_day(started_at: str) -> str:
    """The local date a game started on (as the game list shows its start)."""
    return local_time(started_at)[:10]


def number(value: float) -> str:
    """Points as a club writes them: 2,5; 1; −0,5."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    text = "0" if text in ("-0", "") else text
    return text.replace(".", ",").replace("-", "−")


def departure(left: Departure | None) -> str:
    if left is None:
        return ""
    how = {"vote": "голосованием", "shot": "убит", "disqualified": "удалён"}.get(left.how, left.how)
    when = f"день {left.day}" if left.day is not None else f"ночь {left.night}"
    return f"{when}, {how}"


def _last_day(left: Departure | None) -> float:
    """The last day a seat was at the table (a night n follows day n)."""
    if left is None:
        return float("inf")
    return float(left.day if left.day is not None else (left.night or 0))


def _rounds(record: GameRecord) -> list[tuple[int, int, str]]:
    """Every (day, round, kind) that has a ballot, in order."""
    return sorted({(b.day, b.round, b.kind) for b in record.ballots})


def round_label(day: int, round_: int, kind: str) -> str:
    return f"Д{day}" if round_ == 1 else f"Д{day}·{round_}"


POINT_COLUMNS = (
    "Осн.",
    "ЛХ",
    "Доп.",
    "Штраф",
    "Итого",
)  # the form's points: result, best move, extra, penalties


def _point_cells(got: SeatPoints | None) -> tuple[str, ...]:
    """A seat's points as the form's columns; a part that is 0 is left blank, the total never."""
    if got is None:
        return ("",) * len(POINT_COLUMNS)
    parts = (got.result, got.best_move, got.extra, got.fouls + got.disqualified)
    return (*(number(p) if p else "" for p in parts), number(got.total))


def seats_table(record: GameRecord, points: Mapping[int, SeatPoints]) -> Table:
    header = ("№", "Игрок", "Роль", "Фолы", "Выставил", "Выбыл", *POINT_COLUMNS)
    rows, tints = [], []
    for seat in record.seats:
        nominated = "; ".join(f"Д{n.day}: {n.target}" for n in record.nominations if n.by == seat.seat)
        rows.append(
            (
                str(seat.seat),
                seat.name or "",
                role_name(seat.role),
                str(seat.fouls) if seat.fouls else "",
                nominated,
                departure(seat.left),
                *_point_cells(points.get(seat.seat)),
            )
        )
        tints.append(seat.team)
    return Table("Игроки", header, tuple(rows), tuple(tints))


def votes_table(record: GameRecord) -> Table | None:
    """Who voted for whom, as the paper form has it: a row a round, a column
    a seat (coloured by his team), each cell the candidate he voted for."""
    rounds = _rounds(record)
    if not rounds:
        return None
    header = ("Круг", "Выставлены", *(str(s.seat) for s in record.seats))
    cast = {(b.day, b.round, b.voter): b for b in record.ballots}
    rows = []
    candidates = ""
    for day, round_, kind in rounds:
        voted = [b.target for b in record.ballots if (b.day, b.round) == (day, round_) and b.target]
        if kind == RoundKind.ALL:  # the tied ones of the round before: do they all leave?
            candidates = f"все: {candidates}" if candidates else "все"
        elif round_ == 1:  # in the order they were nominated
            named = [n.target for n in record.nominations if n.day == day]
            candidates = ", ".join(map(str, dict.fromkeys([*named, *voted])))
        else:
            candidates = ", ".join(map(str, sorted(set(voted))))
        row = [round_label(day, round_, kind), candidates]
        for seat in record.seats:
            ballot = cast.get((day, round_, seat.seat))
            if ballot is not None:
                row.append("за" if ballot.target is None else str(ballot.target))
            else:  # at the table and not pressed: «—»; out of the game: blank
                row.append("—" if _last_day(seat.left) >= day else "")
        rows.append(tuple(row))
    columns = (None, None, *(s.team for s in record.seats))
    return Table("Голосования (за кого голосовал каждый)", header, tuple(rows), column_tints=columns)


CHECK_ANSWERS = {  # what a check's True / False means, by who checks
    Role.SHERIFF: ("чёрный", "красный"),
    Role.COMMISSAR: ("чёрный", "красный"),
    Role.DON: ("Шериф", "не Шериф"),
}


CHECKERS = (Role.DON, Role.SHERIFF, Role.COMMISSAR)  # the form's check columns, in this order


def _check(target: int, by: Role, result: bool | None) -> str:
    yes, no = CHECK_ANSWERS.get(by, ("да", "нет"))
    return f"{target} — {yes if result else no}"


def _visit(action: NightAction) -> str:
    if action.kind == "saved":
        return f"спасён {action.target}"
    by = f"{role_name(action.by)} ({action.seat})" if action.seat else role_name(action.by)
    return f"{by} → {action.target}" + (" (не засчитан)" if action.ignored else "")


def _shots(acts: list[NightAction]) -> str:
    """Each black seat's shot: «3→1, 8→1»."""
    return ", ".join(f"{a.seat}→{a.target}" if a.seat else f"→{a.target}" for a in acts if a.kind == "shot")


def nights_table(record: GameRecord) -> Table | None:
    """A row a night: who was killed, each black seat's shot, each
    checker's check, the visits (the city's doctor and lover)."""
    killed_at = {s.left.night for s in record.seats if s.left is not None and _shot(s.left)}
    nights = sorted({a.night for a in record.nights} | {n for n in killed_at if n is not None})
    if not nights:
        return None
    checkers = [r for r in CHECKERS if any(a.kind == "check" and a.by == r for a in record.nights)]
    visits = any(a.kind in ("visit", "saved") for a in record.nights)
    header = ("Ночь", "Убит", "Выстрелы", *(f"Проверка {ROLE_GENITIVE[r]}" for r in checkers))
    header += ("Визиты",) if visits else ()
    rows = []
    for night in nights:
        acts = [a for a in record.nights if a.night == night]
        killed = [str(s.seat) for s in record.seats if _shot(s.left) and s.left and s.left.night == night]
        row = [str(night), ", ".join(killed) or "промах", _shots(acts)]
        for checker in checkers:
            checks = [a for a in acts if a.kind == "check" and a.by == checker]
            row.append("; ".join(_check(a.target, a.by, a.result) for a in checks))
        if visits:
            row.append("; ".join(_visit(a) for a in acts if a.kind in ("visit", "saved")))
        rows.append(tuple(row))
    return Table("Ночи", header, tuple(rows))


def _shot(left: Departure | None) -> bool:
    return left is not None and left.how == "shot" and left.night is not None


def best_move_line(record: GameRecord) -> str:
    move = record.best_move
    if move is None:
        return "Лучший ход: —"
    named = ", ".join(map(str, move.named))
    return f"Лучший ход (игрок {move.seat}): {named} — чёрных: {move.black} из {len(move.named)}"


def game_page(record: GameRecord, points: Mapping[int, SeatPoints]) -> Page:
    """One finished game's referee form."""
    if record.winner is None:
        raise ValueError(f"game {record.id} is not finished")
    ended = local_time(record.finished_at)[11:] if record.finished_at else "—"
    lines = (
        f"Правила: {preset_name(record.preset)}; режим: {MODE_NAMES.get(record.mode, record.mode)}",
        f"Начата: {local_time(record.started_at)}; окончена: {ended}",
        f"Итог: {WINS[record.winner]}; дней: {record.days}",
        best_move_line(record),
    )
    tables = [seats_table(record, points)]
    tables += [t for t in (votes_table(record), nights_table(record)) if t is not None]
    notes = (
        "«—» в голосовании: за столом, но не нажал; пусто: уже не в игре.",
        "Ведущий: ______________________   Подпись: ____________",
    )
    return Page(f"Протокол игры № {record.id}", lines, tuple(tables), notes)


def games_table(records: list[GameRecord]) -> Table:
    """The evening's games in the order they started; an unfinished one is named and nothing else."""
    rows = []
    for r in sorted(records, key=lambda r: (r.started_at, r.id)):
        start = local_time(r.started_at)[11:]
        if r.winner is None:
            rows.append((str(r.id), start, "", "не окончена", ""))
        else:
            rows.append((str(r.id), start, preset_name(r.preset), WINS[r.winner], str(r.days)))
    return Table("Игры вечера", ("№", "Начата", "Правила", "Итог", "Дней"), tuple(rows))


@dataclass
class _Player:
    name: str
    points: dict[int, float | None]  # game -> his points there (None: not scored)
    wins: int = 0

    def total(self) -> float:
        return sum(p for p in self.points.values() if p is not None)


def players_table(finished: list[GameRecord], scored: Mapping[int, Mapping[int, SeatPoints]]) -> Table:
    """A row a player (by his roster id, else his name): games, wins, points a game, their sum."""
    players: dict[str, _Player] = {}
    for r in finished:
        for s in r.seats:
            key = s.player or s.name
            if not key:
                continue
            player = players.setdefault(key, _Player(s.name or key, {}))
            got = scored.get(r.id, {}).get(s.seat)
            player.points[r.id] = got.total if got else None
            player.wins += s.team == r.winner
    ids = [r.id for r in finished]
    ranked = sorted(players.values(), key=lambda p: (-p.total(), p.name))
    rows = []
    for p in ranked:
        cells = [_points_cell(p.points, i) for i in ids]
        scored_any = any(v is not None for v in p.points.values())
        total = number(p.total()) if scored_any else ""
        rows.append((p.name, str(len(p.points)), str(p.wins), *cells, total))
    header = ("Игрок", "Игр", "Побед", *(f"Игра {i}" for i in ids), "Σ баллов")
    return Table("Итоги игроков", header, tuple(rows))


def _points_cell(points: Mapping[int, float | None], game: int) -> str:
    value = points.get(game)
    return number(value) if value is not None else ""


def summary_page(
    day: datetime.date,
    finished: list[GameRecord],
    unfinished: list[GameRecord],
    scored: Mapping[int, Mapping[int, SeatPoints]],
) -> Page:
    unnamed = []
    for r in finished:
        empty = [str(s.seat) for s in r.seats if not (s.player or s.name)]
        if empty:
            unnamed.append(f"игра {r.id} — {'место' if len(empty) == 1 else 'места'} {', '.join(empty)}")
    tables = (games_table([*finished, *unfinished]), players_table(finished, scored))
    notes = (f"Без имени (в итоги не вошли): {'; '.join(unnamed)}.",) if unnamed else ()
    lines = (f"Игр окончено: {len(finished)}; не окончено: {len(unfinished)}",)
    return Page(f"Протокол вечера {day.isoformat()}", lines, tables, notes)


def evening(records: Iterable[GameRecord], day: datetime.date, points: PointsOf) -> Evening:
    """The evening of ``day`` (by each game's local start date); LookupError
    if no game started that day."""
    of_day = sorted(
        (r for r in records if local_day(r.started_at) == day.isoformat()), key=lambda r: (r.started_at, r.id)
    )
    if not of_day:
        raise LookupError(day.isoformat())
    finished = [r for r in of_day if r.finished]
    unfinished = [r for r in of_day if not r.finished]
    scored = {r.id: points(r) for r in finished}
    pages = tuple(game_page(r, scored[r.id]) for r in finished)
    return Evening(day, summary_page(day, finished, unfinished, scored), pages)
