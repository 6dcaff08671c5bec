"""Tests of host_device/screens/, laid out like the source."""
