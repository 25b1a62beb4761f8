"""Worlds past the exact count's budget: a randomized search, consistent but not uniform.

**The budget, and what holds beyond it.** The search's states grow with the game: a few
thousand on most two-player decisions (a median of some 5 ms of counting), far more on three to
five players late in a game. Beyond ``BUDGET`` states (:mod:`express.worlds.census`)
:func:`~express.worlds.sample_worlds` and
:func:`~express.worlds.resample` fall back on a randomized depth-first search, which returns consistent worlds
(each checked) but **not** uniformly: hidden draws are tried in an order drawn with the chance
probabilities and the first consistent completion is kept, so worlds reached through choices
with few consistent alternatives are over-represented, and the player's own history (for
:func:`~express.worlds.sample_worlds`: the hands it held, when) is invented by ad-hoc random choices — one for
all the worlds of a call while it keeps leading to complete histories, as inventing it is most
of the cost. :func:`~express.worlds.count_worlds` never falls back: it is exact, and may be slow on those games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from arena.text import plural
from express.cards import Card
from express.errors import ExpressError, InconsistentObservation
from express.game import Game, Observation, Turn
from express.train import Play
from express.worlds.census import OutOfBudget
from express.worlds.kinds import Kinds, deck_kinds, shown_kinds
from express.worlds.seen import new_by_turn, seen_history

__all__ = ["approximate_resample", "approximate_world_stream"]


def approximate_world_stream(view: Observation, rng: np.random.Generator) -> Iterator[Game]:
    """Consistent worlds found by randomized search, one at a time, without end. The player's
    own side of the history (the hands it held, when) is most of the search's cost, so the
    worlds share one while it keeps leading to complete histories; a history that leads to
    none is dropped for a new one."""
    start = _table(view)
    if not view.drawn:
        while True:
            yield start.clone()
    own = _OwnHistory(view, random.Random(int(rng.integers(2**63))))
    turns: list[_OwnTurn] | None = None
    failures = 0
    while True:
        if turns is None:
            turns = own.draw()
        world = (
            None
            if turns is None
            else _Plan.from_observation(view, turns).search(
                start, rng, keep=lambda world: world.observation(view.player) == view, attempts=1
            )
        )
        if world is None:
            turns = None
            failures += 1
            if failures >= _ATTEMPTS:
                raise InconsistentObservation(
                    f"no history of the game matches the observation of player {view.player} "
                    f"(turn {view.turn}, {plural(view.drawn, 'card')} drawn): none found"
                )
            continue
        rest = list((Counter(view.deck) - Counter(world.drawn)).elements())
        rest = [rest[int(i)] for i in rng.permutation(len(rest))]
        world.order = (*world.drawn, *rest)  # the undrawn rest in a uniformly random order
        yield world
        failures = 0  # _ATTEMPTS in a row for each world, as for one alone


def approximate_resample(game: Game, player: int, rng: np.random.Generator) -> Game:
    """A world with ``game``'s observation and seen history found by randomized search."""
    view = game.observation(player)
    plan = _Plan.from_state(game, player, rng)
    known = seen_history(game, player)

    def same(world: Game) -> bool:
        return world.observation(player) == view and seen_history(world, player) == known

    world = plan.search(_table(view), rng, keep=same)
    if world is None:
        raise ExpressError(
            "no history of the game matches what the player saw (a bug: please report it)"
        )
    return world


def _table(view: Observation) -> Game:
    """A new game at ``view``'s table: players, caboose, deck, rounds, start player, direction."""
    return Game(
        view.players,
        caboose=view.caboose,
        deck=view.deck,
        rounds=view.rounds,
        start_player=view.start_player,
        pass_left=view.pass_left,
    )


