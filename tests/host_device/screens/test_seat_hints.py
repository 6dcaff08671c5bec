"""A seat's phone tells its player when to press, at every night step the
device calls seat by seat (the city's Doctor and Lover too)."""

from engine import Game, Phase
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.views import seat_view
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT

CITY = ROOT / "examples" / "city-game.json"

NIGHT_HINT = "Ночь: если вас разбудили, нажмите, когда назовут номер"


def test_every_called_night_step_of_the_city_shows_the_night_hint():
    script = load_script(CITY)
    _, played = simulate(script, lambda key, slots: 1.0)
    game = Game(script.preset)
    seen = set()
    for inp in played.game.record:
        game.handle(inp)
        if game.phase in (Phase.NIGHT_HUNT, Phase.NIGHT_CHECK, Phase.NIGHT_VISIT):
            seen.add((game.phase, game.state.step_role))
            view = seat_view(
                Runtime(Game.replay(script.preset, game.record), Scheduler(), lambda key, slots: 1.0), 1
            )
            assert view["hint"] == NIGHT_HINT, (game.phase, game.state.step_role)
    assert {role for phase, role in seen if phase is Phase.NIGHT_VISIT} == {"doctor", "lover"}
