"""``games chapters GAME --from ЧЧ:ММ:СС`` (host_device/club/chapters.py): the
example full game's chapters line by line, each checked against the game's
record (who left by vote, who was killed, who won) and the store's time of
the input that began its step; the --from offset («Перед игрой» before it,
hours past an hour); YouTube's rules on every example game; a bad --from, an
unfinished game, an unknown game — one Russian line, exit 2, nothing printed."""

import itertools

import pytest

from engine import Game, Phase, Team
from host_device.cli.main import main
from host_device.club.build import record_of
from host_device.club.chapters import MIN_GAP_S, game_chapters, lines
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import Store
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

EXAMPLES = ROOT / "examples"
FULL = EXAMPLES / "classic-full-game.json"  # red wins on day 3
GAME = EXAMPLES / "classic-game.json"  # stops on night 1: unfinished

# the example full game with one-second phrases, as its video's description takes it
EXPECTED = """\
00:00 Раздача ролей
01:20 День 1 — речь игрока 1
02:21 День 1 — речь игрока 2; речь игрока 3
03:27 День 1 — речь игрока 4
04:29 День 1 — речь игрока 5
05:31 День 1 — речь игрока 6
06:33 День 1 — речь игрока 7
07:35 День 1 — речь игрока 8
08:37 День 1 — речь игрока 9
09:39 День 1 — речь игрока 10
10:41 День 1 — голосование: 3 покидает игру
10:51 День 1 — последнее слово игрока 3
11:56 Ночь 1: убит игрок 1
12:47 День 2 — последнее слово игрока 1
13:49 День 2 — речь игрока 2
14:51 День 2 — речь игрока 4; речь игрока 5
15:57 День 2 — речь игрока 6
16:59 День 2 — речь игрока 7
18:01 День 2 — речь игрока 8
19:03 День 2 — речь игрока 9
20:05 День 2 — речь игрока 10
21:07 День 2 — голосование: 5 покидает игру
22:33 День 2 — последнее слово игрока 5
23:38 Ночь 2: убит игрок 6
24:21 День 3 — последнее слово игрока 6
25:22 День 3 — речь игрока 4; речь игрока 7
26:28 День 3 — речь игрока 8
27:30 День 3 — речь игрока 9
28:32 День 3 — речь игрока 10
29:34 День 3 — речь игрока 2
30:36 День 3 — голосование: 8 покидает игру; победа мирных жителей
""".splitlines()


def stored(path, *scripts):
    store = Store(path)
    try:
        for script in scripts:
            simulate(load_script(script), one_second, store=store)
    finally:
        store.close()
    return path


@pytest.fixture
def full(tmp_path):
    return stored(tmp_path / "games.sqlite3", FULL, GAME)


def began(path, game_id):
    """Each step's (phase, day, speaker) and the store's time of the input that began it,
    read from the game's state after each input (not from the rules' outputs)."""
    store = Store(path, create=False)
    try:
        game = Game(store.games.preset(game_id))
        steps, now = [], None
        for _, t, inp in store.games.inputs(game_id):
            game.handle(inp)
            s = game.state
            step = (s.phase, s.day, s.speaker)
            if step != now:
                steps.append((*step, t))
                now = step
        return steps, record_of(store, game_id)
    finally:
        store.close()


def seconds(line):
    minutes, secs = line.split(" ", 1)[0].split(":")
    return int(minutes) * 60 + int(secs)


def test_the_example_games_chapters_line_by_line(full, capsys):
    assert main(["games", "chapters", "1", "--store", str(full)]) == 0
    out = capsys.readouterr()
    found = out.out.splitlines()
    assert found == EXPECTED and out.err == ""
    steps, record = began(full, 1)
    # every speech and last word: its line at the time of the input that gave him the floor
    for phase, day, speaker, t in steps:
        what = {Phase.SPEECH: "речь", Phase.LAST_WORD: "последнее слово"}.get(phase)
        if what:
            title = f"игрока {speaker}"
            parts = [(x, x.split(" — ", 1)[1].split("; ")) for x in found if f" День {day} — " in x]
            line, said = next((x, p) for x, p in parts if f"{what} {title}" in p)
            if said[0] == f"{what} {title}":  # its own line (not joined to the one before)
                assert seconds(line) == int(t), (line, t)
    # the votes: who left by vote on each day, as the record has it, at the day's candidates' announcement
    for seat in record.seats:
        if seat.left and seat.left.how == "vote":
            t = next(t for phase, day, _, t in steps if phase is Phase.VOTE_ANNOUNCE and day == seat.left.day)
            line = next(x for x in found if f"День {seat.left.day} — голосование" in x)
            assert line.startswith(f"{int(t) // 60:02d}:{int(t) % 60:02d} ")
            assert f"голосование: {seat.seat} покидает игру" in line
        if seat.left and seat.left.how == "shot":
            t = next(t for phase, day, _, t in steps if phase is Phase.NIGHT_HUNT and day == seat.left.night)
            assert (
                f"{int(t) // 60:02d}:{int(t) % 60:02d} Ночь {seat.left.night}: убит игрок {seat.seat}"
                in found
            )
    assert record.winner is Team.RED and found[-1].endswith("; победа мирных жителей")
    assert sum("покидает игру" in x for x in found) == sum(
        1 for s in record.seats if s.left and s.left.how == "vote"
    )


