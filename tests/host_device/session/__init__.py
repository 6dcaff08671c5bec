"""Tests of host_device/session/, laid out like the source."""
