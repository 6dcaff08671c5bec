"""RHVoice for the tests, the same on every machine: Debian bookworm's packages that ``./run
rhvoice-debs`` (and ``./run test``) unpack into .cache/rhvoice/ARCH with a private apt configuration
(docs/voices.md#rhvoice). A test that needs it fails, never skips, where that folder is missing.

Also a reader of RHVoice's dictionaries (its .fst files: a symbol table and states, integers
big-endian; RHVoice's src/core/fst.cpp), for the words it transcribes whole from a dictionary
rather than from a stressed spelling, whose stress no «+» mark can reproduce (tests/voices/
test_rhvoice_stress.py).
"""

import fcntl
import functools
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from voices.catalogue import Catalogue
from voices.rhvoice import DEFAULT_VOICE, ENV, PREFIX, RHVoiceHome, build_rhvoice, find

ROOT = Path(__file__).resolve().parents[2]


def rhvoice_root() -> Path:
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
    root = ROOT / ".cache" / "rhvoice" / arch.stdout.strip()
    if not (root / ".debs").is_file():
        pytest.fail(f"RHVoice for the tests is not in {root}: run ./run rhvoice-debs (./run test does it)")
    return root


def rhvoice_for_tests() -> RHVoiceHome:
    """The tests' RHVoice (not the system's, if it has one)."""
    home = find({ENV: str(rhvoice_root())})
    assert home is not None, f"{rhvoice_root()}: no RHVoice with a Russian voice in it"
    return home


def use_tests_rhvoice(monkeypatch: pytest.MonkeyPatch) -> RHVoiceHome:
    """The tests' RHVoice, made the one the product finds (HOST_DEVICE_RHVOICE)."""
    monkeypatch.setenv(ENV, str(rhvoice_root()))
    return rhvoice_for_tests()


def shared_pack(tmp_path_factory: pytest.TempPathFactory, catalogue: Catalogue) -> Path:
    """The whole catalogue's pack by the tests' RHVoice aleksandr-hq, rendered once for the run: the
    first worker renders it into a folder the run's workers share (as tests/conftest.py's
    builtin_pack)."""
    run = tmp_path_factory.getbasetemp()
    shared = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "rhvoice-pack"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait for the first one's rendering
        build_rhvoice(shared, catalogue, DEFAULT_VOICE, rhvoice_for_tests())
    return shared


def install_shared_pack(shared: Path, data: Path) -> None:
    """The shared pack copied where a box keeps that voice's pack (nothing is rendered there)."""
    shutil.copytree(shared, data / "voices" / (PREFIX + DEFAULT_VOICE), dirs_exist_ok=True)


class Fst:
    """One of RHVoice's finite-state transducers, read as its library reads it."""

    def __init__(self, path: Path) -> None:
        data, at = path.read_bytes(), 0

        def take(fmt: str) -> int:
            nonlocal at
            (value,) = struct.unpack_from(fmt, data, at)
            at += struct.calcsize(fmt)
            return value

        self.names = []
        for _ in range(take(">H")):
            size = take(">B")
            self.names.append(data[at : at + size].decode("utf-8"))
            at += size
        self.ids = {name: i + 2 for i, name in enumerate(self.names)}  # 0: epsilon, 1: any other symbol
        self.states = []
        for _ in range(take(">I")):
            final, arcs = take(">B"), take(">I")
            self.states.append(
                (bool(final), [struct.unpack_from(">IHH", data, at + 8 * i) for i in range(arcs)])
            )
            at += 8 * arcs

    def translate(self, symbols: list[str]) -> list[str] | None:
        """The output for ``symbols`` on the first path that accepts them (the library's order: arcs
        on the symbol, then epsilon arcs), or None where none does."""
        given = [(s, self.ids.get(s, 1)) for s in symbols]

        def walk(state: int, pos: int) -> list[str] | None:
            final, arcs = self.states[state]
            if pos == len(given) and final:
                return []
            symbol = given[pos][1] if pos < len(given) else None
            for target, isymbol, osymbol in [a for a in arcs if a[1] == symbol] + [
                a for a in arcs if a[1] == 0
            ]:
                rest = walk(target, pos + (isymbol != 0))
                if rest is not None:
                    out = [] if osymbol == 0 else [given[pos][0] if osymbol == 1 else self.names[osymbol - 2]]
                    return out + rest
            return None

        return walk(0, 0)


@functools.cache
def _fst(path: Path) -> Fst:
    return Fst(path)


def dictionary_stress(home: RHVoiceHome, word: str) -> int | None:
    """Which vowel (0 for the first) RHVoice's whole-word dictionaries stress in ``word``: dict.fst
    (phonemes, the stressed vowel's ending in 1) or rulex_dict.fst (the stressed vowel upper case);
    None where neither holds the word."""
    russian = home.data / "languages" / "Russian"
    phonemes = _fst(russian / "dict.fst").translate(list(word))
    if phonemes is not None:
        vowels = [p for p in phonemes if p[-1:] in "01"]
        return next((i for i, p in enumerate(vowels) if p.endswith("1")), None)
    spelled = _fst(russian / "rulex_dict.fst").translate(list(word))
    if spelled is not None:
        vowels = [ch for ch in spelled if ch.lower() in "аеёиоуыэюя"]
        return next((i for i, ch in enumerate(vowels) if ch.isupper()), None)
    return None
