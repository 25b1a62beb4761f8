"""Check the built distributions in a folder: the sdist is complete, the wheel declares its licence.

``python tools/check_dist.py DIST`` (``make sdist-check``, after ``python -m build --outdir
DIST``): the sdist holds every file git tracks (when run in a git checkout) and the licence; the
wheel's METADATA has ``License-Expression: Apache-2.0`` and ``License-File: LICENSE`` (PEP 639)
and ships the licence, the type markers and the sample table. One line per problem, exit 1.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

#: Tracked files an sdist does not need.
NOT_SHIPPED = {".gitignore"}


def tracked_files(root: Path) -> set[str] | None:
    """The files git tracks under ``root``, or None outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return set(done.stdout.splitlines())


def sdist_problems(sdist: Path, root: Path) -> list[str]:
    """What the sdist lacks: a tracked file, or the licence."""
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    problems = [] if "LICENSE" in names else [f"{sdist.name}: no LICENSE"]
    tracked = tracked_files(root)
    if tracked is not None:
        problems += [
            f"{sdist.name}: {path} is missing" for path in sorted(tracked - names - NOT_SHIPPED)
        ]
    return problems


def wheel_problems(wheel: Path) -> list[str]:
    """What the wheel's metadata or contents lack."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata_name = next(name for name in names if name.endswith(".dist-info/METADATA"))
        metadata = archive.read(metadata_name).decode("utf-8").splitlines()
    problems = [
        f"{wheel.name}: METADATA has no {line!r}"
        for line in ("License-Expression: Apache-2.0", "License-File: LICENSE")
        if line not in metadata
    ]
    wanted = ["arena/py.typed", "packing/py.typed", "express/py.typed"]
    problems += [f"{wheel.name}: {path} is missing" for path in wanted if path not in names]
    if not any(name.endswith("/licenses/LICENSE") for name in names):
        problems.append(f"{wheel.name}: the licence file is missing")
    if not any(name.startswith("packing/data/table-") for name in names):
        problems.append(f"{wheel.name}: the sample deck's table is missing")
    return problems


def main(argv: list[str]) -> int:
    dist = Path(argv[0]) if argv else Path("dist")
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        print(f"check_dist: expected one sdist and one wheel in {str(dist)!r}")
        return 1
    root = Path(__file__).resolve().parents[1]
    problems = sdist_problems(sdists[0], root) + wheel_problems(wheels[0])
    for problem in problems:
        print(f"check_dist: {problem}")
    if not problems:
        print(f"check_dist: {sdists[0].name} and {wheels[0].name} are complete")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
