"""The evening's protocol as data: one referee's form per finished game (the
evening's summary is protocol_evening.py), in Russian, ready for a renderer
(HTML in protocol_html.py, PDF in protocol_pdf.py) — both draw exactly these
blocks, so what the paper shows is decided here once.

The form follows the sport-mafia referee's sheet («протокол игры», FIIM
practice, as mafiaratings and Polemica keep it): the header (game, rules,
start, result), the seats (number, player, role, fouls, whom he nominated
each day, how he left, points), the votes of each day (who voted for whom,
round by round, the candidates on top), the nights (the shot, the checks),
the best move, the device's fouls with what it heard, and «Протесты» (each
foul withdrawn, and lines for a protest written by hand). An unfinished
game is named on the summary and nothing else of it is shown: no role,
name, vote or point before a game ends."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from engine.presets import PRESETS
from engine.roles import Role, Team
from engine.state import RoundKind
from host_device.club.evidence import WITHDRAWN, heard_words, speech_moment
from host_device.club.record import Departure, FoulRecord, GameRecord, NightAction, VoteRound, vote_rounds
from host_device.club.scoring import SeatPoints, points
from host_device.club.scoring import Table as ScoringTable
from voices.words import MODE_NAMES, ROLE_GENITIVE, WINS, local_time, number, preset_name, role_name


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


def parse_day(text: str) -> datetime.date:
    """``YYYY-MM-DD`` as a date (ValueError otherwise)."""
    if len(text) != 10:
        raise ValueError(text)
    return datetime.date.fromisoformat(text)


def local_day(started_at: str) -> str:
    """The local date a game started on (as the game list shows its start)."""
    return local_time(started_at)[:10]


HOW_LEFT = {"vote": "голосованием", "shot": "убит", "disqualified": "удалён"}
ALONE = "один кандидат, без голосования"


def departure(left: Departure | None, alone: bool = False) -> str:
    """How and when a seat left, as the protocol and the review say it («день 4,
    голосованием», «ночь 1, убит»); ``alone``: the day's lone candidate, who
    left without a vote (:meth:`GameRecord.alone`)."""
    if left is None:
        return ""
    how = ALONE if alone else HOW_LEFT.get(left.how, left.how)
    when = f"день {left.day}" if left.day is not None else f"ночь {left.night}"
    return f"{when}, {how}"


def _last_day(left: Departure | None) -> float:
    """The last day a seat was at the table (a night n follows day n)."""
    if left is None:
        return float("inf")
    return float(left.day if left.day is not None else (left.night or 0))


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
                fouls_cell(record, seat.seat, seat.fouls),
                nominated,
                departure(seat.left, record.alone(seat)),
                *_point_cells(points.get(seat.seat)),
            )
        )
        tints.append(seat.team)
    return Table("Игроки", header, tuple(rows), tuple(tints))


def _counted(rnd: VoteRound) -> str:
    """A round's count as the form writes it: «0, 10» in the candidates' order; «за: 6»; «никого: 2»."""
    counts = [f"за: {votes}" if rnd.kind == RoundKind.ALL else str(votes) for _, votes in rnd.counts]
    return ", ".join(counts + ([f"никого: {rnd.nobody}"] if rnd.nobody is not None else []))


def fouls_cell(record: GameRecord, seat: int, count: int) -> str:
    """A seat's fouls, and the words the device heard for those it gave: «2 (устр.: честно)»."""
    heard = [f.word for f in record.fouls if f.seat == seat and f.by == "device" and not f.withdrawn]
    if not count:
        return ""
    return f"{count} (устр.: {', '.join(heard)})" if heard else str(count)


FOUL_HEADER = ("День", "Игрок", "Слово", "Услышано (уверенность)", "Момент")
BLANK_PROTESTS = 2  # empty lines of «Протесты», for a protest the referee writes by hand


def _foul_row(foul: FoulRecord) -> tuple[str, ...]:
    return (f"Д{foul.day}", str(foul.seat), f"«{foul.word}»", heard_words(foul), speech_moment(foul))


def device_fouls_table(record: GameRecord) -> Table | None:
    """The device's fouls that count, each with what it heard; None: it gave none."""
    rows = tuple(_foul_row(f) for f in record.fouls if f.by == "device" and not f.withdrawn)
    return Table("Замечания устройства", FOUL_HEADER, rows) if rows else None


