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


def test_every_input_a_step_allows_is_taken_in_some_game_and_no_other_ever_is():
    """The table of what each step allows is exact: over random games of every
    preset, each kind it lists for a step is legal in some state of that step,
    and the engine never takes a kind it does not list (each kind's inputs
    tried in every state reached)."""
    import itertools
    import random

    from engine import PRESETS, Advance, BestMove, DealRoles, Foul, Game, get_preset
    from engine.game import CANDIDATES
    from engine.steps import ALLOWS

    taken: dict[Phase, set[type]] = {phase: set() for phase in Phase}
    fouls_here: set[Phase] = set()  # steps reached under rules that have fouls
    for name in sorted(PRESETS):
        preset = get_preset(name)
        for seed in range(40):
            rng = random.Random(seed)
            game = Game(preset)
            seats = rng.sample(range(1, preset.seats + 1), preset.seats)
            dealt = [
                seat_role for role, n in preset.roles for seat_role in ((seats.pop(), role) for _ in range(n))
            ]
            game.handle(DealRoles(roles=tuple(sorted(dealt))))
            for _ in range(600):
                s = game.state
                if s.phase is Phase.GAME_OVER:
                    break
                if preset.fouls:
                    fouls_here.add(s.phase)
                for kind, candidates in CANDIDATES.items():
                    if kind in taken[s.phase]:
                        continue
                    # a kind the step does not list is refused whatever its seats: a few of them tried
                    tried = (
                        candidates(s)
                        if kind in ALLOWS[s.phase].inputs
                        else itertools.islice(candidates(s), 3)
                    )
                    if any(isinstance(inp, kind) and game.is_legal(inp) for inp in tried):
                        taken[s.phase].add(kind)
                kinds = sorted((k for k in ALLOWS[s.phase].inputs if k is not Advance), key=lambda k: k.TYPE)
                kind = rng.choice(kinds) if kinds else None
                pool = (
                    [i for i in CANDIDATES[kind](s) if isinstance(i, kind)]
                    if kind and rng.random() < 0.7
                    else []
                )
                chosen = rng.choice(pool) if pool else Advance()
                game.handle(chosen if game.is_legal(chosen) else Advance())
    assert {phase for phase in Phase if taken[phase]} == set(Phase) - {Phase.ROLES, Phase.GAME_OVER}
    for phase in Phase:
        listed = set(ALLOWS[phase].inputs)
        assert taken[phase] <= listed, phase  # nothing the table does not list
        # every listed kind was seen taken (deals and best moves are not listed: the games start dealt)
        unlisted = {DealRoles, BestMove} | (set() if phase in fouls_here else {Foul})
        assert listed - unlisted <= taken[phase], phase


def test_the_last_word_listens_for_a_best_move_only_while_its_speaker_has_one():
    from engine import Shot
    from engine.steps import Listen, listening
    from tests.helpers.table import Table

    table = Table()
    table.day_speeches()
    assert listening(table.game.preset, table.state) is None  # the vote's announcement hears nothing
    table.advance()  # no candidates: night
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    assert listening(table.game.preset, table.state) is Listen.BEST_MOVE
    table.advance()
    assert table.state.phase is Phase.SPEECH
    assert listening(table.game.preset, table.state) is Listen.SPEECH
    state = table.state
    state.phase, state.day = Phase.LAST_WORD, 3  # a later morning's victim has no best move
    assert listening(table.game.preset, state) is Listen.FLOOR  # his forbidden words and his «спасибо»


def test_every_step_a_speaker_has_the_floor_in_listens_to_him():
    """The forbidden words are heard wherever a named speaker speaks (issue 39):
    every step whose press ends a speech listens, none at night."""
    from engine.steps import ALLOWS, FLOOR, NIGHT

    assert {phase for phase in FLOOR if ALLOWS[phase].listens is None} == set()
    assert {phase for phase in NIGHT if ALLOWS[phase].listens is not None} == set()
