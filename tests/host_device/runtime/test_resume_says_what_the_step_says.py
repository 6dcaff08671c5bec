"""A resumed step says what the step says when it is entered (the table of
steps, ``engine.steps``): for every step of games of every preset, and for a
game killed at every input of the classic and the city example and resumed
from its store (on virtual time, in this process): the step's opening, a best
move made before the kill said back where the step asks for it."""

import os
import tempfile
from pathlib import Path

import pytest

from engine import PRESETS, BestMove, Game, Phase
from engine.outputs import PhaseStarted, Say, StartTimer
from engine.presets import table_of
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.table import phrase_slots as slots_of
from host_device.scripts.script import load_script
from host_device.scripts.simulate import fingerprint, simulate
from host_device.store import Store
from tests.helpers.paths import ROOT

EXAMPLES = {
    "classic": ROOT / "examples" / "classic-full-game.json",
    "event": ROOT / "examples" / "event-game.json",
    "city": ROOT / "examples" / "city-game.json",
}
SCENARIOS = [*EXAMPLES.values(), ROOT / "tests" / "scenarios" / "classic_fouls_and_all_leave.json"]


def duration(key, slots):
    return 1.5


SAY_FIELDS = ("t", "type", "key", "dropped", "at_once")  # the fields of a say entry that are not slots


def entry_slots(entry):
    """The slot values of a timeline ``say`` entry (as a dict)."""
    return {k: v for k, v in entry.items() if k not in SAY_FIELDS}


def said(entries):
    """The phrases (key and slots) and timers of timeline entries, as the machine's outputs would give them."""
    out = []
    for e in entries:
        if e["type"] == "say" and not e.get("dropped"):
            out.append(
                (
                    "say",
                    e["key"],
                    {k: list(v) if isinstance(v, tuple) else v for k, v in entry_slots(e).items()},
                )
            )
        elif e["type"] == "timer":
            out.append(("timer", e["purpose"], e["seconds"]))
    return out


def of_outputs(outputs):
    out = []
    for o in outputs:
        if isinstance(o, Say):
            out.append(
                ("say", o.phrase, {k: list(v) if isinstance(v, tuple) else v for k, v in slots_of(o).items()})
            )
        elif isinstance(o, StartTimer):
            out.append(("timer", o.purpose, o.seconds))
    return out


def morning_last_word(state):
    """The step is the morning's last word: resumed, it says the morning's news first."""
    return state.phase is Phase.LAST_WORD and state.last_words_then is Phase.SPEECH


def steps_of(path):
    """(preset, record before, what the step says when resumed) for every step
    of a scripted game: the outputs that entered it, after the morning's
    news for the morning's last word (who died, and why he speaks)."""
    script = load_script(path)
    record = play_record(script)
    game = Game(script.preset)
    news: list = []
    for n, inp in enumerate(record, 1):
        outputs = game.handle(inp)
        starts = [i for i, o in enumerate(outputs) if isinstance(o, PhaseStarted)]
        if starts and game.phase is not Phase.GAME_OVER:
            entered = outputs[starts[-1] + 1 :]
            if game.phase is Phase.MORNING:
                news = [o for o in entered if isinstance(o, Say)]
            yield script.preset, record[:n], (news if morning_last_word(game.state) else []) + entered


def play_record(script):
    _, runtime = simulate(script, duration)
    return runtime.game.record


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_resumed_step_says_and_times_what_the_step_does_when_entered(path):
    for preset, record, entered in steps_of(path):
        runtime = Runtime(Game.replay(preset, record), Scheduler(), duration)
        runtime.resume()
        resumed = said(runtime.timeline.dicts())
        assert resumed[0] == ("say", "game_resumed", {})
        assert resumed[1:] == of_outputs(entered), (preset.name, runtime.game.phase, len(record))


def test_the_scenarios_enter_every_step_of_every_preset():
    seen = {name: set() for name in PRESETS}
    for path in SCENARIOS:
        for preset, record, _ in steps_of(path):
            seen[preset.name].add(Game.replay(preset, record).phase)
    city_only = {
        Phase.INTRO_SPEECH,
        Phase.DISCUSSION,
        Phase.NOMINATION,
        Phase.JUSTIFICATION,
        Phase.GOLDEN_ASK,
        Phase.GOLDEN_MINUTE,
        Phase.NIGHT_VISIT,
    }
    sport = set(Phase) - city_only - {Phase.ROLES, Phase.GAME_OVER}
    assert seen["classic"] == sport
    assert seen["event"] >= sport - {Phase.NIGHT_CHECK} - {Phase.TIE_SPEECH}
    assert seen["city"] == set(Phase) - {
        Phase.ROLES,
        Phase.GAME_OVER,
        Phase.INTRO_MEET,
        Phase.LAST_WORD,
        Phase.SPEECH,
    }


