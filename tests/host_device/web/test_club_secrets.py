"""Secrets on the club's pages: a game still being played shows nothing of
itself. Two stores hold the same game cut at the same moment, differing
only in its secrets (who holds which black role, who checked whom), with
names typed for its seats; at every cut the club's pages — its review, the
leaderboard, a player's page — are the same, byte for byte, and say no
role, no name, no points and no best move. Drawn by the worker's own
function (:func:`host_device.web.club_render.render`) on real stores."""

import json

import pytest

from host_device.scripts.script import parse_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from host_device.web.club_render import render
from host_device.web.club_worker import store_state
from tests.helpers.paths import ROOT

FULL = json.loads((ROOT / "examples" / "classic-full-game.json").read_text("utf-8"))
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира"]
SECRETS = [
    *NAMES,
    "мафия",
    "дон",
    "шериф",
    "мирный",
    "num points",
    "data-player",
    "Лучший ход",
    "data-voter",
    "Победа",
]


def other_secrets(script):
    """The same public game: the Don and a mafia swap seats, the checks go elsewhere."""
    changed = json.loads(json.dumps(script))
    changed["roles"] = {"3": "mafia", "5": "don", "8": "mafia", "6": "sheriff"}
    changed["nights"][0].update({"don": 6, "sheriff": 8})
    changed["nights"][1].update({"sheriff": 9})
    return changed


def played(script, folder):
    store = Store(folder / "whole.db")
    simulate(parse_script(script), lambda key, slots: 1.0, store=store)
    row = store.games.game(1)
    inputs = [(seq, t, inp, 0) for seq, t, inp in store.games.inputs(1)]
    store.close()
    return row, inputs


def cut(row, inputs, upto, path):
    """The game as it stood after its first ``upto`` inputs, names typed, not finished."""
    store = Store(path)
    meta = {
        "settings": {},
        "started_at": row.started_at,
        "preset": row.preset,
        "mode": row.mode,
        "seats": {n: store.roster.add_player(name).id for n, name in enumerate(NAMES, 1)},
    }
    store.games.import_game(meta, inputs[:upto], "test", None, 0)
    store.close()
    return path


def first_player(path):
    store = Store(path)
    try:
        return store.roster.player(NAMES[0]).id
    finally:
        store.close()


def pages(path):
    """The three pages (the player's id, random in each store, written ID)."""
    state = store_state(path)
    player = first_player(path)
    found = {
        "game": render(str(path), state, "", "game", "1", ()),
        "club": render(str(path), state, "", "club", "", ()),
        "player": render(str(path), state, "", "player", player, ()),
    }
    return {name: (status, html.replace(player, "ID")) for name, (status, html) in found.items()}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    a, b = tmp_path_factory.mktemp("a"), tmp_path_factory.mktemp("b")
    return a, played(FULL, a), b, played(other_secrets(FULL), b)


def test_the_two_games_differ_in_their_secrets(games):
    _, (_, inputs_a), _, (_, inputs_b) = games
    assert len(inputs_a) > 50 and len(inputs_b) > 50
    assert [i for *_, i, _ in inputs_a] != [i for *_, i, _ in inputs_b]


@pytest.mark.parametrize("share", [0.02, 0.25, 0.5, 0.75, 0.99])
def test_a_game_still_played_shows_nothing_at_any_moment(games, share):
    a, (row_a, inputs_a), b, (row_b, inputs_b) = games
    left = pages(cut(row_a, inputs_a, int(len(inputs_a) * share), a / f"cut-{share}.db"))
    right = pages(cut(row_b, inputs_b, int(len(inputs_b) * share), b / f"cut-{share}.db"))
    for name in ("club", "player"):  # the same page whoever holds which role
        assert left[name] == right[name], name
    status, html = left["game"]
    assert status == 404 and "Игра 1 ещё идёт" in html
    assert right["game"] == left["game"]
    for _, html in left.values():
        for secret in SECRETS:
            assert secret not in html, secret


def test_the_whole_game_once_ended_shows_its_roles(games):
    a, (row, inputs), _, _ = games
    path = a / "ended.db"
    store = Store(path)
    seats = {n: store.roster.add_player(name).id for n, name in enumerate(NAMES, 1)}
    store.games.import_game(
        {
            "settings": {},
            "started_at": row.started_at,
            "preset": row.preset,
            "mode": row.mode,
            "seats": seats,
        },
        inputs,
        "test",
        row.winner,
        row.days,
    )
    store.close()
    status, html = pages(path)["game"]
    assert (
        status == 200 and "дон" in html and "Победа" in html
    )  # the same function does show them: the test can fail
