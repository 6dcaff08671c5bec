"""The console's view after the end carries the game's chapters
(host_device/screens/views.py, club/chapters.py): the same lines as ``games
chapters`` makes from the store, and none in any view before the end is said
(they name who left and who was killed). A resumed game, whose earlier
inputs' times the console never saw, has none (the page points to the
command)."""

from host_device.club.chapters import game_chapters, lines
from host_device.screens.titles import ended
from host_device.screens.views import Console, console_view
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from tests.helpers.paths import ROOT
from tests.helpers.store import almost_over, one_second

FULL = ROOT / "examples" / "classic-full-game.json"  # red wins on day 3


def played(store):
    """The example full game through the runtime into ``store``, a console following it; returns
    the console and, for each input, whether its view carried chapters and whether the end was said."""
    consoles, seen = [], []

    def watch(runtime):
        console = Console(runtime)
        consoles.append(console)
        runtime.observers.append(lambda _: seen.append(("chapters" in console_view(console), ended(runtime))))

    simulate(load_script(FULL), one_second, store=store, watch=watch)
    return consoles[0], seen


def stored_lines(store, game_id):
    timed = [(t, inp) for _, t, inp in store.games.inputs(game_id)]
    return lines(game_chapters(store.games.preset(game_id), timed))


def test_after_the_end_the_console_has_the_games_chapters_as_the_command_makes_them(store):
    console, seen = played(store)
    assert len(seen) > 50 and all(has == said for has, said in seen)  # never before the end is said
    assert not any(has for has, _ in seen[:-1])
    runtime = console.runtime
    runtime.sched.run_due(runtime.speaking_until)  # the end said
    assert ended(runtime)
    view = console_view(console)
    assert view["chapters"] == stored_lines(store, 1)
    assert view["chapters"][0] == "00:00 Раздача ролей"
    assert "11:56 Ночь 1: убит игрок 1" in view["chapters"]
    assert view["chapters"][-1].endswith("День 3 — голосование: 8 покидает игру; победа мирных жителей")


def test_a_resumed_games_console_has_no_chapters_of_its_own(tmp_path):
    path = tmp_path / "games.sqlite3"
    gid = almost_over(path)
    store = Store(path)
    try:
        consoles = []
        simulate(
            load_script(FULL),
            one_second,
            store=store,
            resume=True,
            watch=lambda rt: consoles.append(Console(rt)),
        )
        runtime = consoles[0].runtime
        runtime.sched.run_due(runtime.speaking_until)
        assert ended(runtime)
        view = console_view(consoles[0])
        assert "chapters" in view and view["chapters"] is None  # the page names the command instead
        assert stored_lines(store, gid)[-1].endswith("8 покидает игру; победа мирных жителей")
    finally:
        store.close()


def test_the_console_keeps_each_record_inputs_time_and_forgets_the_undone():
    from engine import DealRoles, Game, Nominate, Phase
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from tests.helpers.table import CLASSIC_ROLES

    runtime = Runtime(Game("classic"), Scheduler(), one_second, Settings())
    console = Console(runtime)
    assert runtime.handle(DealRoles(roles=tuple(sorted(CLASSIC_ROLES.items()))))
    while not (runtime.game.phase is Phase.SPEECH and runtime.game.state.speaker == 1):
        runtime.sched.run_due(runtime.sched.next_time())
    assert runtime.handle(Nominate(seat=1, target=4))
    nominated_at = runtime.sched.now
    assert console.times[len(runtime.game.record) - 1] == nominated_at > 0
    assert runtime.undo_to(len(runtime.game.record) - 1)
    assert sorted(console.times) == list(range(len(runtime.game.record)))  # the undone one's time gone
    runtime.sched.run_due(runtime.sched.now + 5)
    assert runtime.handle(Nominate(seat=1, target=5))
    assert console.times[len(runtime.game.record) - 1] == runtime.sched.now > nominated_at
