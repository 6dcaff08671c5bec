"""The box offers only a game it can carry on: one it hosted, not a human host's (assist mode)."""

from host_device.store import Store
from tests.host_device.appliance.test_box import box_env, make_box  # noqa: F401 - the fixture


def test_an_unfinished_assist_game_is_not_offered_by_the_box(box_env):  # noqa: F811
    store = Store(box_env / "games.sqlite3", create=True)
    hosted = store.games.new_game("classic", "host")
    store.games.new_game("classic", "assist")  # the latest at this table: a human host's, unfinished
    store.close()
    box, _ = make_box(box_env)
    assert box._offer() is None  # the box would host it as its own game: not offered
    box.close()
    store = Store(box_env / "games.sqlite3")
    latest = store.games.new_game("classic", "host")
    store.close()
    box, _ = make_box(box_env)
    assert box._offer() == latest != hosted
    box.close()
