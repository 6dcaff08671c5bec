"""The human host's keys (assist mode), in one table: the keyboard, the
panel's host buttons, the help screen, the console and the club's guide
(docs/guide/assist.md, checked by a test) read it."""

from __future__ import annotations

# (key name, keyboard key, what it does): the help screen, the guide and the checks read this one table
KEYS: tuple[tuple[str, str, str, str], ...] = (  # (name, key, short label, what it does)
    ("next", "n", "дальше", "следующий шаг: речь, голосование, ночь, утро"),
    ("pause", "p", "пауза", "пауза / продолжить"),
    ("undo", "u", "отмена", "отмена последнего шага (не раньше начала дня)"),
    ("foul", "f", "фол", "фол: f, затем место"),
    ("nominate", "v", "выставить", "выставить от имени говорящего: v, затем место"),
    ("withdraw", "w", "снять", "снять кандидатуру говорящего: w, затем место"),
    ("confirm", "y", "принять", "принять услышанное выставление"),
    ("reject", "x", "отклонить", "отклонить услышанное выставление"),
    ("count", "g", "голоса", "голоса по рукам: g, число, Enter"),
    ("kill", "k", "убит", "ночью: убит игрок — k, затем место (промах — просто n)"),
    ("check", "c", "проверка", "ночью: проверка — c, затем место"),
    ("heal", "d", "лечение", "город, ночью: доктор лечит — d, затем место"),
    ("visit", "l", "визит", "город, ночью: любовница навещает — l, затем место"),
    ("golden", "z", "золотая", "город: золотая минута кандидата — z, затем место"),
    ("timer", "t", "таймер", "таймер: t, затем номер (0 — остановить)"),
    ("roles", "r", "роли", "вид ведущего: показать / скрыть роли"),
    ("help", "h", "справка", "эта справка"),
    ("enter", "Enter", "ввод", "записать число голосов или группу ролей"),
    ("cancel", "Esc", "сброс", "отменить начатую команду"),
)
NAMES = tuple(key[0] for key in KEYS)
CHARS = {key[0]: key[1] for key in KEYS}  # key name -> the keyboard key
SHORT = {key[0]: key[2] for key in KEYS}  # key name -> its short label
SEAT_KEYS_HELP = "1…9, 0, -, = — места 1…12 (кнопки стола; после f, v, w, k, c — место)"
CITY_KEYS = ("heal", "visit", "golden")
WAITS_FOR_SEAT = ("foul", "nominate", "withdraw", "kill", "check", "heal", "visit", "golden")
PREFIXES = (*WAITS_FOR_SEAT, "count", "timer")
SEAT_DIGITS = {seat: str(seat % 10) for seat in range(1, 11)}  # seat keys 1..9, 0 as digits

# Host mode (the device hosts): «Дальше» and «Пауза» are its only host keys; what each of the
# keyboard's other host keys would do in assist mode, and why it does nothing here (one line each)
HOST_MODE_WHY = {
    "undo": "нет: игру ведёт устройство, отмена — в режиме помощника",
    "confirm": "нет: услышанное выставление устройство берёт само",
    "reject": "нет: услышанное выставление устройство берёт само",
    "foul": "нет: фолы даёт ведущий-человек (режим помощника)",
}
HOST_MODE_ELSE = "нет: это клавиша режима помощника (--mode assist)"
HOST_MODE_UNKNOWN = "клавиша не назначена (n — дальше, p — пауза, Tab — слова)"
