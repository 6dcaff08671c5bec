"""``host-device card [--preset P] --to FILE.html|FILE.pdf``: a one-page
Russian card for the players (A4), printed from the same tables the device
uses: its phrases, the deal's LED signals, the check's answers."""

from __future__ import annotations

from html import escape

from engine import Role, get_preset
from engine.presets import DayFormat, NonVoters
from engine.roles import BLACK_ROLES
from hardware.panel import PATTERN_WORDS
from host_device.runtime.signals import ROLE_SIGNALS
from voices.catalogue import russian
from voices.forms import ROLE_WORDS
from voices.words import preset_name

STYLE = """
@page { size: A4; margin: 14mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 10.5pt; line-height: 1.35; margin: 0; }
h1 { font-size: 17pt; margin: 0 0 4mm; }
h2 { font-size: 12pt; margin: 4mm 0 1.5mm; border-bottom: 1px solid #999; }
table { border-collapse: collapse; } td { padding: 0.6mm 3mm 0.6mm 0; vertical-align: top; }
.say { font-style: italic; } ul { margin: 0; padding-left: 5mm; }
"""


def card_html(preset_key: str) -> str:
    preset = get_preset(preset_key)
    text = russian().text
    round_ = preset.day_format is DayFormat.DISCUSSION  # nominations in a round, not in speeches
    roles = [Role.CIVILIAN, *(r for r, _ in preset.roles)]
    deal = "".join(
        f"<tr><td>{escape(ROLE_WORDS[r].capitalize())}</td><td>{PATTERN_WORDS[ROLE_SIGNALS[r]]}</td></tr>"
        for r in roles
    )
    checks = []
    for rule in preset.checks:
        what = "чёрный (мафия)" if rule.finds == BLACK_ROLES else ", ".join(ROLE_WORDS[r] for r in rule.finds)
        checks.append(
            f"<li>{escape(ROLE_WORDS[rule.checker].capitalize())} проверяет: ответ — на его собственном "
            f"огоньке: <b>горит ровно</b> — {escape(what)}; <b>мигает</b> — нет.</li>"
        )
    speech = (
        f"«{text('speech', {'seat': 5, 'seconds': preset.speech_seconds})}»"
        if not round_
        else (f"«{text('nomination', {'seat': 5})}» — каждый по кругу называет кандидата или говорит «пас».")
    )
    nominate = (
        "<p>Выставить: скажите во время своей речи <span class=say>«Я выставляю игрока номер семь»</span> — "
        "ведущий ответит <span class=say>«Принято»</span>. Снять: <span class=say>«Я снимаю игрока номер "
        "семь»</span>. Закончить речь раньше: последнее слово <span class=say>«Спасибо»</span> или "
        "<span class=say>«Пас»</span>.</p>"
        if not round_
        else "<p>Кандидата называют в свой черёд круга выдвижения: <span class=say>«Игрок номер семь»</span> "
        "(или <span class=say>«Номер семь»</span>, <span class=say>«Я выставляю игрока номер семь»</span>), "
        "или <span class=say>«Пас»</span> / <span class=say>«Никого»</span>. Кандидат может сказать "
        "<span class=say>«Беру золотую минуту»</span> (одна за игру).</p>"
    )
    look = escape(text("look_at_your_light", {"seat": 3}))
    close = escape(text("close_your_eyes"))
    nobody = (
        " Кто не проголосовал ни за кого, голосует за то, чтобы никого не убивать."
        if preset.non_voters is NonVoters.NOBODY
        else ""
    )
    return f"""<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Памятка игрока: {escape(preset_name(preset_key))}</title>
<style>{STYLE}</style></head><body>
<h1>Мафия с автоведущим — памятка игрока ({escape(preset_name(preset_key))}, {preset.seats} мест)</h1>
<h2>Что говорит ведущий</h2>
<ul>
<li>Начало: <span class=say>«{escape(text("game_starts"))}»</span>, затем
<span class=say>«{escape(text(preset.deal_phrase()))}»</span></li>
<li>Речь: <span class=say>{escape(speech)}</span> За 10 секунд до конца — короткий сигнал;
в конце — <span class=say>«{escape(text("time_up"))}»</span></li>
<li>Конец игры: победитель и роли всех игроков вслух.</li>
</ul>
<h2>Как выставлять</h2>
{nominate}
<h2>Кнопки</h2>
<ul>
<li>Своя кнопка у каждого места: голос, ход ночью, досрочный конец своей речи.</li>
<li>«Дальше» — начать игру (у готового ведущего) и следующий шаг; держать 3 с — меню (правила, раздача;
«Дальше» — следующий вариант, «Отмена» — выбрать).</li>
<li>«Пауза» — пауза и продолжение; держать 5 с — выключение (игра сохранится и будет предложена снова).</li>
<li>«Отмена» — отменить последний шаг; на вопрос «Продолжить прерванную игру?» — начать заново.</li>
</ul>
<h2>Раздача ролей огоньками</h2>
<p>Ночью ведущий по очереди называет места: <span class=say>«{look}»</span>
Огонёк 4 секунды показывает роль, одинаково долго для всех, затем <span class=say>«{close}»</span></p>
<table>{deal}</table>
<h2>Ночь: перебор мест</h2>
<p>Ночью ведущий называет номера всех живых мест по очереди — одинаково, кто бы ни проснулся.
Проснувшийся нажимает свою кнопку, когда звучит номер его цели; остальные сидят с закрытыми глазами.
Под ночью играет тихий шум, чтобы щелчки кнопок не были слышны.</p>
<ul>{"".join(checks)}</ul>
<h2>Голосование</h2>
<p>Ведущий называет кандидата: <span class=say>«{escape(text("vote_question", {"seat": 7}))}»</span>
Голосуют нажатием своей кнопки, пока открыто окно (огоньки подсказывают); нажатие вне окна не считается.
Один голос на круг.{nobody}</p>
</body></html>
"""