@pytest.mark.parametrize(
    ("start", "first", "game"),
    [
        ("00:25", ["00:00 Перед игрой", "00:25 Раздача ролей"], "01:45 День 1 — речь игрока 1"),
        ("1:00:00", ["0:00:00 Перед игрой", "1:00:00 Раздача ролей"], "1:01:20 День 1 — речь игрока 1"),
        # under ten seconds in: the game's first chapter moves to 00:00 (no «Перед игрой» that short)
        ("00:00:05", ["00:00 Раздача ролей"], "01:25 День 1 — речь игрока 1"),
    ],
)
def test_the_stream_offset(full, capsys, start, first, game):
    assert main(["games", "chapters", "1", "--from", start, "--store", str(full)]) == 0
    found = capsys.readouterr().out.splitlines()
    assert found[: len(first)] == first and found[len(first)] == game
    assert len(found) == len(EXPECTED) + len(first) - 1


@pytest.mark.parametrize(
    "start", ["1:75", "abc", "10", "", "1:2:3:4", "-0:10", "01:60:00", "٣:00", "1:5", "0:00:"]
)
def test_a_bad_from(full, capsys, start):
    assert main(["games", "chapters", "1", f"--from={start}", "--store", str(full)]) == 2
    out = capsys.readouterr()
    lines_ = out.err.splitlines()
    assert out.out == "" and len(lines_) == 1 and "Traceback" not in out.err
    assert ": ошибка: " in lines_[0] and "--from" in lines_[0] and "не время" in lines_[0]
    assert "ЧЧ:ММ:СС" in lines_[0]


def test_an_unfinished_game_has_no_chapters(full, capsys):
    assert main(["games", "chapters", "2", "--store", str(full)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1
    assert "игра 2 не окончена" in out.err and ": ошибка: " in out.err


def test_an_unknown_game(full, capsys):
    assert main(["games", "chapters", "9", "--store", str(full)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1 and "9" in out.err


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
@pytest.mark.parametrize("start", [0, 7, 10, 3599, 3600])
def test_youtubes_rules_on_every_finished_example_game(tmp_path, script, start):
    path = stored(tmp_path / "g.sqlite3", script)
    store = Store(path, create=False)
    try:
        if store.games.game(1).finished_at is None:  # no chapters: its result is a secret
            assert main(["games", "chapters", "1", "--store", str(path)]) == 2
            return
        found = lines(
            game_chapters(store.games.preset(1), [(t, i) for _, t, i in store.games.inputs(1)]), start
        )
    finally:
        store.close()
    assert found[0].split(" ", 1)[0] in ("00:00", "0:00:00")  # the first at 00:00
    assert len(found) >= 3
    times = []
    for line in found:
        parts = [int(p) for p in line.split(" ", 1)[0].split(":")]
        times.append(
            parts[0] * 3600 + parts[1] * 60 + parts[2] if len(parts) == 3 else parts[0] * 60 + parts[1]
        )
    assert all(b - a >= MIN_GAP_S for a, b in itertools.pairwise(times)), found
    assert all(len(line.split(" ", 1)[0].split(":")) == (3 if times[-1] >= 3600 else 2) for line in found)


def test_a_resumed_games_clock_starting_again_carries_on(full):
    """A game resumed on the box starts its clock at 0 again: its chapters go on from the last time."""
    store = Store(full, create=False)
    try:
        timed = [(t, i) for _, t, i in store.games.inputs(1)]
        preset = store.games.preset(1)
    finally:
        store.close()
    cut = next(n for n, (_, inp) in enumerate(timed) if type(inp).__name__ == "Shot")  # night 1
    restarted = timed[:cut] + [(t - timed[cut][0], inp) for t, inp in timed[cut:]]
    ours = game_chapters(preset, restarted)
    assert [c.at for c in ours] == sorted(c.at for c in ours)
    assert [c.title for c in ours] == [c.title for c in game_chapters(preset, timed)]
