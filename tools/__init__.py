"""Scripts the Makefile and CI run on the checkout (not part of the installed package)."""
