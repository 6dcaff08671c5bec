"""Tests of host_device/base/, laid out like the source."""
