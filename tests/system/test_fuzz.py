"""The project's own fuzz suite: random and mutated scripts, configs, WAV
headers, store files and command lines. Whatever comes in, a command ends
with exit 0, 1 (only where a command's own report says "something is
wrong": games check, games export --all, games recover) or 2, an error is
one line, nothing raises, and nothing committed to a store is lost.

Hypothesis runs derandomised (the same examples on every run, so CI is
stable); raise FUZZ_EXAMPLES to search further by hand.
"""

import contextlib
import io
import json
import os
import random
import shutil
import sqlite3
import struct
import sys
import wave

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import get_preset
from host_device.base.errors import HostDeviceError
from host_device.cli.main import main
from host_device.club.protocol import local_day
from host_device.scripts.play import play
from host_device.scripts.script import ScriptError, parse_script
from host_device.scripts.simulate import simulate
from host_device.store import Store, StoreError
from tests.helpers.paths import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
SCALE = int(os.environ.get("FUZZ_EXAMPLES", "1"))


def fuzz(examples):
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def run(argv):
    """The command line, in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO("")  # a command that reads its input finds none
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([str(a) for a in argv])
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def clean_end(status, err, allowed=(0, 2)):
    assert status in allowed, (status, err)
    assert "Traceback" not in err
    if status == 2:
        errors = [line for line in err.splitlines() if ": ошибка: " in line]
        assert len(errors) == 1 and err.splitlines()[-1] == errors[0], err
        assert len(errors[0]) <= 600, errors[0]


# ---------------------------------------------------------------- scripts

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["1", "01", "²", "٣", "３", "all", "don", "mafia", "sheriff", "commissar", "civilian"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def paths(value, prefix=()):
    """Every place in a JSON document (as a key path)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


def mutated(document, draw):
    doc = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 4))):
        places = list(paths(doc))
        place = draw(st.sampled_from(places))
        if not place:
            continue
        parent = doc
        for key in place[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add", "rekey"]))
        key = place[-1]
        if action == "replace":
            parent[key] = draw(JSON_VALUES)
        elif action == "delete":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        elif action == "add" and isinstance(parent, list):
            parent.append(draw(JSON_VALUES))
        elif action == "rekey" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["²", "01", "٣", "99", "0", "-1", "all", "comment", "x" * 100]))] = (
                parent.pop(key)
            )
    return doc


@st.composite
def mutated_scripts(draw):
    example = draw(st.sampled_from(EXAMPLES))
    return mutated(json.loads(example.read_text("utf-8")), draw)


@st.composite
def valid_scripts(draw):
    """Scripts the reader accepts: a random deal, days of fouls, speeches and
    votes, nights of shots and checks — most of it against the rules."""
    name = draw(st.sampled_from(["classic", "event"]))
    preset = get_preset(name)
    seats = list(range(1, preset.seats + 1))
    order = draw(st.permutations(seats))
    roles, at = {}, 0
    for role, count in preset.roles:
        for seat in order[at : at + count]:
            roles[str(seat)] = role.value
        at += count
    seat = st.sampled_from(seats)
    phrases = st.sampled_from(
        ["я выставляю игрока номер {}", "выставляю {}", "снимаю {}", "пас", "спасибо", "блин", "игрок {}"]
    )
    words = {1: "один", 2: "два", 3: "три", 4: "четыре", 5: "пять", 6: "шесть", 7: "семь", 8: "восемь"}
    utterances = st.tuples(phrases, st.sampled_from(sorted(words)))
    speech = (  # a few utterances, or enough that the last fall after «Время!» (the format's pacing)
        st.lists(utterances, max_size=3) | st.lists(utterances, min_size=14, max_size=32)
    ).map(lambda parts: " ".join(p.format(words[n]) for p, n in parts))
    vote = st.dictionaries(
        st.sampled_from([str(s) for s in seats] + ["all"]), st.lists(seat, max_size=6), max_size=3
    )
    day = st.fixed_dictionaries(
        {},
        optional={
            "fouls": st.dictionaries(st.sampled_from([str(s) for s in seats]), st.integers(0, 5), max_size=3),
            "speeches": st.dictionaries(st.sampled_from([str(s) for s in seats]), speech, max_size=6),
            "late_fouls": st.dictionaries(
                st.sampled_from([str(s) for s in seats]), st.integers(0, 2), max_size=2
            ),
            "votes": st.lists(vote, max_size=3),
        },
    )
    checkers = [rule.checker.value for rule in preset.checks]
    night = st.fixed_dictionaries(
        {},
        optional={
            "shots": st.dictionaries(st.sampled_from([str(s) for s in seats]), seat, max_size=4),
            **{c: seat for c in checkers},
        },
    )
    return {
        "preset": name,
        "roles": roles,
        "days": draw(st.lists(day, max_size=5)),
        "nights": draw(st.lists(night, max_size=5)),
    }


