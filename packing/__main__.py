"""``python -m packing``: the same as the ``packing`` command."""

import sys

from packing.cli import main

sys.exit(main())
