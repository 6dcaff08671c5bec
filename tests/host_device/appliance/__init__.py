"""Tests of host_device/appliance/, laid out like the source."""
