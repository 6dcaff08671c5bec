"""The city rules (003) in the engine: the table by seats, the calm day and
the meeting night, the discussion day (nomination round, alibis,
justifications, golden minute), the vote where silence means "nobody", its
ties, the night's visits with their limits, the morning news, no fouls."""

import pytest

from engine import (
    Advance,
    BadTable,
    Check,
    DealRoles,
    Foul,
    Game,
    GoldenMinute,
    IllegalInput,
    Nominate,
    Phase,
    Role,
    Shot,
    Visit,
    Vote,
    city_preset,
    get_preset,
)
from engine.outputs import (
    AlibiRefused,
    GoldenMinuteTaken,
    LifeSaved,
    NamedOutOfGame,
    NoVote,
    PlayerLeft,
    Say,
    StartTimer,
    Tie,
    VisitMade,
    VoteCounted,
)
from tests.helpers.table import Table

ROLES = {2: Role.MAFIA, 5: Role.MAFIA, 9: Role.MAFIA, 4: Role.SHERIFF, 6: Role.DOCTOR, 7: Role.LOVER}
MAFIA = (2, 5, 9)


def said(outputs):
    return [o.phrase for o in outputs if isinstance(o, Say)]


class City:
    def __init__(self, seats=10, roles=None):
        self.game = Game(city_preset(seats))
        self.out = self.do(DealRoles(roles=tuple(sorted((roles or ROLES).items()))))

    def do(self, *inputs):
        new = []
        for inp in inputs:
            new += self.game.handle(inp)
        return new

    @property
    def s(self):
        return self.game.state

    def until(self, phase, limit=300):
        new = []
        for _ in range(limit):
            if self.game.phase is phase:
                return new
            assert self.game.phase is not Phase.GAME_OVER, f"game over before {phase}"
            new += self.do(Advance())
        raise AssertionError(f"{phase} not reached")

    def round(self, nominations):
        """The nomination round: each caller named in ``nominations`` names his candidate, the rest pass."""
        self.until(Phase.NOMINATION)
        new = []
        while self.game.phase is Phase.NOMINATION:
            caller = self.s.speaker
            new += self.do(
                Nominate(seat=caller, target=nominations[caller]) if caller in nominations else Advance()
            )
        return new

    def vote(self, ballots):
        """One round of the vote: ``ballots`` candidate -> the seats that press in his window."""
        self.until(Phase.VOTE)
        new = []
        kind = self.s.vote_round.kind
        while self.game.phase is Phase.VOTE and self.s.vote_round.kind is kind:
            current = self.s.vote_round.current
            new += self.do(*(Vote(seat=v) for v in ballots.get(current, ())), Advance())
        return new

    def night(self, shots=(), sheriff=None, doctor=None, lover=None):
        """A night: every mafia seat in ``shots`` shoots its target; the roles press at their targets."""
        new = self.until(Phase.NIGHT_HUNT)
        new += self.do(*(Shot(seat=m, target=t) for m, t in shots), Advance())
        for phase, role, target, kind in (
            (Phase.NIGHT_CHECK, Role.SHERIFF, sheriff, Check),
            (Phase.NIGHT_VISIT, Role.DOCTOR, doctor, Visit),
            (Phase.NIGHT_VISIT, Role.LOVER, lover, Visit),
        ):
            if role not in {r for r, _ in self.game.preset.roles}:
                continue
            assert self.game.phase is phase and self.s.step_role is role
            seat = next(s for s, r in self.s.roles.items() if r is role)
            if target is not None:
                new += self.do(kind(seat=seat, target=target))
            new += self.do(Advance())
        return new


