"""The public stream and state (host_device/screens/public.py): two whole games
that differ only in their secrets — who holds which black role, who shot,
who checked whom — give the same public events, event for event and second
for second, until the device says the end («Победа …», then the roles); so do games whose host presses
«Дальше» at any moment of a night step, in both modes and every preset."""

import functools
import json

import pytest

from engine import Phase
from engine.steps import DAY, NIGHT
from host_device.config import AssistSettings
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.settings import Settings
from host_device.runtime.timeline import LedSet
from host_device.screens.public import PublicStream, public_state
from host_device.scripts.script import parse_script
from host_device.scripts.simulate import ScriptedHost, builtin_durations, simulate
from tests.helpers.paths import ROOT
from voices.catalogue import russian

FULL = json.loads((ROOT / "examples" / "classic-full-game.json").read_text("utf-8"))


def other_secrets(script):
    """The same public game: the Don and a mafia swap seats (both are voted
    out), the Don is alive on night 1 and checks, the Sheriff checks others."""
    changed = json.loads(json.dumps(script))
    changed["roles"] = {"3": "mafia", "5": "don", "8": "mafia", "6": "sheriff"}
    changed["nights"][0].update({"don": 6, "sheriff": 8})
    changed["nights"][1].update({"sheriff": 9})
    return changed


def stream_of(script, seating=None):
    events, states = [], []
    holder = {}

    def watch(runtime):
        stream = PublicStream(runtime, russian().text)
        if seating is not None:
            stream.seating = seating
            runtime.sched.at(30.0, stream.names_changed)  # a name given during the game
        stream.listeners.append(events.append)
        stream.listeners.append(lambda _: states.append(public_state(stream)))
        holder["stream"] = stream

    result, runtime = simulate(parse_script(script), watch=watch)
    return result, runtime, events, states


@pytest.fixture(scope="module")
def two_games(builtin_pack):
    return stream_of(FULL), stream_of(other_secrets(FULL))


def test_the_two_games_really_differ_in_their_secrets(two_games):
    (_, a, _, _), (_, b, _, _) = two_games
    assert a.game.record != b.game.record
    assert dict(a.game.record[0].roles) != dict(b.game.record[0].roles)
    checks = lambda rt: [i for i in rt.game.record if i.TYPE == "check"]  # noqa: E731
    assert checks(a) != checks(b)


def said_end(events):
    """Where the device begins to say the end («Победа …», then each black role aloud)."""
    return next(i for i, e in enumerate(events) if e["type"] == "say" and e["key"] == "winner")


def test_games_that_differ_only_in_secrets_have_the_same_public_stream(two_games):
    (result_a, _, events_a, states_a), (result_b, _, events_b, states_b) = two_games
    said_a, said_b = said_end(events_a), said_end(events_b)
    assert events_a[: said_a + 1] == events_b[: said_b + 1]  # event for event, second for second
    assert said_a == said_b and said_a > 400
    assert states_a[: said_a + 1] == states_b[: said_b + 1]
    end_a = next(i for i, e in enumerate(events_a) if e["type"] == "game_ended")
    end_b = next(i for i, e in enumerate(events_b) if e["type"] == "game_ended")
    assert result_a["winner"] == result_b["winner"] == "red"
    assert events_a[end_a]["roles"] != events_b[end_b]["roles"]  # the end reveals each game's own
    assert len(events_a) > 300 and {"say", "timer", "led", "vote_taken", "player_left"} <= {
        e["type"] for e in events_a
    }


SECRET_WORDS = ("shot_taken", "check_made", "show_check", '"role"', '"roles"', "deal_roles", "don", "sheriff")


def test_nothing_secret_is_in_the_stream_or_the_state_before_the_end(two_games):
    (_, _, events, states), _ = two_games
    end = next(i for i, e in enumerate(events) if e["type"] == "game_ended")
    over = next(i for i, s in enumerate(states) if s["phase"] == "game_over")
    before = json.dumps(events[:end], ensure_ascii=False) + json.dumps(states[:over], ensure_ascii=False)
    for word in SECRET_WORDS:
        assert word not in before, word
    assert all(s["seats"][0].get("role") is None for s in states[:over])
    assert {s["seat"]: s["role"] for s in states[-1]["seats"]}[6] == "sheriff"  # revealed at the end