# -- drawing a hidden world -----------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """One step of a history: a draw (``play`` False) or a play; ``card`` None when the step is
    hidden from the player (a draw, or a face-down card of another player)."""

    play: bool
    card: Card | None
    face_up: bool = True


_Counts = dict[int, int]
"""Cards by kind → how many (kinds with none left out)."""


def _counted(kinds: Iterable[int]) -> _Counts:
    return dict(Counter(kinds))


def _minus(a: _Counts, b: _Counts) -> _Counts:
    """``a − b``, the kinds that stay positive."""
    out = {kind: count - b.get(kind, 0) for kind, count in a.items()}
    return {kind: count for kind, count in out.items() if count > 0}


@dataclass(frozen=True)
class _Ahead:
    """What lies ahead of one step up to the player's next decision (``decision``): the
    player's own draws and the hidden draws up to it (its own included), the plays whose card
    it knows and the others' face-down plays before it; and every play it knows of to the end."""

    decision: int | None
    draws: _Counts
    hidden_draws: int
    known_plays: _Counts
    face_down: int
    shown: _Counts


_NODE_BUDGET = 2_000
"""Steps a search of a history may try before it starts afresh."""
_ATTEMPTS = 100
"""Fresh starts before a search gives up (a bug: a consistent history always exists)."""
_OWN_BUDGET = 200
"""Decisions the search of a player's own history may try before it starts afresh."""
_SAMPLES = 12
"""Random hands tried at one decision of the player's own history."""


