"""The strategic variant: two games in a row, the totals decide — itself an ``arena`` game.

>>> from arena import RandomPolicy, play
>>> match = play(Match(3), [RandomPolicy()] * 3, seed=2)
>>> [game.pass_left for game in match.games], match.games[1].start_player == match.second_start()
([True, False], True)
>>> match.returns() == [a + b for a, b in zip(match.games[0].returns(), match.games[1].returns())]
True

The rules (``docs/rules/yardmaster-express.md``): play two games with the normal rules except
that the start player of game 2 is the lowest scorer of game 1, and in game 2 hands pass
counter-clockwise (to the right). The totals of both games decide the winner.

**Decisions** where the variant is silent:

- *Lowest scorer ties.* Several players tied for the lowest total of game 1: the one who would
  lose game 1's tie-break starts game 2 — the tied player playing earliest in game 1's round
  (nearest the start player clockwise, the start player first). The tie-break ranks tied
  players, and the lowest-ranked is "the lowest scorer".
- *Winner ties.* Several players tied on the match total: game 2's tie-break decides — the tied
  player playing latest in game 2's round (game 2 passes right, see :mod:`express.game`).
- *Cabooses.* Each game is a normal game: with ``caboose="random"`` each game draws its own.
- Seats keep their numbers (clockwise) in both games; ``orders`` gives both games' deck orders.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from arena import TERMINAL, Action
from express.cabooses import Caboose
from express.cards import Card
from express.errors import RulesError
from express.game import Event, Game, GameAction, Observation

__all__ = ["Match", "MatchEvent", "MatchObservation"]


@dataclass(frozen=True)
class MatchEvent:
    """An event of game ``game`` (1 or 2) of a match."""

    game: int
    event: Event

    def __str__(self) -> str:
        return f"game {self.game}: {self.event}"


@dataclass(frozen=True)
class MatchObservation:
    """What a player may know in a match: which game is on, each seat's total of game 1 (None
    during game 1), and the observation of the game in play."""

    game: int
    first_totals: tuple[int, ...] | None
    current: Observation


def _order(
    orders: Sequence[Iterable[Card] | str] | None, index: int
) -> Iterable[Card] | str | None:
    """Game ``index``'s deck order, or None."""
    return None if orders is None else orders[index]


