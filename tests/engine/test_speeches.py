"""Day speeches: order, length, ending early (rules matrix rows 4-5)."""

import pytest

from engine import Foul, IllegalInput, Nominate, Phase, Shot
from engine.outputs import Say, StartTimer, StopTimer
from tests.helpers.table import Table, of


def test_day_one_starts_at_seat_one_and_goes_round():
    table = Table()
    assert table.day_speeches() == list(range(1, 11))


@pytest.mark.parametrize(("preset", "seconds"), [("classic", 60), ("event", 30)])
def test_speech_length(preset, seconds):
    table = Table(preset)
    out = table.until(Phase.SPEECH)
    assert Say(phrase="speech", seat=1, seconds=seconds) in out
    assert StartTimer(seconds=seconds, purpose="speech") in out


def test_speech_ended_early_moves_to_the_next_speaker():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    out = table.advance()
    assert out[0] == StopTimer()
    assert table.state.speaker == 2


def test_later_day_starts_after_previous_opener_skipping_the_dead():
    table = Table()
    table.day_speeches()
    table.advance()  # no candidates: night
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])  # seat 2 killed
    table.until(Phase.SPEECH)
    order = table.day_speeches()
    assert order == [3, 4, 5, 6, 7, 8, 9, 10, 1]


def test_opener_rotation_wraps_round_the_table():
    table = Table("event")
    openers = []
    for _ in range(3):
        openers.append(table.day_speeches()[0])
        table.advance()  # no vote
        table.to_night()
        table.until(Phase.MORNING)
    assert openers == [1, 2, 3]
    # ...and from the last seat back to the first
    table2 = Table()
    table2.game._state.opener = 10  # white-box: pretend seat 10 opened yesterday
    assert table2.day_speeches()[0] == 1


@pytest.mark.parametrize("preset", ["classic", "event"])
def test_a_silenced_seat_due_to_open_does_not_count_for_the_rotation(preset):
    """000: «со следующего, после говорившего первым в предыдущем круге
    игрока»; 004: «следующий за тем, кто начинал обсуждение»: the seat who
    actually spoke first, not the silenced one due to open."""
    table = Table(preset)
    table.until(Phase.MORNING)
    table.do(*[Foul(seat=1)] * 3)  # seat 1 loses day 1's speech: seat 2 speaks first
    assert table.day_speeches()[0] == 2
    table.advance()  # no vote
    table.to_night()
    table.until(Phase.MORNING)
    assert table.day_speeches()[0] == 3
    table.advance()
    table.to_night()
    table.until(Phase.MORNING)
    assert table.day_speeches()[0] == 4


def test_fouls_can_be_given_to_anyone_living_during_a_speech():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    table.do(Foul(seat=7))
    assert table.state.fouls == {7: 1}


def test_nomination_by_someone_other_than_the_speaker_is_refused():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    with pytest.raises(IllegalInput) as info:
        table.do(Nominate(seat=2, target=5))
    assert (info.value.phase, info.value.seat) == ("speech", 2)
    assert "only the speaker (seat 1)" in str(info.value)


def test_speeches_end_with_the_candidates_announced():
    table = Table()
    table.day_speeches({1: 5, 4: 8})
    assert table.game.phase is Phase.VOTE_ANNOUNCE
    assert Say(phrase="candidates", seats=(5, 8)) in table.outputs
    assert of(StopTimer, table.outputs)
