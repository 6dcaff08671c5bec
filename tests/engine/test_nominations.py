"""Nominations and withdrawals (rules matrix rows 6-7)."""

import pytest

from engine import Advance, IllegalInput, Nominate, Phase, Withdraw
from engine.outputs import NominationAccepted, NominationWithdrawn, Say
from tests.helpers.table import Table, of


def at_speaker(seat, preset="classic"):
    table = Table(preset)
    table.until(Phase.SPEECH, seat=seat)
    return table


def test_accepted_nomination_says_accepted():
    table = at_speaker(1)
    out = table.do(Nominate(seat=1, target=7))
    assert of(NominationAccepted, out) == [NominationAccepted(day=1, seat=1, target=7)]
    assert Say(phrase="accepted", seat=7) in out
    assert table.state.candidates == [7]


def test_a_later_nomination_replaces_the_speakers_earlier_one():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7))
    out = table.do(Nominate(seat=1, target=4))
    assert of(NominationAccepted, out)[0].replaced == 7
    assert table.state.candidates == [4]
    assert table.state.nominations == {1: 4}


def test_repeating_ones_own_nomination_changes_nothing():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7))
    out = table.do(Nominate(seat=1, target=7))
    assert of(NominationAccepted, out) == []
    assert table.state.candidates == [7]


def test_one_may_nominate_oneself():
    table = at_speaker(3)
    table.do(Nominate(seat=3, target=3))
    assert table.state.candidates == [3]


def test_a_player_nominated_by_another_is_refused_and_the_speaker_stays_free():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7), Advance())
    before = table.state
    with pytest.raises(IllegalInput, match="player 7 is already nominated today") as info:
        table.do(Nominate(seat=2, target=7))
    assert (info.value.phase, info.value.seat) == ("speech", 2)
    assert table.state == before
    table.do(Nominate(seat=2, target=9))
    assert table.state.candidates == [7, 9]


def test_candidates_keep_the_order_of_acceptance():
    table = Table()
    table.day_speeches({1: 9, 2: 3, 3: 6, 4: 1})
    assert table.state.candidates == [9, 3, 6, 1]


def test_only_ones_own_nomination_can_be_withdrawn():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7), Advance())
    with pytest.raises(IllegalInput, match="player 7 is not this speaker's candidate"):
        table.do(Withdraw(seat=2, target=7))
    with pytest.raises(IllegalInput, match="only the speaker"):
        table.do(Withdraw(seat=1, target=7))  # seat 1's speech is over


def test_after_withdrawing_the_speaker_may_nominate_again():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7))
    out = table.do(Withdraw(seat=1, target=7))
    assert of(NominationWithdrawn, out) == [NominationWithdrawn(day=1, seat=1, target=7)]
    assert table.state.candidates == []
    table.do(Nominate(seat=1, target=5))
    assert table.state.candidates == [5]


def test_a_withdrawn_player_may_be_nominated_by_someone_else():
    table = at_speaker(1)
    table.do(Nominate(seat=1, target=7), Withdraw(seat=1, target=7), Advance())
    table.do(Nominate(seat=2, target=7))
    assert table.state.nominations == {2: 7}


@pytest.mark.parametrize("target", [0, 11])
def test_nominating_a_seat_out_of_range_is_refused(target):
    table = at_speaker(1)
    with pytest.raises(IllegalInput, match=f"candidate {target} is not a seat"):
        table.do(Nominate(seat=1, target=target))


def test_nominating_a_dead_player_is_refused():
    table = Table()
    table.day_speeches()
    table.advance()
    from engine import Shot

    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.SPEECH, seat=3)
    with pytest.raises(IllegalInput, match="candidate 2 is out of the game"):
        table.do(Nominate(seat=3, target=2))


def test_nominations_only_during_a_speech():
    table = Table()
    table.day_speeches({1: 5})
    with pytest.raises(IllegalInput, match="nominate is not allowed now") as info:
        table.do(Nominate(seat=1, target=6))
    assert info.value.phase == "vote_announce"


def test_nominations_are_per_day():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()  # vote 5 vs 6
    table.vote([1, 2, 3, 4, 7, 9], [])  # 5 leaves
    table.until(Phase.SPEECH)
    assert table.state.candidates == [] and table.state.nominations == {}
