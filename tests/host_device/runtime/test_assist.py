"""Assist mode: whole games led by a human host's keys, on the virtual clock.

The host's keys are typed through the keyboard double itself (a
KeyboardPanel reading a pipe; its events are handed on one by one, so the
virtual clock stays exact); the table's buttons press inside the vote
windows; heard nominations come as the listener's intents.
"""

import os
import queue

import pytest

from engine import Advance, Check, DealRoles, Foul, Game, Nominate, Phase, Role, Shot, Tally, Vote
from engine.serial import to_dict
from hardware.events import Press
from hardware.keyboard_panel import KeyboardPanel
from host_device.config import AssistSettings
from host_device.listening.intents import Intent
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.clock import Scheduler
from host_device.runtime.host_keys import KEYS
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.terminal import big, render
from host_device.screens.views import Console, console_view
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store, record_runtime
from tests.helpers.assist import PHRASE_S, typed, wait
from tests.helpers.paths import ROOT, SCRIPTS

ROLE_KEYS = (
    "358\n3\n6\n"  # black seats 3 5 8, the Don 3, the Sheriff 6 (tests/helpers/table.py's CLASSIC_ROLES)
)


def make(settings=None, store=None):
    settings = settings or AssistSettings()
    rt = Runtime(
        Game("classic"), Scheduler(), lambda key, slots: PHRASE_S, Settings(**runtime_settings(settings))
    )
    if store is not None:
        record_runtime(store.games, rt, "assist")
    return rt, Assist(rt, settings)


def shows(text, clock_text):
    """The screen shows these large digits (inside the top panel's border)."""
    rows = [line.removeprefix("│ ").rstrip(" │") for line in text.splitlines()]
    digits = [row.rstrip() for row in big(clock_text).splitlines()]
    return any(rows[i : i + 5] == digits for i in range(len(rows)))


def said(rt, since=0):
    return [e["key"] for e in rt.timeline.dicts()[since:] if e["type"] == "say" and not e.get("dropped")]


def heard(rt, seat, intent="nominate"):
    return rt.heard(Intent(intent, seat=seat), text=f"выставляю игрока номер {seat}")


def press_in_window(rt, *seats):
    """The table presses half a second into the open vote window, which then closes by itself."""
    wait(rt, rt.window[0] - rt.sched.now + 0.5)
    for seat in seats:
        assert rt.press(seat)
    wait(rt, rt.window[1] - rt.sched.now + 0.01)


def to_day_one(keys=ROLE_KEYS, settings=None, store=None):
    rt, assist = make(settings, store)
    assert all(typed(assist, keys))
    assert rt.game.record[0] == DealRoles(
        roles=((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF), (8, Role.MAFIA))
    )
    wait(rt, 70)  # the agreement minute runs out: «Время!», and the night waits for the host
    assert said(rt)[-1] == "time_up" and rt.game.phase is Phase.INTRO_MAFIA
    typed(assist, "nnnn")  # the Don, the Sheriff, the morning, the first speech
    assert rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1
    wait(rt, rt.speaking_until - rt.sched.now)  # the phrases said: the first speech's time starts
    assert rt.timer[0] == rt.sched.now
    return rt, assist


# ---------------------------------------------------------------- whole games