def test_the_table_by_seats():
    assert [(n, dict(city_preset(n).roles)[Role.MAFIA]) for n in (6, 7, 8, 10, 11, 12, 16)] == [
        (6, 2),
        (7, 2),
        (8, 2),
        (10, 3),
        (11, 3),
        (12, 3),
        (16, 4),
    ]
    assert Role.LOVER not in dict(city_preset(7).roles) and city_preset(7).visits == (Role.DOCTOR,)
    assert dict(city_preset(8).roles)[Role.LOVER] == 1 and city_preset(8).visits == (Role.DOCTOR, Role.LOVER)
    assert dict(city_preset(12, mafia=4, lover=False).roles) == {
        Role.SHERIFF: 1,
        Role.DOCTOR: 1,
        Role.MAFIA: 4,
    }
    for bad, message in [
        ((5,), "5 seats; the city rules are played at 6 to 16 seats"),
        ((17,), "17 seats"),
        ((8, 4), "4 mafia at 8 seats; the mafia must be fewer than the others"),
        ((8, 0), "0 mafia; there must be at least one"),
    ]:
        with pytest.raises(BadTable, match=message):
            city_preset(*bad)
    assert get_preset("city", 12).seats == 12 and get_preset("city").seats == 10
    assert (
        get_preset("city").deal_phrase() == "fate_night"
        and get_preset("classic").deal_phrase() == "deal_roles"
    )
    assert get_preset("classic", 10) is get_preset("classic")
    with pytest.raises(BadTable, match="classic: the table has 10 seats, not 12"):
        get_preset("classic", 12)


def test_the_roles_must_fit_the_table():
    game = Game(city_preset(10))
    with pytest.raises(IllegalInput, match="needs 1 doctor, got 2"):
        game.handle(
            DealRoles(
                roles=(
                    (1, Role.DOCTOR),
                    (2, Role.DOCTOR),
                    (3, Role.SHERIFF),
                    (4, Role.LOVER),
                    (5, Role.MAFIA),
                    (6, Role.MAFIA),
                    (7, Role.MAFIA),
                )
            )
        )
    with pytest.raises(IllegalInput, match="role don is not in the city preset"):
        game.handle(DealRoles(roles=((1, Role.DON),)))


def test_the_calm_day_then_the_meeting_night():
    city = City()
    assert said(city.out)[0] == "calm_day"
    speakers = []
    while city.game.phase is Phase.INTRO_SPEECH:
        speakers.append(city.s.speaker)
        with pytest.raises(IllegalInput, match="nominate is not allowed now"):
            city.do(Nominate(seat=city.s.speaker, target=3))
        city.do(Advance())
    assert speakers == list(range(1, 11))
    timers = [o for o in city.out if isinstance(o, StartTimer)]
    assert timers == [StartTimer(seconds=30, purpose="intro_speech")]
    assert city.game.phase is Phase.INTRO_MAFIA
    out = city.do(Advance())
    assert said(out) == ["mafia_met", "city_morning"] and city.game.phase is Phase.MORNING
    assert city.s.day == 1 and city.s.out == []


def test_the_day_discussion_round_justifications_golden_minute_vote():
    city = City()
    out = city.until(Phase.DISCUSSION)
    assert StartTimer(seconds=180, purpose="discussion") in out
    with pytest.raises(IllegalInput, match="nominate is not allowed now"):
        city.do(Nominate(seat=1, target=5))
    out = city.do(Advance())
    assert city.game.phase is Phase.NOMINATION and city.s.speaker == 1  # day 1 opens at seat 1
    assert said(out)[-1] == "nomination" and StartTimer(seconds=10, purpose="nomination") in out
    city.do(Nominate(seat=1, target=5))
    assert city.s.speaker == 2
    city.do(Advance())  # seat 2 passes
    with pytest.raises(IllegalInput, match="player 5 is already nominated today"):
        city.do(Nominate(seat=3, target=5))
    with pytest.raises(IllegalInput, match="only the speaker \\(seat 3\\) may nominate"):
        city.do(Nominate(seat=4, target=8))
    city.do(Nominate(seat=3, target=8))
    out = city.round({})
    assert city.game.phase is Phase.JUSTIFICATION and city.s.speaker == 5 and city.s.candidates == [5, 8]
    assert StartTimer(seconds=30, purpose="justification") in out
    with pytest.raises(IllegalInput, match="only the candidate justifying himself \\(seat 5\\)"):
        city.do(GoldenMinute(seat=8))
    out = city.do(GoldenMinute(seat=5))  # said during his justification
    assert GoldenMinuteTaken(day=1, seat=5) in out and said(out) == []  # not said over his own words
    with pytest.raises(IllegalInput, match="player 5 has already asked"):
        city.do(GoldenMinute(seat=5))
    out = city.do(Advance())  # his 30 s end: now the table hears it
    assert said(out) == ["golden_taken", "justification"] and Say(phrase="golden_taken", seat=5) in out
    assert city.s.speaker == 8
    out = city.do(Advance())
    assert city.game.phase is Phase.GOLDEN_ASK and said(out)[-1] == "golden_question"
    assert StartTimer(seconds=5, purpose="golden_ask") in out
    with pytest.raises(IllegalInput, match="player 3 is not a candidate today"):
        city.do(GoldenMinute(seat=3))
    city.do(GoldenMinute(seat=8))
    out = city.do(Advance())
    assert city.game.phase is Phase.GOLDEN_MINUTE and city.s.speaker == 5  # in nomination order
    assert StartTimer(seconds=60, purpose="golden_minute") in out
    city.do(Advance())
    assert city.s.speaker == 8
    out = city.do(Advance())
    assert city.game.phase is Phase.VOTE_ANNOUNCE and said(out)[-1] == "candidates"
    assert city.s.golden_used == [5, 8]
    out = city.vote({5: [1, 2, 3, 4, 6], 8: [7, 9]})  # three stay silent: "nobody"
    counted = next(o for o in out if isinstance(o, VoteCounted))
    assert counted.counts == ((5, 5), (8, 2)) and counted.nobody == 3
    assert PlayerLeft(seat=5, how="vote", day=1) in out
    assert "last_word" not in said(out) and city.game.phase is Phase.NIGHT_HUNT  # no last word in city
    assert said(out)[-2:] == ["city_night_falls", "city_hunt"]


