"""The exceptions of ``packing``: one root, small subclasses whose messages quote the input."""

from __future__ import annotations


class PackingError(ValueError):
    """Root of every error this package raises on purpose."""


class ParseError(PackingError):
    """Text or values that do not describe a roll, cargo, truck, placement or deck."""


class DeckError(ParseError):
    """A deck file that cannot be read; the message names the file and line."""


class InvalidPlan(PackingError):
    """A load plan that breaks a loading rule or misstates its own score."""


class InternalError(AssertionError):
    """The solver met a state its proofs rule out (e.g. CP-SAT calls the model infeasible,
    though loading nothing is always a solution). A bug, never the input's fault: it is not a
    :class:`PackingError`, so it is not mistaken for bad input; please report it."""
