"""Tests of host_device/, laid out like the source."""