def test_the_golden_minute_is_once_a_game_and_the_question_is_skipped_when_nobody_can_ask():
    city = City()
    city.round({1: 5})
    city.do(GoldenMinute(seat=5))
    out = city.until(Phase.VOTE_ANNOUNCE)
    assert "golden_question" not in said(out)  # the only candidate has asked already
    city.vote({})  # everybody silent: nobody leaves
    city.night()
    city.round({2: 5, 3: 8})
    with pytest.raises(IllegalInput, match="player 5 has had his golden minute in this game"):
        city.do(GoldenMinute(seat=5))


def test_silence_is_a_vote_for_nobody_and_wins_its_ties():
    city = City()
    city.round({1: 5, 2: 8})
    out = city.vote({5: [1, 2, 3, 4], 8: [6, 7]})  # 4, 2, nobody 4: level with the top
    assert NoVote(day=1, reason="nobody") in out and said(out)[-3:] == [
        "no_vote_nobody",
        "city_night_falls",
        "city_hunt",
    ]
    assert city.s.out == []


def test_a_player_out_of_the_game_named_in_the_round_is_told_and_the_caller_names_another():
    city = City()
    city.round({1: 5})
    city.vote({5: [1, 2, 3, 4, 6, 7]})  # 5 leaves
    city.night()
    city.until(Phase.NOMINATION)
    caller = city.s.speaker
    out = city.do(Nominate(seat=caller, target=5))
    assert NamedOutOfGame(day=2, seat=caller, target=5) in out
    assert Say(phrase="named_out", seat=5) in out and city.s.speaker == caller  # «Игрок номер пять выбыл.»
    city.do(Nominate(seat=caller, target=8))
    assert city.s.candidates == [8]
    classic = Table()  # in a classic speech such a nomination is refused, as before
    classic.do(*[Foul(seat=5)] * 4)  # 5 disqualified in the morning
    classic.until(Phase.SPEECH)
    with pytest.raises(IllegalInput, match="candidate 5 is out of the game"):
        classic.do(Nominate(seat=1, target=5))


def test_a_lone_candidate_is_voted_even_on_day_one():
    city = City()
    city.round({1: 5})
    out = city.vote({5: [1, 2, 3, 4, 6, 7]})  # 6 to 4
    assert PlayerLeft(seat=5, how="vote", day=1) in out


def test_no_candidates_no_vote():
    city = City()
    out = city.round({})
    assert NoVote(day=1, reason="no_candidates") in out + city.until(Phase.NIGHT_HUNT)


