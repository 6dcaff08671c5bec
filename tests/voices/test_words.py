"""The names and times a screen or protocol shows: a stored time in local
time, and a damaged one shown without a crash."""

import time

from voices.words import local_time


def test_a_stored_time_is_shown_in_local_time(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    try:
        assert local_time("2026-11-20T22:30:00+00:00") == "2026-11-21 01:30"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_damaged_time_is_shown_as_it_is_or_as_a_question_mark():
    assert local_time("вчера") == "вчера"
    assert local_time(b"\x00\xff") == "?"  # a store's damaged row: not even text
    assert local_time(None) == "?"
