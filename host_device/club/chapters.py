"""A finished game's chapter marks, as a video's description takes them:
«00:00 Раздача ролей», «01:35 День 1 — речь игрока 1», «10:41 День 1 —
голосование: 3 покидает игру», «11:56 Ночь 1: убит игрок 1».

The times are the game's own: each chapter begins at the store's time of the
input that began its step (store inputs are ``(seq, t, input)``; ``t`` is
the game's clock, seconds from its start), replayed through the rules.
``start_s`` is where the game's 0 lies in the video (``games chapters GAME
--from HH:MM:SS``). YouTube's rules for chapters are kept (docs/chapters.md):
the first at 00:00, each at least 10 s after the one before (a shorter one is
joined to it, titles and all), at least three. Chapters name results (who
left, who was killed, who won): made for finished games only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import Game, Input, Phase, Preset
from engine.outputs import GameEnded, PhaseStarted, PlayerLeft
from engine.steps import NIGHT
from voices.words import WINNER

MIN_GAP_S = 10  # YouTube: each chapter at least ten seconds long
MIN_COUNT = 3  # YouTube: at least three chapters, or none is shown
BEFORE = "Перед игрой"  # the video before the game (a --from past 10 s)
DEAL = "Раздача ролей"  # the game's 0: the deal and the introduction night
INTRO_NIGHT = "Ночь знакомства"  # after the city's introduction speeches
END = "Итог: "  # the game's end (said after the last step began)
VOTE = "__vote__"  # a day's vote, named by its result once the day is over
NIGHT_MARK = "__night__"  # a night, named by its result once it is over

# a day's steps that begin a chapter, by what they are called (a seat: «… игрока N»)
STEPS = {
    Phase.INTRO_SPEECH: "знакомство",
    Phase.SPEECH: "речь",
    Phase.LAST_WORD: "последнее слово",
    Phase.DISCUSSION: "общее обсуждение",
    Phase.NOMINATION: "выдвижение кандидатов",
    Phase.JUSTIFICATION: "оправдание",
    Phase.GOLDEN_MINUTE: "золотая минута",
}


class NotFinished(ValueError):
    """Chapters asked of a game that has not ended (they would tell its results)."""


@dataclass(frozen=True)
class Chapter:
    at: float  # the game's seconds (from its start)
    title: str


def game_chapters(preset: Preset, inputs: Iterable[tuple[float, Input]]) -> list[Chapter]:
    """The game's chapters on its own clock, one a step worth a chapter,
    from its inputs with their times. A time that goes back (a game resumed
    on a new clock) carries on from the one before: the break is not known."""
    game = Game(preset)
    chapters: list[Chapter] = []
    left_by_day: dict[int, list[int]] = {}
    killed: dict[int, list[int]] = {}
    ended = ""
    last = shift = 0.0
    for t, inp in inputs:
        if t + shift < last:
            shift = last - t
        at = last = t + shift
        for o in game.handle(inp):
            match o:
                case PhaseStarted(phase=phase, day=day, seat=seat):
                    if not chapters and phase != Phase.INTRO_SPEECH:  # the city opens with its speeches
                        chapters.append(Chapter(0.0, DEAL))
                    chapters += _step(chapters, Phase(phase), day, seat, at)
                case PlayerLeft(seat=seat, how="vote", day=int() as day):
                    left_by_day.setdefault(day, []).append(seat)
                case PlayerLeft(seat=seat, how="shot", night=int() as night):
                    killed.setdefault(night, []).append(seat)
                case GameEnded(winner=winner):
                    ended = WINNER[winner]
                case _:
                    pass
    if not ended:
        raise NotFinished("игра не окончена: главы назвали бы её итоги до конца")
    if chapters[-1].at < last:  # the end said after the last step began: a chapter of its own
        chapters.append(Chapter(last, f"{END}{ended.lower()}"))
    else:
        chapters[-1] = Chapter(chapters[-1].at, f"{chapters[-1].title}; {ended.lower()}")
    return [_named(c, left_by_day, killed) for c in chapters]


def _step(chapters: list[Chapter], phase: Phase, day: int, seat: int | None, at: float) -> list[Chapter]:
    """The chapter a step begins, if any (a vote or a night: once, at its first step)."""
    last = chapters[-1].title if chapters else ""
    if phase in NIGHT:
        title = f"{NIGHT_MARK}{day}" if day >= 1 else INTRO_NIGHT
        if last in (title, DEAL):
            return []  # the deal's introduction night is the deal's; a night's later steps are its own
        return [Chapter(at, title)]
    if phase in (Phase.VOTE_ANNOUNCE, Phase.VOTE, Phase.TIE_SPEECH, Phase.GOLDEN_ASK):
        if phase is not Phase.VOTE_ANNOUNCE or last == f"{VOTE}{day}":
            return []  # the vote's chapter goes on through its tie speeches and revotes
        return [Chapter(at, f"{VOTE}{day}")]
    if phase not in STEPS:
        return []
    whole = phase in (Phase.DISCUSSION, Phase.NOMINATION)  # the day's, not a seat's: one chapter
    who = f" игрока {seat}" if seat is not None and not whole else ""
    when = "День спокойствия" if phase is Phase.INTRO_SPEECH else f"День {day}"
    title = f"{when} — {STEPS[phase]}{who}"
    return [] if last == title else [Chapter(at, title)]


def _named(c: Chapter, left_by_day: dict[int, list[int]], killed: dict[int, list[int]]) -> Chapter:
    """A vote's or a night's chapter named by its result."""
    title, _, rest = c.title.partition(";")
    if title.startswith(VOTE):
        day = int(title.removeprefix(VOTE))
        title = f"День {day} — голосование: {_left(left_by_day.get(day, []))}"
    elif title.startswith(NIGHT_MARK):
        night = int(title.removeprefix(NIGHT_MARK))
        seats = killed.get(night, [])
        whom = "никто не убит" if not seats else f"убит игрок {seats[0]}"
        if len(seats) > 1:
            whom = f"убиты игроки {_listed(seats)}"
        title = f"Ночь {night}: {whom}"
    return Chapter(c.at, title + (f";{rest}" if rest else ""))


def _left(seats: list[int]) -> str:
    if not seats:
        return "никто не покидает игру"
    return f"{seats[0]} покидает игру" if len(seats) == 1 else f"{_listed(seats)} покидают игру"


def _listed(seats: list[int]) -> str:
    words = [str(s) for s in seats]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} и {words[-1]}"


def marks(chapters: list[Chapter], start_s: int = 0) -> list[tuple[int, str]]:
    """The chapters at whole seconds of the video whose game began at
    ``start_s``, by YouTube's rules: the first at 0 («Перед игрой» when the
    game begins 10 s or more into the video; else the game's first chapter
    moves to 0), each at least :data:`MIN_GAP_S` after the one kept before
    it (a closer one is joined to it: «…; речь игрока 4»)."""
    timed = [(start_s + int(c.at + 1e-6), c.title) for c in chapters]  # whole seconds, floored
    if start_s >= MIN_GAP_S:
        timed.insert(0, (0, BEFORE))
    kept: list[tuple[int, str]] = []
    for at, title in timed:
        if not kept:
            kept.append((0, title))
        elif at - kept[-1][0] < MIN_GAP_S:
            kept[-1] = (kept[-1][0], _joined(kept[-1][1], title))
        else:
            kept.append((at, title))
    return kept


def _joined(first: str, second: str) -> str:
    """«День 1 — речь игрока 3» and «День 1 — речь игрока 4» as «День 1 — речь игрока 3; речь игрока 4»;
    the end as «…; победа мирных жителей»."""
    day = first.partition(" — ")[0]
    if " — " in first and second.startswith(f"{day} — "):
        second = second.removeprefix(f"{day} — ")
    second = second.removeprefix(END)
    return f"{first}; {second}"


def clock(seconds: int, hours: bool) -> str:
    """«01:35», or with ``hours`` «1:01:35» (every line of a video an hour long or more)."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if hours else f"{m:02d}:{s:02d}"


def lines(chapters: list[Chapter], start_s: int = 0) -> list[str]:
    """The description's lines: «00:00 Раздача ролей», one a chapter."""
    kept = marks(chapters, start_s)
    hours = kept[-1][0] >= 3600
    return [f"{clock(at, hours)} {title}" for at, title in kept]


def parse_from(text: str) -> int:
    """``--from``: the video's time where the game begins, «ЧЧ:ММ:СС» or
    «ММ:СС» (seconds and, with hours, minutes below 60), in seconds."""
    parts = text.strip().split(":")
    digits = [p.isascii() and p.isdigit() for p in parts]  # 0-9 only (not ٣ or ３)
    if (
        len(parts) not in (2, 3)
        or not all(digits)
        or len(parts[0]) > 3
        or any(len(p) != 2 for p in parts[1:])
    ):
        raise ValueError(text)
    numbers = [int(p) for p in parts]
    if numbers[-1] >= 60 or (len(numbers) == 3 and numbers[1] >= 60):
        raise ValueError(text)
    seconds = 0
    for n in numbers:
        seconds = seconds * 60 + n
    return seconds
