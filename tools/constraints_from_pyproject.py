"""Pin every direct dependency to its declared minimum: a pip constraints file from pyproject.toml.

``python tools/constraints_from_pyproject.py [PYPROJECT] > floors.txt`` prints one ``name==floor``
line per distribution named in ``[project] dependencies`` and every optional-dependency group, so
``pip install -c floors.txt '.[test]'`` installs exactly the versions the project claims to work
with (``make test-floors``). Every requirement must state its floor as ``>=X`` (an upper bound
may follow); a name declared twice with different floors is refused, so the extras cannot
disagree about a minimum. Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

# A PEP 508 requirement as pyproject.toml writes them here: a name, optional [extras], then
# comma-separated specifiers (an environment marker after ';' is ignored).
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*?)\s*(;.*)?$")
_FLOOR = re.compile(r"^>=\s*([0-9][0-9A-Za-z.+-]*)$")


def canonical(name: str) -> str:
    """A distribution's normalised name (PEP 503): ``Open_Spiel`` and ``open-spiel`` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def floor_of(requirement: str) -> tuple[str, str]:
    """The distribution a requirement names and its declared minimum version.

    >>> floor_of("dask[distributed]>=2024.1")
    ('dask', '2024.1')
    >>> floor_of("numpy>=1.26,<3")
    ('numpy', '1.26')
    >>> floor_of("tqdm")
    Traceback (most recent call last):
    ...
    ValueError: 'tqdm' declares no minimum version (write name>=X)
    """
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    name, _extras, specifiers, _marker = match.groups()
    floors = [
        found.group(1)
        for part in specifiers.split(",")
        if (found := _FLOOR.match(part.strip())) is not None
    ]
    if len(floors) != 1:
        raise ValueError(f"{requirement!r} declares no minimum version (write name>=X)")
    return canonical(name), floors[0]


def floors(pyproject: dict[str, object]) -> dict[str, str]:
    """Every direct dependency's floor, by distribution name, from a parsed ``pyproject.toml``.

    The project's own extras (``tabletop-solvers[plot]`` inside ``all``) are not dependencies.
    """
    project = pyproject["project"]
    assert isinstance(project, dict)
    own = canonical(str(project["name"]))
    requirements: list[str] = list(project.get("dependencies", []))
    for group in project.get("optional-dependencies", {}).values():
        requirements += group
    found: dict[str, str] = {}
    for requirement in requirements:
        if canonical(_REQUIREMENT.match(requirement).group(1)) == own:  # type: ignore[union-attr]
            continue
        name, floor = floor_of(requirement)
        if found.setdefault(name, floor) != floor:
            raise ValueError(f"{name} has two floors: {found[name]} and {floor}")
    return found


def constraints(pins: dict[str, str]) -> Iterable[str]:
    """The lines of the constraints file, sorted by name."""
    for name in sorted(pins):
        yield f"{name}=={pins[name]}"


def main(argv: list[str]) -> int:
    path = Path(argv[0] if argv else "pyproject.toml")
    try:
        with path.open("rb") as file:
            pins = floors(tomllib.load(file))
    except (OSError, ValueError, KeyError) as error:
        print(f"constraints_from_pyproject: {path}: {error}", file=sys.stderr)
        return 2
    print(f"# generated from {path.name} by tools/constraints_from_pyproject.py: every floor")
    for line in constraints(pins):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