def test_the_day_leds_are_public_and_the_night_ones_are_not(two_games):
    (_, runtime, events, _), _ = two_games
    leds = [e for e in events if e["type"] == "led"]
    assert leds and all(e["pattern"] in ("on", "off", "blink") for e in leds)
    night_answers = [
        e for e in runtime.timeline.dicts() if e["type"] == "led" and e["pattern"] in ("pulse", "fast")
    ]
    assert not night_answers or all(e not in leds for e in night_answers)
    shown_at_night = [
        s for s in (e for e in events if e["type"] == "phase_started") if s["phase"].startswith("night")
    ]
    assert shown_at_night and all("role" not in e for e in shown_at_night)


def test_the_state_names_the_step_the_speaker_and_the_last_phrase(two_games):
    (_, _, events, states), _ = two_games
    speech = next(
        s for s, e in zip(states, events, strict=True) if e["type"] == "say" and e["key"] == "speech"
    )
    assert speech["title"] == "День 1 · речи" and speech["speaker"] == 1
    assert speech["last_phrase"] == "Игрок номер один, ваша минута."
    last = states[-1]
    assert last["phase"] == Phase.GAME_OVER.value and last["winner"] == "red"
    left = {s["seat"]: s["left"] for s in last["seats"] if not s["alive"]}
    assert left[1] == {"how": "shot", "night": 1} and left[3] == {"how": "vote", "day": 1}


def test_the_nominations_end_with_the_day_and_a_revote_names_its_candidates(two_games):
    (_, _, _, states), _ = two_games
    named = [s for s in states if s["nominations"]]
    assert named and all(Phase(s["phase"]) in DAY for s in named)
    night = [s for s in states if Phase(s["phase"]) in NIGHT and s["day"] >= 1]
    assert night and all(s["nominations"] == [] and s["candidates"] == [] for s in night)
    tie = [s for s in states if s["phase"] == "tie_speech"]
    assert tie and all(s["tied"] == [5, 8] for s in tie)
    revote = [s for s in states if s["vote"] and s["vote"]["kind"] == "revote"]
    assert revote and all(s["vote"]["candidates"] == [5, 8] and s["tied"] == [5, 8] for s in revote)
    main = next(s for s in states if s["vote"] and s["day"] == 2)
    assert main["vote"] == {**main["vote"], "kind": "main", "candidates": [5, 8]} and main["tied"] == []


def test_the_state_shows_the_days_counts_until_the_night_and_the_nights_called_number(two_games):
    """The TV shows a vote's counts (not only says them) and the number the
    night's step calls (said aloud): both in the state, public as they are."""
    (_, _, events, states), _ = two_games
    counted = [s for s in states if s["counted"]]
    assert counted and all(Phase(s["phase"]) in DAY for s in counted)
    first = next(s["counted"] for s in counted if s["day"] == 1)
    assert first == {"kind": "main", "counts": [[3, 6], [5, 4]], "nobody": None}  # 5: those who did not press
    revote = next(s["counted"] for s in counted if s["counted"]["kind"] == "revote")
    assert revote["counts"] == [[5, 5], [8, 3]]  # eight alive on day 2
    nights = [s for s in states if Phase(s["phase"]) in NIGHT]
    assert nights and all(s["counted"] is None for s in nights)
    calls = [(e, s) for e, s in zip(events, states, strict=True) if e["type"] == "say" and e["key"] == "call"]
    text = russian().text
    assert len(calls) > 20 and all(text("call", {"seat": s["called"]}) == e["text"] for e, s in calls)
    assert all(s["called"] is None for s in states if Phase(s["phase"]) in DAY)


# ---------------------------------------------------------------- «Дальше» at night

EXAMPLES = {
    name: ROOT / "examples" / f"{name}.json" for name in ("classic-full-game", "event-game", "city-game")
}
NIGHT_ON_KEYS = AssistSettings(auto_accept=False, votes="buttons", night="host")  # «проверка», seat, «дальше»
MOMENTS = [
    k * 0.5 for k in range(43)
]  # into each night step: its phrase, every call, the answer, past its end


def without_checks(script):
    """The same public game: no one checks anyone (a check and its answer are secrets)."""
    changed = json.loads(json.dumps(script))
    for night in changed["nights"]:
        for checker in ("sheriff", "don", "commissar"):
            night.pop(checker, None)
    return changed