def test_a_day_and_a_night_led_by_the_host(tmp_path, capsys):
    store = Store(tmp_path / "games.sqlite3")
    rt, assist = to_day_one(store=store)

    # seat 1: a heard nomination, confirmed
    assert (
        heard(rt, 5)
        and rt.proposals
        and rt.timeline.dicts()[-1] == {"t": rt.sched.now, "type": "tone", "why": "proposal"}
    )
    assert "Услышано выставление: игрок 1 выставляет игрока 5" in render(assist)
    assert Nominate(seat=1, target=5) not in rt.game.record  # not before the host says so
    typed(assist, "y")
    assert rt.game.record[-1] == Nominate(seat=1, target=5) and said(rt)[-1] == "accepted"

    # a heard nomination waiting for the host keeps the floor where it is
    heard(rt, 9)
    assert typed(assist, "n") == [False] and rt.game.state.speaker == 1
    assert assist.message == "[n]: сначала решите об услышанном выставлении (y — принять, x — отклонить)"
    typed(assist, "x")

    # the speech's time runs out: «Время!», and the floor waits for the host
    wait(rt, 70)
    assert said(rt)[-1] == "time_up" and rt.game.state.speaker == 1
    typed(assist, "n")
    assert rt.game.state.speaker == 2

    # seat 2: a heard nomination, rejected; a foul for seat 4
    heard(rt, 8)
    typed(assist, "x")
    assert Nominate(seat=2, target=8) not in rt.game.record and not rt.proposals
    typed(assist, "f4n")

    # seat 3: the host adds the speaker's nomination; seat 4's third foul takes today's speech
    typed(assist, "v9f4f4")
    assert rt.game.state.candidates == [5, 9] and rt.game.state.silenced == {4: 1}
    assert "silenced" in said(rt)
    typed(assist, "n")
    assert rt.game.state.speaker == 5 and "speech_skipped" in said(rt)

    # seat 5: a foul undone while he speaks: his time goes on, untouched
    timer = rt.timer
    typed(assist, "f7")
    assert rt.game.state.fouls.get(7) == 1
    typed(assist, "u")
    assert rt.game.state.fouls.get(7) is None and rt.timer == timer and said(rt)[-1] == "undo"
    assert assist.message == "отменено: фол игроку 7"
    assert Foul(seat=7) not in rt.game.record

    # a "next" pressed 20 s into his speech, undone: he speaks on with the 40 s he had left
    wait(rt, rt.timer[0] - rt.sched.now + 20)
    typed(assist, "n")
    assert rt.game.state.speaker == 6
    typed(assist, "u")
    assert rt.game.state.speaker == 5
    again = [e for e in rt.timeline.dicts() if e["type"] == "say" and e["key"] == "speech"][-1]
    assert again["seat"] == 5 and again["seconds"] == 40

    for _ in range(6):  # seats 5 .. 10 done
        assert typed(assist, "n") == [True], assist.message
    assert rt.game.phase is Phase.VOTE_ANNOUNCE

    # the vote on the buttons: 9 leaves, then the host undoes the vote and it is run again
    typed(assist, "n")
    press_in_window(rt, 1, 2, 3)
    press_in_window(rt, 4, 6, 7)
    assert rt.game.phase is Phase.LAST_WORD and rt.game.state.speaker == 9
    first_vote = [i for i in rt.game.record if isinstance(i, Vote)]
    typed(assist, "u")
    assert rt.game.phase is Phase.VOTE_ANNOUNCE and 9 not in rt.game.state.out
    assert assist.message == f"отменено: переход к следующему шагу (и ещё записей: {len(first_vote) + 2})"
    assert not any(isinstance(i, Vote) for i in rt.game.record)
    typed(assist, "n")
    press_in_window(rt, 1, 2, 3, 4, 6, 7)
    press_in_window(rt)
    assert rt.game.phase is Phase.LAST_WORD and rt.game.state.speaker == 5 and rt.game.state.out == [5]
    typed(assist, "n")
    assert rt.game.phase is Phase.NIGHT_HUNT

    # at night: seat 4's fourth foul disqualifies him; the host enters the kill and the Sheriff's check
    typed(assist, "f4")
    assert rt.game.state.out == [5, 4] and "disqualified" in said(rt)
    typed(assist, "k7")
    assert assist.message == "ночь: убит игрок 7 (объявится утром)"
    typed(assist, "n")
    assert rt.game.state.step_role is Role.DON
    typed(assist, "nc8")
    assert rt.leds.get(6) == "on"  # the answer on the Sheriff's own LED: seat 8 is black
    typed(assist, "n")
    assert rt.game.phase is Phase.MORNING and rt.game.state.day == 2
    morning = [e for e in rt.timeline.dicts() if e["type"] == "say"][-1]
    assert (morning["key"], morning["seat"]) == ("killed", 7)

    record = rt.game.record
    assert record.count(Shot(seat=3, target=7)) == 1 and Shot(seat=8, target=7) in record
    assert Check(seat=6, target=8) in record
    # the store holds the same record; the undone inputs are kept there, marked
    assert [inp for _, _, inp in store.games.inputs(1)] == list(record)
    undone = store.db.execute("SELECT input FROM inputs WHERE undone = 1").fetchall()
    assert len(undone) == len(first_vote) + 2 + 3  # the first vote's presses and windows, the foul, the next
    assert Game.replay("classic", record).state == rt.game.state
    # nothing to undo in the new day yet
    before = rt.game.record
    assert typed(assist, "u") == [False] and rt.game.record == before
    assert assist.message == "[u]: нечего отменять в этот день"

    # day 2 to the end: seat 7's last word, the speeches, the Don voted out on the buttons
    typed(assist, "nn")
    assert rt.game.state.speaker == 2
    typed(assist, "v3nv8" + "n" * 6)
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    typed(assist, "n")
    press_in_window(rt, 1, 2, 6, 9, 10)
    press_in_window(rt)
    assert rt.game.state.out == [5, 4, 7, 3]
    typed(assist, "nk1nnn")  # night 2: seat 1 killed
    typed(assist, "nn")  # his last word; day 3 opens after day 2's opener
    assert rt.game.state.speaker == 6
    typed(assist, "v8" + "n" * 5 + "n")  # a lone candidate on a later day leaves without a vote
    assert rt.game.phase is Phase.GAME_OVER and rt.game.state.winner.value == "red"
    assert [inp for _, _, inp in store.games.inputs(1)] == list(rt.game.record)
    assert store.games.game(1).winner == "red"
    # the club's protocol and the export show what the host undid
    import json

    from host_device.cli.main import main

    assert main(["games", "show", "1", "--store", str(store.path)]) == 0
    assert f"Отменено ведущим: записей {len(undone)}" in capsys.readouterr().out
    assert main(["games", "export", "1", "--store", str(store.path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [u["type"] for u in exported["undone"]].count("foul") == 1 and len(exported["undone"]) == len(
        undone
    )


def test_a_game_with_the_votes_counted_by_hand_to_the_end():
    rt, assist = to_day_one(settings=AssistSettings(votes="counts"))
    typed(assist, "v3nv5")  # seat 1 nominates the Don, seat 2 seat 5
    typed(assist, "n" * 9)
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    typed(assist, "n")
    assert rt.window == (rt.speaking_until, float("inf"))  # no buttons: the window waits for the count
    wait(rt, 30)
    assert rt.game.phase is Phase.VOTE
    before = rt.game.state
    assert typed(assist, "g99\n") == [True, True, True, False]
    assert "голосов 99 — больше, чем может быть: живых 10, уже проголосовали 0, можно 0…10" in assist.message
    assert rt.game.state == before
    typed(assist, "g6\ng2\n")
    assert rt.game.record[-2:] == (Tally(count=6), Tally(count=2))
    assert rt.game.state.out == [3] and rt.game.phase is Phase.LAST_WORD  # 6 against 2 + 2 non-voters
    typed(assist, "n")  # night: a miss (no kill entered), the dead Don's turn, the Sheriff's
    typed(assist, "nnn")
    assert rt.game.phase is Phase.MORNING and "nobody_killed" in said(rt)
    typed(assist, "n")
    assert rt.game.state.speaker == 2  # day 2 opens after day 1's opener
    typed(assist, "v5nv8")
    typed(assist, "n" * 8)
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    typed(assist, "ng7\ng0\n")
    assert rt.game.state.out == [3, 5]
    typed(assist, "nk9n")  # the night: seat 9 killed; the Don is out, his check step runs all the same
    assert typed(assist, "c") == [False] and assist.message == "[c]: проверяющий выбыл"
    typed(assist, "nn")
    assert rt.game.state.out == [3, 5, 9] and rt.game.phase is Phase.MORNING
    typed(assist, "nn")  # his last word, then the first speech of day 3
    assert rt.game.state.speaker == 4
    typed(assist, "v8" + "n" * 7)  # one candidate on a later day: he leaves without a vote
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    typed(assist, "n")
    assert rt.game.phase is Phase.GAME_OVER and rt.game.state.winner.value == "red"
    assert typed(assist, "n") == [False] and assist.message == "[n]: игра окончена"
    assert "роль" not in render(assist) and "Победа" not in render(assist)  # not before it is said (issue 47)
    rt.sched.run_due(rt.opened_until)
    over = render(assist)
    assert "роль" in over  # after the game the roles are shown
    assert "Победа мирных жителей" in over and "красные" not in over  # as the device says it, and the pages


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_assist_mode_records_the_same_game_as_host_mode(path, builtin_pack):
    script = load_script(path)
    hosted, rt_host = simulate(script)
    assisted, rt_assist = simulate(script, mode="assist")
    assert rt_assist.game.record == rt_host.game.record
    assert assisted == hosted
    keys = [e["key"] for e in rt_assist.timeline.dicts() if e["type"] == "host_key"]
    assert keys.count("next") > 10 and "confirm" in keys
    assert not any(e["type"] == "host_key" for e in rt_host.timeline.dicts())


# ---------------------------------------------------------------- timers


def test_a_speech_runs_out_with_the_tone_and_time_up_but_waits_for_the_host():
    rt, _assist = to_day_one()
    start = rt.timer[0]
    wait(rt, 120)
    tones = [e["t"] for e in rt.timeline.dicts() if e["type"] == "tone"]
    up = [e["t"] for e in rt.timeline.dicts() if e["type"] == "say" and e["key"] == "time_up"]
    assert tones[-1] == start + 50 and up[-1] == start + 60
    assert rt.game.state.speaker == 1 and rt.game.phase is Phase.SPEECH


def test_free_timers_on_demand():
    rt, assist = make(AssistSettings(timers=(90,)))
    typed(assist, ROLE_KEYS)
    wait(rt, 70)
    typed(assist, "nnn")
    assert rt.game.phase is Phase.MORNING
    mark = len(rt.timeline.dicts())
    typed(assist, "t2")  # 30 s
    assert said(rt, mark) == ["timer"] and rt.free.running is not None
    start = rt.free.running[0]
    assert "Таймер ведущего: 0:30" in render(assist)
    wait(rt, 40)
    tl = rt.timeline.dicts()[mark:]
    assert [e["t"] for e in tl if e["type"] == "tone"] == [start + 20]
    assert [e["t"] for e in tl if e["type"] == "say" and e["key"] == "time_up"] == [start + 30]
    assert rt.game.phase is Phase.MORNING and rt.free.running is None  # a free timer never moves the game
    typed(assist, "t3")  # the agreement minute
    assert said(rt)[-1] == "agreement" and rt.free.running[1] == 60
    typed(assist, "t4")  # 90 s from the config
    assert rt.free.running[1] == 90
    typed(assist, "t0")
    assert rt.free.running is None and assist.message == "таймер остановлен"
    assert typed(assist, "t0") == [True, False] and assist.message == "таймер не идёт"
    assert typed(assist, "t5") == [True, False] and assist.message == "таймера 5 нет: 1…4, 0 — стоп"


def test_pause_freezes_the_speech_and_the_screen():
    rt, assist = to_day_one()
    wait(rt, 10)
    typed(assist, "p")
    shown = render(assist)
    assert "ПАУЗА" in shown and shows(shown, "0:50")
    assert typed(assist, "n") == [False] and assist.message == "[n]: пауза (p — продолжить)"
    rt.toggle_pause(now=rt.sched.now + 300)
    wait(rt, 1)
    assert shows(render(assist), "0:49")


# ---------------------------------------------------------------- bad input


def test_bad_keys_leave_a_message_and_change_nothing():
    rt, assist = to_day_one()
    typed(assist, "nn")
    heard(rt, 5)
    typed(assist, "ynv7")  # seat 3's heard nomination confirmed, seat 4's added by the host
    # a nomination outside a speech
    typed(assist, "n" * 7)
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    before = rt.game.state
    cases = {
        "v": "[v]: выставлять и снимать можно только во время речи",
        "g": "[g]: голоса вводятся во время голосования",
        "k": "[k]: убийство вводится, когда мафия выходит на охоту",
        "y": "[y]: нет услышанных выставлений",
        "\n": "[Enter]: нечего подтверждать",
    }
    for key, message in cases.items():
        assert typed(assist, key) == [False]
        assert assist.message == message
    assert rt.game.state == before
    # a foul for a seat that is out
    typed(assist, "n")
    assert typed(assist, "g9\ng0\n") == [True] * 6  # 9 of 10 for seat 5, one non-voter for 7
    assert rt.game.state.out == [5]
    # (the last word's own speaker may still get one)
    assert rt.game.state.speaker == 5 and typed(assist, "f5") == [True, True]
    typed(assist, "n")
    before = rt.game.state
    assert typed(assist, "f5") == [True, False]
    assert assist.message == "фол: игрок 5 уже выбыл — фол не записан" and rt.game.state == before
    # a started command must be finished or cancelled first
    typed(assist, "f")
    assert typed(assist, "n") == [False] and "сначала закончите начатую команду" in assist.message
    typed(assist, "\x1b")
    assert assist.pending is None and typed(assist, "n") == [True]


def test_the_vote_counted_by_hand_refuses_letters_and_a_buttoned_window():
    rt, assist = to_day_one()
    typed(assist, "v4" + "n" * 9 + "v2" + "n")
    assert rt.game.phase is Phase.VOTE_ANNOUNCE
    typed(assist, "n")
    wait(rt, rt.window[0] - rt.sched.now + 0.1)
    rt.press(7)
    assert typed(assist, "g3\n") == [True, True, False]
    assert "за этого кандидата уже голосовали кнопками" in assist.message
    typed(assist, "g")
    assert typed(assist, "\n") == [False] and assist.message == "[Enter]: сначала число"
    assert typed(assist, "f") == [False] and "сначала закончите начатую команду" in assist.message


def test_roles_entered_by_the_host_are_checked_group_by_group():
    rt, assist = make()
    assert (
        assist.roles.prompt()
        == "Роли: отметьте трёх чёрных игроков (мафию и Дона); выбрано: —; «ввод» — дальше"
    )
    keys = console_view(Console(rt, assist))["keys"]  # the console's button that the prompt names
    assert [k["label"] for k in keys if k["name"] == "enter"] == ["ввод"]
    typed(assist, "35\n")
    assert assist.message == "роли: нужно мест: 3, отмечено: 2"
    assert assist.roles.selected == set()  # a refused choice starts afresh
    typed(assist, "358\n")  # the black seats 3 5 8
    assert assist.roles.prompt().startswith("Роли: отметьте Дона среди чёрных;")
    typed(assist, "4\n")
    assert assist.message == "роли: Дон должен быть среди чёрных" and assist.roles.selected == set()
    typed(assist, "3\n5\n")  # the Don 3; then a Sheriff among the black
    assert assist.message == "роли: это место уже чёрное или занято другой ролью"
    assert assist.roles.prompt() == "Роли: отметьте Шерифа; выбрано: —; «ввод» — дальше"
    assert rt.game.phase is Phase.ROLES
    typed(assist, "6\n")
    assert rt.game.phase is Phase.INTRO_MAFIA and assist.message == "роли записаны"
    assert dict(rt.game.record[0].roles) == {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}
    assert typed(assist, "v") == [False]


def test_the_event_roles_prompt_has_no_don():
    rt = Runtime(Game("event"), Scheduler(), lambda key, slots: PHRASE_S, Settings())
    assist = Assist(rt)
    assert assist.roles.prompt() == "Роли: отметьте трёх чёрных игроков; выбрано: —; «ввод» — дальше"
    typed(assist, "123\n")
    assert assist.roles.prompt().startswith("Роли: отметьте Комиссара;")


def test_auto_accept_takes_a_heard_nomination_at_once():
    rt, assist = to_day_one(settings=AssistSettings(auto_accept=True))
    heard(rt, 7)
    assert rt.game.record[-1] == Nominate(seat=1, target=7) and not rt.proposals
    assist.heard(Intent("end"), "спасибо")
    heard(rt, 1, "end")  # «спасибо»: the host still gives the floor
    assert rt.game.state.speaker == 1
    assert assist.message == "игрок 1: «спасибо» — речь окончена? (n — дальше)"
    assert assist.press(1, from_host=False) is False and rt.game.state.speaker == 1  # nor his button
    assert assist.message == "игрок 1 нажал свою кнопку: речь окончена? (n — дальше)"


def test_a_heard_nomination_the_rules_refuse_is_not_proposed():
    rt, assist = to_day_one()
    typed(assist, "v7n")
    assert not heard(rt, 7) and not rt.proposals  # already nominated today
    assert rt.timeline.dicts()[-1]["type"] == "rejected"


# ---------------------------------------------------------------- the host's screen


def test_the_screen_shows_the_phase_the_timer_and_the_seats():
    rt, assist = to_day_one()
    typed(assist, "f2")
    heard(rt, 5)
    assist.heard_text("я выставляю игрока номер пять")
    wait(rt, 13.2)
    text = render(assist)
    assert "День 1 · речи" in text and "Говорит игрок 1" in text
    assert shows(text, "0:47") and not shows(text, "0:48")  # the seconds left in large digits
    rows = {
        line.split()[0].lstrip("▶"): line.split()[1:]
        for line in text.splitlines()
        if line[:3].strip().lstrip("▶").isdigit()
    }
    assert rows["1"] == ["да"] and rows["2"] == ["да", "1"]
    assert "▶1" in text
    assert "Услышано: «я выставляю игрока номер пять»" in text
    assert "Клавиши: p пауза · u отмена · f фол · v выставить · w снять · y принять · x отклонить" in text
    assert "роль" not in text and "Дон" not in text and "мафия" not in text  # roles only in the host view
    typed(assist, "yr")
    text = render(assist)
    assert "роль" in text and "Дон" in text
    rows = {
        line.split()[0].lstrip("▶"): line.split()[1:]
        for line in text.splitlines()
        if line[:3].strip().lstrip("▶").isdigit()
    }
    assert rows["5"] == ["да", "да", "(от", "1)", "мафия"]
    typed(assist, "h")
    help_text = render(assist)
    for name, char, _, what in KEYS:  # a classic game: the city's keys are not in its help
        assert (f"{char:>5}  {what}" in help_text) is (name not in ("heal", "visit", "golden")), name


def test_the_screen_in_a_vote_and_at_night():
    rt, assist = to_day_one()
    typed(assist, "v4nv6" + "n" * 9 + "n")
    wait(rt, rt.window[0] - rt.sched.now + 0.1)
    rt.press(2)
    rt.press(3)
    text = render(assist)
    assert "Голосование" in text and "Голосуем за игрока 4" in text and "Голосование: 4: 2" in text
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line[:3].strip().isdigit()}
    assert rows["2"][-2:] == ["за", "4"]
    wait(rt, 10)
    assert rt.game.phase is not Phase.VOTE and "последний подсчёт: 4: 2, 6: 8" in render(assist)
    assist.heard_text("спасибо")  # the last word's end
    assert "Услышано: «спасибо»" in render(assist)
    typed(assist, "n")  # the night falls: the day's count and words are the day's, not the night's
    assert rt.game.phase is Phase.NIGHT_HUNT
    night = render(assist)
    assert "последний подсчёт" not in night and "Услышано: —" in night
    typed(assist, "nnn")
    assert rt.game.phase is Phase.MORNING
    morning = render(assist)
    assert "последний подсчёт" not in morning and "Услышано: —" in morning


def test_keys_through_the_keyboard_panel_on_a_pipe():
    read, write = os.pipe()
    events = queue.Queue()
    panel = KeyboardPanel(10, lambda: 0.0, events, keys_fd=read, draw=False)
    os.write(write, "f4g12\nu\x1bтq".encode())
    got = [events.get(timeout=2) for _ in range(11)]
    panel.close()
    os.close(write)
    keys = [e.key for e in got if isinstance(e, Press)]
    assert keys == ["foul", 4, "count", 1, 2, "enter", "undo", "cancel", "next", "unknown"]
    # let go: a short press of a key that also has a hold (HOLDS: «Дальше», «Пауза»)
    assert [e.key for e in got if not isinstance(e, Press)] == ["next"]
    _rt, assist = make()
    assert assist.press("unknown") is False and assist.message == "такой клавиши нет (h — справка)"


def test_undo_reaches_back_to_the_start_of_the_day_and_no_further():
    rt, assist = to_day_one()
    day_start = rt.history.day_start
    typed(assist, "f1f2nf3n")
    for _ in range(5):
        assert typed(assist, "u") == [True]
    assert len(rt.game.record) == day_start + 1 and rt.game.state.speaker == 1
    assert typed(assist, "u") == [True]  # the first speech's "next" too: back to the morning
    assert len(rt.game.record) == day_start and rt.game.phase is Phase.MORNING
    assert typed(assist, "u") == [False]
    assert rt.game.record[day_start - 1] == Advance()
    assert to_dict(rt.game.record[0])["type"] == "deal_roles"


def test_simulate_and_demo_in_assist_mode_from_the_command_line(capsys, builtin_pack):
    import json
    from pathlib import Path

    from host_device.cli.main import main
    from host_device.session.demo import result_lines

    script = str(SCRIPTS[0])
    assert main(["simulate", script]) == 0
    hosted = json.loads(capsys.readouterr().out)
    assert main(["simulate", script, "--mode", "assist"]) == 0
    assert json.loads(capsys.readouterr().out) == hosted
    assert main(["demo", script, "--mode", "assist", "--speed", "5000", "--audio", "null"]) == 0
    out = capsys.readouterr().out
    assert "ведущий: [n] дальше" in out and "ведущий: [y] принять" in out
    said = result_lines(hosted, Path(script))  # the same game's result as simulate's, in Russian
    assert out.splitlines()[-len(said) :] == said


def test_the_guide_lists_every_host_key_as_the_help_screen_says_it():
    from host_device.runtime.host_keys import SEAT_KEYS_HELP

    guide = (ROOT / "docs" / "guide" / "assist.md").read_text(encoding="utf-8")
    section = guide.split("## Клавиши\n")[1].split("\n## ")[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()]
    rows = [row for row in rows if len(row) == 3 and row[0] not in ("клавиша", "---")]
    shown = {row[0]: row[2] for row in rows}
    assert shown.pop("`1`…`9`, `0`, `-`, `=`") == SEAT_KEYS_HELP
    assert shown == {(f"`{char}`" if len(char) == 1 else char): what for _, char, _, what in KEYS}


def test_a_speech_undone_twice_keeps_counting_its_time():
    rt, assist = to_day_one()
    wait(rt, 20)
    typed(assist, "nu")  # seat 1 had 40 s left
    wait(rt, rt.timer[0] - rt.sched.now + 15)
    typed(assist, "nu")  # 15 s more of it: 25 s left
    speeches = [
        e for e in rt.timeline.dicts() if e["type"] == "say" and e["key"] == "speech" and e["seat"] == 1
    ]
    assert [e["seconds"] for e in speeches] == [60, 40, 25]


def test_an_undo_the_store_cannot_record_changes_nothing_and_pauses():
    from host_device.store import StoreError

    rt, assist = to_day_one()
    typed(assist, "f3")

    def full(keep):
        raise StoreError("games.sqlite3: cannot record the undo (database or disk is full)")

    rt.undo_hooks.append(full)
    before = rt.game.record
    assert typed(assist, "u") == [False]
    assert rt.game.record == before and rt.sched.paused and said(rt)[-1] == "store_full"
    assert assist.message == "отмена не записана: нет места для записи игры"


def test_a_seats_own_button_never_completes_the_hosts_command():
    rt, assist = to_day_one()
    typed(assist, "f")
    assert assist.press(4, from_host=False) is False  # seat 4 presses his button: not the foul's seat
    assert assist.pending == "foul" and rt.game.state.fouls == {}
    assert assist.message == "кнопка 4: не засчитана — сейчас говорит игрок 1"  # and why
    typed(assist, "6")
    assert rt.game.state.fouls == {6: 1}


def test_the_host_keyboard_beside_a_panel_marks_its_presses():
    from hardware.events import HostKey, Press
    from host_device.session.devices import HostKeys

    inbox = queue.Queue()
    keys = HostKeys(inbox)
    keys.put(Press(key=3, at=1.0))
    assert inbox.get_nowait() == HostKey(Press(key=3, at=1.0))


def test_speakers_skipped_at_once_are_not_announced():
    rt, assist = to_day_one()
    wait(rt, 5)
    mark = len(rt.timeline.dicts())
    start = rt.sched.now
    typed(assist, "nnn")  # seat 2's name is being said; seat 3 passes before his is: seat 4 next
    announced = [
        (e["seat"], e["t"]) for e in rt.timeline.dicts()[mark:] if e["type"] == "say" and not e.get("dropped")
    ]
    assert announced == [(2, start), (4, start + PHRASE_S)]
    assert [e["seat"] for e in rt.timeline.dicts()[mark:] if e["type"] == "unsaid"] == [3]
    assert rt.timer[0] == start + 2 * PHRASE_S  # his time starts when his name has been said
    # a step whose announcement has begun is not cut
    wait(rt, 0.5)
    typed(assist, "n")
    assert not rt.timeline.dicts()[-1].get("dropped") and rt.timeline.dicts()[-1]["type"] != "unsaid"


def test_a_lost_terminal_does_not_stop_the_game():
    import io

    from host_device.screens.terminal import Screen

    rt, assist = to_day_one()
    out = io.StringIO()
    screen = Screen(assist, out, width=100)
    screen.draw()
    assert out.getvalue().startswith("\x1b[2J\x1b[H") and "День 1 · речи" in out.getvalue()
    out.close()  # the terminal went away
    wait(rt, 2)
    screen.draw()  # no error
    typed(assist, "n")
    assert rt.game.state.speaker == 2


# ---------------------------------------------------------------- the host's screen, issue 17


def test_paused_the_screen_says_so_and_offers_only_the_keys_that_work():
    _, assist = to_day_one()
    typed(assist, "p")
    shown = render(assist)
    assert "ПАУЗА — всё стоит; p — продолжить" in shown
    keys = next(line for line in shown.splitlines() if line.startswith("Клавиши:"))
    assert "p продолжить" in keys and "n дальше" not in keys and "f фол" not in keys
    typed(assist, "p")
    keys = next(line for line in render(assist).splitlines() if line.startswith("Клавиши:"))
    assert "p пауза" in keys and "n дальше" in keys


def test_a_message_leaves_the_screen_after_a_few_seconds_or_at_the_next_step():
    rt, assist = to_day_one()
    typed(assist, "y")  # nothing heard: a message
    assert "› [y]: нет услышанных выставлений" in render(assist)
    wait(rt, 3)
    assert "› [y]" in render(assist)
    wait(rt, 4)
    assert "›" not in render(assist) and assist.message  # kept for the record, no longer shown
    typed(assist, "y")
    typed(assist, "n")  # the next speech
    assert "›" not in render(assist)


def test_a_second_nomination_by_the_host_says_which_one_it_replaced():
    rt, assist = to_day_one()
    typed(assist, "v5")
    assert assist.message == "записано: игрок 1 выставляет игрока 5"
    typed(assist, "v7")
    assert assist.message == "записано: игрок 1 выставляет игрока 7 (вместо игрока 5)"
    assert rt.game.state.nominations == {1: 7}


def counted_vote():
    rt, assist = to_day_one(settings=AssistSettings(votes="counts"))
    typed(assist, "v3nv5")
    typed(assist, "n" * 9)
    typed(assist, "n")
    wait(rt, 30)
    assert rt.game.phase is Phase.VOTE
    return rt, assist


def test_next_in_a_vote_counted_by_hand_warns_before_it_records_no_hands():
    rt, assist = counted_vote()
    assert "голоса по рукам" in render(assist)
    record = rt.game.record
    assert typed(assist, "n") == [False]
    assert assist.message == "голоса не введены (игрок 3): g — ввести число; n ещё раз — ноль голосов"
    assert rt.game.record == record
    assert typed(assist, "n") == [True]  # said twice: no hands for seat 3
    assert rt.game.record[-1] == Advance() and rt.game.state.vote_round.current == 5


def test_the_last_candidates_typed_count_and_the_counted_one_are_both_said():
    rt, assist = counted_vote()
    typed(assist, "g6\ng2\n")  # 6 for seat 3; 2 typed for seat 5, who also gets the 2 non-voters
    assert rt.game.state.out == [3]
    assert assist.message == (
        "за игрока 5 введено 2, засчитано 4: голоса не голосовавших отданы последней кандидатуре"
    )
    assert "последний подсчёт: 3: 6, 5: 4" in render(assist)


def test_the_screen_shows_when_a_vote_window_is_open():
    rt, assist = to_day_one()
    typed(assist, "v4" + "n" * 9 + "v2" + "n")
    typed(assist, "n")
    assert "Голосуем за игрока 4 · окно закрыто" in render(assist)  # the question is being said
    wait(rt, rt.window[0] - rt.sched.now + 0.1)
    assert "Голосуем за игрока 4 · ОКНО ОТКРЫТО: жмите кнопки" in render(assist)


def test_a_seats_press_that_does_not_count_says_why():
    """«кнопка 9: не засчитана» names its reason, as a phone and host mode's lines do."""
    rt, assist = to_day_one()
    typed(assist, "v4" + "n" * 9 + "v2" + "n")
    typed(assist, "n")
    assert rt.game.phase is Phase.VOTE and rt.sched.now < rt.window[0]  # the question is being said
    assert assist.press(9, from_host=False) is False
    assert assist.message == "кнопка 9: не засчитана — окно голосования закрыто"
    wait(rt, rt.window[0] - rt.sched.now + 0.1)
    assert assist.press(9, from_host=False) is True
    assert assist.press(9, from_host=False) is False  # a second press in the same window: the engine refuses
    assert assist.message == "кнопка 9: не засчитана — уже голосовал в этом круге"


@pytest.mark.parametrize("state", ["speech", "proposal", "vote", "help"])
def test_the_screen_fits_80_by_24_with_the_step_on_top(state):
    rt, assist = to_day_one()
    if state == "proposal":
        heard(rt, 5)
        typed(assist, "v")  # a refused key: a message too
    elif state == "vote":
        typed(assist, "v4" + "n" * 9 + "v2" + "nn")
    elif state == "help":
        typed(assist, "h")
    text = render(assist, 80, 24)
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert lines[0].startswith("╭─ День 1 · ")
    if rt.timer is not None and state != "vote":
        assert "0:" in lines[0] or shows(text, "1:00") or any("1:00" in line for line in lines[:8])
    if state == "help":
        assert "Клавиши ведущего" in text and "f фол" not in text  # the help, not the seats
        assert lines[0].startswith("╭─ День 1 · речи · 1:00")


def test_an_undo_after_a_resume_goes_back_to_the_resumed_steps_start(tmp_path):
    """A game resumed after a crash (the session's path: the store's record
    replayed into a new runtime): the host's first undo returns to the step
    the game was resumed in, and no undo reaches behind the restart."""
    from host_device.session.resume import record

    store = Store(tmp_path / "games.sqlite3")
    rt, assist = to_day_one(store=store)
    typed(assist, "nn")  # seats 1 and 2 have spoken: seat 3 speaks, and the device dies
    assert rt.game.state.speaker == 3
    game_id = store.games.unfinished()[-1].id
    settings = Settings(**runtime_settings(AssistSettings()))
    again = Runtime(Game("classic"), Scheduler(start=rt.sched.now), lambda key, slots: PHRASE_S, settings)
    record(store, again, "assist", game_id, None)
    host = Assist(again, AssistSettings(), role_entry=False)
    again.resume()
    restart = len(again.game.record)
    assert restart == len(rt.game.record) and again.history.step_starts == [restart]
    assert again.undo_target() is None  # nothing done since the restart
    wait(again, 10)
    assert typed(host, "n") == [True] and again.game.state.speaker == 4
    assert typed(host, "u") == [True]
    assert len(again.game.record) == restart and again.game.state.speaker == 3
    assert again.timer is not None and again.timer[1] == 52  # his speech again: the 8 s he spoke still count
    assert typed(host, "u") == [False]  # never back to the game's start
    assert len(again.game.record) == restart


def test_words_typed_when_nobody_speaks_count_for_nothing_and_say_so():
    _, assist = make()
    assist.typed("я выставляю игрока номер пять")
    assert assist.transcript == "я выставляю игрока номер пять"
    assert (
        assist.shown_message()
        == "«я выставляю игрока номер пять»: сейчас никто не говорит — слова не засчитаны"
    )
