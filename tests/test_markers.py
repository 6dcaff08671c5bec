"""`./run test --quick` leaves out exactly the tests marked system or slow,
and every test under tests/system is marked system (tests/conftest.py).
One collection in a subprocess, with the selection read from `run` itself,
of tests/system and of two files that have slow tests and others (the
whole suite would cost each run a second collection)."""

import json
import os
import re
import subprocess
import sys

from tests.helpers.paths import ROOT

SAMPLE = ["tests/system", "tests/voices/test_catalogue.py", "tests/host_device/listening/test_model_test.py"]


def quick_selection() -> str:
    match = re.search(r'pytest .*-m "([^"]+)" "\$@"', (ROOT / "run").read_text())
    assert match, "run has no pytest line with -m (./run test --quick)"
    return match.group(1)


def test_quick_leaves_out_exactly_the_system_and_slow_tests(tmp_path):
    out = tmp_path / "marks.json"
    options = [
        "--collect-only",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-p",
        "tests.helpers.marks",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "-m", quick_selection(), *SAMPLE],
        cwd=ROOT,
        env={**os.environ, "MARKS_OUT": str(out)},
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    tests = json.loads(out.read_text())
    unmarked = [t["id"] for t in tests if t["id"].startswith("tests/system/") and "system" not in t["marks"]]
    assert unmarked == []
    wrong = [t["id"] for t in tests if t["kept"] != ("system" not in t["marks"] and "slow" not in t["marks"])]
    assert wrong == []
    kinds = {(t["id"].startswith("tests/system/"), "slow" in t["marks"], t["kept"]) for t in tests}
    assert kinds == {(True, False, False), (False, True, False), (False, False, True)}  # each kind is there
