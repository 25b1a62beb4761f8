"""``python -m express``: the same command line as the ``express`` script."""

import sys

from express.cli import main

if __name__ == "__main__":
    sys.exit(main())
