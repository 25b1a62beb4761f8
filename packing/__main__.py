"""``python -m packing``: the same as the ``packing`` command."""

import sys

from packing.cli import main

if __name__ == "__main__":
    sys.exit(main())
