"""The exact count of the worlds consistent with an observation, and the uniform draw
from them (the law is :mod:`express.worlds`').

:func:`~express.worlds.count_worlds` counts the consistent worlds exactly (Python integers) and
:func:`~express.worlds.sample_worlds` draws them uniformly, by a memoised forward search over the steps of the
history as the player knows them (deal and draws, its sight of the hand at each of its turns,
the plays). A state holds the hand split into the cards the player has seen (they are the
oldest: the hand is all seen when it leaves the player) and those it has not, the cards it saw
that it has not seen yet, and the deck's copies left. Its count is the number of worlds
completing it; each world is drawn by taking every choice with probability proportional to the
count it leads to (exact integers, one ``randrange`` per step), which is uniform over worlds.

Kinds are tracked one by one where the observation names them: every kind with two copies or
more (their copies interact through "a play takes the first card of its kind": a face-down
card of a kind the player has seen in the hand is that seen card) and the single cards it sees
played. The other single cards are symmetric and only counted: *unmarked* ones (seen, then never
in sight but for the hand held now: a draw of one stands for each of those not drawn yet, a
face-down play of one for each in the hand; those left in the hand at the end are named as the
hand's cards, the same share of the namings on every path) and *anonymous* ones (never seen, never face up: a draw of one
stands for each not drawn yet, and no play can mistake it for another card). Every world
follows one path of the search (its draws and plays decide each choice), and a path with its
multiplicities stands for exactly the worlds that follow it, so the counts are exact; the
symmetric cards are then named uniformly at random, and the undrawn rest of the deck shuffled
uniformly (each of its orders is one world). The tests check the counts and the law against a
brute-force enumeration on small decks (chi-square, fixed seeds, a power shown on a sampler
5 % off).

The worlds :func:`~express.worlds.sample_worlds` returns are complete games with :attr:`express.Game.order`
set (the drawn cards, then the undrawn rest), played to the observation's point, so a solver
can read the future. At a point where a card is still to be drawn the world is that chance
node (order set: the next draw is ``order[len(drawn)]``).

The search's states grow with the game: a few
thousand on most two-player decisions (a median of some 5 ms of counting), far more on three to
five players late in a game. Beyond ``BUDGET`` states the search stops
(:class:`OutOfBudget`) and :mod:`express.worlds.approximate` takes over.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from typing import cast

from arena.text import plural
from express.errors import ExpressError, InconsistentObservation
from express.game import Game, Observation
from express.train import Play
from express.worlds.kinds import deck_kinds, shown_kinds
from express.worlds.seen import DealSeen, OwnTurnSeen, SeenEvent

__all__ = ["BUDGET", "Census", "OutOfBudget", "census_for"]


BUDGET = 50_000
"""States the exact count of :func:`~express.worlds.sample_worlds` and :func:`~express.worlds.resample` may reach before they
fall back on the approximate search (about 0.5 s of counting on this machine: the approximate
search costs some 80 ms a world late in a two-player game, so for the 16 worlds of a ``pimc``
decision counting more is still the cheaper way, and the exact one)."""

# The steps of a history as the observing player knows them: a draw (its argument: the kind
# drawn when the player knows it, else -1), the player's own sight of the hand at its turn (the
# cards new to it and the hand, when they are known), its own play (the kind), another player's
# face-up play (the kind) or face-down play (the turn), and the deal (its kinds, when known).
_DRAW, _REVEAL, _OWN, _UP, _DOWN, _DEAL = range(6)

# Labels of the choices: a draw of an anonymous card, of an unmarked card the player will see;
# a face-down play of an unmarked seen card, of an anonymous card (else: the kind, explicit).
_ANONYMOUS, _UNMARKED, _HELD_UNMARKED, _ANONYMOUS_PLAYED = -1, -2, -3, -4

_State = tuple[
    int,  # the next step
    tuple[int, ...],  # the hand's cards the player has seen: explicit kinds, sorted
    int,  # the hand's unmarked cards the player has seen
    tuple[int, ...],  # the hand's cards the player has not seen: explicit kinds, sorted
    int,  # the hand's unmarked cards the player has not seen yet (it will)
    int,  # the hand's anonymous cards
    int,  # anonymous cards drawn so far
    int,  # unmarked cards not drawn yet
    tuple[int, ...],  # explicit cards the player saw, not seen yet at this step: sorted kinds
    int,  # explicit copies left in the deck, by kind: one bit field per kind (see Census.copies)
]


class OutOfBudget(Exception):
    """A search of the worlds ran past its budget (the exact count past ``BUDGET`` states, a
    randomized search past its own)."""


_FACTORIALS = [1]


def _factorial(n: int) -> int:
    while len(_FACTORIALS) <= n:
        _FACTORIALS.append(_FACTORIALS[-1] * len(_FACTORIALS))
    return _FACTORIALS[n]


def _without(cards: tuple[int, ...], kind: int) -> tuple[int, ...]:
    at = cards.index(kind)
    return cards[:at] + cards[at + 1 :]


def _merged(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(a + b)) if b else a


def _less_loose(big: tuple[int, ...], small: tuple[int, ...]) -> list[int]:
    """``big − small`` as multisets, the kinds of ``small`` missing from ``big`` ignored."""
    rest = list(big)
    for kind in small:
        if kind in rest:
            rest.remove(kind)
    return rest


def _less(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...] | None:
    """``big − small`` as sorted multisets, or None when ``small`` is not inside ``big``."""
    rest = list(big)
    for kind in small:
        try:
            rest.remove(kind)
        except ValueError:
            return None
    return tuple(rest)


class Census:
    """The consistent worlds of one observation, counted exactly, and drawn uniformly.

    A forward search over the steps of the history, memoised: the count of a
    state is the number of ways to complete it into a world. Kinds the player's observation
    names individually — every kind with two copies or more, and the single cards it sees played
    or holds — are *explicit*; the other single cards are symmetric and counted, not named:
    *unmarked* cards (seen, but never in sight since) and *anonymous* ones (never seen nor in
    sight). See the module docstring for why this counts every world once.
    """

    def __init__(
        self,
        view: Observation,
        history: Sequence[SeenEvent] | None = None,
        budget: int | None = None,
    ) -> None:
        self.view = view
        self.budget = budget
        kinds = self.kinds = deck_kinds(view.deck)
        self.memo: dict[_State, int] = {}
        self.problem = ""
        players, turn, drawn = view.players, view.turn, view.drawn
        hand_size = players
        self.seat = [
            (view.start_player + (1 if view.pass_left else -1) * t) % players
            for t in range(players * view.rounds + 1)
        ]
        self.steps: list[tuple[int, object]] = []
        self.total = 0
        self.pending = drawn <= hand_size + turn and turn < players * view.rounds
        self.holding = (
            drawn == hand_size + turn + 1
            and turn < players * view.rounds
            and self.seat[turn] == view.player
        )
        if not self._well_formed():
            return
        try:
            seen = Counter(kinds.of(card) for card in view.seen)
            own = [kinds.of(play.card) for play in view.train.plays]
            shown = shown_kinds(view, kinds)
            self.hand = tuple(sorted(kinds.of(card) for card in view.hand))
        except ValueError as error:
            self.problem = str(error)
            return
        copies = kinds.copies
        if any(count > copies[kind] for kind, count in seen.items()):
            self.problem = "a card seen more often than the deck holds it"
            return
        marked = {kind for kind in range(len(copies)) if copies[kind] > 1}
        marked.update(shown, own)
        if not self.holding:
            marked.update(self.hand)
        if history is not None:
            marked.update(seen)  # the turns it saw name every card it saw
        self.explicit = tuple(sorted(marked))
        # The single cards of the hand held now are unmarked too: they are the unmarked cards
        # still in the hand at the end (see _final and world).
        self.kept = [kind for kind in self.hand if kind not in marked]
        self.hand = tuple(kind for kind in self.hand if kind in marked)
        self.unmarked = [kind for kind in sorted(seen) if kind not in marked]
        self.anonymous = [
            kind
            for kind in range(len(copies))
            if kind not in marked and kind not in seen and kind not in shown
        ]
        self.undrawn = len(view.deck) - drawn
        # The deck's copies left are one int, a bit field per kind: a state is hashed at every
        # lookup, and an int hashes and changes faster than a tuple as long as the deck's kinds.
        self.width = max(copies).bit_length()
        self.units = [1 << (self.width * kind) for kind in range(len(copies))]
        self._plan(history)
        self._bounds(seen)
        start: _State = (
            0,
            (),
            0,
            (),
            0,
            0,
            0,
            len(self.unmarked),
            tuple(sorted(k for k in self.explicit for _ in range(seen[k]))),
            sum(copies[k] * self.units[k] for k in marked),
        )
        self.start = start
        # Each path counts every naming of the unmarked cards; those in the hand at the end must
        # be the kept ones: the same share of the namings on every path.
        unmarked, kept = len(self.unmarked), len(self.kept)
        self.total = (
            self.count(start)
            * _factorial(kept)
            * _factorial(unmarked - kept)
            // _factorial(unmarked)
        )

    def failure(self) -> str:
        """The one-line reason no game leads to the observation."""
        view = self.view
        reason = self.problem or (
            "the cards seen, played and held cannot all come from the deck in that order"
        )
        return (
            f"no history of the game matches the observation of player {view.player} "
            f"(turn {view.turn}, {plural(view.drawn, 'card')} drawn): {reason}"
        )

    def _well_formed(self) -> bool:
        """The counts an observation states match each other (how many cards drawn, trains and
        hand); the rest is left to the counting."""
        view = self.view
        players, turn, drawn = view.players, view.turn, view.drawn
        turns = players * view.rounds
        if not 0 <= turn <= turns:
            self.problem = f"turn {turn!r} out of 0..{turns}"
        elif not (
            (
                0 <= drawn <= players + 1
                if turn == 0
                else drawn in (players + turn, players + turn + 1)
            )
            and (turn < turns or drawn == players + turn)
            and drawn <= len(view.deck)
        ):
            self.problem = f"{drawn!r} cards drawn by turn {turn}"
        elif len(view.hand) != (players + 1 if self.holding else 0):
            self.problem = f"a hand of {plural(len(view.hand), 'card')}"
        elif any(
            len(plays) != sum(1 for t in range(turn) if self.seat[t] == seat)
            for seat, plays in enumerate(view.trains)
        ):
            self.problem = "a train with more or fewer cards than the turns played"
        elif tuple(view.trains[view.player]) != tuple(view.train.plays):
            self.problem = "the player's own train differs from its train in the table"
        elif any(
            play is not None and not play.face_up
            for seat, plays in enumerate(view.trains)
            if seat != view.player
            for play in plays
        ):
            self.problem = "another player's face-down card shown"
        else:
            return True
        return False

    def _plan(self, history: Sequence[SeenEvent] | None) -> None:
        """The steps of the history up to the observation."""
        view, kinds, steps = self.view, self.kinds, self.steps
        players, hand_size = view.players, view.players
        own_turns: dict[int, OwnTurnSeen] = {}
        deal: tuple[int, ...] | None = None
        for event in history or ():
            if isinstance(event, OwnTurnSeen):
                own_turns[event.turn] = event
            elif isinstance(event, DealSeen) and event.cards is not None:
                deal = tuple(sorted(kinds.of(card) for card in event.cards))
        steps.extend((_DRAW, -1) for _ in range(min(view.drawn, hand_size)))
        if deal is not None and view.drawn >= hand_size:
            steps.append((_DEAL, deal))
        for turn in range(view.turn + 1):
            if hand_size + turn >= view.drawn:
                break  # this turn's draw is still to come
            seat = self.seat[turn]
            if seat == view.player:
                seen = own_turns.get(turn)
                if seen is None:
                    steps.append((_DRAW, -1))
                    steps.append((_REVEAL, None))
                else:
                    new = tuple(sorted(kinds.of(card) for card in seen.new))
                    held = tuple(sorted(kinds.of(card) for card in seen.held))
                    steps.append((_DRAW, kinds.of(seen.drew)))
                    steps.append((_REVEAL, (new, held)))
            else:
                steps.append((_DRAW, -1))
            if turn < view.turn:
                if seat == view.player:
                    steps.append((_OWN, kinds.of(view.train.plays[turn // players].card)))
                else:
                    play = view.trains[seat][turn // players]
                    if play is None:
                        steps.append((_DOWN, turn))
                    else:
                        steps.append((_UP, kinds.of(play.card)))

    def _bounds(self, seen: Counter[int]) -> None:
        """What the search checks ahead, to cut a branch as soon as it cannot reach a world
        (every cut is a necessary condition). For each step: the next sight of the hand, the
        plays (and face-down plays) before it, the sights after it. For each single card the
        observation shows played or held: the step where it leaves the hand (or the end, for
        the hand held now) and, for a card the player saw, the last sight before that."""
        steps = self.steps
        end = len(steps)
        self.next_sight = [end] * (end + 1)
        self.plays_before = [0] * (end + 1)  # up to the next sight
        self.downs_before = [0] * (end + 1)
        self.sights_after = [0] * (end + 1)  # strictly after the step
        for i in range(end - 1, -1, -1):
            op = steps[i][0]
            following = steps[i + 1][0] if i + 1 < end else None
            self.sights_after[i] = self.sights_after[i + 1] + (following == _REVEAL)
            if op == _REVEAL:
                self.next_sight[i] = i
            else:
                self.next_sight[i] = self.next_sight[i + 1]
                self.plays_before[i] = self.plays_before[i + 1] + (op in (_UP, _DOWN))
                self.downs_before[i] = self.downs_before[i + 1] + (op == _DOWN)
        copies = self.kinds.copies
        self.leaves: dict[int, int] = {}
        for i, (op, arg) in enumerate(steps):
            if op in (_OWN, _UP):
                assert isinstance(arg, int)
                if copies[arg] == 1:
                    self.leaves.setdefault(arg, i)
        if self.holding:
            for kind in self.hand:
                if copies[kind] == 1:
                    self.leaves.setdefault(kind, end)
        self.last_sight: dict[int, int] = {}
        for kind, leaves in self.leaves.items():
            if seen[kind]:
                sights = [i for i in range(leaves) if steps[i][0] == _REVEAL]
                self.last_sight[kind] = sights[-1] if sights else -1
        self.seen_kinds = seen
        # The kinds each draw may bring, as far as the step alone decides (the hot loop of the
        # count then checks only what the state decides).
        self.drawable = [
            tuple(kind for kind in self.explicit if self._may_draw(kind, self.next_sight[i]))
            for i in range(end)
        ]

    def _may_draw(self, kind: int, sight: int) -> bool:
        """Whether a card of ``kind`` may be drawn before the player's next sight of the hand at
        step ``sight``: not a single card it saw if it would leave the hand before that sight,
        nor one it never saw if it would leave the hand after it."""
        leaves, last_sight = self.leaves, self.last_sight
        if kind not in leaves:
            return True
        if kind in last_sight:
            return sight <= last_sight[kind]
        return leaves[kind] <= sight

    # -- the search ----------------------------------------------------------------------------

    def count(self, state: _State) -> int:
        """The number of worlds that complete ``state``."""
        memo = self.memo
        value = memo.get(state)
        if value is None:
            if state[0] == len(self.steps):
                value = self._final(state)
            else:
                value = 0
                for weight, child, _ in self._children(state):
                    known = memo.get(child)  # looked up here: half the children are known
                    value += weight * (self.count(child) if known is None else known)
            memo[state] = value
            if self.budget is not None and len(memo) > self.budget:
                raise OutOfBudget
        return value

    def _final(self, state: _State) -> int:
        """The worlds at the observation's point: the player saw every card it saw, holds its
        hand; the undrawn cards lie in any order."""
        _, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        if to_see or unmarked or waiting:
            return 0
        if self.holding and (seen != self.hand or held != len(self.kept) or unseen or blanks):
            return 0
        left = [self.copies(pool, kind) for kind in self.explicit]
        rest = len(self.anonymous) - anonymous + sum(left)
        assert rest == self.undrawn, (rest, self.undrawn)
        value = _factorial(rest)
        for copies in left:
            if copies > 1:
                value //= _factorial(copies)
        return value

    def copies(self, pool: int, kind: int) -> int:
        """The copies of ``kind`` left in a state's ``pool`` (its bit field)."""
        return (pool >> (self.width * kind)) & ((1 << self.width) - 1)

    def _children(self, state: _State) -> list[tuple[int, _State, int]]:
        """The next step's choices: (how many worlds each stands for, the state after, label)."""
        i, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        op, arg = self.steps[i]
        j = i + 1
        end = len(self.steps)
        out: list[tuple[int, _State, int]] = []
        if op == _DRAW:
            assert isinstance(arg, int)
            if arg >= 0:
                draws: Sequence[int] = (arg,) if self._may_draw(arg, self.next_sight[i]) else ()
            else:
                draws = self.drawable[i]
                left = len(self.anonymous) - anonymous
                if left and (blanks < self.downs_before[j] or self.next_sight[j] == end):
                    out.append(
                        (
                            left,
                            (j, seen, held, unseen, waiting, blanks + 1, anonymous + 1)
                            + (unmarked, to_see, pool),
                            _ANONYMOUS,
                        )
                    )
                if unmarked:
                    out.append(
                        (
                            unmarked,
                            (j, seen, held, unseen, waiting + 1, blanks, anonymous)
                            + (unmarked - 1, to_see, pool),
                            _UNMARKED,
                        )
                    )
            # Cards the player must not see (anonymous ones and those beyond what it saw) may not
            # outnumber the plays that take them out of the hand before it looks: at the limit,
            # only a card it is still to see may come.
            room = self.plays_before[j] if self.next_sight[j] < end else end
            excess = blanks + len(_less_loose(unseen, to_see))
            if excess > room:
                draws = ()
            elif excess == room:
                short = _less_loose(to_see, unseen)
                draws = [kind for kind in draws if kind in short]
            width, mask, units = self.width, (1 << self.width) - 1, self.units
            for kind in draws:
                if (pool >> (width * kind)) & mask:
                    out.append(
                        (
                            1,
                            (
                                j,
                                seen,
                                held,
                                tuple(sorted((*unseen, kind))),
                                waiting,
                                blanks,
                                anonymous,
                                unmarked,
                                to_see,
                                pool - units[kind],
                            ),
                            kind,
                        )
                    )
        elif op == _REVEAL:
            if blanks:
                return out  # a card it never saw would be in its hand
            rest = _less(to_see, unseen)
            if rest is None:
                return out
            last_sight = self.last_sight
            if any(last_sight.get(kind, end) <= i for kind in rest):
                return out  # a card the player saw must have been seen by now
            if len(rest) + unmarked > self.view.players * self.sights_after[i]:
                return out  # more cards to see than the later sights show
            hand = _merged(seen, unseen)
            if arg is not None:
                new, holds = cast(tuple[tuple[int, ...], tuple[int, ...]], arg)
                if unseen != new or waiting or hand != holds:
                    return out
            out.append((1, (j, hand, held + waiting, (), 0, 0, anonymous, unmarked, rest, pool), 0))
        elif op == _OWN:
            assert isinstance(arg, int)
            if arg in seen:
                out.append((1, (j, _without(seen, arg), *state[2:]), arg))
        elif op == _UP:
            assert isinstance(arg, int)
            if arg in seen:
                out.append((1, (j, _without(seen, arg), *state[2:]), arg))
            elif arg in unseen:
                after = self._played_unseen(state, arg)
                if after is not None:
                    out.append((1, after, arg))
        elif op == _DOWN:
            leaves = self.leaves
            for kind in sorted(set(seen)):
                if leaves.get(kind, -1) > i:
                    continue  # a card the observation shows leaving later
                out.append((1, (j, _without(seen, kind), *state[2:]), kind))
            if held:
                out.append((held, (j, seen, held - 1, *state[3:]), _HELD_UNMARKED))
            for kind in sorted(set(unseen)):
                if kind not in seen and leaves.get(kind, -1) <= i:
                    # (a play takes the first card of its kind: the seen one when there is one)
                    after = self._played_unseen(state, kind)
                    if after is not None:
                        out.append((1, after, kind))
            if blanks:
                out.append(
                    (
                        blanks,
                        (j, seen, held, unseen, waiting, blanks - 1, anonymous)
                        + (unmarked, to_see, pool),
                        _ANONYMOUS_PLAYED,
                    )
                )
        else:
            assert op == _DEAL
            if unseen == arg and not waiting and not blanks:
                out.append((1, (j, *state[1:]), 0))
        return out

    def _played_unseen(self, state: _State, kind: int) -> _State | None:
        """``state`` after another player plays a card of ``kind`` the player has not seen, or
        None when the copies left can no longer give the player every card it saw."""
        i, seen, held, unseen, waiting, blanks, anonymous, unmarked, to_see, pool = state
        after = _without(unseen, kind)
        if to_see.count(kind) > after.count(kind) + self.copies(pool, kind):
            return None
        return (i + 1, seen, held, after, waiting, blanks, anonymous, unmarked, to_see, pool)

    # -- drawing one -----------------------------------------------------------------------------

    def world(self, chooser: random.Random, *, with_order: bool) -> Game:
        """One world, uniformly: each choice with probability proportional to the worlds it
        leads to, then the symmetric cards named at random and the undrawn rest shuffled."""
        state = self.start
        anonymous, unmarked = list(self.anonymous), list(self.unmarked)
        blanks: list[int] = []  # anonymous cards in the hand
        waiting: list[int] = []  # unmarked cards in the hand, not seen yet
        held: list[int] = []  # unmarked cards in the hand, seen
        slots: list[int] = []  # the unmarked cards drawn, by slot (-1, -2, …) till named
        order: list[int] = []
        hidden: dict[int, int] = {}
        while state[0] < len(self.steps):
            options = self._children(state)
            pick = chooser.randrange(self.count(state))
            chosen = options[-1]
            for option in options:
                share = option[0] * self.count(option[1])
                if pick < share:
                    chosen = option
                    break
                pick -= share
            _, child, label = chosen
            op, arg = self.steps[state[0]]
            if op == _DRAW:
                if label == _ANONYMOUS:
                    kind = anonymous.pop(chooser.randrange(len(anonymous)))
                    blanks.append(kind)
                elif label == _UNMARKED:
                    kind = -1 - len(slots)  # named at the end
                    slots.append(kind)
                    waiting.append(kind)
                else:
                    kind = label
                order.append(kind)
            elif op == _REVEAL:
                held.extend(waiting)
                waiting.clear()
            elif op == _DOWN:
                assert isinstance(arg, int)
                if label == _HELD_UNMARKED:
                    hidden[arg] = held.pop(chooser.randrange(len(held)))
                elif label == _ANONYMOUS_PLAYED:
                    hidden[arg] = blanks.pop(chooser.randrange(len(blanks)))
                else:
                    hidden[arg] = label
            state = child
        # The unmarked cards named: those still in the hand held now are the kept ones, the
        # others the rest, each in a uniformly random order.
        kept = [kind for kind in unmarked if kind in self.kept]
        others = [kind for kind in unmarked if kind not in self.kept]
        chooser.shuffle(kept)
        chooser.shuffle(others)
        names: dict[int, int] = {}
        for slot in slots:
            names[slot] = (kept if self.holding and slot in held else others).pop()
        order = [names.get(kind, kind) for kind in order]
        hidden = {turn: names.get(kind, kind) for turn, kind in hidden.items()}
        pool = state[-1]
        rest = anonymous + [kind for kind in self.explicit for _ in range(self.copies(pool, kind))]
        chooser.shuffle(rest)
        return self._replay(order + rest, hidden, with_order)

    def _replay(self, order: list[int], hidden: dict[int, int], with_order: bool) -> Game:
        """The game of ``order`` (kinds, the whole deck) and the hidden face-down kinds, played
        to the observation's point through :class:`express.Game`, which checks every rule."""
        view, cards = self.view, self.kinds.cards
        deck = tuple(cards[kind] for kind in order)
        ordered = with_order and not self.pending
        try:
            game = Game(
                view.players,
                caboose=view.caboose,
                deck=view.deck,
                order=deck if ordered else None,
                rounds=view.rounds,
                start_player=view.start_player,
                pass_left=view.pass_left,
            )
            while True:
                if game.is_chance_node():
                    if len(game.drawn) >= view.drawn:
                        break
                    game.apply_action(deck[len(game.drawn)])
                elif game.turn < view.turn:
                    turn = game.turn
                    seat = self.seat[turn]
                    play = view.trains[seat][turn // view.players]
                    game.apply_action(
                        Play(cards[hidden[turn]], face_up=False) if play is None else play
                    )
                else:
                    break
        except ExpressError as error:
            # What the counting leaves to the game (a face-up card that cannot connect, an
            # unknown caboose) holds in every world alike.
            raise InconsistentObservation(
                f"no history of the game matches the observation of player {view.player}: {error}"
            ) from None
        if with_order and self.pending:
            game.order = deck  # the shuffle done: the next draws read it (the state stays chance)
        if game.observation(view.player) != view:
            raise ExpressError(
                "a drawn world does not match the observation (a bug: please report it)"
            )
        return game


@functools.lru_cache(maxsize=8)
def census_for(view: Observation, history: tuple[SeenEvent, ...]) -> Census | None:
    """The count of the worlds with ``view`` (and the seen ``history``, when given), None past
    the budget. Kept for the few information states in play: OpenSpiel's IS-MCTS resamples the
    same one at every simulation of a decision, and counting is the cost, not drawing."""
    try:
        return Census(view, history, budget=BUDGET) if history else Census(view, budget=BUDGET)
    except OutOfBudget:
        return None
