"""``./run``'s set-up and RHVoice, without the network and without touching this machine's
packages: the script runs from a copy of the repository's ``run`` beside this .venv, with
``dpkg-query``, ``apt-cache`` and ``apt-get`` (and ``sudo``) replaced by doubles on PATH that say
what is installed and offered and write down what they are asked."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RHVOICE = ("librhvoice5", "rhvoice-russian")
NOTE = "run: русского голоса RHVoice нет в источниках пакетов, говорит espeak-ng; чтобы говорил RHVoice:"

DOUBLES = {
    # installed: everything but RHVoice's packages
    "dpkg-query": 'case "$*" in *librhvoice5*|*rhvoice-russian*) exit 1 ;; *) echo "install ok installed" ;; esac',
    # offered: RHVoice's packages only where FAKE_OFFER is set (Debian's non-free section on)
    "apt-cache": 'if [ -n "${FAKE_OFFER:-}" ]; then echo "  Candidate: 1.8.0+dfsg-3"; else echo "  Candidate: (none)"; fi',
    "apt-get": 'echo "apt-get $*" >>"$FAKE_LOG"',
    "sudo": 'exec "$@"',
}


@pytest.fixture
def repo(tmp_path):
    """A copy of ``run`` and pyproject.toml, its .venv this one's (its programs and set-up stamp)."""
    copy = tmp_path / "repo"
    (copy / ".venv").mkdir(parents=True)
    for name in ("run", "pyproject.toml"):
        shutil.copy2(ROOT / name, copy / name)
    (copy / ".venv" / "bin").symlink_to(ROOT / ".venv" / "bin")
    shutil.copy2(ROOT / ".venv" / ".setup-stamp", copy / ".venv" / ".setup-stamp")
    tools = tmp_path / "tools"
    tools.mkdir()
    for name, body in DOUBLES.items():
        (tools / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (tools / name).chmod(0o755)
    return copy


def run(repo, *argv, offer=False, apt=True, **env):
    """``bash run ARGV``; ``offer``: the sources offer RHVoice; ``apt``: apt-get is the double
    (else this machine's, which gets only a private configuration: ./run rhvoice-debs)."""
    log, tools = repo.parent / "apt.log", repo.parent / "tools"
    if not apt:
        (tools / "apt-get").unlink(missing_ok=True)
    env = {**os.environ, **env, "FAKE_LOG": str(log), "PATH": f"{tools}:{os.environ['PATH']}"}
    env.pop("FAKE_OFFER", None)
    if offer:
        env["FAKE_OFFER"] = "1"
    done = subprocess.run(
        ["bash", str(repo / "run"), *argv], capture_output=True, text=True, env=env, timeout=120
    )
    asked = log.read_text("utf-8").splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return done, asked


def test_where_the_sources_do_not_offer_it_the_setup_goes_on_and_says_once_how_to_enable_it(repo):
    done, asked = run(repo, "--help")
    assert done.returncode == 0 and done.stdout.startswith("использование: host-device")
    notes = [line for line in done.stderr.splitlines() if line.startswith(NOTE)]
    assert len(notes) == 1 and "«non-free»" in notes[0] and "в Raspberry Pi OS" in notes[0]
    assert asked == []  # nothing installed, nothing updated: the machine's sources are as they were
    again, asked = run(repo, "--help")
    assert again.returncode == 0 and NOTE not in again.stderr and asked == []  # said once


def test_where_the_sources_offer_it_the_setup_installs_it(repo):
    done, asked = run(repo, "--help", offer=True)
    assert done.returncode == 0, done.stderr
    assert "run: installing Debian packages: librhvoice5 rhvoice-russian" in done.stderr
    assert asked == [
        "apt-get update -qq",
        "apt-get install -y -qq librhvoice5 rhvoice-russian",
    ]
    assert NOTE not in done.stderr


def test_the_tests_copy_where_the_mirror_has_no_rhvoice_fails_saying_so_and_leaves_nothing(repo, tmp_path):
    """``./run rhvoice-debs`` with a mirror that offers nothing (an empty folder, no network): a line,
    a failure, no half-made folder."""
    empty = tmp_path / "mirror"
    empty.mkdir()
    done, _ = run(repo, "rhvoice-debs", apt=False, RHVOICE_MIRROR=f"file://{empty}")
    assert done.returncode != 0
    assert "run: RHVoice for the tests: apt-get update failed" in done.stderr
    assert not list((repo / ".cache" / "rhvoice").glob("*/.debs"))
