"""OpenSpiel's search bots as a game's policies, made by name without importing the extra.

Both games offer ``bot("mcts")`` (and Yardmaster Express ``bot("ismcts")``); this is the one
place that turns a missing ``openspiel`` extra or a refused option into the game's own error,
and holds the range of simulations the search bots take. :mod:`arena.openspiel` needs pyspiel
to import, so the game's ``search_policy`` (which imports it) is called only when a bot is made,
and this module never imports it: :mod:`arena.openspiel` reads the range from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.openspiel import SearchPolicy

__all__ = ["MAX_SIMULATIONS", "MIN_SIMULATIONS", "openspiel_bot"]

MIN_SIMULATIONS = 2
"""The fewest simulations per decision OpenSpiel's search bots can decide with: the first only
visits the root, so after one the root has no explored child to choose (``mcts`` fails in
``max()``, ``ismcts`` in an assertion)."""

MAX_SIMULATIONS = 100_000
"""The most simulations per decision the search bots take. A decision costs time in proportion
(Yardmaster Express's ``ismcts`` about 9 s at 1,000, docs/strength.md), so this ceiling still
allows a quarter of an hour a decision: it refuses absurd counts, not long searches."""


def openspiel_bot(
    search_policy: Callable[..., SearchPolicy],
    search: str,
    error: Callable[[str], Exception],
    *,
    simulations: int,
    **options: Any,
) -> SearchPolicy:
    """OpenSpiel's ``search`` bot: ``search_policy(search, simulations=..., **options)``, the
    game's maker of :class:`arena.openspiel.SearchPolicy` on its codec (it imports the
    ``openspiel`` extra when called); a missing extra or a refused option (such as fewer than
    :data:`MIN_SIMULATIONS` simulations) is raised as the game's ``error``, naming the bot.

    >>> from arena.extras import import_extra
    >>> def search_policy(search, **options):
    ...     import_extra("no_such_module_anywhere", "openspiel")
    >>> openspiel_bot(search_policy, "mcts", ValueError, simulations=10)
    Traceback (most recent call last):
    ...
    ValueError: bot 'mcts' needs OpenSpiel: no_such_module_anywhere is not installed: it comes with the openspiel extra (pip install 'tabletop-solvers[openspiel]')
    """
    try:
        return search_policy(search, simulations=simulations, **options)
    except ImportError as missing:  # the extra is missing (MissingExtraError): say which
        raise error(f"bot {search!r} needs OpenSpiel: {missing}") from None
    except ArenaError as refused:
        raise error(f"bot {search!r}: {refused}") from None
