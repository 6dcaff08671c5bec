"""A foul's evidence (issue 45: what the device heard) kept through the
store's JSON, and a foul stored before it was kept read back as before."""

import json

import pytest

from engine import Foul
from engine.serial import BadRecord, input_from_dict, to_dict

HEARD = Foul(
    seat=7,
    by="device",
    word="клянусь",
    heard="клянусь я мирный",
    confidence=(0.93, 0.88, 0.97),
    speech_s=42.4,
)


def test_a_foul_with_what_was_heard_round_trips_through_json():
    data = json.loads(json.dumps(to_dict(HEARD)))
    assert data["confidence"] == [0.93, 0.88, 0.97]  # a list in JSON
    back = input_from_dict(data)
    assert back == HEARD
    assert isinstance(back, Foul) and isinstance(back.confidence, tuple)  # a tuple in the input


def test_a_foul_stored_before_the_evidence_was_kept_still_reads():
    old = {"type": "foul", "seat": 3, "by": "device", "word": "честно"}
    back = input_from_dict(old)
    assert back == Foul(seat=3, by="device", word="честно")
    assert isinstance(back, Foul) and (back.heard, back.confidence, back.speech_s) == ("", (), None)


@pytest.mark.parametrize("confidence", [0.9, "0.9", {"a": 1}])
def test_a_confidence_that_is_no_list_is_a_bad_record(confidence):
    with pytest.raises(BadRecord):
        input_from_dict({"type": "foul", "seat": 3, "confidence": confidence})
