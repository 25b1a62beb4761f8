"""Exit non-zero when any optional extra is installed: ``make test-core`` proves the core alone.

A stray extra in the core-only environment would quietly turn its skips back into runs, and the
run would no longer show that the core needs none of them.
"""

from __future__ import annotations

import sys

from arena.extras import EXTRAS, has_extra


def main() -> int:
    present = [extra for extra in EXTRAS if has_extra(extra)]
    if present:
        print(f"no_extras: not a core-only install, found the {', '.join(present)} extra(s)")
        return 1
    print(f"no_extras: none of the extras is installed ({', '.join(EXTRAS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