def test_a_tie_of_two_candidates_speaks_then_revotes_and_a_second_tie_keeps_everyone():
    city = City()
    city.round({1: 5, 2: 8})
    out = city.vote({5: [1, 2, 3, 4], 8: [6, 7, 9, 10]})  # 4, 4, nobody 2
    assert Tie(day=1, seats=(5, 8)) in out and city.game.phase is Phase.TIE_SPEECH and city.s.speaker == 5
    out = city.until(Phase.VOTE)
    assert city.s.vote_round.kind.value == "revote"
    out = city.vote({5: [1, 2, 3, 4], 8: [6, 7, 9, 10]})
    assert NoVote(day=1, reason="tie_again") in out and city.s.out == []
    assert city.game.phase is Phase.NIGHT_HUNT


def test_a_tie_among_more_candidates_revotes_at_once():
    city = City()
    city.round({1: 5, 2: 8, 3: 10})
    out = city.vote({5: [1, 2, 3], 8: [4, 6, 7], 10: [9]})  # 3, 3, 1, and 3 silent
    assert NoVote(day=1, reason="nobody") in out  # "nobody" level with the top wins
    city = City()
    city.round({1: 5, 2: 8, 3: 10})
    out = city.vote({5: [1, 2, 3, 4], 8: [6, 7, 9, 10], 10: [8]})  # 4, 4, 1, nobody 1
    assert said(out)[-1] == "vote_question" and "tie_revote" in said(out)
    assert city.game.phase is Phase.VOTE and city.s.vote_round.candidates == (5, 8)
    out = city.vote({5: [1, 2, 3, 4, 6], 8: [7, 9]})
    assert PlayerLeft(seat=5, how="vote", day=1) in out


def test_the_night_kill_a_save_and_the_morning_news():
    city = City()
    city.round({})
    out = city.night(shots=[(2, 1), (5, 1), (9, 1)], sheriff=2, doctor=1, lover=3)
    assert LifeSaved(night=1, seat=1) in out and city.s.out == []
    assert said(out)[-3:] == ["city_morning", "city_nobody_killed", "doctor_saved"]
    assert [
        o
        for o in out
        if isinstance(o, Say) and o.phrase in ("sheriff_investigates", "doctor_wakes", "lover_wakes")
    ]
    assert city.s.alibi == {2: 3}
    city.round({})
    out = city.night(shots=[(2, 1), (5, 1), (9, 1)], doctor=3)
    assert PlayerLeft(seat=1, how="shot", night=2) in out
    assert said(out)[-2:] == ["city_morning", "killed"] and "last_word" not in said(out)
    assert city.game.phase is Phase.MORNING


def test_the_lovers_alibi_refuses_a_nomination_and_the_caller_names_another():
    city = City()
    city.round({})
    city.night(lover=8)
    city.until(Phase.NOMINATION)
    caller = city.s.speaker
    out = city.do(Nominate(seat=caller, target=8))
    assert AlibiRefused(day=2, seat=caller, target=8) in out and said(out) == ["alibi"]
    assert city.s.speaker == caller and city.s.candidates == []
    city.do(Nominate(seat=caller, target=3))
    assert city.s.candidates == [3]


def test_the_doctor_and_the_lover_limits():
    city = City()
    visits = []
    for doctor, lover in [(6, 7), (6, 7), (3, 3), (3, 3), (3, 1)]:
        city.round({})
        out = city.night(doctor=doctor, lover=lover)
        visits += [(o.night, o.by, o.target, o.ignored) for o in out if isinstance(o, VisitMade)]
    assert visits == [
        (1, Role.DOCTOR, 6, None),
        (1, Role.LOVER, 7, None),
        (2, Role.DOCTOR, 6, "self_again"),
        (2, Role.LOVER, 7, "self_again"),
        (3, Role.DOCTOR, 3, None),
        (3, Role.LOVER, 3, None),
        (4, Role.DOCTOR, 3, "same_as_last_night"),
        (4, Role.LOVER, 3, "same_as_last_night"),
        (5, Role.DOCTOR, 3, None),
        (5, Role.LOVER, 1, None),
    ]
    assert city.s.alibi == {2: 7, 4: 3, 6: 1}


