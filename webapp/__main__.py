"""``python -m webapp``: the same as ``tabletop-web``."""

import sys

from webapp.cli import main

sys.exit(main())
