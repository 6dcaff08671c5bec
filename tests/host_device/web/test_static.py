"""The pages' own scripts: what they must know of the game."""

import re
from pathlib import Path

from engine import Role

STATIC = Path(__file__).parents[3] / "host_device" / "web" / "static"


def test_the_table_page_names_every_role_in_russian():
    """At the end the roles are revealed: the city's doctor and lover too, never in Latin."""
    line = next(
        line for line in (STATIC / "table.js").read_text("utf-8").splitlines() if "const ROLES" in line
    )
    names = dict(re.findall(r"(\w+): \"([^\"]+)\"", line))
    assert set(names) == {role.value for role in Role}
    assert all(re.fullmatch(r"[а-яёА-ЯЁ ]+", name) for name in names.values())
