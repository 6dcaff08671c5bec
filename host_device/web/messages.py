"""The one door of the private sockets' messages (the console's and the
phones'): their JSON read strictly and each number checked before anything
else sees it. A number is finite (JSON's ``NaN``, ``Infinity`` and
``-Infinity`` and a float that overflows to them, ``1e400``, are refused), a
whole number is within ±2**53 (``1e308`` and a thousand digits are), and
each field is then within its range, of its type. What is refused is said in
one Russian line (:class:`Refused`): the console is sent it, a phone's is
logged, and the game goes on.

:mod:`host_device.web.inputs` reads each message through here; nothing in
it reaches the runtime unchecked."""

from __future__ import annotations

import json
import math
from typing import Any

from host_device.base.text import printable, shorten

LARGEST_WHOLE = 2**53  # a whole number beyond this is no count, step or seat of a game
PHONE_MS = 10**10  # a phone's clock (performance.now(), ms since its page opened) is never past this
STEP_LIMIT = 10**9  # a step's number (the view's ``window``)
POINTS_LIMIT = 1000.0  # the host's extra points (the scoring table then keeps them in its range)


class Refused(ValueError):
    """A message, or one of its fields, that is not what the socket takes: ``reason`` in Russian."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _no_constant(name: str) -> Any:
    raise Refused(f"число {name} не принимается: только конечные числа")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"число {shorten(text, 24)} вне пределов")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise Refused(f"число {shorten(text, 24)} вне пределов")
    value = int(text)
    if abs(value) > LARGEST_WHOLE:
        raise Refused(f"число {shorten(text, 24)} вне пределов")
    return value


def loads(text: str) -> Any:
    """A message's JSON, every number in it finite and every whole number within ±2**53."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_float, parse_int=_int)
    except Refused:
        raise
    except RecursionError:
        raise Refused("не понято: вложено слишком глубоко") from None
    except ValueError:
        raise Refused(f"не понято (не JSON): {shorten(printable(text), 80)}") from None


def whole(value: Any, low: int, high: int, what: str) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (never a boolean, never 3.0)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{what}: целое число от {low} до {high}, а не {quoted(value)}")
    return value


def number(value: Any, low: float, high: float, what: str) -> float:
    """``value`` as a finite number from ``low`` to ``high`` (-0 is 0)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise Refused(f"{what}: число от {low:g} до {high:g}, а не {quoted(value)}")
    return float(value) + 0.0


def words(value: Any, limit: int, what: str) -> str:
    """``value`` as printable text, 1 to ``limit`` characters once trimmed."""
    if not isinstance(value, str) or not 0 < len(printable(value).strip()) <= limit:
        raise Refused(f"{what}: текст от 1 до {limit} знаков, а не {quoted(value)}")
    return printable(value).strip()


def fields(message: Any, *names: str, optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """``message`` as an object with exactly ``names`` (and perhaps ``optional``) as its keys."""
    if not isinstance(message, dict) or not set(names) <= set(message) <= {*names, *optional}:
        keys = ", ".join(f'"{n}"' for n in (*names, *optional))
        raise Refused(f"не понято: ожидается объект с полями {keys}, а не {quoted(message)}")
    return message


def quoted(value: Any) -> str:
    """A value as a refusal quotes it: its JSON, short and printable."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        shown = type(value).__name__
    return shorten(printable(shown), 40)
