"""Exact play of a deal whose card order is known: two-player minimax, and every play's value.

With the whole deck order known there is no chance left: the start player is dealt the first N
cards, every turn draws the next card, and the one circulating hand passes round the table.
:func:`solve_order` and :func:`solve_deal` find a two-player game's value — the start player's
final score minus the other's when both play to maximise their own side of that difference —
and an optimal line of plays. :func:`play_values` values every play of the player to move in
a game of 2 to 5 players (the multi-player searches are in :mod:`express.exact_multi`).

How it is exact and fast
------------------------
*Value-to-go.* Train value is a sum over plays, so a node's value is what the remaining plays add
(each play's card value, 4 face down, signed by who plays it) plus the end-of-game terms: the
longest-run award and the caboose. Those end terms are computed by :func:`express.score_game`
itself on the finished trains — no second copy of the scoring rules.

*Positions as ints.* What the rest of the game depends on of a train is its *position*: the last
car (it decides what may follow face up and whether a run goes on), the length of the run ending
there, the longest run so far, what the caboose still depends on — the caboose's own
``memo_key`` for absolute cabooses, and for relative ones the measure's sufficient summary
(colours used, runs of two or more so far, colour counts, train value, wild cars) — and the
number of cards laid. Each position is interned once as a small int with one representative
train, and its successors are kept in a table, so a search step is a list lookup. When the run
ending at the last car can no longer outgrow the longest run (it would need more cars than the
cards left to lay), it cannot change anything and is forgotten, which merges positions; a
relative caboose may count runs, so it keeps them.

*Alpha-beta with a transposition table.* Fail-soft alpha-beta over value-to-go windows, driven
by MTD(f) (null-window searches closing in on the value, which cut more than one wide window).
A state — the hand (an interned id of the turn and its sorted card ids: the draws to come are
fixed by the order) and each player's position — keeps its value-to-go, or a lower/upper bound
when a cut-off left it open; a later visit narrows its window with it and searches again only
when the bound cannot settle it. The last turn is scored exactly and kept (no window). Moves
are tried by immediate gain first, and the move that last proved best from the same hand and
position is moved to the front of that shared list (it is often best again whatever the other
train is: nearly all cut-offs come from the first move tried).

*Bounds.* Before the table, a state is settled when a cheap bound cannot reach its window: the
plays to come add at least 4 each and at most the best cards of the hand and the draws to come,
and the end terms at most the longest run a train can still reach (plus the caboose). And once
a train cannot reach its rival's longest run, its own runs decide nothing: the key forgets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.values import whole_number
from express.cabooses import Caboose, caboose_named
from express.cards import Card
from express.errors import ExpressError, LimitError, RulesError
from express.exact_multi import INFINITY, MaxN, Move, NodeBudgetSpent, Paranoid, World
from express.game import Game, GameAction, Observation
from express.rules import FACE_DOWN_VALUE, hand_size_for, rounds_for
from express.train import Play, Train

__all__ = [
    "DealSolution",
    "PerfectPolicy",
    "SearchLimitReached",
    "play_values",
    "play_values_with_states",
    "solve_deal",
    "solve_order",
    "PLAY_VALUE_RULES",
]

# The two-player rules: the start player's hand and the number of rounds.
_HAND_SIZE = hand_size_for(2)
_ROUNDS = rounds_for(2)

PLAY_VALUE_RULES = ("paranoid", "maxn")
"""The rules :func:`play_values` knows for three to five players (see there)."""


class SearchLimitReached(ExpressError):
    """An exact search stopped at its ``node_limit`` before it had the exact values.

    Raised instead of returning anything inexact, so a caller can fall back on a cheaper
    estimate; ``nodes`` is the limit it reached (states searched).
    """

    def __init__(self, message: str, nodes: int) -> None:
        super().__init__(message)
        self.nodes = nodes

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (type(self), (str(self), self.nodes))


@dataclass(frozen=True)
class DealSolution:
    """The exact value of a deal and one optimal line of plays (player 0 plays first)."""

    value: int
    """Player 0's final score minus player 1's under optimal play by both."""
    line: tuple[Play, ...]
    """The plays in turn order: player 0, player 1, player 0, …"""
    nodes: int
    """States searched (a measure of the work)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {"value": self.value, "line": [str(play) for play in self.line], "nodes": self.nodes}


