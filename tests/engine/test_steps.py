"""The table of steps: groups, timers and openings."""

from engine import CITY, CLASSIC, Phase, State
from engine.outputs import Say, StartTimer
from engine.steps import DAY, FLOOR, NIGHT, NIGHT_CALLS, opening, seconds, time_left


def test_the_groups_split_the_phases():
    assert NIGHT.isdisjoint(DAY) and FLOOR <= DAY and set(NIGHT_CALLS) <= NIGHT
    assert DAY | NIGHT | {Phase.ROLES, Phase.GAME_OVER} == set(Phase)


def test_a_speech_resumed_keeps_the_time_it_had_left_and_other_timers_start_anew():
    assert seconds(Phase.GOLDEN_MINUTE, CITY) == 60 and seconds(Phase.VOTE, CLASSIC) is None
    assert time_left(Phase.SPEECH, CLASSIC, 45.4) == 15
    assert time_left(Phase.SPEECH, CLASSIC, 75.0) == 1
    assert time_left(Phase.INTRO_MAFIA, CLASSIC, 30.0) == 60
    state = State(preset="classic", seats=10, phase=Phase.SPEECH, speaker=4)
    assert opening(CLASSIC, state, elapsed=20.0) == (
        Say(phrase="speech", seat=4, seconds=40),
        StartTimer(seconds=40, purpose="speech"),
    )


def test_the_roles_and_the_end_say_nothing_of_their_own():
    for phase in (Phase.ROLES, Phase.GAME_OVER):
        assert opening(CLASSIC, State(preset="classic", seats=10, phase=phase)) == ()


def test_the_mornings_last_word_resumed_says_the_mornings_news_first():
    """A game resumed in the victim's last word tells the table again who died that night."""
    from engine import Shot
    from engine.steps import resumption
    from tests.helpers.table import Table

    table = Table()
    table.day_speeches()
    table.advance()  # no candidates: night
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    said = [o.phrase for o in resumption(table.game.preset, table.state) if isinstance(o, Say)]
    assert said == ["morning", "killed", "last_word", "best_move"]
    assert Say(phrase="killed", seat=2) in resumption(table.game.preset, table.state)
    table.advance()  # his last word is over: a speech resumed says only itself
    assert [o.phrase for o in resumption(table.game.preset, table.state) if isinstance(o, Say)] == ["speech"]
