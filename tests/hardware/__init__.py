"""Tests of hardware/, laid out like the source."""
