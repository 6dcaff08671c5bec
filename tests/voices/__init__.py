"""Tests of voices/, laid out like the source."""