def test_a_classic_game_resumed_in_the_agreement_night_gives_the_mafia_its_minute():
    """The bug: the resumed agreement night said «Просыпается мафия» and «Время!», never why."""
    script = load_script(EXAMPLES["classic"])
    game = Game(script.preset)
    game.handle(play_record(script)[0])
    assert game.phase is Phase.INTRO_MAFIA
    runtime = Runtime(game, Scheduler(), duration)
    runtime.resume()
    assert said(runtime.timeline.dicts())[:4] == [
        ("say", "game_resumed", {}),
        ("say", "mafia_wakes", {}),
        ("say", "agreement", {"seconds": 60}),
        ("timer", "agreement", 60),
    ]


# ------------------------------------------------------------ killed at every input


def phrases_after(timeline, outputs, m, n):
    """The uninterrupted game's phrases from the opening of the step entered
    by input ``m`` on, without what inputs ``m+1..n`` (the step's inputs
    before the kill) said themselves: what a game resumed after input ``n``
    must say. The phrases an input said follow its ``input`` entry."""
    phrases, seen, skip = [], 0, 0
    for e in timeline:
        if e["type"] == "input":
            seen += 1
            outs = outputs[seen - 1]
            if seen == m:
                last = max(i for i, o in enumerate(outs) if isinstance(o, PhaseStarted))
                skip = sum(isinstance(o, Say) for o in outs[:last])
            else:
                skip = sum(isinstance(o, Say) for o in outs) if m < seen <= n else 0
        elif e["type"] == "say" and seen >= m:
            if skip:
                skip -= 1
            elif not e.get("dropped"):
                phrases.append((e["key"], entry_slots(e)))
    return phrases


def said_back(phrases, state):
    """A best move made in the last word before the kill: the resumed step says it back
    («Лучший ход: три, пять и восемь. Принято.») where its opening asked for it."""
    if state.phase is not Phase.LAST_WORD or state.best_move_seat != state.speaker or not state.best_move:
        return phrases
    made = ("best_move_accepted", {"seats": list(state.best_move)})
    return [made if phrase == ("best_move", {}) else phrase for phrase in phrases]


def killed_after(script, n, folder, stamps, record, settings):
    """The game killed after its ``n``th input (the store has inputs 1..n) and resumed from its store."""
    crashed = Store(folder / f"crash-{n}.sqlite3")
    gid = crashed.games.new_game(script.preset.name, "simulate", settings)
    for seq, (t, inp) in enumerate(zip(stamps[:n], record[:n], strict=True), 1):
        crashed.games.append(gid, seq, t, inp)
    result, resumed = simulate(script, duration, store=crashed, resume=True)
    crashed.close()
    said = [
        (e["key"], entry_slots(e))
        for e in resumed.timeline.dicts()
        if e["type"] == "say" and not e.get("dropped")
    ]
    return result, said


def test_a_game_killed_right_after_the_best_move_says_it_back_and_goes_on_as_the_uninterrupted_one(tmp_path):
    """The bug: resumed, his last word asked «Лучший ход.» again and never said the one accepted."""
    script = load_script(EXAMPLES["classic"])
    store = Store(tmp_path / "full.sqlite3")
    full_result, full = simulate(script, duration, store=store)
    stamps = [t for _, t, _ in store.games.inputs(1)]
    store.close()
    record = full.game.record
    n = next(i for i, inp in enumerate(record, 1) if isinstance(inp, BestMove))
    result, said = killed_after(script, n, tmp_path, stamps, record, {"script": fingerprint(script)})
    keys = [key for key, _ in said]
    assert ("best_move_accepted", {"seats": [3, 5, 8]}) in said
    assert "best_move" not in keys  # not asked again: he gave it before the kill
    assert keys.index("best_move_accepted") == keys.index("last_word") + 1
    assert result["best_move"] == full_result["best_move"] == {"seat": 1, "seats": [3, 5, 8], "black": 3}
    assert (result["winner"], result["out"]) == (full_result["winner"], full_result["out"])


