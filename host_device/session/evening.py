"""The evening around the games: after a game's end its pages stay up until
the host says what comes next, and every way of stopping is quiet.

After the end (:class:`AfterGame`), a game with pages (``--web``) is not
over for the session: the table page shows the result and its link to the
review, the console its seat grid (names and extra points) under the
question «Игра окончена», until the host answers «Следующая игра» (the
console's first button, «Дальше» on the panel, ``n``) or «Закончить вечер»
(its second, «Отмена», ``u``; Ctrl-C at the terminal). ``run`` then hosts
the next game in the same process, with the same console address
(``host_device/cli/run.py``); the box starts the next game, or goes back to
«готов». The end is final: «Отмена» after it undoes nothing.

SIGTERM (``systemctl stop``, ``kill``) raises
:class:`host_device.base.stopping.Stopped` in the main thread: the game's
devices, pages and club worker are closed as after Ctrl-C, and the command
ends with exit 0."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine import Phase, Team
from hardware.events import Held, HostKey, Press, TypedLine
from host_device.runtime.loop import Runtime
from host_device.screens.views import Console
from host_device.session.options import GameOptions
from host_device.session.question import NO, YES
from host_device.web.inputs import ExtraPoints, SeatName, WebNotice
from voices.words import WINS

NEXT, END = "next", "end"  # the host's answer after the end: the next game, the evening's end
KEPT = (
    ExtraPoints,
    SeatName,
    WebNotice,
    Held,
)  # still taken after the end: the seat grid, notices, power-off


class AfterGame:
    """The session after its game's end, with pages: the host's answer
    (:attr:`choice`, None while he has not given it) and what is still taken
    meanwhile (``keep``: the seat grid's names and extra points, the phones'
    notices, the box's power-off hold)."""

    def __init__(
        self, console: Console, keep: Callable[[Any], None], notice: Callable[[str, str], None]
    ) -> None:
        self.console, self.keep, self.notice = console, keep, notice
        self.choice: str | None = None
        self.waiting = False  # asked: the host's answer is awaited
        self.due = False  # the game has ended: the question comes once its end is said

    def ask(self, runtime: Runtime, game_id: int | None) -> None:
        """The end said: the console asks «Следующая игра / Закончить вечер» (unless undone meanwhile)."""
        if runtime.game.phase is Phase.GAME_OVER:
            self.begin(runtime.game.state.winner, game_id)

    def begin(self, winner: Team | None, game_id: int | None) -> None:
        """The game has ended: the console asks, the terminal says how to answer."""
        self.waiting, self.due = True, False
        result = WINS[winner] if winner is not None else "игра окончена"
        self.console.question = {
            "text": f"Игра {game_id} окончена: {result}. Доп. баллы и имена — ниже",
            "yes": "Следующая игра",
            "no": "Закончить вечер",
        }
        self.notice(
            "the game is over: its pages stay up until the host says next game or end of the evening",
            f"игра окончена: {result}; страницы открыты (разбор, доп. баллы на пульте). "
            "«Следующая игра» (n, «Дальше») или «Закончить вечер» (u, «Отмена», Ctrl-C)",
        )

    def take(self, item: Any) -> None:
        """An input after the end: an answer, else what is still kept, else nothing."""
        key = item.press.key if isinstance(item, HostKey) else item.key if isinstance(item, Press) else None
        typed = item.text.strip().lower() if isinstance(item, TypedLine) else None
        if key == "next" or typed in YES:
            self._answer(NEXT)
        elif key == "undo" or typed in NO:
            self._answer(END)
        elif isinstance(item, KEPT):
            self.keep(item)
        elif typed is not None:
            self.notice(
                f"after the end, typed: {item.text!r}",
                f"«{item.text}»: n — следующая игра, u — закончить вечер",
            )

    def _answer(self, choice: str) -> None:
        self.choice = choice
        self.console.question = None


def next_game(options: GameOptions) -> GameOptions:
    """The evening's next game: a new one (a seed given moves on, or every deal would be the same);
    a tournament's table plays its next round (from the store, the club's database or the seating
    file: a round the tournament lacks is one line, and the evening ends)."""
    from host_device.tournament.seating_file import read_table

    seed = None if options.seed is None else options.seed + 1
    tournament, chosen = options.tournament, options.tournament_table
    if tournament is not None:
        name, table, round_no = tournament
        tournament = (name, table, round_no + 1)
    if chosen is not None and chosen.path is not None:
        chosen = read_table(chosen.path, chosen.table, chosen.round + 1)
    return dataclasses.replace(
        options, new=True, resume=None, seed=seed, tournament=tournament, tournament_table=chosen
    )
