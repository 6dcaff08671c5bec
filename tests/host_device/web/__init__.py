"""Tests of host_device/web/, laid out like the source."""
