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


class InconsistentObservation(ExpressError):
    """An observation no game can produce: no deck order and no hidden plays lead to it (for
    example a card seen more often than the deck holds it, or a hand of the wrong size)."""


class LimitError(ExpressError):
    """A search limit that is not a positive, finite number (``node_limit``, ``time_limit``)."""


def type_error(what: str, expected: str, value: object) -> TypeError:
    """The ``TypeError`` for an argument of the wrong type: what was expected, and what came.

    Wrong *types* are programming errors, not bad input, so they are not :class:`ExpressError`;
    the message still says what to pass (internal helper, not re-exported).

    >>> print(type_error("Train.add: card", "a Card (e.g. Card.parse('R4|B4'))", "R4|B4"))
    Train.add: card must be a Card (e.g. Card.parse('R4|B4')), not str 'R4|B4'
    """
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return TypeError(f"{what} must be {expected}, not {type(value).__name__} {shown}")