def hurried(script, mode, moment, duration):
    """A script's game whose host presses «Дальше» ``moment`` seconds into
    every night step: host mode (the box's button), assist mode with the
    night on the buttons, or on the host's keys (the check entered by him,
    the step his to end). Returns the public events before the end, and those
    that named a LED lit at night or put out after it (none may)."""
    events, leaks = [], []

    def watch(rt):
        assist = None
        if mode == "assist-keys":
            assist = Assist(rt, NIGHT_ON_KEYS, role_entry=False)
            ScriptedHost(assist)
        elif mode == "assist":
            assist = Assist(rt, role_entry=False)
        lit_at_night, secret = {}, [False]

        def classify(entry):  # before the stream reads it
            secret[0] = False
            if isinstance(entry, LedSet):
                at_night = rt.game.phase not in DAY
                secret[0] = at_night or lit_at_night.get(entry.seat, False)
                lit_at_night[entry.seat] = at_night and entry.pattern != "off"

        rt.recorders.insert(0, classify)
        stream = PublicStream(rt, russian().text)

        def told(event):
            events.append(event)
            if event["type"] == "led" and secret[0]:
                leaks.append(event)

        stream.listeners.append(told)

        def next_key(step):
            if rt.step == step:
                (assist.press if assist is not None else rt.press)("next")

        def night_step(rt):
            if rt.game.phase in NIGHT:
                rt.sched.after(moment, functools.partial(next_key, rt.step))

        rt.step_hooks.append(night_step)

    how = {"mode": "assist"} if mode == "assist" else {}
    if mode == "assist-keys":
        how = {"settings": Settings(**runtime_settings(NIGHT_ON_KEYS))}
    simulate(parse_script(script), duration, watch=watch, **how)
    end = next((i for i, e in enumerate(events) if e["type"] == "game_ended"), len(events))
    return events[:end], leaks


@pytest.fixture(scope="module")
def duration(builtin_pack):
    return builtin_durations()


@pytest.mark.parametrize("mode", ["host", "assist", "assist-keys"])
@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.slow
def test_next_pressed_at_any_moment_of_the_night_tells_the_table_no_led_of_it(name, mode, duration):
    """«Дальше» while a check's answer shows (or at any other moment of a
    night step): the answer's LED is put out once the day has begun, and
    the table is never told; a game without the checks sounds the same."""
    script = json.loads(EXAMPLES[name].read_text("utf-8"))
    for moment in MOMENTS:
        events, leaks = hurried(script, mode, moment, duration)
        assert leaks == [], (moment, leaks)
        unchecked, _ = hurried(without_checks(script), mode, moment, duration)
        assert events == unchecked, moment
        assert any(e["type"] == "led" for e in events)  # the day's LEDs are still told


# ---------------------------------------------------------------- names and extra points


def seated(show_names):
    from host_device.screens.seating import Seating
    from host_device.store.roster import Player

    players = {1: Player("id-1", "Аннабель"), 6: Player("id-6", "Шерлок", "Ш.")}
    return Seating(players=players, extras={6: 0.7}, show_names=show_names, enabled=True)


@pytest.mark.parametrize("show_names", [False, True])
def test_names_are_public_only_after_the_end_unless_the_club_allows_and_extra_points_never_before(
    show_names, builtin_pack
):
    _, _, events, states = stream_of(FULL, seated(show_names))
    end = next(i for i, e in enumerate(events) if e["type"] == "game_ended")
    over = next(i for i, s in enumerate(states) if s["phase"] == "game_over")
    before = json.dumps(events[:end], ensure_ascii=False) + json.dumps(states[:over], ensure_ascii=False)
    assert ("Аннабель" in before) is show_names
    assert ("Шерлок (Ш.)" in before) is show_names
    assert '"extra"' not in before  # the host's points: never before the end
    for word in SECRET_WORDS:  # the roles stay secret, names or not
        assert word not in before, word
    named = [e for e in events[:end] if e["type"] == "names"]
    assert bool(named) is show_names  # a name given during the game is told only where it may be
    assert events[end]["names"] == {"1": "Аннабель", "6": "Шерлок (Ш.)"}
    last = {row["seat"]: row for row in states[-1]["seats"]}
    assert (last[1]["name"], last[6]["name"], last[6]["extra"]) == ("Аннабель", "Шерлок (Ш.)", 0.7)
    assert "name" not in last[2]
