"""Tests of host_device/store/, laid out like the source."""
