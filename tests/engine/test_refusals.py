"""The engine's refusals carry a stable code and the parts of their message."""

import pytest

from engine import Advance, DealRoles, Foul, Game, IllegalInput, Nominate, Role, Tally, Vote


def refusal(game, inp):
    with pytest.raises(IllegalInput) as caught:
        game.check(inp)
    return caught.value


def test_each_refusal_names_its_rule_and_its_parts():
    game = Game("classic")
    assert refusal(game, Advance()).code == "not_dealt"
    deal = ((1, Role.DON), (2, Role.MAFIA), (3, Role.MAFIA), (4, Role.SHERIFF))
    bad = refusal(game, DealRoles(roles=deal[:3]))
    assert (bad.code, dict(bad.parts)) == ("role_count", {"role": "sheriff", "want": 1, "got": 0})
    game.handle(DealRoles(roles=deal))
    no = refusal(game, Vote(seat=3))
    assert (no.code, dict(no.parts), no.phase, no.seat) == ("not_now", {"input": "vote"}, "intro_mafia", 3)
    far = refusal(game, Foul(seat=11))
    assert (far.code, dict(far.parts)) == ("not_a_seat", {"number": 11, "seats": 10})
    while game.state.speaker is None:
        game.handle(Advance())
    other = refusal(game, Nominate(seat=5, target=2))
    assert (other.code, dict(other.parts)) == ("not_speaker", {"speaker": 1})
    assert "only the speaker (seat 1) may nominate" in str(other)
    assert refusal(game, Tally(count=1)).code == "not_now"


def test_a_refusal_with_a_code_no_program_knows_is_a_programming_error():
    """Every code is in engine.errors.REFUSALS, which the host's screen says each of in Russian."""
    from engine.errors import REFUSALS, IllegalInput

    with pytest.raises(ValueError, match="unknown refusal code 'not_a_rule'"):
        IllegalInput("nothing", phase="speech", code="not_a_rule")
    assert IllegalInput("x", phase="speech", code=next(iter(REFUSALS))).phase == "speech"
