"""What the host's console may do in host mode (host_device/web/console_powers.py).

The bug: in host mode the console nominated for the speaker with typed
words although a speech model listened, replaced the victim's best move,
stored extra points during the game, and «Весь стол» showed every role and
pressed seats with nothing on the public page. Now each forbidden message
is refused in Russian and nothing reaches the runtime (its state is the
same); each allowed one that touches the game is shown on the table page
(the public state's ``console`` and the ``/api/events`` stream) when the
session takes it."""

import asyncio
import json

import pytest

from engine import Phase
from engine.steps import NIGHT, best_move_now
from host_device.screens.public import public_state
from host_device.web.inputs import FromConsole, console_input
from tests.helpers.host import table_inputs
from tests.helpers.web import console_at, drained


def speech(game):
    return game.phase is Phase.SPEECH and game.state.day == 1


def night(game):
    return game.phase in NIGHT and game.state.day >= 1


def due(game):
    return best_move_now(game.preset, game.state) and not game.state.best_move


def given(game):
    return best_move_now(game.preset, game.state) and bool(game.state.best_move)


def over(game):
    return game.phase is Phase.GAME_OVER


NOMINATION = "я выставляю игрока номер четыре спасибо"


@pytest.mark.parametrize(
    ("moment", "options", "message", "why"),
    [
        (speech, {}, {"seat": 4}, "только «дальше» и «пауза»"),
        (speech, {}, {"key": "foul"}, "только «дальше» и «пауза»"),
        (night, {}, {"key": "kill"}, "только «дальше» и «пауза»"),
        (speech, {"whole_table": True}, {"press": 4}, "включённом «Весь стол»"),
        (speech, {}, {"whole": True}, "только при --panel web"),
        (speech, {"typed": False}, {"text": NOMINATION}, "слышит устройство"),
        (night, {}, {"text": NOMINATION}, "только пока говорящий может выставлять"),
        (speech, {}, {"best_move": [4, 6, 8]}, "только в последнее слово"),
        (given, {}, {"best_move": [4, 6, 8]}, "уже принят"),
        (speech, {}, {"extra": {"seat": 3, "points": 1.0}}, "после конца игры"),
        (night, {}, {"extra": {"seat": 3, "points": 1.0}}, "после конца игры"),
    ],
)
def test_what_the_console_may_not_do_in_host_mode_is_refused_and_changes_nothing(
    moment, options, message, why
):
    publisher, inbox = console_at(moment, **options)
    runtime = publisher.stream.runtime
    before = runtime.game.state
    connection = asyncio.Queue()
    refused = console_input(publisher, json.dumps(message), connection)
    assert refused is not None and why in refused
    assert inbox.empty() and not publisher.shows_whole(connection)
    assert runtime.game.state == before


def shown_on_the_table(publisher, inbox):
    """The inbox taken as the session takes it: the public events sent meanwhile."""
    runtime = publisher.stream.runtime
    events = []
    publisher.stream.listeners.append(events.append)
    inputs = table_inputs(runtime, typed_speech=True)
    for item in drained(inbox):
        if (item := inputs.told(item)) is not None:
            inputs.take(item)
    runtime.sched.run_due(runtime.sched.now)
    return events


@pytest.mark.parametrize(
    ("moment", "options", "message", "line"),
    [
        (speech, {}, {"text": NOMINATION}, f"С пульта: набрано: «{NOMINATION}»"),
        (due, {}, {"best_move": [4, 6, 8]}, "С пульта: лучший ход: 4, 6, 8"),
        (over, {}, {"extra": {"seat": 3, "points": 1.0}}, "С пульта: доп. баллы месту 3: 1"),
        # who sits where (a tournament's seat is changed only here, issue 51): the table sees it
        (speech, {}, {"name": {"seat": 3, "new": "Вера"}}, "С пульта: место 3: игрок изменён"),
    ],
)
def test_what_the_console_does_to_the_game_in_host_mode_is_shown_on_the_table_page(
    moment, options, message, line
):
    publisher, inbox = console_at(moment, **options)
    assert public_state(publisher.stream)["console"] is None
    assert console_input(publisher, json.dumps(message), asyncio.Queue()) is None
    events = shown_on_the_table(publisher, inbox)
    assert {"type": "console", "text": line} in [{k: v for k, v in e.items() if k != "t"} for e in events]
    assert public_state(publisher.stream)["console"] == line


def test_the_typed_nomination_takes_effect_and_the_best_move_is_said(builtin_pack):
    publisher, inbox = console_at(speech)
    runtime = publisher.stream.runtime
    speaker = runtime.game.state.speaker
    console_input(publisher, json.dumps({"text": "я выставляю игрока номер четыре"}), asyncio.Queue())
    events = shown_on_the_table(publisher, inbox)
    assert runtime.game.state.nominations.get(speaker) == 4  # it did what it said: shown, then taken
    assert [e["type"] for e in events if e["type"] in ("console", "nomination_accepted")] == [
        "console",
        "nomination_accepted",
    ]


def test_the_whole_table_switch_is_shown_on_every_tv_while_it_is_on():
    publisher, inbox = console_at(night, whole_table=True)
    connection = asyncio.Queue()
    assert json.loads(publisher.state)["whole_on"] is False
    assert console_input(publisher, json.dumps({"whole": True}), connection) is None
    events = shown_on_the_table(publisher, inbox)
    state = json.loads(publisher.state)
    assert state["whole_on"] is True and state["console"].startswith("С пульта: «Весь стол» включён")
    assert [e["type"] for e in events] == ["console"]
    assert console_input(publisher, json.dumps({"press": 4}), connection) is None
    assert [type(item).__name__ for item in drained(inbox)] == ["Press"]  # a press: not shown (a shot)
    assert console_input(publisher, json.dumps({"whole": False}), connection) is None
    shown_on_the_table(publisher, inbox)
    assert json.loads(publisher.state)["whole_on"] is False


@pytest.mark.parametrize(
    "message",
    [
        {"seat": 4},
        {"key": "foul"},
        {"text": NOMINATION},
        {"best_move": [4, 6, 8]},
        {"extra": {"seat": 3, "points": 1}},
    ],
)
def test_in_assist_mode_the_console_is_the_hosts_and_is_not_shown(message):
    publisher, inbox = console_at(given if "best_move" in message else speech, assist=True, typed=False)
    assert console_input(publisher, json.dumps(message), asyncio.Queue()) is None
    items = drained(inbox)
    assert len(items) == 1 and not isinstance(items[0], FromConsole)


def test_the_seat_grids_extra_points_are_offered_in_host_mode_only_after_the_end():
    publisher, _ = console_at(speech)
    assert json.loads(publisher.views["host"])["extra_open"] is False
    publisher, _ = console_at(over)
    assert json.loads(publisher.views["host"])["extra_open"] is True
    publisher, _ = console_at(speech, assist=True)
    assert json.loads(publisher.views["host"])["extra_open"] is True


def test_typed_words_reach_the_table_page_printable():
    publisher, inbox = console_at(speech)
    typed = "я \x1b[2J\x1b[31mвыставляю\nигрока номер четыре"
    assert console_input(publisher, json.dumps({"text": typed}), asyncio.Queue()) is None
    shown_on_the_table(publisher, inbox)
    line = public_state(publisher.stream)["console"]
    assert line.startswith("С пульта: набрано: «я ") and "\x1b" not in line and "\n" not in line