@fuzz(400)
@given(mutated_scripts())
def test_mutated_scripts_play_or_are_refused_in_one_line(tmp_path_factory, script):
    path = tmp_path_factory.mktemp("s") / "script.json"
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    status, out, err = run(["play", path])
    clean_end(status, err)
    if status == 0:
        assert json.loads(out)["winner"] in ("red", "black", None)


def fixed(key, slots):
    return 2.0


@fuzz(300)
@given(st.one_of(valid_scripts(), mutated_scripts()))
def test_play_and_simulate_agree_on_every_script(script):
    """The same result from both runners, or the same refusal."""
    try:
        parsed = parse_script(script)
    except ScriptError as exc:
        assert str(exc)  # both commands read scripts with this one reader: the same refusal
        return
    played = play(parsed)
    simulated, _ = simulate(parsed, fixed)
    assert simulated == played


@fuzz(100)
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_as_a_script(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("b") / "script.json"
    path.write_bytes(data)
    status, _, err = run(["play", path])
    clean_end(status, err)


# ---------------------------------------------------------------- configs

CONFIG = {
    "panel": {"debounce_ms": 30, "stuck_after_s": 5, "host": {"undo": 14}},
    "audio": {"microphone": "USB", "speaker": 0},
    "assist": {"auto_accept": False, "votes": "buttons", "night": "host", "timers": [90]},
}


def toml(value, prefix=""):
    """A dict as TOML: tables for dicts of dicts, inline values otherwise."""
    lines, tables = [], []
    for key, item in value.items():
        name = json.dumps(str(key), ensure_ascii=False)
        if (
            isinstance(item, dict) and all(isinstance(v, dict) for v in item.values()) and item
        ) or isinstance(item, dict):
            tables.append((f"{prefix}{name}", item))
        else:
            lines.append(f"{name} = {toml_value(item)}")
    text = "\n".join(lines) + "\n"
    for name, table in tables:
        text += f"[{name}]\n" + toml(table, f"{name}.")
    return text


def toml_value(value):
    if value is None:
        return '"null"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, int) else json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def configs(draw):
    if draw(st.booleans()):
        return toml(mutated(CONFIG, draw))
    text = toml(CONFIG)
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(st.text(max_size=10)) + text[i + draw(st.integers(0, 5)) :]


@fuzz(300)
@given(configs(), st.sampled_from([10, 12]))
def test_mutated_configs_load_or_are_refused_with_the_entry_named(tmp_path_factory, text, seats):
    from host_device.config import load_config

    path = tmp_path_factory.mktemp("c") / "config.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        config = load_config(path)
        config.pinmap(seats)
    except HostDeviceError as exc:
        message = str(exc)
        assert message.startswith(str(path)) and "\n" not in message.strip() and len(message) < 400, message


# ---------------------------------------------------------------- WAV headers


def small_wav():
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(struct.pack("<800h", *range(800)))
    return buffer.getvalue()


@fuzz(300)
@given(st.data())
def test_mutated_wav_headers_are_read_or_refused(tmp_path_factory, data):
    from hardware.microphone import WavMicrophone

    raw = bytearray(small_wav())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, 43))
        raw[at] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    path = tmp_path_factory.mktemp("w") / "x.wav"
    path.write_bytes(bytes(raw))
    try:
        mic = WavMicrophone(path, lambda: 0.0, realtime=False)
    except HostDeviceError as exc:
        assert str(path) in str(exc)
        return
    assert len(mic.audio) % 2 == 0 and len(mic.audio) < 16000 * 2 * 60  # bounded work


# ---------------------------------------------------------------- store files


@pytest.fixture(scope="module")
def sound_store(tmp_path_factory, builtin_pack):
    """A store of two whole games and one unfinished."""
    path = tmp_path_factory.mktemp("store") / "games.sqlite3"
    for script in ("classic-full-game.json", "event-game.json"):
        assert run(["simulate", ROOT / "examples" / script, "--store", path])[0] == 0
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO games (started_at, preset, mode) VALUES ('2026-11-30T10:00:00+00:00', 'classic', 'host')"
    )
    db.execute(
        "INSERT INTO inputs (game, seq, t, input) SELECT 3, seq, t, input FROM inputs WHERE game = 1 AND seq <= 20"
    )
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


READERS = [
    ["games", "list"],
    ["games", "check"],
    ["games", "show", "1"],
    ["games", "show", "3"],
    ["games", "export", "2"],
    ["games", "export", "--all", "--format", "csv"],
]


