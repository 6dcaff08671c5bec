"""Tests of host_device/scripts/, laid out like the source."""
