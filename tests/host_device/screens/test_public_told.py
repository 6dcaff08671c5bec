"""What the table page is shown follows what the device says (issue 47):
the end (the winner, the roles) only once «Победа …» is said; the players'
names before the deal, while the table seats itself; the console's line
(«С пульта: …») gone once its step has ended. All on the virtual clock."""

import json

import pytest

from engine import Game, Phase
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import ConsoleUsed, InputTaken, Said
from host_device.screens.public import CONSOLE_LINE_S, PublicStream, public_state
from host_device.screens.seating import Seating
from host_device.scripts.script import load_script
from host_device.scripts.simulate import ScriptedTable, builtin_durations
from host_device.store.roster import Player
from tests.helpers.paths import ROOT
from voices.catalogue import russian

SCRIPT = ROOT / "examples" / "classic-full-game.json"
NAMES = {seat: Player(f"id-{seat}", f"Игрок-{seat} Длинноименный") for seat in range(1, 11)}


def table(seating=None):
    """The classic example game on a virtual clock, not yet dealt; its public
    stream's events and, after each, the state (as the table page reads it)."""
    runtime = Runtime(Game(load_script(SCRIPT).preset), Scheduler(), builtin_durations(), None)
    scripted = ScriptedTable(load_script(SCRIPT), runtime)
    stream = PublicStream(runtime, russian().text)
    if seating is not None:
        stream.seating = seating
    told = []
    stream.listeners.append(lambda event: told.append((event, public_state(stream))))
    return runtime, scripted, stream, told


def run_until(runtime, moment):
    sched = runtime.sched
    while not moment(runtime):
        t = sched.next_time()
        assert t is not None, "the game ended before the moment"
        sched.run_due(t)


def played(seating=None):
    runtime, scripted, stream, told = table(seating)
    scripted.deal()
    run_until(runtime, lambda rt: rt.game.phase is Phase.GAME_OVER)
    while runtime.sched.next_time() is not None:  # what was still due (the phrases' events)
        runtime.sched.run_due(runtime.sched.next_time())
    return runtime, stream, told


@pytest.fixture(scope="module")
def game(builtin_pack):
    return played(Seating(players=dict(NAMES), enabled=True))


def test_the_end_is_shown_once_it_has_been_said_not_before(game):
    """«Единственная кандидатура — игрок номер восемь покидает игру.», then
    «Победа мирных жителей!» and each black role aloud («Игрок номер три —
    Дон.»): the game ended with the lone candidate out; the table page shows the
    end (the winner, the roles, «Игра окончена») once all that is said, as
    the console and the terminal do."""
    runtime, _, told = game
    ended = [e for e in runtime.timeline.entries if isinstance(e, InputTaken)][
        -1
    ]  # the one that ended the game
    words = [
        e for e in runtime.timeline.entries if isinstance(e, Said) and e.key in ("winner", "reveal_role")
    ]
    assert [e.key for e in words] == ["winner"] + ["reveal_role"] * 4  # the Don, two mafia, the Sheriff
    winner = words[0]
    # the timeline keeps each start to the millisecond: the words' end within 1 ms
    said_by = max(e.t + runtime.duration(e.key, e.slot_values) for e in words) - 0.001
    assert ended.t < winner.t < said_by  # said seconds after the game ended (the vote's phrase first)
    events = [event for event, _ in told]
    end = next(e for e in events if e["type"] == "game_ended")
    over = next(e for e in events if e["type"] == "phase_started" and e["phase"] == "game_over")
    said = next(e for e in events if e["type"] == "say" and e["key"] == "winner")
    assert said["t"] == winner.t and end["t"] == over["t"] == pytest.approx(said_by, abs=0.002)
    assert events.index(said) < events.index(over) < events.index(end)
    assert end["winner"] == "red" and end["roles"]["3"] == "don"
    shown = [event for event, state in told if state["winner"] or state["phase"] == "game_over"]
    assert shown and shown[0] is over  # nothing of the end before its words are said
    for event, state in told:
        if event["t"] < said_by:
            assert state["winner"] is None and state["phase"] != "game_over", event
            assert all("role" not in row for row in state["seats"]) and "Игра окончена" not in state["title"]
    saying = [state for event, state in told if ended.t <= event["t"] < said_by]
    assert saying and all(state["title"] == "День 3 · кандидаты" for state in saying)  # the step told last
    last = told[-1][1]
    assert last["winner"] == "red" and last["phase"] == "game_over" and last["title"] == "Игра окончена"
    assert {row["seat"]: row.get("role") for row in last["seats"]}[3] == "don"


