"""A pytest plugin for tests/test_markers.py: at collection it writes every
test's markers and which of them the -m selection kept, as JSON, to the file
$MARKS_OUT names."""

import json
import os
from collections.abc import Generator

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Generator[None, None, None]:
    before = list(items)
    yield  # the conftest's markers added, then -m's selection made
    kept = {item.nodeid for item in items}
    tests = [
        {
            "id": item.nodeid,
            "marks": sorted({m.name for m in item.iter_markers()}),
            "kept": item.nodeid in kept,
        }
        for item in before
    ]
    with open(os.environ["MARKS_OUT"], "w", encoding="utf-8") as out:
        json.dump(tests, out)
