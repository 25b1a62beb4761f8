"""The exceptions of the ``express`` package: one root, a few precise subclasses.

Every message quotes the input that was rejected, so a command-line user sees what to fix:

>>> from express import Card, ExpressError
>>> try:
...     Card.parse("R5|G3")
... except ExpressError as error:
...     print(error)
invalid car: 'R5' (a car's value is 2, 3 or 4)
"""

from __future__ import annotations


class ExpressError(ValueError):
    """Root of every error raised by ``express`` (a ``ValueError``, so bad input is a value error)."""


class ParseError(ExpressError):
    """Text that is not a colour, car, card, play, train, deck or caboose name."""


class IllegalPlayError(ExpressError):
    """A face-up card whose left car matches neither colour nor value of the train's last car."""


class PoolError(ExpressError):
    """A search request the pool of cards cannot satisfy (for example a length larger than the pool)."""


class RulesError(ExpressError):
    """A request outside the rules: a player count other than 2..5, a start player not at the table."""