def test_the_names_are_shown_before_the_deal_hidden_in_the_game_and_shown_at_the_end(builtin_pack):
    runtime, scripted, stream, told = table(Seating(players={1: NAMES[1]}, enabled=True))
    state = public_state(stream)
    assert state["phase"] == "roles" and state["seats"][0]["name"] == "Игрок-1 Длинноименный"
    stream.seating.players[2] = NAMES[2]  # a phone picks his name: the table sees it at once
    stream.names_changed()
    assert told[-1][0] == {"t": 0.0, "type": "names", "names": {"1": NAMES[1].label, "2": NAMES[2].label}}
    assert told[-1][1]["seats"][1]["name"] == NAMES[2].label
    runtime.say("game_starts")  # «Начинаем игру»: the deal begins, the names go
    assert all("name" not in row for row in public_state(stream)["seats"])
    runtime.sched.run_due(runtime.sched.now)
    assert told[-1][0]["key"] == "game_starts" and all("name" not in row for row in told[-1][1]["seats"])
    scripted.deal()
    run_until(runtime, lambda rt: rt.game.phase is Phase.SPEECH)
    assert all("name" not in row for row in public_state(stream)["seats"])
    stream.names_changed()  # a name given during the game: not told
    assert told[-1][0]["type"] != "names"


def test_no_name_between_the_deal_and_the_end(game):
    runtime, _, told = game
    winner = next(e for e in runtime.timeline.entries if isinstance(e, Said) and e.key == "winner")
    during = [state for event, state in told if event["t"] < winner.t]
    assert during and "Длинноименный" not in json.dumps(during, ensure_ascii=False)
    assert told[-1][1]["seats"][9]["name"] == "Игрок-10 Длинноименный"


def test_the_consoles_line_goes_once_its_step_has_ended(builtin_pack):
    """Typed in a speech, the line stays through it and goes when it ends
    (it was up long enough); typed as the step ends («спасибо»), it stays
    :data:`CONSOLE_LINE_S` into the next one, then goes."""
    runtime, scripted, stream, told = table()
    scripted.deal()
    run_until(runtime, lambda rt: rt.game.phase is Phase.SPEECH and rt.game.state.speaker == 1)
    first = runtime.step
    runtime.note(ConsoleUsed(t=runtime.sched.now, text="С пульта: набрано: «выставляю игрока номер три»"))
    assert public_state(stream)["console"].startswith("С пульта: набрано")
    run_until(runtime, lambda rt: rt.step != first)
    gone = [event for event, _ in told if event["type"] == "console" and event["text"] is None]
    assert len(gone) == 1 and public_state(stream)["console"] is None
    assert gone[0]["t"] == pytest.approx(runtime.sched.now, abs=0.01)  # when the speech ended
    # typed as the step ends (the speaker's «спасибо»): the table still reads it for CONSOLE_LINE_S
    run_until(runtime, lambda rt: rt.sched.now >= gone[0]["t"] + 5)
    made, second = runtime.sched.now, runtime.step
    runtime.note(ConsoleUsed(t=made, text="С пульта: набрано: «спасибо»"))
    runtime.press("next")
    assert runtime.step != second
    run_until(runtime, lambda rt: rt.sched.next_time() >= made + CONSOLE_LINE_S - 1)
    assert public_state(stream)["console"] == "С пульта: набрано: «спасибо»"
    run_until(runtime, lambda rt: rt.sched.now >= made + CONSOLE_LINE_S)
    assert public_state(stream)["console"] is None
    gone = [event for event, _ in told if event["type"] == "console" and event["text"] is None]
    assert len(gone) == 2 and gone[1]["t"] == pytest.approx(made + CONSOLE_LINE_S, abs=0.01)
