"""Waiting for the phones: before the deal, and before a resumed game goes on.

A game with phones for seats cannot go on without them: before the deal
(host mode) it waits for the phones and the players' names; a game resumed
after a stop (``run --resume``: a power cut, a kill) waits for the phones of
the living seats — the new process made new tokens, and the phones come back
with them — until every one is back or the host says go («Продолжить» on the
console, «Дальше» from a panel, «n» typed). Meanwhile nothing of the game is
taken (a press, typed words: the step has not begun again), and the line is
shown on the console (its question), the table page and the terminal; then
the step the game was in begins again as it begins (the runtime's
``resume``: a vote window from its question, a night step from its call),
so nobody is counted by default because his phone was not back."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hardware.events import HostKey, Press, TypedLine
from host_device.listening.hearing import Heard
from host_device.web.inputs import BestMoveEntry, PhonePress

# what a resumed game does not take while it waits: the table's moves in a step not yet begun again
GAME_INPUTS = (Press, HostKey, PhonePress, TypedLine, Heard, BestMoveEntry)


class PhoneWait:
    """Waits until the seats are here (and named). ``online``: the seats with
    a phone now; ``named``: the seats with a player's name (None: no names
    are asked, the phones are enough); ``console``: whether the host's
    console is connected; ``show``: the line (None: gone), on the console,
    the table page and the terminal; ``resumed``: the title of the step a
    resumed game will begin again (None: the deal).

    The host says «Начать» (the console's button; «Дальше» from a panel, the
    keyboard or the console is the same) whenever he likes. With no console
    connected the deal starts by itself once every phone seat has its phone
    and its player has picked his name; with one, the host starts it (he may
    be naming the seats there). A resumed game goes on by itself once every
    phone is back, console or not."""

    def __init__(
        self,
        seats: Iterable[int],
        online: Callable[[], frozenset[int]],
        show: Callable[[str | None], None],
        then: Callable[[], Any],
        named: Callable[[], Iterable[int]] | None = None,
        console: Callable[[], bool] = lambda: False,
        resumed: str | None = None,
    ) -> None:
        self.seats = frozenset(seats)
        self.online, self.show, self.then = online, show, then
        self.named, self.console, self.resumed = named, console, resumed
        self.shown: str | None = None
        self.waiting = True

    @classmethod
    def on_pages(
        cls, seats: Iterable[int], then: Callable[[], Any], console: Any, publisher: Any,
        write: Callable[[str], None], resumed: str | None = None,
    ) -> PhoneWait:  # fmt: skip
        """The wait of a game with pages: its phones seen by ``publisher``, its line on the console,
        the table page and the terminal (``write``); the deal also waits for names picked."""
        seating = console.seating
        return cls(
            seats,
            lambda: publisher.online,
            shown_by(console, publisher, write, "Начать" if resumed is None else "Продолжить"),
            then,
            named=(lambda: seating.players) if seating.enabled and resumed is None else None,
            console=publisher.console_here if resumed is None else lambda: False,
            resumed=resumed,
        )

    def check(self) -> None:
        """Looked at on every input and every turn of the screen: the line, or the deal when all are ready."""
        if not self.waiting:
            return
        here = self.seats & self.online()
        named = self.seats if self.named is None else self.seats & frozenset(self.named())
        console = self.console()
        if here == self.seats and named == self.seats and not console:
            self.start()
            return
        line = self.line(len(here), len(named), console)
        if line != self.shown:
            self.shown = line
            self.show(line)

    def line(self, here: int, named: int, console: bool) -> str:
        """«Ждём телефоны: подключены 6 из 10 · имена: 4 из 10», or what else the deal waits for."""
        n = len(self.seats)
        if self.resumed is not None:
            step = f"«{self.resumed}» начнётся заново"
            return f"Игра продолжится, когда вернутся телефоны: подключены {here} из {n} — {step}"
        names = None if self.named is None else f"имена: {named} из {n}"
        if here < n:
            return " · ".join(filter(None, (f"Ждём телефоны: подключены {here} из {n}", names)))
        if console:
            return f"Телефоны здесь{'' if names is None else f', {names}'} — раздача по «Начать» на пульте"
        return f"Ждём имена: выбраны {named} из {n}"

    @staticmethod
    def starts(item: Any) -> bool:
        """Whether an input is the host's «Начать» («Дальше», or «n» typed)."""
        from host_device.session.question import YES

        if isinstance(item, HostKey):
            item = item.press
        if isinstance(item, TypedLine):
            return item.text.lower() in YES
        return isinstance(item, Press) and item.key == "next"

    def holds(self, item: Any) -> bool:
        """Whether ``item`` waits unused: a move of the table while a resumed game waits."""
        return self.waiting and self.resumed is not None and isinstance(item, GAME_INPUTS)

    def start(self) -> None:
        if self.waiting:
            self.waiting = False
            self.show(None)
            self.then()


def shown_by(console: Any, publisher: Any, write: Callable[[str], None], button: str) -> Any:
    """The wait's line on the console (its question, with the wait's
    ``button``), the table page and the terminal (``write``), with what the
    host may do."""

    def show(line: str | None) -> None:
        console.question = None if line is None else {"text": line, "yes": button}
        publisher.wait_line(line)
        if line is not None:
            without = "начать без остальных" if button == "Начать" else "продолжить без остальных"
            write(f"{line} («{button}» на пульте или «Дальше» — {without})")
        publisher.refresh()

    return show