def test_other_seats_and_second_presses_change_nothing_and_a_dead_role_is_still_called():
    city = City()
    city.round({})
    city.until(Phase.NIGHT_HUNT)
    city.do(Shot(seat=2, target=6), Shot(seat=5, target=6), Shot(seat=9, target=6), Advance(), Advance())
    assert city.s.step_role is Role.DOCTOR
    assert city.do(Visit(seat=1, target=6)) == []  # not the Doctor
    assert [type(o) for o in city.do(Visit(seat=6, target=6))] == [
        VisitMade
    ]  # the shot Doctor still heals himself
    assert city.do(Visit(seat=6, target=1)) == []  # his second press
    out = city.until(Phase.MORNING)
    assert LifeSaved(night=1, seat=6) in out
    city.round({})
    city.do(*[Advance()] * 0)
    city.until(Phase.NIGHT_HUNT)
    city.do(Shot(seat=2, target=6), Shot(seat=5, target=6), Shot(seat=9, target=6), Advance(), Advance())
    city.do(Visit(seat=6, target=4))  # heals another: the Doctor dies
    out = city.until(Phase.MORNING)
    assert PlayerLeft(seat=6, how="shot", night=2) in out
    city.round({})
    city.until(Phase.NIGHT_HUNT)
    city.do(Advance(), Advance())
    assert city.game.phase is Phase.NIGHT_VISIT and city.s.step_role is Role.DOCTOR  # called all the same
    with pytest.raises(IllegalInput, match="seat 6 is out of the game"):
        city.do(Visit(seat=6, target=1))


def test_there_are_no_fouls():
    city = City()
    with pytest.raises(IllegalInput, match="there are no fouls in the city rules"):
        city.do(Foul(seat=3))


def test_six_seats_without_a_lover_and_the_mafia_win_at_parity():
    city = City(6, {1: Role.MAFIA, 2: Role.MAFIA, 3: Role.SHERIFF, 4: Role.DOCTOR})
    city.round({})
    out = city.night(shots=[(1, 5), (2, 5)], doctor=4)
    assert city.s.out == [5] and "lover_wakes" not in said(out)
    city.round({1: 6})
    out = city.vote({6: [1, 2, 3]})  # 3 of 5; nobody 2
    assert city.s.winner == "black"


def test_the_legal_inputs_of_the_city_steps():
    city = City()
    city.until(Phase.NOMINATION)
    assert Nominate(seat=1, target=5) in city.game.legal_inputs()
    city.do(Nominate(seat=1, target=5))
    city.until(Phase.JUSTIFICATION)
    assert city.game.legal_inputs() == [Advance(), GoldenMinute(seat=5)]
    city.until(Phase.NIGHT_HUNT)
    city.do(Advance(), Advance())
    assert Visit(seat=6, target=1) in city.game.legal_inputs()


def test_a_variable_table_is_named_by_its_table():
    from engine import CLASSIC
    from engine.presets import table_of

    twelve = city_preset(12, mafia=4, lover=False)
    assert table_of(twelve) == {"seats": 12, "mafia": 4, "lover": False}
    assert get_preset("city", **table_of(twelve)) == twelve
    assert table_of(CLASSIC) == {}


def test_a_city_game_of_its_own_size_is_stored_and_replayed(tmp_path, builtin_pack):
    import json

    from host_device.scripts.script import parse_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store

    script = parse_script(
        {
            "preset": "city",
            "seats": 7,
            "roles": {"1": "mafia", "2": "mafia", "3": "sheriff", "4": "doctor"},
            "days": [{"speeches": {"1": "Я выставляю игрока номер пять"}, "votes": [{"5": [1, 2, 3, 4, 6]}]}],
        }
    )
    store = Store(tmp_path / "g.sqlite3", create=True)
    result, runtime = simulate(script, store=store)
    (row,) = store.games.unfinished()
    assert json.loads(json.dumps(store.games.settings(row.id)))["table"] == {
        "seats": 7,
        "mafia": 2,
        "lover": False,
    }
    assert store.games.preset(row.id).seats == 7 and store.games.replay(row.id).state == runtime.game.state
    assert result["out"] == [{"seat": 5, "day": 1, "how": "vote"}]
    store.close()
