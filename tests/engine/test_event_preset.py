"""The rules matrix again on the event preset (12 seats; mafia 2, 7, 11;
Commissar 4), where the classic tests' numbers do not carry over."""

import pytest

from engine import Check, Foul, IllegalInput, Nominate, Phase, Role, Shot, Withdraw
from engine.outputs import NoVote, PlayerLeft, Say, ShowCheck, Silenced, StartTimer, Tie, VoteCounted
from tests.helpers.table import Table, of, phrases

BLACK = (2, 7, 11)


def test_twelve_seats_speak_thirty_seconds_each():
    table = Table("event")
    assert table.day_speeches() == list(range(1, 13))
    assert [s.seconds for s in of(Say, table.outputs) if s.phrase == "speech"] == [30] * 12


def test_nominations_replace_withdraw_and_refuse_duplicates():
    table = Table("event")
    table.until(Phase.SPEECH, seat=1)
    table.do(Nominate(seat=1, target=12), Nominate(seat=1, target=11))
    assert table.state.candidates == [11]
    table.do(Withdraw(seat=1, target=11), Nominate(seat=1, target=9))
    table.advance()
    with pytest.raises(IllegalInput, match="player 9 is already nominated today"):
        table.do(Nominate(seat=2, target=9))
    table.do(Nominate(seat=2, target=2))  # oneself
    assert table.state.candidates == [9, 2]


def test_non_voters_go_to_the_last_candidate():
    table = Table("event")
    table.day_speeches({1: 3, 2: 5})
    table.advance()
    out = table.vote([1, 2, 4, 6, 8], [])
    assert of(VoteCounted, out)[0].counts == ((3, 5), (5, 7))
    assert of(PlayerLeft, out) == [PlayerLeft(seat=5, how="vote", day=1)]


def test_tie_speeches_revote_and_the_all_leave_question():
    table = Table("event")
    table.day_speeches({1: 3, 2: 5})
    table.advance()
    out = table.vote([1, 2, 4, 6, 8, 9], [])  # 6 : 6
    assert of(Tie, out) == [Tie(day=1, seats=(3, 5))]
    assert StartTimer(seconds=30, purpose="tie_speech") in out
    table.until(Phase.VOTE)
    table.vote([1, 2, 4, 6, 8, 9], [])  # 6 : 6 again
    assert table.state.vote_round.kind == "all"
    out = table.vote([1, 2, 4, 6, 8, 9])  # 6 of 12 is not more than half
    assert of(PlayerLeft, out) == [] and table.game.phase is Phase.NIGHT_HUNT


def test_one_candidate_on_day_one_is_not_voted():
    table = Table("event")
    table.day_speeches({3: 9})
    table.advance()
    assert of(NoVote, table.outputs)[0].reason == "single_candidate_day_one"


@pytest.mark.parametrize(("shooters", "killed"), [(BLACK, 1), (BLACK[:2], None)])
def test_the_kill_needs_all_three_mafia(shooters, killed):
    table = Table("event")
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in shooters])
    table.until(Phase.MORNING)
    left = of(PlayerLeft, table.outputs)
    assert left == ([] if killed is None else [PlayerLeft(seat=1, how="shot", night=1)])


def test_the_commissar_checks_once_a_night_and_not_on_the_first():
    table = Table("event")
    table.advance()
    with pytest.raises(IllegalInput):
        table.do(Check(seat=4, target=2))  # introduction night: the Commissar only meets the host
    table.day_speeches()
    table.advance()
    table.advance()  # the hunt is over
    out = table.do(Check(seat=4, target=3), Check(seat=4, target=2))
    assert [c.result for c in of(ShowCheck, out)] == [False]


def test_fouls_silence_and_disqualify():
    table = Table("event")
    table.until(Phase.SPEECH, seat=1)
    out = table.do(*[Foul(seat=12)] * 3)
    assert of(Silenced, out) == [Silenced(seat=12, day=1)]
    table.do(Nominate(seat=1, target=5))
    table.do(*[Foul(seat=6)] * 4)
    order = table.day_speeches()
    assert 12 not in order and 6 not in order
    table.advance()
    assert of(NoVote, table.outputs)[-1].reason == "cancelled"
    assert "last_word" not in phrases(table.outputs)


def test_black_wins_at_parity_and_the_roles_are_revealed():
    table = Table("event")  # 9 red, 3 black: six red must go
    table.until(Phase.MORNING)
    for seat in (1, 3, 5, 6, 8):
        table.do(*[Foul(seat=seat)] * 4)
    assert table.game.phase is not Phase.GAME_OVER  # 4 red, 3 black
    out = table.do(*[Foul(seat=9)] * 4)
    assert table.game.phase is Phase.GAME_OVER and table.state.winner == "black"
    revealed = {s.seat: s.role for s in of(Say, out) if s.phrase == "reveal_role"}
    assert revealed == {2: Role.MAFIA, 4: Role.COMMISSAR, 7: Role.MAFIA, 11: Role.MAFIA}
