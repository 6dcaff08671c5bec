"""The repository's paths, for tests at any depth."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted([*ROOT.glob("examples/*.json"), *ROOT.glob("tests/scenarios/*.json")])