@fuzz(120)
@given(st.data())
def test_damaged_store_files_are_read_game_by_game_and_never_lost(tmp_path_factory, sound_store, data):
    folder = tmp_path_factory.mktemp("d")
    path = folder / "games.sqlite3"
    raw = bytearray(sound_store.read_bytes())
    page = int.from_bytes(raw[16:18], "big")
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["header", "page", "byte", "truncate"]))
        if len(raw) < page:
            break
        if where == "header":
            raw[data.draw(st.integers(0, 99))] = data.draw(st.integers(0, 255))
        elif where == "page":
            n = data.draw(st.integers(0, len(raw) // page - 1))
            rng = random.Random(data.draw(st.integers(0, 2**16)))
            start = n * page + data.draw(st.integers(0, page - 64))
            raw[start : start + 64] = bytes(rng.randrange(256) for _ in range(64))
        elif where == "byte":
            raw[data.draw(st.integers(0, len(raw) - 1))] ^= 1 << data.draw(st.integers(0, 7))
        else:
            raw = raw[: data.draw(st.integers(0, len(raw)))]
    damaged = bytes(raw)
    path.write_bytes(damaged)
    for argv in READERS:
        status, _, err = run([*argv, "--store", path])
        clean_end(status, err, allowed=(0, 1, 2) if argv[1] in ("check", "export") else (0, 2))
    # the evening's protocol of the store's day: what reads is written, a damaged game named (exit 1)
    with contextlib.closing(sqlite3.connect(f"file:{sound_store}?mode=ro", uri=True)) as db:
        day = local_day(db.execute("SELECT started_at FROM games WHERE id = 1").fetchone()[0])
    status, _, err = run(["games", "protocol", "--date", day, "--to", folder / "p.html", "--store", path])
    clean_end(status, err, allowed=(0, 1, 2))
    assert path.read_bytes() == damaged  # a reader never writes
    # a writer: the store opens, or it is moved aside whole and a new one started
    try:
        store = Store(path)
    except StoreError as exc:
        assert "\n" not in str(exc)
        return
    store.games.new_game("classic", "fuzz")  # a store that opens for writing takes a game
    store.close()
    aside = [p for p in folder.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    if aside:
        assert aside[0].read_bytes() == damaged  # nothing lost: kept byte for byte
        status, _, err = run(["games", "recover", aside[0], "--store", path])
        clean_end(status, err, allowed=(0, 1, 2))


def test_the_store_fuzz_reaches_both_outcomes(tmp_path, sound_store):
    """The damage above both leaves stores readable and moves some aside (else it tests little)."""
    outcomes = set()
    for seed in range(60):  # the store's pages grow with its tables: damage enough of them
        if outcomes == {"moved", "kept"}:
            break
        rng = random.Random(seed)
        raw = bytearray(sound_store.read_bytes())
        page = int.from_bytes(raw[16:18], "big")
        n = rng.randrange(len(raw) // page)
        raw[n * page + 100 : n * page + 164] = bytes(rng.randrange(256) for _ in range(64))
        folder = tmp_path / str(seed)
        folder.mkdir()
        (folder / "g.sqlite3").write_bytes(bytes(raw))
        Store(folder / "g.sqlite3").close()
        outcomes.add("moved" if any(".corrupt-" in p.name for p in folder.iterdir()) else "kept")
    assert outcomes == {"moved", "kept"}


# ---------------------------------------------------------------- command lines

WORDS = [
    "play",
    "simulate",
    "intents",
    "games",
    "list",
    "show",
    "name",
    "export",
    "check",
    "recover",
    "say",
    "voices",
    "--seats",
    "--store",
    "--all",
    "--format",
    "csv",
    "json",
    "--to",
    "--pretty",
    "--mode",
    "host",
    "assist",
    "killed",
    "seat=7",
    "seats=5,8",
    "1",
    "0",
    "-1",
    "99999999999999999999",
    "²",
    "٣",
    "nan",
    "inf",
    "",
    "--",
    "-x",
    "--resume",
    "\udcff",
    "Аня",
    "x" * 300,
]


@fuzz(400)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), st.data())
def test_random_command_lines_end_cleanly(tmp_path_factory, sound_store, argv, data):
    folder = tmp_path_factory.mktemp("a")
    store = folder / "games.sqlite3"
    shutil.copy(sound_store, store)
    first = data.draw(st.sampled_from(["play", "intents", "games", "say", "voices", "simulate"]))
    if first == "voices":
        argv = ["voices", data.draw(st.sampled_from(["list", "check"])), *argv]
    elif first == "games":
        argv = ["games", data.draw(st.sampled_from(["list", "show", "name", "export", "check"])), *argv]
    else:
        argv = [first, *argv]
    if "--store" in argv:  # never the user's store: the copy, whatever comes after --store
        i = argv.index("--store")
        argv = [*argv[: i + 1], str(store), *argv[i + 2 :]]
    if "--to" in argv:
        i = argv.index("--to")
        argv = [*argv[: i + 1], str(folder / "out"), *argv[i + 2 :]]
    if first in ("play", "simulate") and len(argv) > 1:
        argv[1] = str(ROOT / "examples" / "classic-game.json") if argv[1] == "1" else argv[1]
    status, _, err = run(argv)
    clean_end(
        status, err, allowed=(0, 1, 2) if argv[:2] in (["games", "check"], ["games", "export"]) else (0, 2)
    )
    # the store's committed games are all still there
    assert [r[0] for r in sqlite3.connect(store).execute("SELECT id FROM games ORDER BY id")] == [1, 2, 3]
