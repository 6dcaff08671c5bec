"""Tests of host_device/listening/, laid out like the source."""
