"""Assist mode's Russian refusals: every code the engine can refuse with has
its line, and every template is filled from the parts the engine really
gives for its code (a misspelled part would fail at the table)."""

import random
import string

from engine import Advance, DealRoles, Foul, Game, IllegalInput, Nominate, Phase, Role, Tally, Vote, Withdraw
from engine.errors import REFUSALS
from host_device.runtime.host_messages import REASONS, in_russian


def refusals(games=12):
    """Every refusal the engine gives to inputs tried at random in random games, by code."""
    found = {}
    for seed in range(games):
        rng = random.Random(seed)
        game = Game("classic")
        seats = rng.sample(range(1, 11), 4)
        game.handle(
            DealRoles(
                roles=(
                    (seats[0], Role.DON),
                    (seats[1], Role.MAFIA),
                    (seats[2], Role.MAFIA),
                    (seats[3], Role.SHERIFF),
                )
            )
        )
        for _ in range(400):
            if game.phase is Phase.GAME_OVER:
                try:
                    game.check(Advance())
                except IllegalInput as exc:
                    found.setdefault(exc.code, exc)
                break
            seat, target = rng.randint(-1, 12), rng.randint(-1, 12)
            for inp in (
                Vote(seat=seat),
                Nominate(seat=seat, target=target),
                Withdraw(seat=seat, target=target),
                Foul(seat=seat),
                Foul(seat=3, by="phone"),
                Tally(count=rng.randint(0, 12)),
            ):
                try:
                    game.check(inp)
                except IllegalInput as exc:
                    found.setdefault(exc.code, exc)
            legal = [i for i in game.legal_inputs() if not isinstance(i, Foul)]
            game.handle(rng.choice([Advance()] * 3 + legal))
    return found | best_move_refusals() | deal_refusals() | city_refusals()


def refused(game, inp):
    try:
        game.check(inp)
    except IllegalInput as exc:
        return {exc.code: exc}
    raise AssertionError(f"{inp} was taken")


def deal_refusals():
    """A deal of the wrong shape, and anything before the deal."""
    found = {}
    game = Game("classic")
    found |= refused(game, Advance())
    for roles in (
        ((1, Role.DON), (1, Role.MAFIA), (3, Role.MAFIA), (4, Role.SHERIFF)),
        ((1, Role.DON), (2, Role.MAFIA), (3, Role.MAFIA), (4, Role.DOCTOR)),
        ((1, Role.DON), (2, Role.MAFIA), (3, Role.MAFIA)),
    ):
        found |= refused(game, DealRoles(roles=roles))
    return found


def city_refusals():
    """The city's rules: no fouls, and the golden minute's refusals."""
    from engine import GoldenMinute, city_preset

    found = {}
    game = Game(city_preset(10))
    roles = {2: Role.MAFIA, 5: Role.MAFIA, 9: Role.MAFIA, 4: Role.SHERIFF, 6: Role.DOCTOR, 7: Role.LOVER}
    game.handle(DealRoles(roles=tuple(sorted(roles.items()))))
    found |= refused(game, Foul(seat=1))
    while game.phase is not Phase.NOMINATION:
        game.handle(Advance())
    game.handle(Nominate(seat=1, target=5))
    game.handle(Nominate(seat=2, target=8))
    while game.phase is not Phase.JUSTIFICATION:
        game.handle(Advance())
    found |= refused(game, GoldenMinute(seat=8))  # only the candidate justifying himself
    found |= refused(game, GoldenMinute(seat=3))  # not a candidate
    game.handle(GoldenMinute(seat=5))
    found |= refused(game, GoldenMinute(seat=5))  # asked already
    while game.phase is not Phase.GOLDEN_MINUTE:
        game.handle(Advance())
    while game.phase is not Phase.NOMINATION:  # the next day's round: his minute is used
        game.handle(Advance())
    game.handle(Nominate(seat=game.state.speaker, target=5 if 5 not in game.state.out else 8))
    while game.phase is not Phase.JUSTIFICATION:
        game.handle(Advance())
    speaker = game.state.speaker
    if speaker in game.state.golden_used:
        found |= refused(game, GoldenMinute(seat=speaker))
    return found


def best_move_refusals():
    """The best move's refusals, in the first night's victim's last word and in a later one."""
    from engine import BestMove, Shot
    from tests.helpers.table import Table

    found = {}
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    for seats in ((3, 5), (1, 5, 8), (3, 5, 3), (3, 5, 11)):
        try:
            table.game.check(BestMove(seat=1, seats=seats))
        except IllegalInput as exc:
            found.setdefault(exc.code, exc)
    table.advance()
    table.day_speeches({2: 4, 3: 7})
    table.advance()
    table.vote([2, 3, 5, 6, 9, 10], [])  # 4 leaves: his last word has no best move
    try:
        table.game.check(BestMove(seat=4, seats=(3, 5, 8)))
    except IllegalInput as exc:
        found.setdefault(exc.code, exc)
    return found


def test_every_refusal_the_engine_has_is_said_in_russian():
    """A new refusal code without its line is found here (the host's screen would show English)."""
    assert set(REASONS) == REFUSALS


def test_every_template_is_filled_by_the_parts_of_its_code():
    found = refusals()
    assert set(found) == REFUSALS  # each code is really given by the engine, and seen here
    for code, template in REASONS.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert fields <= {"seat", *found[code].parts}, (code, fields, found[code].parts)
        text = in_russian(found[code])
        assert text and "{" not in text, (code, text)
