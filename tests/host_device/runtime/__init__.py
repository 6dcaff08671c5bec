"""Tests of host_device/runtime/, laid out like the source."""