class Match:
    """Two games of Yardmaster Express, the strategic variant (see the module docstring).

    ``Match(players=3, caboose=None, deck=None, orders=None, rounds=None)`` takes the options of
    :class:`express.Game`; ``orders`` is None or a pair of deck orders, one per game. ``games``
    holds game 1 and, once game 1 is over, game 2 (created at once: a match never waits
    between games).
    """

    __slots__ = ("players", "caboose", "deck", "orders", "rounds", "games")

    players: int
    caboose: Caboose | str | None
    deck: tuple[Card, ...]
    orders: tuple[tuple[Card, ...], tuple[Card, ...]] | None
    rounds: int | None
    games: list[Game]

    def __init__(
        self,
        players: int = 3,
        *,
        caboose: Caboose | str | None = None,
        deck: Iterable[Card] | str | None = None,
        orders: Sequence[Iterable[Card] | str] | None = None,
        rounds: int | None = None,
    ) -> None:
        if orders is not None:
            if isinstance(orders, str) or len(orders) != 2:
                raise RulesError(f"a match needs two deck orders, one per game, not {orders!r}")
            orders = (orders[0], orders[1])
        first = Game(players, caboose=caboose, deck=deck, order=_order(orders, 0), rounds=rounds)
        self.players = first.players
        # Game 2 is built from the same options; a Caboose travels by name (its conditions are code).
        self.caboose = caboose.name if isinstance(caboose, Caboose) else caboose
        self.deck = first.deck
        self.rounds = first.rounds
        # The second game's options are checked now, not when game 1 ends.
        second = Game(
            players, caboose=self.caboose, deck=self.deck, order=_order(orders, 1), rounds=rounds
        )
        self.orders = (
            None if first.order is None or second.order is None else (first.order, second.order)
        )
        self.games = [first]

    # -- the arena protocol ------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """How many players sit at the table."""
        return self.players

    @property
    def game(self) -> Game:
        """The game in play (game 2 once game 1 is over)."""
        return self.games[-1]

    def is_terminal(self) -> bool:
        """True once game 2 is over."""
        return len(self.games) == 2 and self.games[1].is_terminal()

    def is_chance_node(self) -> bool:
        """True when the game in play is at a chance node."""
        return self.game.is_chance_node()

    def current_player(self) -> int:
        """The player to act in the game in play, CHANCE, or TERMINAL after game 2."""
        return TERMINAL if self.is_terminal() else self.game.current_player()

    def chance_outcomes(self) -> Sequence[tuple[GameAction, Fraction]]:
        """The chance outcomes of the game in play."""
        return self.game.chance_outcomes()

    def legal_actions(self) -> Sequence[GameAction]:
        """The legal actions of the game in play."""
        return self.game.legal_actions()

    def apply_action(self, action: Action) -> None:
        """Act in the game in play; when game 1 ends, game 2 starts at once."""
        if self.is_terminal():
            raise RulesError(f"the match is over: no more actions ({str(action)!r})")
        self.game.apply_action(action)
        if len(self.games) == 1 and self.games[0].is_terminal():
            self.games.append(
                Game(
                    self.players,
                    caboose=self.caboose,
                    deck=self.deck,
                    order=_order(self.orders, 1),
                    rounds=self.rounds,
                    start_player=self.second_start(),
                    pass_left=False,
                )
            )

    def totals(self) -> list[float]:
        """Each player's total over the games finished so far (the standing before the end)."""
        totals = [0.0] * self.players
        for game in self.games:
            if game.is_terminal():
                totals = [t + r for t, r in zip(totals, game.returns())]
        return totals

    def returns(self) -> list[float]:
        """Each player's total over both games; zeros before the end, as the protocol says
        (:meth:`totals` is the standing so far)."""
        if not self.is_terminal():
            return [0.0] * self.players
        return self.totals()

    def winners(self) -> frozenset[int]:
        """The player with the highest total; ties go to game 2's tie-break. Empty before the end."""
        if not self.is_terminal():
            return frozenset()
        totals = self.returns()
        best = max(totals)
        order = self.games[1].seat_order()
        return frozenset({max((seat for seat in order if totals[seat] == best), key=order.index)})

    def clone(self) -> Match:
        """An independent copy."""
        copy = Match.__new__(Match)
        copy.players, copy.caboose, copy.deck = self.players, self.caboose, self.deck
        copy.orders, copy.rounds = self.orders, self.rounds
        copy.games = [game.clone() for game in self.games]
        return copy

    def observation(self, player: int) -> MatchObservation:
        """Which game is on, game 1's totals once it is over, and the game's observation."""
        first = self.games[0]
        totals = tuple(int(total) for total in first.returns()) if first.is_terminal() else None
        return MatchObservation(len(self.games), totals, self.game.observation(player))

    def action_to_string(self, action: Action) -> str:
        """The action as the game in play reads it."""
        return self.game.action_to_string(action)

    @property
    def events(self) -> tuple[MatchEvent, ...]:
        """Both games' events, each marked with its game."""
        return tuple(
            MatchEvent(number, event)
            for number, game in enumerate(self.games, 1)
            for event in game.events
        )

    # -- the variant's own queries -----------------------------------------------------------

    def second_start(self) -> int:
        """Game 2's start player: the lowest scorer of game 1, ties to the tied player playing
        earliest in game 1 (the loser of its tie-break). Needs game 1 over."""
        first = self.games[0]
        if not first.is_terminal():
            raise RulesError("game 1 is not over yet")
        totals = first.returns()
        lowest = min(totals)
        return next(seat for seat in first.seat_order() if totals[seat] == lowest)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self.players, self.caboose, self.deck, self.orders, self.rounds, self.games) == (
            other.players,
            other.caboose,
            other.deck,
            other.orders,
            other.rounds,
            other.games,
        )

    __hash__ = None  # type: ignore[assignment]  # a mutable state

    def __str__(self) -> str:
        return "\n".join(f"game {number}\n{game}" for number, game in enumerate(self.games, 1))

    def __repr__(self) -> str:
        return f"<express.Match {self.players} players, game {len(self.games)}>"
