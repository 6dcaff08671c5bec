"""Placeholder package: see the README's roadmap."""
