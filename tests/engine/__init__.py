"""Tests of the rules engine (engine/), laid out like the source."""
