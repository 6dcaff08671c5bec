"""The host's screen in assist mode, drawn with rich.

It always shows the phase, the speaker and his seconds left in large digits,
every seat's state (in the game, fouls, silenced, nominated, voted), the
candidates and the counts, the last heard transcript, what waits for the
host (a heard nomination, a command waiting for its seat) and the keys legal
now. Roles appear only in the host view (key r), or after the game.

:func:`render` gives the screen as plain text (the tests read it);
:class:`Screen` redraws a terminal with it.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from typing import Any, TextIO

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engine import Foul, Phase
from engine.state import RoundKind
from engine.steps import NIGHT, best_move_now
from host_device.base.text import encodable
from host_device.runtime.assist import Assist
from host_device.runtime.host_keys import CHARS, KEYS, SEAT_KEYS_HELP, SHORT
from host_device.runtime.host_messages import describe
from host_device.runtime.role_entry import ROLE_NAMES
from host_device.screens.titles import clock, ended, shown_title
from voices.words import ROUND_NAMES, WINNER

DIGITS = {  # five rows each
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" ██", "  █", "  █", "  █", "  █"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", "███", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", "  █", "  █"),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    ":": ("   ", " █ ", "   ", " █ ", "   "),
    "-": ("   ", "   ", "███", "   ", "   "),
}


def big(text: str) -> str:
    """Text of digits and ':' in five-row block letters."""
    return "\n".join(" ".join(DIGITS[c][row] for c in text) for row in range(5))


def render(assist: Assist, width: int = 100, height: int | None = None, typing: str | None = None) -> str:
    """The screen as text. With a ``height`` it fits: when the full view is
    taller, the timer moves into the title line (no large digits). ``typing``:
    the speaker's words being typed (Tab), shown in place of the keys' line."""
    text = _print(view(assist, typing=typing), width)
    if height is not None and text.count("\n") > height:
        text = _print(view(assist, compact=True, typing=typing), width)
    return text


def _print(group: Group, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
    console.print(group)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def view(assist: Assist, compact: bool = False, typing: str | None = None) -> Group:
    """The host's screen. The help (h) takes the place of everything below
    the top panel, so that the step and the timer stay in sight."""
    rt = assist.runtime
    s = rt.game.state
    over = ended(rt)
    head = shown_title(rt)
    speech = rt.time_left()
    compact = compact or assist.show_help
    if compact and speech is not None:
        head += f" · {clock(speech)}"
    if rt.sched.paused:
        head += " · ПАУЗА"
    lines = []
    if rt.sched.paused:
        lines.append("ПАУЗА — всё стоит; p — продолжить")
    if s.speaker is not None:
        lines.append(f"Говорит игрок {s.speaker}")
    elif s.phase is Phase.VOTE and s.vote_round is not None:
        rnd = s.vote_round
        lines.append("Все голосуемые?" if rnd.current == 0 else f"Голосуем за игрока {rnd.current}")
        if rt.window is not None and rt.window[1] == float("inf"):
            lines[-1] += " · голоса по рукам: g, число, Enter"
        elif rt.window is not None and rt.window[0] <= rt.sched.now < rt.window[1]:
            lines[-1] += " · ОКНО ОТКРЫТО: жмите кнопки"
        else:
            lines[-1] += " · окно закрыто"
    if over and s.winner is not None:
        lines.append(WINNER[s.winner])
    top = Text("\n".join(lines))
    if speech is not None and not compact:
        top.append("\n" + big(clock(speech)))
    free = rt.free.left()
    if free is not None:
        top.append(f"\nТаймер ведущего: {clock(free)}")
    parts: list[Any] = [Panel(top, title=head, title_align="left")]
    if assist.show_help:
        return Group(*parts, help_panel(assist))
    parts.append(seats_table(assist, roles=assist.show_roles or over))
    parts.append(Text(candidates_line(assist)))
    parts.append(Text(f"Услышано: «{assist.transcript}»" if assist.transcript else "Услышано: —"))
    waiting = waiting_lines(assist)
    if waiting:
        parts.append(Text("\n".join(waiting)))
    message = assist.shown_message()
    if message:
        parts.append(Text(f"› {message}"))
    parts.append(Text(keys_line(assist) if typing is None else typing))
    return Group(*parts)


def seats_table(assist: Assist, roles: bool) -> Table:
    s = assist.runtime.game.state
    rnd = s.vote_round
    nominated_by = {target: seat for seat, target in s.nominations.items()}
    table = Table(show_edge=False, pad_edge=False, box=None)
    for column in ("место", "в игре", "фолы", "речь", "выставлен", "голос"):
        table.add_column(column)
    if roles:
        table.add_column("роль")
    for seat in range(1, s.seats + 1):
        mark = "▶" if seat == s.speaker else " "
        alive = "выбыл" if seat in s.out else "да"
        fouls = str(s.fouls.get(seat, "")) or ""
        silenced = "лишён" if s.silenced.get(seat, -1) >= s.day and seat not in s.out else ""
        nominated = f"да (от {nominated_by[seat]})" if seat in nominated_by else ""
        voted = ""
        if rnd is not None and seat in rnd.ballots:
            voted = "все" if rnd.ballots[seat] == 0 else f"за {rnd.ballots[seat]}"
        row = [f"{mark}{seat}", alive, fouls, silenced, nominated, voted]
        if roles:
            row.append(ROLE_NAMES[s.role(seat)])
        table.add_row(*row)
    return table


def candidates_line(assist: Assist) -> str:
    s = assist.runtime.game.state
    rnd = s.vote_round
    if rnd is not None:
        counts = []
        for c in (0,) if rnd.current == 0 else rnd.candidates:
            n = sum(1 for v in rnd.ballots.values() if v == c) + rnd.tallies.get(c, 0)
            counts.append(f"{'все' if c == 0 else c}: {n}")
        return f"{round_name(rnd.kind)}: " + ", ".join(counts)
    night = s.phase in NIGHT  # the day's candidates are done with: nobody is a candidate at night
    text = "Ночь: кандидатов нет" if night else "Кандидаты: " + (", ".join(map(str, s.candidates)) or "—")
    if assist.last_counts:
        text += " · последний подсчёт: " + ", ".join(
            f"{'все' if c == 0 else c}: {n}" for c, n in assist.last_counts
        )
    return text


def round_name(kind: RoundKind) -> str:
    """«Голосование», «Переголосование», «Голосование «все голосуемые покидают игру?»»."""
    name = ROUND_NAMES[kind]
    return f"Голосование «{name}»" if kind is RoundKind.ALL else name[0].upper() + name[1:]


def waiting_lines(assist: Assist) -> list[str]:
    lines = [
        f"Услышано {'замечание' if isinstance(p.input, Foul) else 'выставление'}: {describe(p.input)}"
        " — y принять, x отклонить"
        for p in assist.runtime.proposals
    ]
    pending = assist.pending
    if pending == "count":
        lines.append(f"Голосов: {assist.digits or '_'} (Enter — записать, Esc — отменить)")
    elif pending == "timer":
        menu = ", ".join(f"{i} — {label}" for i, (label, _) in enumerate(assist.timers, 1))
        lines.append(f"Таймер: {menu}, 0 — остановить")
    elif pending is not None:
        lines.append(f"{SHORT[pending]}: нажмите место")
    if assist.runtime.game.phase is Phase.ROLES and assist.roles is not None:
        lines.append(assist.roles.prompt())
    game = assist.runtime.game
    if best_move_now(game.preset, game.state):  # the first night's victim's last word
        named = game.state.best_move
        said = f" — записан: {', '.join(map(str, named))}" if named else ""
        lines.append(f"Лучший ход: Tab, три места («3 5 8»), Enter{said}")
    return lines


def keys_line(assist: Assist) -> str:
    paused = assist.runtime.sched.paused
    labels = {**SHORT, "pause": "продолжить"} if paused else SHORT
    return "Клавиши: " + " · ".join(f"{CHARS[k]} {labels[k]}" for k in assist.legal_keys())


def help_panel(assist: Assist) -> Panel:
    here = set(assist.keys_here())
    lines = [f"{char:>5}  {desc}" for name, char, _, desc in KEYS if name in here]
    lines.append(f"{'':>5}  {SEAT_KEYS_HELP}")
    lines.append(f"{'':>5}  кнопки ведущего на столе: «Дальше» = n, «Пауза» = p, «Отмена» = u")
    lines.append(f"{'Tab':>5}  слова говорящего, как услышанные: Enter — отправить, Esc — отмена")
    return Panel(Text("\n".join(lines)), title="Клавиши ведущего", title_align="left")


class Screen:
    """Redraws a terminal with :func:`render` (home, the screen, clear the rest)."""

    def __init__(
        self, assist: Assist, out: TextIO, width: int | None = None, height: int | None = None
    ) -> None:
        self.assist = assist
        self.out = out
        size = shutil.get_terminal_size((100, 40))
        self.width = width or min(120, size.columns)
        self.height = height or size.lines
        self._last = ""
        self.typing: Callable[[int], str | None] | None = None  # the keyboard's line being typed

    def draw(self) -> None:
        typing = self.typing(self.width) if self.typing is not None else None
        text = render(self.assist, self.width, self.height, typing)
        if text != self._last:
            first = not self._last
            self._last = text
            clear = "\x1b[2J" if first else ""  # the first draw clears the terminal; later ones overwrite
            try:
                screen = clear + "\x1b[H" + text.replace("\n", "\x1b[K\n") + "\x1b[J"
                self.out.write(encodable(screen, getattr(self.out, "encoding", None)))
                self.out.flush()
            except (OSError, ValueError):  # the terminal is gone: the game goes on without its screen
                self.out = io.StringIO()