class _Plan:
    """The steps of a history as one player saw them, and what it saw at each of its decisions:
    ``hands[step]`` the hand it held (by kind) at the decision reached by that step (its own
    draw) and ``news[step]`` which of those cards were new to it.

    :meth:`search` walks the steps through the game itself, trying the hidden choices in a
    random order; :meth:`_counts_ok` cuts a branch as soon as a necessary condition fails: the
    deck must still hold every card a later decision needs, the hand must still be able to
    become the next known hand, and so on (each test says why it is necessary).
    """

    def __init__(
        self,
        player: int,
        kinds: Kinds,
        steps: list[_Step],
        decisions: list[int],
        hands: dict[int, _Counts],
        news: dict[int, _Counts],
        required: _Counts,
    ) -> None:
        self.player = player
        self.kinds = kinds
        self.copies = kinds.copies
        self.steps = steps
        self.decisions = decisions  # the indices of the steps after which the player decides
        self.decision_set = frozenset(decisions)
        self.hands = hands
        self.news = news
        self.required = required  # the fewest cards of each kind the whole history draws
        self.draws = sum(1 for step in steps if not step.play)
        self.ahead = self._aheads()
        # Each stretch between two decisions (from the start for the first) draws from the deck
        # at least the cards its end hand and its plays in sight need beyond the hand at its
        # start, its own draws, and the cards new at its end.
        demands: dict[int, _Counts] = {}
        for previous, decision in zip(decisions, decisions[1:]):
            demands[decision] = self._demand(
                hands[decision], hands[previous], {}, self.ahead[previous + 1], news[decision]
            )
        self.later: dict[int, _Counts] = {}
        for decision in decisions:
            total: Counter[int] = Counter()
            for other in decisions:
                if other > decision:
                    total.update(demands[other])
            self.later[decision] = dict(total)
        self.last_hand = hands[decisions[-1]] if decisions else {}
        self.tail_shown = self.ahead[decisions[-1] + 1].shown if decisions else {}

    def _aheads(self) -> list[_Ahead]:
        """What lies ahead of each step up to the player's next decision, gathered backwards
        from the end in one pass."""
        kinds, steps = self.kinds, self.steps

        def plus(counts: _Counts, kind: int | None) -> _Counts:
            return counts if kind is None else {**counts, kind: counts.get(kind, 0) + 1}

        following = _Ahead(None, {}, 0, {}, 0, {})
        aheads = [following]
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            kind = None if step.card is None else kinds.of(step.card)
            draw = (
                kind if not step.play else None
            )  # the player's own draws (the others' are hidden)
            known = kind if step.play else None  # plays whose card the player knows
            hidden_draw = int(not step.play and step.card is None)
            face_down = int(step.play and step.card is None)
            shown = plus(following.shown, known)
            if index in self.decision_set:  # the decision reached by this draw
                following = _Ahead(index, plus({}, draw), hidden_draw, {}, 0, shown)
            elif following.decision is None:
                following = _Ahead(None, {}, 0, {}, 0, shown)
            else:
                following = _Ahead(
                    following.decision,
                    plus(following.draws, draw),
                    following.hidden_draws + hidden_draw,
                    plus(following.known_plays, known),
                    following.face_down + face_down,
                    shown,
                )
            aheads.append(following)
        aheads.reverse()
        return aheads

    @staticmethod
    def _demand(
        target: _Counts, hand: _Counts, fresh: _Counts, ahead: _Ahead, news: _Counts
    ) -> _Counts:
        """The fewest cards of each kind drawn between now (``hand``, of which ``fresh`` unseen by
        the player) and the decision with hand ``target``: the player's own draws; the cards of
        the target and of the plays in sight before it that the hand lacks; and the cards new at
        the decision, less those in the hand that are still unseen."""
        demand = {}
        for kind in set(target) | set(ahead.known_plays) | set(ahead.draws) | set(news):
            own = ahead.draws.get(kind, 0)
            need = own + max(
                0, target.get(kind, 0) + ahead.known_plays.get(kind, 0) - own - hand.get(kind, 0)
            )
            need = max(need, news.get(kind, 0) - fresh.get(kind, 0))
            if need:
                demand[kind] = need
        return demand

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_state(cls, game: Game, player: int, rng: np.random.Generator) -> _Plan:
        """The history of ``game`` as ``player`` saw it: its deal (in an order drawn by ``rng``),
        draws and plays, the others' face-up cards; its hand and new cards at each decision."""
        kinds = deck_kinds(game.deck)
        new = new_by_turn(game, player)
        steps: list[_Step] = []
        decisions: list[int] = []
        hands: dict[int, _Counts] = {}
        news: dict[int, _Counts] = {}
        dealt = min(len(game.drawn), game.hand_size)
        if player == game.start_player and dealt == game.hand_size:
            # Its own deal, in an order of its own: the order is not something it saw.
            steps.extend(_Step(False, game.drawn[int(i)]) for i in rng.permutation(dealt))
        else:
            steps.extend(_Step(False, None) for _ in range(dealt))

        def decide(turn: int, drew: Card, hand: Iterable[Card]) -> None:
            steps.append(_Step(False, drew))
            decisions.append(len(steps) - 1)
            hands[len(steps) - 1] = _counted(kinds.of(card) for card in hand)
            news[len(steps) - 1] = _counted(kinds.of(game.drawn[i]) for i in new.get(turn, ()))

        turns = [event for event in game.events if isinstance(event, Turn)]
        for turn, event in enumerate(turns):
            if event.player == player:
                decide(turn, event.drew, event.hand)
                steps.append(_Step(True, event.play.card, event.play.face_up))
            else:
                steps.append(_Step(False, None))
                steps.append(
                    _Step(True, event.play.card if event.play.face_up else None, event.play.face_up)
                )
        if len(game.drawn) > game.hand_size + game.turn:  # the draw of the turn in progress
            if game.current_player() == player:
                decide(game.turn, game.drawn[-1], game.hand_cards())
            else:
                steps.append(_Step(False, None))
        return cls(
            player, kinds, steps, decisions, hands, news, _required(game.observation(player), kinds)
        )

    @classmethod
    def from_observation(cls, view: Observation, own: list[_OwnTurn]) -> _Plan:
        """The history skeleton of ``view`` — the others' face-up plays and the player's own
        plays in place, the others' draws and face-down cards hidden — with the player's own
        draws, hands and new cards at its decisions taken from ``own``."""
        kinds = deck_kinds(view.deck)
        players = hand_size = view.players
        step = 1 if view.pass_left else -1
        steps = [_Step(False, None) for _ in range(min(view.drawn, hand_size))]
        decisions: list[int] = []
        hands: dict[int, _Counts] = {}
        news: dict[int, _Counts] = {}
        turns = view.turn + (1 if view.drawn > hand_size + view.turn else 0)
        mine = iter(own)
        for turn in range(turns):
            seat = (view.start_player + step * turn) % players
            if seat == view.player:
                decision = next(mine)
                steps.append(_Step(False, kinds.cards[decision.draw]))
                decisions.append(len(steps) - 1)
                hands[len(steps) - 1] = decision.hand
                news[len(steps) - 1] = decision.new
            else:
                steps.append(_Step(False, None))
            if turn < view.turn:
                play = view.trains[seat][turn // players]
                steps.append(
                    _Step(True, None, face_up=False)
                    if play is None
                    else _Step(True, play.card, play.face_up)
                )
        return cls(view.player, kinds, steps, decisions, hands, news, _required(view, kinds))

    # -- searching ---------------------------------------------------------------------------

    def search(
        self,
        start: Game,
        rng: np.random.Generator,
        keep: Callable[[Game], bool],
        attempts: int = _ATTEMPTS,
    ) -> Game | None:
        """A history from ``start`` that follows the plan and that ``keep`` accepts (the final,
        complete comparison), found by a randomized depth-first search; restarts with fresh
        random choices when a search grows past its budget (a rare unlucky early choice can
        leave a large tree without a consistent world). None when there is none, or none was
        found in ``attempts`` searches."""
        for _ in range(attempts):
            chooser = random.Random(int(rng.integers(2**63)))
            self._nodes = 0
            try:
                return self._visit(start, 0, [0] * len(self.copies), chooser, keep)
            except OutOfBudget:
                continue
        return None

    def _visit(
        self,
        game: Game,
        index: int,
        drawn: list[int],
        chooser: random.Random,
        keep: Callable[[Game], bool],
    ) -> Game | None:
        self._nodes += 1
        if self._nodes > _NODE_BUDGET:
            raise OutOfBudget
        if index == len(self.steps):
            return game if keep(game) else None
        step, kinds = self.steps[index], self.kinds
        if step.play:
            for play in self._plays(game, step, chooser):
                child = game.clone()
                child.apply_action(play)
                hand, fresh = self._hand(child)
                if self._counts_ok(index + 1, hand, fresh, drawn):
                    world = self._visit(child, index + 1, drawn, chooser, keep)
                    if world is not None:
                        return world
            return None
        deciding = index in self.decision_set
        hand, fresh = self._hand(game)
        for card in self._draws(game, step, chooser):
            kind = kinds.of(card)
            after = drawn.copy()
            after[kind] += 1
            if not deciding:
                # A card drawn by another player joins the hand unseen by this one: test the
                # counts before paying for a copy of the game.
                if not self._counts_ok(
                    index + 1,
                    {**hand, kind: hand.get(kind, 0) + 1},
                    {**fresh, kind: fresh.get(kind, 0) + 1},
                    after,
                ):
                    continue
            child = game.clone()
            child.apply_action(card)
            if deciding:
                child_hand, child_fresh = self._hand(child)
                if not (
                    self._decision_ok(child, index)
                    and self._counts_ok(index + 1, child_hand, child_fresh, after)
                ):
                    continue
            world = self._visit(child, index + 1, after, chooser, keep)
            if world is not None:
                return world
        return None

    def _hand(self, game: Game) -> tuple[_Counts, _Counts]:
        """The hand by kind, and its cards the player has not seen."""
        kinds, seen = self.kinds, game.seen[self.player]
        hand: _Counts = {}
        fresh: _Counts = {}
        for index in game.hand:
            kind = kinds.of(game.drawn[index])
            hand[kind] = hand.get(kind, 0) + 1
            if index not in seen:
                fresh[kind] = fresh.get(kind, 0) + 1
        return hand, fresh

    def _draws(self, game: Game, step: _Step, chooser: random.Random) -> list[Card]:
        outcomes = [(card, p) for card, p in game.chance_outcomes() if isinstance(card, Card)]
        if step.card is not None:
            return [card for card, _ in outcomes if card == step.card]
        # An order drawn with the chance probabilities (weighted sampling without replacement).
        keyed = sorted(
            ((chooser.random() ** (1.0 / float(p)), card) for card, p in outcomes),
            key=lambda pair: -pair[0],
        )
        return [card for _, card in keyed]

    def _plays(self, game: Game, step: _Step, chooser: random.Random) -> list[Play]:
        hand = list(dict.fromkeys(game.hand_cards()))
        if step.card is not None:
            return [Play(step.card, step.face_up)] if step.card in hand else []
        chooser.shuffle(hand)
        return [Play(card, face_up=False) for card in hand]

    def _counts_ok(self, index: int, hand: _Counts, fresh: _Counts, drawn: list[int]) -> bool:
        """False when no continuation from step ``index`` — with ``hand`` (``fresh``: its cards
        unseen by the player) and ``drawn`` cards of each kind so far — can follow the plan.
        Every test is a necessary condition: only branches that cannot succeed are cut."""
        copies, ahead = self.copies, self.ahead[index]
        if index < len(self.steps):
            step = self.steps[index]
            if step.play and step.card is not None and not hand.get(self.kinds.of(step.card)):
                return False  # the next play is of a card the hand must hold now
        # Every card the history must still draw needs a draw of its own.
        short = sum(
            need - drawn[kind] for kind, need in self.required.items() if need > drawn[kind]
        )
        if short > self.draws - sum(drawn):
            return False
        # The cards played in sight from here on come from the hand or the deck.
        for kind, count in ahead.shown.items():
            if count > hand.get(kind, 0) + copies[kind] - drawn[kind]:
                return False
        decision = ahead.decision
        if decision is None:
            return True  # nothing the player sees lies ahead
        if not self._deck_suffices(decision, ahead, hand, fresh, drawn):
            return False
        # hand + draws − plays = the next hand: the missing cards must be drawn, the extra ones
        # played face down.
        target, news = self.hands[decision], self.news[decision]
        over = dict(hand)
        for kind, count in ahead.draws.items():
            over[kind] = over.get(kind, 0) + count
        for kind, count in ahead.known_plays.items():
            over[kind] = over.get(kind, 0) - count
        missing = sum(max(0, count - over.get(kind, 0)) for kind, count in target.items())
        extra = sum(max(0, count - target.get(kind, 0)) for kind, count in over.items())
        if missing > ahead.hidden_draws or extra > ahead.face_down:
            return False
        # The unseen cards in the hand become new to the player at its decision unless played
        # first; its own draws are new to it. Those not new there must leave the hand first: by
        # a play of their kind, or face down.
        allowed = dict(news)
        for kind, count in ahead.draws.items():
            allowed[kind] = allowed.get(kind, 0) - count
            if allowed[kind] < 0:
                return False
        surplus = sum(
            max(0, count - allowed.get(kind, 0) - ahead.known_plays.get(kind, 0))
            for kind, count in fresh.items()
        )
        if surplus > ahead.face_down:
            return False
        # The new cards not in the hand yet are drawn; the cards of the next hand that are not
        # new are in the hand now, seen (cards only leave the hand).
        lacking = _minus(allowed, fresh)
        if sum(lacking.values()) > ahead.hidden_draws:
            return False
        for kind, count in _minus(target, news).items():
            if count > hand.get(kind, 0) - fresh.get(kind, 0):
                return False
        return True

    def _deck_suffices(
        self, decision: int, ahead: _Ahead, hand: _Counts, fresh: _Counts, drawn: list[int]
    ) -> bool:
        """The deck can supply every later decision, one stretch after the other (see
        :meth:`_demand`), and then the plays in sight after the last of them."""
        copies = self.copies
        first = self._demand(self.hands[decision], hand, fresh, ahead, self.news[decision])
        later = self.later[decision]
        for kind in set(first) | set(later) | set(self.tail_shown):
            left = copies[kind] - drawn[kind] - first.get(kind, 0) - later.get(kind, 0)
            if left < 0 or self.tail_shown.get(kind, 0) > self.last_hand.get(kind, 0) + left:
                return False
        return True

    def _decision_ok(self, game: Game, step: int) -> bool:
        """At the player's decision reached by ``step``: the hand it holds and the cards new to it."""
        kinds = self.kinds
        if _counted(kinds.of(card) for card in game.hand_cards()) != self.hands[step]:
            return False
        new = new_by_turn(game, self.player).get(game.turn, ())
        return _counted(kinds.of(game.drawn[i]) for i in new) == self.news[step]


@dataclass(frozen=True)
class _OwnTurn:
    """One decision of the player in an invented history: its own draw (a kind), the hand it
    held and which of those cards were new to it."""

    draw: int
    hand: _Counts
    new: _Counts


class _OwnHistory:
    """:func:`sample_world`'s first stage: the player's own side of a history — the hand
    held and the cards new at each of its decisions — consistent with its observation.

    An observation tells the cards the player has seen (``seen``), its plays, the others' plays
    in sight and its hand now, not when it saw what. Between two of its decisions the hand it
    passed (N cards) loses one card to each of the other P − 1 players and gains their draws:
    some cards come back (old), the others' draws that survive are new, and so is its own draw.
    A play in sight of a kind still in the hand takes the oldest copy (the game's rule), so it
    takes a card the player has seen when there is one. Every seen card is new exactly once;
    the deck must hold every card seen and every card played in sight that was not seen.

    The hands are chosen decision by decision in a random order, backtracking from dead ends;
    the second stage (:class:`_Plan`) then looks for the rest of a history with those hands,
    and a failure there makes this stage draw again.
    """

    def __init__(self, view: Observation, rng: random.Random) -> None:
        kinds = deck_kinds(view.deck)
        self.kinds, self.copies, self.rng = kinds, kinds.copies, rng
        self.players = self.hand_size = view.players
        step = 1 if view.pass_left else -1
        holding = bool(view.hand)
        turns = view.turn + (1 if holding else 0)
        own_turns = [
            turn
            for turn in range(turns)
            if (view.start_player + step * turn) % view.players == view.player
        ]
        self.plays = [kinds.of(play.card) for play in view.train.plays] + (
            [] if not holding else [-1]
        )
        self.final = _counted(kinds.of(card) for card in view.hand) if holding else None
        # The plays in sight of the others before each decision (since the previous one), and
        # after the last.
        self.between: list[_Counts] = []
        self.face_down: list[int] = []
        previous = -1
        for turn in [*own_turns, view.turn]:
            known = []
            hidden = 0
            for other in range(previous + 1, min(turn, view.turn)):
                seat = (view.start_player + step * other) % view.players
                play = view.trains[seat][other // view.players]
                if play is None:
                    hidden += 1
                else:
                    known.append(kinds.of(play.card))
            self.between.append(_counted(known))
            self.face_down.append(hidden)
            previous = turn
        self.decisions = len(own_turns)
        self.seen = _counted(kinds.of(card) for card in view.seen)
        self._nodes = 0

    def draw(self) -> list[_OwnTurn] | None:
        """One own history, or None when the search gave up."""
        self._nodes = 0
        try:
            return self._choose(0, None, dict(self.seen), {})
        except OutOfBudget:
            return None

    def _fits_deck(self, unseen_plays: _Counts) -> bool:
        return all(
            self.seen.get(kind, 0) + count <= self.copies[kind]
            for kind, count in unseen_plays.items()
        )

    def _choose(
        self, index: int, passed: _Counts | None, unseen: _Counts, unseen_plays: _Counts
    ) -> list[_OwnTurn] | None:
        """Decisions ``index`` on, given the hand the player passed last (None before its first)
        and the seen cards not yet new (``unseen``); ``unseen_plays``: the cards played in sight
        that it never saw."""
        self._nodes += 1
        if self._nodes > _OWN_BUDGET:
            raise OutOfBudget
        known = self.between[index]
        # The plays in sight before this decision take seen cards where the passed hand has them.
        taken = (
            {}
            if passed is None
            else {kind: min(count, passed.get(kind, 0)) for kind, count in known.items()}
        )
        never = dict(Counter(unseen_plays) + Counter(_minus(known, taken)))
        if not self._fits_deck(never):
            return None
        if index == self.decisions:
            return [] if not unseen else None  # every seen card was new at some decision
        for hand, new in self._hands(index, passed, taken, unseen, never):
            left = _minus(unseen, new)
            if not self._can_finish(index, hand, left):
                continue
            play = self.plays[index]
            rest = self._choose(
                index + 1, _minus(hand, {play: 1}) if play >= 0 else hand, left, never
            )
            if rest is not None:
                draws = [kind for kind, count in new.items() for _ in range(count)]
                return [_OwnTurn(self.rng.choice(draws), hand, new), *rest]
        return None

    def _can_finish(self, index: int, hand: _Counts, unseen: _Counts) -> bool:
        """Later decisions can still make the unseen cards new: at least one (its own draw) and
        at most P a decision, and with the last hand known, the cards it lacks before it; and
        the cards of the last hand already seen stay in the hand the player passes."""
        later = self.decisions - index - 1
        if self.final is not None and later:
            play = self.plays[index]
            if _minus(_minus(self.final, unseen), _minus(hand, {play: 1})):
                return False
        if not later <= sum(unseen.values()) <= self.players * later:  # its own draw is new
            return False
        if self.final is not None and later:
            lacking = sum(max(0, count - self.final.get(kind, 0)) for kind, count in unseen.items())
            return lacking <= self.players * (later - 1)
        return True

    def _must_hold(self, index: int, unseen: _Counts, never: _Counts) -> _Counts:
        """The cards the hand at decision ``index`` must hold: the card played from it, the
        cards of the known last hand already seen, and the cards the plays in sight before the
        next decision take that the deck cannot supply unseen (they must be cards the player
        passed on, seen)."""
        play = self.plays[index]
        need: _Counts = {play: 1} if play >= 0 else {}
        if self.final is not None and index < self.decisions - 1:
            # The cards of the last hand that are not new there are held from before.
            for kind, count in _minus(self.final, unseen).items():
                need[kind] = need.get(kind, 0) + count
        if index + 1 < len(self.between):
            for kind, count in self.between[index + 1].items():
                old = self.seen.get(kind, 0) + never.get(kind, 0) + count - self.copies[kind]
                if old > 0:
                    need[kind] = need.get(kind, 0) + old
        return need

    def _hands(
        self, index: int, passed: _Counts | None, taken: _Counts, unseen: _Counts, never: _Counts
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """Hands for decision ``index`` and their new cards, in a random order (a bounded number
        of random draws for the free ones)."""
        pool = [kind for kind, count in unseen.items() for _ in range(count)]
        need = self._must_hold(index, unseen, never)
        final = self.final if index == self.decisions - 1 else None  # the last hand, when known
        if passed is None:
            return self._first_hands(index, pool, unseen, need, final)
        return self._later_hands(index, passed, taken, pool, unseen, need, final)

    def _first_hands(
        self, index: int, pool: list[int], unseen: _Counts, need: _Counts, final: _Counts | None
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """The first hand: all its cards new."""
        if final is not None:
            if not (_minus(final, unseen) or _minus(unseen, final)):
                yield final, final
            return
        tried: set[object] = set()
        for _ in range(_SAMPLES):
            chosen = self._sample(pool, self.hand_size + 1, self._with_urgent(index, unseen, need))
            if chosen is None:
                return
            key = tuple(sorted(chosen.items()))
            if key not in tried:
                tried.add(key)
                yield chosen, chosen

    def _later_hands(
        self,
        index: int,
        passed: _Counts,
        taken: _Counts,
        pool: list[int],
        unseen: _Counts,
        need: _Counts,
        final: _Counts | None,
    ) -> Iterable[tuple[_Counts, _Counts]]:
        """A later hand: the passed hand loses the cards the plays in sight took and some more
        face down, r in all, and gains r + 1 new cards."""
        removable = _minus(passed, taken)
        forced = sum(taken.values())
        most = forced + self.face_down[index]
        if final is not None:
            old = _minus(final, unseen)
            if _minus(unseen, final) or _minus(old, removable):
                return
            removed = self.hand_size - sum(old.values())
            if forced <= removed <= most and sum(final.values()) - sum(old.values()) == removed + 1:
                yield final, _minus(final, old)
            return
        seen_hands: set[object] = set()
        for _ in range(_SAMPLES):
            if len(pool) - 1 < forced:
                return
            # The cards that must be new bound r from below (drawn before the old cards are known).
            must_new = self._with_urgent(index, unseen, need)
            lowest = max(forced, sum(must_new.values()) - sum(need.values()) - 1)
            if lowest > min(most, len(pool) - 1):
                return
            removed = self.rng.randint(lowest, min(most, len(pool) - 1))
            # Face down go cards in a random order, those the hand must hold last.
            spare = _minus(removable, need)
            kept = _minus(removable, spare)
            order = [kind for kind, count in spare.items() for _ in range(count)]
            self.rng.shuffle(order)
            tail = [kind for kind, count in kept.items() for _ in range(count)]
            self.rng.shuffle(tail)
            old = _minus(removable, _counted((order + tail)[: removed - forced]))
            new = self._sample(
                pool, removed + 1, self._with_urgent(index, unseen, _minus(need, old))
            )
            if new is None:
                continue
            hand = dict(Counter(old) + Counter(new))
            pair = (tuple(sorted(hand.items())), tuple(sorted(new.items())))
            if pair not in seen_hands:
                seen_hands.add(pair)
                yield hand, new

    def _with_urgent(self, index: int, unseen: _Counts, must: _Counts) -> _Counts:
        """``must`` and, drawn at random, the unseen cards that must be new at decision ``index``
        because the later decisions cannot show them all (at most P new cards each; with the
        last hand known, the unseen cards it lacks must come before it)."""
        if self.final is not None:
            waiting = _minus(unseen, self.final)
            room = self.players * max(0, self.decisions - index - 2)
        else:
            waiting = dict(unseen)
            room = self.players * (self.decisions - index - 1)
        urgent = (
            sum(waiting.values())
            - room
            - sum(min(count, waiting.get(kind, 0)) for kind, count in must.items())
        )
        if urgent <= 0:
            return must
        pool = [kind for kind, count in _minus(waiting, must).items() for _ in range(count)]
        picked = self.rng.sample(pool, min(urgent, len(pool)))
        return dict(Counter(must) + Counter(picked))

    def _sample(self, pool: list[int], size: int, must: _Counts) -> _Counts | None:
        """``size`` cards drawn from ``pool`` at random, holding ``must`` (None when impossible)."""
        cards = list(pool)
        chosen: list[int] = []
        for kind, count in must.items():
            for _ in range(count):
                if kind not in cards:
                    return None
                cards.remove(kind)
                chosen.append(kind)
        if len(cards) < size - len(chosen) or size < len(chosen):
            return None
        chosen.extend(self.rng.sample(cards, size - len(chosen)))
        return _counted(chosen)


def _required(view: Observation, kinds: Kinds) -> _Counts:
    """The fewest cards of each kind a history leading to ``view`` draws: every card the player
    has seen, and every card in sight in a train (the player's own were all seen)."""
    seen = Counter(kinds.of(card) for card in view.seen)
    shown = shown_kinds(view, kinds)
    shown.update(kinds.of(card) for card in view.train.cards)
    return {kind: max(seen[kind], shown[kind]) for kind in set(seen) | set(shown)}
