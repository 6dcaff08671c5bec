"""A box's store for a test, and phrases that each last one second.

``store`` is a fixture (tests/conftest.py offers it to every test): a
Store in the test's tmp_path, closed after it. ``one_second`` is the
durations function ``simulate`` takes: every phrase lasts one second."""

import pytest

from host_device.store import Store


def one_second(key, slots):
    return 1.0


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    yield store
    store.close()