def protests_table(record: GameRecord) -> Table:
    """The referee form's «протест» place: each device's foul withdrawn (what
    was heard, «снято с пульта»), then empty lines for a contested one."""
    header = (*FOUL_HEADER, "Решение")
    rows = [(*_foul_row(f), WITHDRAWN) for f in record.fouls if f.withdrawn]
    rows += [("",) * len(header)] * BLANK_PROTESTS
    return Table("Протесты", header, tuple(rows))


def votes_table(record: GameRecord) -> Table | None:
    """Who voted for whom, as the paper form has it: a row a round (one
    nobody pressed in too), a column a seat (coloured by his team), each
    cell the candidate he voted for; the candidates and their votes as counted."""
    rounds = vote_rounds(record)
    if not rounds:
        return None
    header = ("Круг", "Выставлены", "Голосов", *(str(s.seat) for s in record.seats))
    cast = {(b.day, b.round, b.voter): b for b in record.ballots}
    rows = []
    candidates = ""
    for rnd in rounds:
        day, round_, kind = rnd.day, rnd.round, rnd.kind
        if kind == RoundKind.ALL:  # the tied ones of the round before: do they all leave?
            candidates = f"все: {candidates}" if candidates else "все"
        else:  # in the order the round took them (the first: as they were nominated)
            candidates = ", ".join(map(str, rnd.candidates))
        row = [round_label(day, round_, kind), candidates, _counted(rnd)]
        for seat in record.seats:
            ballot = cast.get((day, round_, seat.seat))
            if ballot is not None:
                row.append("за" if ballot.target is None else str(ballot.target))
            else:  # at the table and not pressed: «—»; out of the game: blank
                row.append("—" if _last_day(seat.left) >= day else "")
        rows.append(tuple(row))
    columns = (None, None, None, *(s.team for s in record.seats))
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
    nights = sorted(
        {a.night for a in record.nights} | {n for n in killed_at if n is not None} | set(record.nights_played)
    )
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


def best_move_line(record: GameRecord) -> str | None:
    """The best move made; «—» where the rules have one and none was made; None where they have none."""
    move = record.best_move
    if move is None:
        preset = PRESETS.get(record.preset)
        return "Лучший ход: —" if preset is None or preset.best_move else None
    named = ", ".join(map(str, move.named))
    return f"Лучший ход (игрок {move.seat}): {named} — чёрных: {move.black} из {len(move.named)}"


def game_page(record: GameRecord, points: Mapping[int, SeatPoints]) -> Page:
    """One finished game's referee form."""
    if record.winner is None:
        raise ValueError(f"game {record.id} is not finished")
    ended = local_time(record.finished_at)[11:] if record.finished_at else "—"
    best = best_move_line(record)
    lines = (
        f"Правила: {preset_name(record.preset)}; режим: {MODE_NAMES.get(record.mode, record.mode)}",
        f"Начата: {local_time(record.started_at)}; окончена: {ended}",
        f"Итог: {WINS[record.winner]}; дней: {record.days}",
        *([best] if best else []),
    )
    tables = [seats_table(record, points)]
    tables += [t for t in (votes_table(record), nights_table(record), device_fouls_table(record)) if t]
    tables.append(protests_table(record))
    notes = (
        "«—» в голосовании: за столом, но не нажал; пусто: уже не в игре. "
        "Голосов: как подсчитано, с голосами не нажавших, где правила их отдают.",
        "Ведущий: ______________________   Подпись: ____________",
    )
    return Page(f"Протокол игры № {record.id}", lines, tuple(tables), notes)


def points_lines(record: GameRecord, table: ScoringTable, names: Mapping[str, str]) -> list[str]:
    """The seats' points as the protocol counts them (issue 47: set anywhere, shown here too);
    an unfinished game's points are its result's secret: only the host's extra points are told."""
    if record.winner is None:
        given_now = ", ".join(f"место {seat}: {number(p)}" for seat, p in sorted(record.extras.items()))
        return [f"Доп. баллы ведущего: {given_now}"] if given_now else []
    lines = ["Баллы (таблица очков клуба):"]
    for seat, got in sorted(points(record, table).items()):
        who = f" — {names[str(seat)]}" if str(seat) in names else ""
        parts = [f"результат {number(got.result)}"]
        parts += [f"лучший ход {number(got.best_move)}"] if got.best_move else []
        parts += [f"доп. {number(got.extra)}"] if got.extra else []
        penalty = round(got.fouls + got.disqualified, 6)
        parts += [f"штраф {number(penalty)}"] if penalty else []
        lines.append(f"  {seat}{who}: {number(got.total)} ({'; '.join(parts)})")
    return lines
