"""What should I play? Every candidate play with its estimated value, and the recommendation.

:func:`advise` values each legal play of the observing player as the ``pimc`` bot does
(:mod:`express.pimc`: worlds consistent with the observation, each solved exactly) and returns
an :class:`Advice`: the plays best first, each with its mean over the worlds and a 95 %
interval, and the play the bot would make. ``express advise`` is the same at the command line,
from what a player at the table can see.

>>> import numpy as np
>>> from arena import sample_outcome
>>> from express import Game
>>> game, rng = Game(2, rounds=2), np.random.default_rng(3)
>>> while game.is_chance_node():
...     game.apply_action(sample_outcome(game.chance_outcomes(), rng))
>>> advice = advise(game.observation(game.current_player()), worlds=4, rng=5)
>>> advice.recommended == advice.plays[0].play, advice.worlds
(True, 4)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from arena.text import plural
from express.game import Observation
from express.match import MatchObservation
from express.pimc import (
    DEFAULT_RULE,
    DEFAULT_WORLDS,
    PlayEstimate,
    estimate_plays,
    measure_of,
)
from express.train import Play
from express.worlds import game_view

__all__ = ["Advice", "advise"]


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: every candidate play, best mean first, and the recommendation."""

    player: int
    """The seat asking."""
    measure: str
    """What a value is, in words (e.g. "your final score minus your opponent's")."""
    plays: tuple[PlayEstimate, ...]
    """Every legal play, best mean first (ties in the legal order)."""
    recommended: Play
    """The play with the best mean: what ``bot("pimc")`` plays with the same worlds."""
    worlds: int
    """How many worlds were solved."""
    seconds: float = field(compare=False)
    """How long it took (not compared: the same advice takes another time elsewhere)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "player": self.player,
            "measure": self.measure,
            "worlds": self.worlds,
            "exact": self.plays[0].exact,
            "seconds": round(self.seconds, 3),
            "recommended": str(self.recommended),
            "plays": [estimate.to_dict() for estimate in self.plays],
        }

    def __str__(self) -> str:
        width = max(len(str(e.play)) for e in self.plays)
        how = (
            "each world solved exactly"
            if self.plays[0].exact
            else "each world played out by the greedy rule (too early for an exact search)"
        )
        lines = [
            f"value: {self.measure}, mean over {plural(self.worlds, 'world')} (95 % interval); {how}"
        ]
        for estimate in self.plays:
            mark = "  <- play this" if estimate.play == self.recommended else ""
            lines.append(
                f"  {str(estimate.play):<{width}}  {estimate.mean:+7.2f}  "
                f"[{estimate.low:+.2f}, {estimate.high:+.2f}]{mark}"
            )
        return "\n".join(lines)


def advise(
    observation: Observation | MatchObservation,
    *,
    worlds: int = DEFAULT_WORLDS,
    rng: np.random.Generator | int | None = None,
    time_limit: float | None = None,
    rule: str = DEFAULT_RULE,
    progress: bool = False,
) -> Advice:
    """Every legal play of the observing player valued over ``worlds`` sampled worlds (fewer if
    ``time_limit`` seconds run out first), best first; ``rng`` a generator or a seed (None:
    fresh entropy); ``progress``: the worlds valued so far on stderr when it takes more than
    two seconds (``express advise`` shows it). Raises :class:`express.ExpressError` when it is
    not the player's turn or no game matches the observation."""
    view = game_view(observation)
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    began = time.perf_counter()
    estimates = estimate_plays(
        view, worlds=worlds, rng=generator, time_limit=time_limit, rule=rule, progress=progress
    )
    ranked = tuple(sorted(estimates, key=lambda e: -e.mean))  # stable: ties in legal order
    return Advice(
        player=view.player,
        measure=measure_of(view.players, rule),
        plays=ranked,
        recommended=ranked[0].play,
        worlds=ranked[0].worlds,
        seconds=time.perf_counter() - began,
    )
