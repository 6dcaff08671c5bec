"""A stored game with the device's fouls a referee reviews (issue 45): the
example full game, and as game 2 the same game with, in seat 2's first
speech (day 1), a device foul for «клянусь» that the console withdrew (the
store keeps it, marked undone), then a device foul for «честно» that
stands, and the host's own foul to seat 4. Each device foul keeps what was
heard: the utterance, the confidence per word, the moment in the speech."""

from engine import Foul, Game, Phase
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

WITHDRAWN = Foul(
    seat=2,
    by="device",
    word="клянусь",
    heard="клянусь я мирный",
    confidence=(0.93, 0.88, 0.97),
    speech_s=12.5,
)
STANDS = Foul(
    seat=2,
    by="device",
    word="честно",
    heard="честно говоря я за пятого",
    confidence=(0.91, 0.8, 0.99, 0.95, 0.9),
    speech_s=42.0,
)
BY_HOST = Foul(seat=4)


def game_with_fouls(store: Store) -> int:
    """Writes the two games into ``store``; returns the one with the fouls (2)."""
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    game, seq = Game("classic"), 0
    gid = store.games.new_game("classic", "host")

    def put(t: float, inp: Foul | object) -> None:
        nonlocal seq
        seq += 1
        store.games.append(gid, seq, t, inp)  # type: ignore[arg-type]

    placed = False
    for _, t, inp in store.games.inputs(1):
        put(t, inp)
        game.handle(inp)
        s = game.state
        if not placed and s.phase is Phase.SPEECH and s.speaker == 2 and s.nominations.get(2):
            placed = True
            kept = len(list(store.games.inputs(gid)))
            put(t + 1.0, WITHDRAWN)
            store.games.undo(gid, kept)  # the console's «снять»: the runtime's undo_to
            put(t + 2.0, STANDS)
            put(t + 3.0, BY_HOST)
            game.handle(STANDS)
            game.handle(BY_HOST)
    row = store.games.game(1)
    store.games.finish(gid, row.winner, row.days)
    return gid
