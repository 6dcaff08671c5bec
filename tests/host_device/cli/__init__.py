"""Tests of host_device/cli/, laid out like the source."""
