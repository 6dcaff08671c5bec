"""Tests of host_device/sound/, laid out like the source."""