def untimed(phrases):
    """The resumed step's first phrase without its seconds (the time left is allowed to differ)."""
    if phrases:
        key, slots = phrases[0]
        phrases = [(key, {k: v for k, v in slots.items() if k != "seconds"}), *phrases[1:]]
    return phrases


@pytest.fixture
def fast_dir(tmp_path):
    """A folder in memory where there is one (the stores' commits cost no disk syncs there)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="host-device-test-") as folder:
        yield Path(folder)


@pytest.mark.parametrize("name", ["classic", "city"])
@pytest.mark.slow
def test_a_game_killed_at_any_input_and_resumed_says_what_the_uninterrupted_one_says(name, fast_dir):
    tmp_path = fast_dir
    script = load_script(EXAMPLES[name])
    store = Store(tmp_path / "full.sqlite3")
    _, full = simulate(script, duration, store=store)
    stamps = [t for _, t, _ in store.games.inputs(1)]
    store.close()
    record = full.game.record
    game = Game(full.game.preset)
    outputs = [game.handle(inp) for inp in record]
    starts = [i + 1 for i, outs in enumerate(outputs) if any(isinstance(o, PhaseStarted) for o in outs)]
    settings = {
        "script": fingerprint(script),
        **({"table": table_of(script.preset)} if name == "city" else {}),
    }
    hit = 0  # steps resumed in the morning's last word
    for n in range(1, len(record)):
        m = max(i for i in starts if i <= n)
        _, got = killed_after(script, n, tmp_path, stamps, record, settings)
        assert got[0] == ("game_resumed", {}), n
        state = Game.replay(full.game.preset, record[:n]).state
        expected = said_back(phrases_after(full.timeline.dicts(), outputs, m, n), state)
        news = []
        if morning_last_word(state):
            morning = max(i for i in starts if i < m)  # the input that began the morning
            entered = outputs[morning - 1]
            first = max(i for i, o in enumerate(entered) if isinstance(o, PhaseStarted))
            news = [(o.phrase, slots_of(o)) for o in entered[first:] if isinstance(o, Say)]
            assert news[0][0] == "morning" and news[1][0] == "killed", n  # who died, again
            hit += 1
        got, want = got[1:], news + expected
        assert got[: len(news)] == news, n
        assert untimed(got[len(news) :]) == untimed(want[len(news) :]), (n, game.phase)
    assert hit or name == "city"  # the city has no last word


def test_a_resumed_vote_keeps_its_ballots_and_lights_them_again():
    """The ballots cast before the stop stand (their LEDs lit again as the window is asked
    again; a second press is refused) and the others vote in the new window."""
    from engine import Vote
    from tests.helpers.table import to_vote

    table = to_vote({1: 4, 2: 7})
    table.advance()  # the vote's first window
    table.do(Vote(seat=1), Vote(seat=2), Vote(seat=3))
    runtime = Runtime(Game.replay("classic", table.game.record), Scheduler(), duration)
    runtime.adopt(runtime.game)
    runtime.resume()
    runtime.sched.run_due(runtime.window[0])
    candidate = runtime.game.state.vote_round.current
    asked = [e for e in runtime.timeline.dicts() if e["type"] == "say" and e["key"] == "vote_question"]
    assert asked and asked[0]["seat"] == candidate
    assert {seat for seat, pattern in runtime.leds.items() if pattern == "on"} == {1, 2, 3}
    assert not runtime.press(2) and runtime.refusal is not None and runtime.refusal.code == "already_voted"
    assert runtime.press(5) and runtime.game.state.vote_round.ballots == dict.fromkeys(
        (1, 2, 3, 5), candidate
    )


def test_a_check_made_before_the_stop_still_shows_its_answer():
    """The step a resumed game is in began where the game says (``Game.step_began``), not at
    the restart: the check made in it before the stop counts in it, its answer on his phone."""
    from engine import Check, Role
    from host_device.screens.views import seat_view
    from tests.helpers.table import Table

    night = Table()
    night.until(Phase.NIGHT_CHECK)
    while night.state.step_role is not Role.SHERIFF:
        night.advance()
    sheriff = next(seat for seat, role in night.state.roles.items() if role is Role.SHERIFF)
    night.do(Check(seat=sheriff, target=1))
    runtime = Runtime(Game.replay("classic", night.game.record), Scheduler(), duration)
    runtime.adopt(runtime.game)
    runtime.resume()
    assert seat_view(runtime, sheriff)["answer"].endswith("(игрок 1)")