class _TwoPlayer:
    """Alpha-beta over value-to-go for the start player (index 0) against the other (index 1).

    The search is a closure over its tables (faster in CPython than attribute lookups); the
    methods are ``search(t, hand, p0, p1, alpha, beta)``, ``moves(hand, position)``,
    ``end(p0, p1)`` and ``nodes()``.
    """

    def __init__(self, world: World, node_limit: int | None = None) -> None:
        self.world = world
        self._build(world, node_limit)

    def _build(self, world: World, node_limit: int | None) -> None:
        table: dict[tuple[int, int, int], tuple[int, int]] = {}
        finals: dict[tuple[int, int, int], int] = {}
        move_lists: dict[tuple[int, int], list[Move]] = {}
        end_terms: dict[tuple[int, int], int] = {}
        counter = [0]
        limit = INFINITY if node_limit is None else node_limit
        last_turn = world.turns - 1
        plays_left, longest, reach, bare = world.plays_left, world.longest, world.reach, world.bare
        best_gains, points, down = world.best_gains, world.caboose_points, FACE_DOWN_VALUE
        new_moves, world_ends = world.moves, world.ends
        infinity = INFINITY

        def moves(hand: int, position: int) -> list[Move]:
            found = move_lists.get((hand, position))
            if found is None:
                found = move_lists[hand, position] = new_moves(hand, position)
            return found

        def end(p0: int, p1: int) -> int:
            found = end_terms.get((p0, p1))
            if found is None:
                terms = world_ends((p0, p1))
                found = end_terms[p0, p1] = terms[0] - terms[1]
            return found

        def final(hand: int, p0: int, p1: int) -> int:
            # The last turn, exact and kept: many lines meet there, and it needs no window.
            key = (hand, p0, p1)
            found = finals.get(key)
            if found is not None:
                return found
            counter[0] += 1
            if last_turn % 2 == 0:
                value = max(gain + end(moved, p1) for gain, _, _, moved, _ in moves(hand, p0))
            else:
                value = min(end(p0, moved) - gain for gain, _, _, moved, _ in moves(hand, p1))
            finals[key] = value
            return value

        # Hot-loop twin of express.exact_multi.Paranoid's search (the same bound, move order and
        # table): two players need no rival vector, and this closure without it is what makes
        # two-player deals fast; a change to one is a change to both.
        def search(t: int, hand: int, p0: int, p1: int, alpha: int, beta: int) -> int:
            if t == last_turn:
                return final(hand, p0, p1)
            # A cheap bound first: each play to come adds from 4 to the best card's value, and
            # the end terms at most the longest run either train can still reach (and a caboose).
            k0, k1 = plays_left[p0], plays_left[p1]
            sums = best_gains[hand]
            m0, l1 = reach[p0], longest[p1]
            high = sums[k0] - down * k1 + points + (m0 if m0 > l1 else (0 if m0 == l1 else -l1))
            if high <= alpha:
                return high
            m1, l0 = reach[p1], longest[p0]
            low = down * k0 - sums[k1] - points - (m1 if m1 > l0 else (0 if m1 == l0 else -l0))
            if low >= beta:
                return low
            key = (hand, p0 if m0 >= l1 else bare[p0], p1 if m1 >= l0 else bare[p1])
            stored = table.get(key)
            if stored is not None:
                if stored[0] > low:
                    low = stored[0]
                if stored[1] < high:
                    high = stored[1]
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
            counter[0] += 1
            if counter[0] > limit:
                raise NodeBudgetSpent
            a = alpha if alpha > low else low
            b = beta if beta < high else high
            chosen = 0
            index = 0
            if t % 2 == 0:
                listed = moves(hand, p0)
                best = -infinity
                for gain, _, _, moved, rest in listed:
                    value = gain + search(t + 1, rest, moved, p1, a - gain, b - gain)
                    if value > best:
                        best, chosen = value, index
                        if best > a:
                            a = best
                            if a >= b:
                                break
                    index += 1
            else:
                listed = moves(hand, p1)
                best = infinity
                for gain, _, _, moved, rest in listed:
                    value = search(t + 1, rest, p0, moved, a + gain, b + gain) - gain
                    if value < best:
                        best, chosen = value, index
                        if best < b:
                            b = best
                            if a >= b:
                                break
                    index += 1
            if chosen:  # the best move here is tried first from this hand and position next time
                listed.insert(0, listed.pop(chosen))
            if best <= alpha:
                table[key] = (low, best)
            elif best >= beta:
                table[key] = (best, high)
            else:
                table[key] = (best, best)
            return best

        self.search = search
        self.moves = moves
        self.end = end

        def nodes() -> int:
            return counter[0]

        self.nodes = nodes

    def mtd(self, t: int, hand: int, p0: int, p1: int, guess: int = 0) -> int:
        """The exact value-to-go by MTD(f): null-window searches closing in on the value from
        ``guess``, each reusing the bounds the others stored (fewer states than one wide window)."""
        low, high = -INFINITY, INFINITY
        value = guess
        while low < high:
            beta = value + 1 if value == low else value
            value = self.search(t, hand, p0, p1, beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
        return value

    def child_value(
        self,
        t: int,
        move: Move,
        p0: int,
        p1: int,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
        guess: int = 0,
    ) -> int:
        """Player 0's value-to-go after ``move`` at turn ``t`` (its gain included)."""
        gain, _, _, moved, rest = move
        g = gain if t % 2 == 0 else -gain
        after = (moved, p1) if t % 2 == 0 else (p0, moved)
        if t + 1 == self.world.turns:
            return g + self.end(after[0], after[1])
        if alpha == -INFINITY and beta == INFINITY:
            return g + self.mtd(t + 1, rest, after[0], after[1], guess - g)
        return g + self.search(t + 1, rest, after[0], after[1], alpha - g, beta - g)

    def solve(self, t: int, hand: int, p0: int, p1: int) -> tuple[int, list[Play]]:
        """The value-to-go from turn ``t`` and one optimal line."""
        world = self.world
        target = self.mtd(t, hand, p0, p1)
        value = target
        line: list[Play] = []
        for turn in range(t, world.turns):
            position = p0 if turn % 2 == 0 else p1
            for move in list(self.moves(hand, position)):
                if self.child_value(turn, move, p0, p1, target - 1, target + 1) == target:
                    gain, card, face_up, moved, rest = move
                    line.append(Play(world.cards[card], face_up))
                    target -= gain if turn % 2 == 0 else -gain
                    hand = rest
                    p0, p1 = (moved, p1) if turn % 2 == 0 else (p0, moved)
                    break
            else:  # pragma: no cover - some child always reaches the solved value
                raise AssertionError("no move reaches the solved value")
        return value, line

    def play_values(self, t: int, hand: int, p0: int, p1: int) -> dict[Move, int]:
        """Player 0's exact value-to-go after each move at turn ``t``: one table for all of them
        (each child's search starts from the previous child's value)."""
        position = p0 if t % 2 == 0 else p1
        out: dict[Move, int] = {}
        guess = 0
        for move in list(self.moves(hand, position)):
            out[move] = guess = self.child_value(t, move, p0, p1, guess=guess)
        return out


def _two_player_solution(
    order: Sequence[Card],
    caboose: Caboose | None,
    rounds: int,
    turn: int,
    held: Sequence[Card],
    trains: tuple[Train, Train],
) -> DealSolution:
    """Solve from turn ``turn`` with ``held`` (that turn's draw included) and the two trains."""
    world = World(sorted(set(order), key=str), order, caboose, rounds, 2)
    solver = _TwoPlayer(world)
    p0, p1 = world.start(trains[0]), world.start(trains[1])
    target, line = solver.solve(turn, world.start_hand(turn, held), p0, p1)
    value = trains[0].value - trains[1].value + target
    return DealSolution(value, tuple(line), solver.nodes())


def solve_order(
    order: Sequence[Card], *, caboose: Caboose | None = None, rounds: int = _ROUNDS
) -> DealSolution:
    """The exact value and an optimal line of a two-player deal dealt from ``order`` (top first).

    ``rounds`` defaults to the rules' two-player game (:func:`express.rules.rounds_for`).

    >>> from express.cards import deck_for
    >>> solution = solve_order(deck_for(2), rounds=2)
    >>> solution.value, [str(play) for play in solution.line]
    (0, ['B2|B2', 'B2|B2', 'R2|R2', 'R2|R2'])
    """
    if caboose is not None and not isinstance(caboose, Caboose):
        raise TypeError(
            "solve_order: caboose must be a Caboose or None (caboose_named(name) finds one), "
            f"not {type(caboose).__name__} {caboose!r}"
        )
    rounds = whole_number(rounds, "rounds", where="solve_order")
    if rounds < 1:
        raise RulesError(f"invalid number of rounds: {rounds!r} (at least 1)")
    needed = _HAND_SIZE + 2 * rounds
    if len(order) < needed:
        raise RulesError(
            f"a {rounds}-round two-player deal needs {needed} cards, the order has {len(order)}"
        )
    order = tuple(order)
    return _two_player_solution(
        order, caboose, rounds, 0, order[: _HAND_SIZE + 1], (Train(), Train())
    )


def _position(
    order: Sequence[Card],
    caboose: Caboose | None,
    rounds: int,
    turn: int,
    hand: Sequence[Card],
    trains: tuple[Train, Train],
) -> DealSolution:
    """Solve from a position: ``hand`` holds the cards of the current turn (its draw included)."""
    if turn >= 2 * rounds:
        raise RulesError("the game is over: nothing left to solve")
    return _two_player_solution(order, caboose, rounds, turn, hand, trains)


def solve_deal(game: Game) -> DealSolution:
    """The exact value of a two-player game whose deck order is known, from its current state.

    The value is the start player's final score minus the other player's when both play
    optimally from here; the line lists the optimal plays from the current turn on.

    >>> from express.cards import deck_for
    >>> solve_deal(Game(2, order=deck_for(2), rounds=2)).value
    0
    """
    if not isinstance(game, Game):
        raise TypeError(f"solve_deal takes an express.Game, not {type(game).__name__}")
    if game.players != 2:
        raise RulesError(f"solve_deal solves two-player games, not {game.players} players")
    if game.order is None:
        raise RulesError("solve_deal needs the deck order: Game(2, order=...)")
    if game.caboose_pending:
        raise RulesError("the caboose has not been drawn yet")
    start = game.start_player
    trains = (game.trains[start], game.trains[1 - start])
    if game.is_terminal():
        score = game.score()
        return DealSolution(score.players[start].total - score.players[1 - start].total, (), 0)
    return _position(game.order, game.caboose, game.rounds, game.turn, game.hand_cards(), trains)


def play_values(
    game: Game, *, rule: str = "paranoid", node_limit: int | None = None
) -> dict[Play, int]:
    """The exact value of every play of the player to move in a game whose deck order is known.

    For each distinct legal play (a card face up or face down, identical cards once) it is the
    value for the player to move once that play is made and the rest of the game is played out
    optimally in this known world — the deck order, every train and every hand as ``game``
    holds them, a caboose included:

    - **two players**: the mover's final score minus the other's, both playing the minimax of
      :func:`solve_deal` (``rule`` does not matter): the best play's value is solve_deal's value
      seen from the mover;
    - three to five players, ``rule="paranoid"``: the mover's final score minus the best
      rival's final score when the rivals jointly minimise it;
    - three to five players, ``rule="maxn"``: the mover's final score when every player
      maximises its own final score; a player's ties go to the play worst for the mover, then
      to the first in ``legal_actions()`` order (:mod:`express.exact_multi` says why).

    The plays come in ``game.legal_actions()`` order. One search values every play (a single
    transposition table serves them all).
    ``node_limit`` caps the states searched: past it :class:`SearchLimitReached` is raised —
    never an inexact value (an exact three- or four-player search from the first turns can be
    long; see ``benchmarks/README.md``).

    >>> from express.cards import deck_for
    >>> game = Game(3, order=deck_for(3)[::-1], rounds=2)
    >>> [str(card) for card in game.hand_cards()]
    ['P4|P4', 'P3|R3', 'P3|Y3', 'P3|B3']
    >>> values = play_values(game)  # paranoid: my final score minus the best rival's
    >>> {str(play): value for play, value in values.items() if play.card == game.hand_cards()[0]}
    {'P4|P4': 3, '~P4|P4': -5}
    >>> play_values(game, rule="maxn")[Play.parse("P4|P4")]  # max-n: my final score
    17
    """
    return play_values_with_states(game, rule=rule, node_limit=node_limit)[0]


def require_decision(game: Game, caller: str) -> None:
    """Refuse, in one line naming ``caller``, a game that is not at a player's decision: its
    caboose still to draw, the game over, or a card to draw."""
    if game.caboose_pending:
        raise RulesError("the caboose has not been drawn yet")
    if game.is_terminal():
        raise RulesError("the game is over: no play left to value")
    if game.is_chance_node():
        raise RulesError(f"a card is to be drawn: {caller} values a player's decision")


def play_values_with_states(
    game: Game, *, rule: str = "paranoid", node_limit: int | None = None
) -> tuple[dict[Play, int], int]:
    """:func:`play_values` and the number of states its search took (what a caller that budgets
    its searches, such as ``bot("pimc")``, counts)."""
    if not isinstance(game, Game):
        raise TypeError(f"play_values takes an express.Game, not {type(game).__name__}")
    if not isinstance(rule, str):
        raise TypeError(f"play_values: rule must be a str, not {type(rule).__name__}")
    if rule not in PLAY_VALUE_RULES:
        raise RulesError(f"unknown rule: {rule!r} (use {' or '.join(PLAY_VALUE_RULES)})")
    if node_limit is not None:
        node_limit = whole_number(node_limit, "node_limit", where="play_values")
    if node_limit is not None and node_limit < 1:
        raise LimitError(f"invalid node_limit: {node_limit!r} (a positive number of states)")
    if game.order is None:
        raise RulesError("play_values needs the deck order: Game(players, order=...)")
    require_decision(game, "play_values")
    players = game.players
    seats = game.seat_order()
    # Card ids follow the deck's order, the order legal_actions() lists plays in (max-n's ties).
    world = World(
        [card for card, _ in game.deck_left()], game.order, game.caboose, game.rounds, players
    )
    positions = tuple(world.start(game.trains[seat]) for seat in seats)
    values = [game.trains[seat].value for seat in seats]
    t = game.turn
    hand = world.start_hand(t, game.hand_cards())
    mover = t % players
    moves: dict[Move, int]
    solver: _TwoPlayer | Paranoid | MaxN
    try:
        if players == 2:
            lead = values[0] - values[1]
            solver = _TwoPlayer(world, node_limit)
            moves = solver.play_values(t, hand, *positions)
            sign = 1 if mover == 0 else -1
            moves = {move: sign * (lead + value) for move, value in moves.items()}
        elif rule == "paranoid":
            solver = Paranoid(world, mover, node_limit)
            moves = solver.play_values(t, hand, positions, values)
        else:
            solver = MaxN(world, mover, node_limit)
            moves = solver.play_values(t, hand, positions, values)
    except NodeBudgetSpent:
        raise SearchLimitReached(
            f"play_values: node_limit {node_limit} reached before the values were exact",
            node_limit or 0,
        ) from None
    # In legal_actions() order: cards in the deck's order, face up before face down.
    ordered = sorted(moves.items(), key=lambda item: (item[0][1], not item[0][2]))
    values_of = {Play(world.cards[move[1]], move[2]): value for move, value in ordered}
    return values_of, solver.nodes()


@dataclass(frozen=True)
class PerfectPolicy:
    """The yardstick: optimal play of a two-player game **with the deck order known** (a cheat).

    It rebuilds the position from its observation (a hidden face-down card changes nothing that
    is scored: it is two wild cars worth 2 whatever the card) and plays the first move of
    :func:`solve_deal`'s line, for either seat.
    """

    order: tuple[Card, ...]
    name: str = "perfect"

    def act(
        self,
        observation: Observation,
        legal_actions: Sequence[GameAction],
        rng: np.random.Generator,
    ) -> GameAction:
        if observation.players != 2:
            raise RulesError(
                f"the perfect player plays two-player games, not {observation.players} players"
            )
        caboose = None if observation.caboose is None else caboose_named(observation.caboose)
        start = observation.start_player
        hidden = self.order[0]  # any card stands for a hidden face-down one
        trains = tuple(
            Train(
                tuple(
                    Play(hidden, False) if play is None else play
                    for play in observation.trains[seat]
                )
            )
            for seat in (start, 1 - start)
        )
        solution = _position(
            self.order,
            caboose,
            observation.rounds,
            observation.turn,
            observation.hand,
            (trains[0], trains[1]),
        )
        return solution.line[0]
