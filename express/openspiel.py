"""Yardmaster Express as an OpenSpiel game, ``python_yardmaster_express`` (the ``openspiel`` extra).

Importing this module registers the game with pyspiel through the generic adapter
(:mod:`arena.openspiel`); every rule stays in :class:`express.Game`, which the pyspiel states
hold and forward to.

>>> import pyspiel
>>> game = pyspiel.load_game("python_yardmaster_express", {"players": 2, "rounds": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(40, 20, 4)

The game type: sequential, explicit stochastic chance, imperfect information (the draws, the
other players' face-down cards and the hands they held are hidden), general-sum, terminal
rewards (each player's final score), 2 to 5 players.

Parameters
----------
- ``players`` (3): 2 to 5.
- ``caboose`` (``""``): ``""`` for none, a caboose by name, or ``"random"`` (the game then
  starts with a chance node showing one of the 16 cabooses).
- ``deck`` (``""``): the deck in the deck-file notation that ``express deck`` prints and
  ``--deck-file`` reads (:func:`express.parse_deck`; ``;`` comments allowed); ``""`` is the
  standard deck for the player count. In a game string (``python_yardmaster_express(deck=…)``)
  separate the cards by spaces: commas there separate the parameters.
- ``rounds`` (0): 0 plays the rules' 9 − N rounds; a positive number overrides it (short games).
- ``start_player`` (0) and ``pass_left`` (True): the seat dealt the hand and the direction of
  passing (game 2 of the strategic variant starts elsewhere and passes right).

Actions and chance outcomes as integers (a fixed bijection)
-----------------------------------------------------------
A card is known by its *kind* ``k``: its index among the deck's distinct cards, in the order
they first appear in the deck (the standard decks: 27 kinds with 3 to 5 players, 20 with 2;
``B2|B2`` is kind 0). Identical cards are one kind, as they are one chance outcome.

- A player's :class:`express.Play` of kind ``k``: face up → ``2k``, face down → ``2k + 1``
  (``num_distinct_actions`` = 2 × kinds).
- A card dealt or drawn (a chance node): kind ``k`` → ``k``.
- The caboose draw (only the first node of a game with ``caboose="random"``): the ``i``-th
  caboose of :data:`express.CABOOSES` → ``i``.

Card and caboose ids overlap, so a chance id is read by its node: at the caboose node it is a
caboose, at every other chance node a card (``max_chance_outcomes`` = kinds, or 16 when that is
more and the caboose is random). Chance probabilities are the game's exact ones as floats:
(copies left) / (cards left), 1/16 per caboose.

The game's limits (``GameInfo``), from the rules
------------------------------------------------
- ``min_utility`` = 4 × rounds: every card in a train adds at least 4 (its two cars are worth 2
  to 4 each face up, 2 + 2 face down), and the run award and the caboose add nothing negative.
  A train of face-down cards only scores exactly that.
- ``max_utility`` = the sum of the ``rounds`` most valuable cards of the deck (no train can hold
  more; a face-down card is worth 4, never more than the card face up) + the longest run a
  train could have (two cars a card, so 2 × rounds, and never more than the deck's cars of one
  colour) + the most caboose points in play (its points, the most of the 16 when random, 0
  without). A true bound, not always reachable: the best train does not always also hold the
  longest run (``express.best_train`` gives the best solo score exactly, at a search's cost).
- ``max_game_length`` = players × rounds decisions (one card a turn); the chance nodes of a
  game: N dealt + one draw a turn (+ 1 for a random caboose).

Observation and information state
---------------------------------
The observation string and tensor carry exactly :meth:`express.Game.observation`, an
:class:`express.Observation`: the table (players, start player, direction, rounds, turn, cards
drawn, caboose, deck), the player's hand only while holding it, every train with the other
players' face-down cards hidden (the player's own in full) and the cards that have passed
through the player's hands. The tensor layout is documented at :meth:`ExpressCodec.fill_tensor`.

The information-state string is the player's view of the whole history (perfect recall): the
caboose shown; the deal (the cards when the player was dealt them, else only how many); every
turn of its own in full — the card drawn, the hand held (in deck order: the order the cards
joined the hand is not something a player sees), which of those cards were new to it and the
play; the other players' turns as the player saw them — the card played face up, or "a card
face down" — and then the current observation. Nothing in it depends on what the player cannot
see.

Hidden worlds: ``resample`` and ``state_from_observation``
--------------------------------------------------------
``resample(state, player, rng)`` draws a complete history (every card dealt and drawn, every
face-down card) that the player cannot tell from the real one: the same observation *and* the
same information-state string (OpenSpiel's information-set MCTS asserts the latter). It is a
randomized depth-first search through the game itself (:class:`express.Game` applies every
step, so no rule is copied): the steps the player saw are replayed as they were (its deal when
it was dealt, in a random order, its own draws and plays, the others' face-up plays); the
hidden ones — the other draws, tried in an order drawn with the chance probabilities (copies
left), and the others' face-down cards, tried in a uniformly random order — are chosen step by
step, cutting every branch that can no longer reach what the player saw (the hand it held at
each of its turns, which of those cards were new to it, the deck's counts; each cut is a
necessary condition) and backtracking from dead ends. A search that grows past a budget starts
afresh with new random choices.

Every consistent world has a positive probability (only branches that cannot succeed are cut,
and every choice is tried first with positive probability), but the sampling is **not
uniform** over the consistent worlds, nor weighted by their posterior probability (which would
need the other players' policies): the first consistent world the randomized search meets is
returned. About 5 ms a world on the project's machine.

``state_from_observation(observation, rng)`` knows less: an observation tells which cards the
player has seen, not when. It first invents the player's own side of a history — the hand held
and the cards new at each of its turns, consistent with its plays, the cards seen, the others'
plays in sight and its hand now (:class:`_OwnHistory`, a randomized search of its own) — and
then completes it with the search above. Its worlds are consistent but not meant to cover every
consistent history: the result is one plausible world, hidden cards drawn at random.

A :class:`express.MatchObservation` is read through its current game: a search policy in the
strategic variant plays each game for that game's score.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.openspiel import HiddenInformationCodec, Limits, Parameters, register
from express.cabooses import CABOOSES, caboose_named
from express.cards import Card, deck_for, format_cards, parse_deck
from express.errors import ExpressError, RulesError
from express.game import CabooseDraw, Dealt, Game, Observation, Turn, rounds_for
from express.match import MatchObservation
from express.train import Play

__all__ = ["CODEC", "ExpressCodec"]

_CABOOSE_INDEX = {caboose.name: index for index, caboose in enumerate(CABOOSES)}


# -- card kinds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Kinds:
    """A deck's distinct cards in the order they first appear (the kinds), each kind's copies,
    and card → kind (by identity for the deck's own card objects, which the game hands out)."""

    cards: tuple[Card, ...]
    copies: tuple[int, ...]
    index: dict[Card, int]
    by_id: dict[int, int]

    def of(self, card: Card) -> int:
        kind = self.by_id.get(id(card))
        if kind is None:
            kind = self.index.get(card)
            if kind is None:
                raise ValueError(f"card not in the deck: {str(card)!r}")
        return kind

    def counts(self, cards: Iterable[Card]) -> Counter[int]:
        return Counter(self.of(card) for card in cards)

    def text(self, kinds: Iterable[int]) -> str:
        """Cards of these kinds in deck order, as text ("-" for none)."""
        return " ".join(str(self.cards[kind]) for kind in sorted(kinds)) or "-"


# Keyed by the deck tuple's identity (a game and its clones share one); the entry keeps the
# tuple alive, so an id is never reused while it is cached.
_KINDS: dict[int, tuple[tuple[Card, ...], _Kinds]] = {}
_KINDS_LIMIT = 1024


def _kinds(deck: tuple[Card, ...]) -> _Kinds:
    entry = _KINDS.get(id(deck))
    if entry is None or entry[0] is not deck:
        counts = Counter(deck)  # insertion order: the order cards first appear
        cards = tuple(counts)
        index = {card: kind for kind, card in enumerate(cards)}
        if len(_KINDS) >= _KINDS_LIMIT:
            _KINDS.clear()
        entry = _KINDS[id(deck)] = (
            deck,
            _Kinds(
                cards,
                tuple(counts[card] for card in cards),
                index,
                {id(card): index[card] for card in deck},
            ),
        )
    return entry[1]


# -- parameters -------------------------------------------------------------------------------


def _deck(params: Parameters, players: int) -> tuple[Card, ...]:
    text = str(params["deck"])
    if not text.strip():
        return deck_for(players)
    return parse_deck(text)


def _rounds(params: Parameters, players: int) -> int:
    rounds = int(params["rounds"])
    if rounds < 0:
        raise RulesError(
            f"invalid rounds: {rounds!r} (0 for the rules' 9 - N, or a positive number)"
        )
    return rounds or rounds_for(players)


def _caboose_points(name: str) -> int:
    """The most points the caboose parameter can award (0 without a caboose)."""
    name = name.strip()
    if not name:
        return 0
    if name.lower() == "random":
        return max(caboose.points for caboose in CABOOSES)
    return caboose_named(name).points


class ExpressCodec(HiddenInformationCodec):
    """Yardmaster Express's translation for the OpenSpiel adapter (see the module docstring)."""

    short_name = "python_yardmaster_express"
    long_name = "Yardmaster Express"
    min_players = 2
    max_players = 5
    parameters = {
        "players": 3,
        "caboose": "",
        "deck": "",
        "rounds": 0,
        "start_player": 0,
        "pass_left": True,
    }

    def new_state(self, params: Parameters) -> Game:
        players = int(params["players"])
        caboose = str(params["caboose"]).strip()
        return Game(
            players,
            caboose=caboose or None,
            deck=_deck(params, players),
            rounds=_rounds(params, players),
            start_player=int(params["start_player"]),
            pass_left=bool(params["pass_left"]),
        )

    def limits(self, params: Parameters) -> Limits:
        game = self.new_state(params)  # checks the parameters
        rounds, kinds = game.rounds, _kinds(game.deck)
        # A train holds ``rounds`` cards, each worth at least 4 (cars of 2 to 4, or 2 + 2 face
        # down) and at most its value face up: the train value lies between 4 × rounds and the
        # sum of the deck's ``rounds`` most valuable cards.
        values = sorted((card.value for card in game.deck), reverse=True)
        # The run award is the length of a run of one colour: two cars a card, and no more
        # cars than the deck holds of the colour.
        colour_cars = Counter(car.color for card in game.deck for car in (card.left, card.right))
        longest_run = min(2 * rounds, max(colour_cars.values()))
        random_caboose = str(params["caboose"]).strip().lower() == "random"
        return Limits(
            num_distinct_actions=2 * len(kinds.cards),
            max_chance_outcomes=max(len(kinds.cards), len(CABOOSES) if random_caboose else 0),
            min_utility=4 * rounds,
            max_utility=sum(values[:rounds])
            + longest_run
            + _caboose_points(str(params["caboose"])),
            max_game_length=game.players * rounds,
            max_chance_nodes=game.hand_size + game.players * rounds + (1 if random_caboose else 0),
        )

    # -- actions ↔ integers ------------------------------------------------------------------

    def encode(self, state: Any, action: Any) -> int:
        kinds = _kinds(state.deck)
        if isinstance(action, Play):
            return 2 * kinds.of(action.card) + (0 if action.face_up else 1)
        if isinstance(action, Card):
            return kinds.of(action)
        if isinstance(action, CabooseDraw):
            return _CABOOSE_INDEX[action.name]
        raise ValueError(f"not an action of Yardmaster Express: {action!r}")

    def decode(self, state: Any, number: int) -> Any:
        number = int(number)
        if state.caboose_pending:
            if 0 <= number < len(CABOOSES):
                return CabooseDraw(CABOOSES[number].name)
            raise ValueError(f"not a caboose id: {number!r} (0..{len(CABOOSES) - 1})")
        kinds = _kinds(state.deck)
        action: Any
        if state.is_chance_node():
            if not 0 <= number < len(kinds.cards):
                raise ValueError(f"not a card id: {number!r} (0..{len(kinds.cards) - 1})")
            action = kinds.cards[number]
        else:
            kind, face_down = divmod(number, 2)
            if not 0 <= kind < len(kinds.cards):
                raise ValueError(f"not a play id: {number!r} (0..{2 * len(kinds.cards) - 1})")
            action = Play(kinds.cards[kind], face_up=not face_down)
        if action not in state.legal_actions():
            raise ValueError(f"id {number!r} ({action}) is not legal here")
        return action

    # -- observations ------------------------------------------------------------------------

    def tensor_size(self, params: Parameters) -> int:
        game = self.new_state(params)
        return _TensorLayout(
            game.players, game.rounds, game.hand_size, len(_kinds(game.deck).cards)
        ).size

    def fill_tensor(self, observation: Any, tensor: np.ndarray) -> None:
        """The observation as numbers, in blocks (P players, R rounds, N = P hand size, T = P × R
        turns, K kinds; a one-hot block has a 1 at the value's place):

        player one-hot (P) · start player one-hot (P) · passing left (1) · turn one-hot (T + 1)
        · cards drawn one-hot (N + T + 1) · caboose one-hot over the 16 (all 0: none) · the
        deck's copies per kind (K) · the hand, count per kind (K; zeros when not holding it) ·
        the cards seen, count per kind (K) · the trains: per seat, per place 0..R−1, the card
        face up one-hot (K), face down one-hot (K, the player's own only) and "a hidden
        face-down card" (1) — an empty place is all zero.
        """
        view = _game_view(observation)
        kinds = _kinds(view.deck)
        layout = _TensorLayout(view.players, view.rounds, view.players, len(kinds.cards))
        K = layout.kinds
        at = 0

        def one_hot(index: int | None, width: int) -> None:
            nonlocal at
            if index is not None:
                tensor[at + index] = 1
            at += width

        def counts(cards: Iterable[Card]) -> None:
            nonlocal at
            for kind, count in kinds.counts(cards).items():
                tensor[at + kind] = count
            at += K

        one_hot(view.player, view.players)
        one_hot(view.start_player, view.players)
        one_hot(0 if view.pass_left else None, 1)
        one_hot(view.turn, layout.turns + 1)
        one_hot(view.drawn, layout.hand_size + layout.turns + 1)
        one_hot(None if view.caboose is None else _CABOOSE_INDEX[view.caboose], len(CABOOSES))
        tensor[at : at + K] = kinds.copies
        at += K
        counts(view.hand)
        counts(view.seen)
        width = 2 * K + 1
        for seat, plays in enumerate(view.trains):
            for place, play in enumerate(plays):
                base = at + (seat * view.rounds + place) * width
                if play is None:
                    tensor[base + 2 * K] = 1
                else:
                    tensor[base + kinds.of(play.card) + (0 if play.face_up else K)] = 1
        at += view.players * view.rounds * width
        assert at == layout.size, (at, layout.size)

    def observation_string(self, observation: Any) -> str:
        return _observation_text(_game_view(observation))

    def information_state_string(self, state: Any, player: int) -> str:
        game = _game_state(state)
        view = game.observation(player)  # also checks the player
        kinds = _kinds(game.deck)
        return "\n".join([*_history_lines(game, player, kinds), "now:", _observation_text(view)])

    # -- hidden worlds -----------------------------------------------------------------------

    def resample(self, state: Any, player: int, rng: np.random.Generator) -> Game:
        game = _game_state(state)
        game.observation(player)  # checks the player
        if game.caboose_pending or not game.drawn:
            return game.clone()  # nothing drawn yet: nothing hidden
        plan = _Plan.from_state(game, player, rng)
        view, known = game.observation(player), self.information_state_string(game, player)

        def same(world: Game) -> bool:
            return (
                world.observation(player) == view
                and self.information_state_string(world, player) == known
            )

        world = plan.search(_fresh(game), rng, keep=same)
        if world is None:
            raise ExpressError(
                "no history of the game matches what the player saw (a bug: please report it)"
            )
        return world

    def params_from_observation(self, observation: Any) -> dict[str, int | float | bool | str]:
        view = _game_view(observation)
        standard = deck_for(view.players)
        deck = (
            ""
            if view.deck is standard or view.deck == standard
            else " ".join(str(card) for card in view.deck)
        )
        return {
            "players": view.players,
            "caboose": view.caboose or "",
            "deck": deck,
            "rounds": view.rounds,
            "start_player": view.start_player,
            "pass_left": view.pass_left,
        }

    def state_from_observation(self, observation: Any, rng: np.random.Generator) -> Game:
        view = _game_view(observation)
        start = self.new_state(self.params_from_observation(view))
        if not view.drawn:
            return start
        own = _OwnHistory(view, random.Random(int(rng.integers(2**63))))
        for _ in range(_ATTEMPTS):
            turns = own.draw()
            if turns is None:
                continue
            world = _Plan.from_observation(view, turns).search(
                start, rng, keep=lambda world: world.observation(view.player) == view, attempts=1
            )
            if world is not None:
                return world
        raise ExpressError(
            "no history of the game matches the observation (a bug: please report it)"
        )


CODEC = ExpressCodec()
"""The codec of ``python_yardmaster_express`` (registered on import)."""


def _game_view(observation: Any) -> Observation:
    if isinstance(observation, MatchObservation):
        return observation.current
    if isinstance(observation, Observation):
        return observation
    raise TypeError(f"an express observation is expected, not {type(observation).__name__}")


def _game_state(state: Any) -> Game:
    if not isinstance(state, Game):
        raise TypeError(f"an express.Game is expected, not {type(state).__name__}")
    return state


def _fresh(game: Game) -> Game:
    """A new game with ``game``'s table (its caboose already shown)."""
    return Game(
        game.players,
        caboose=game.caboose,
        deck=game.deck,
        rounds=game.rounds,
        start_player=game.start_player,
        pass_left=game.pass_left,
    )


@dataclass(frozen=True)
class _TensorLayout:
    players: int
    rounds: int
    hand_size: int
    kinds: int

    @property
    def turns(self) -> int:
        return self.players * self.rounds

    @property
    def size(self) -> int:
        P, K = self.players, self.kinds
        return (
            2 * P
            + 1
            + (self.turns + 1)
            + (self.hand_size + self.turns + 1)
            + len(CABOOSES)
            + 3 * K
            + P * self.rounds * (2 * K + 1)
        )


def _observation_text(view: Observation) -> str:
    kinds = _kinds(view.deck)
    standard = view.deck is deck_for(view.players) or view.deck == deck_for(view.players)
    deck = (
        f"the standard {view.players}-player deck"
        if standard
        else f"deck {format_cards(view.deck)}"
    )
    direction = "passing left" if view.pass_left else "passing right"
    lines = [
        f"player {view.player} of {view.players}, start player {view.start_player}, {direction}, "
        f"{view.rounds} rounds, caboose {view.caboose or '-'}, {deck}",
        f"turn {view.turn} of {view.players * view.rounds}, {view.drawn} cards drawn",
        f"hand: {kinds.text(kinds.of(card) for card in view.hand)}",
        f"seen: {kinds.text(kinds.of(card) for card in view.seen)}",
    ]
    for seat, plays in enumerate(view.trains):
        cards = " ".join("~?" if play is None else str(play) for play in plays) or "-"
        lines.append(f"train {seat}{' (you)' if seat == view.player else ''}: {cards}")
    return "\n".join(lines)


# -- what a player has seen -----------------------------------------------------------------


def _own_turn_at_or_after(game: Game, player: int, turn: int) -> int:
    """The first turn ≥ ``turn`` that is ``player``'s."""
    offset = game.seat_order().index(player)
    return turn + (offset - turn) % game.players


def _new_by_turn(game: Game, player: int) -> dict[int, list[int]]:
    """For each of ``player``'s turns, the cards (indices into ``game.drawn``) that were new to
    it then. A card stays in the travelling hand from its draw until it is played, and the hand
    passes every seat each round, so a card the player has seen was first seen at the player's
    first turn at or after the card's draw (the deal counts as drawn at turn 0)."""
    firsts: dict[int, list[int]] = {}
    for index in game.seen[player]:
        drawn_at = max(0, index - game.hand_size)
        firsts.setdefault(_own_turn_at_or_after(game, player, drawn_at), []).append(index)
    return firsts


def _history_lines(game: Game, player: int, kinds: _Kinds) -> list[str]:
    new = _new_by_turn(game, player)

    def cards(indices: Iterable[int]) -> str:
        return kinds.text(kinds.of(game.drawn[i]) for i in indices)

    lines = []
    turn = 0
    for event in game.events:
        if isinstance(event, Dealt):
            if event.player == player:
                lines.append(f"dealt you: {kinds.text(kinds.of(card) for card in event.cards)}")
            else:
                lines.append(f"dealt player {event.player}: {len(event.cards)} cards")
        elif isinstance(event, Turn):
            if event.player == player:
                lines.append(
                    f"turn {turn}, you: drew {event.drew}, held {kinds.text(kinds.of(c) for c in event.hand)}, "
                    f"new {cards(new.get(turn, ()))}, played {event.play}"
                )
            else:
                shown = f"{event.play.card} face up" if event.play.face_up else "a card face down"
                lines.append(f"turn {turn}, player {event.player}: played {shown}")
            turn += 1
        else:  # the caboose
            lines.append(f"caboose {event.caboose}")
    if game.current_player() == player:
        lines.append(f"turn {turn}, you: drew {game.drawn[-1]}, new {cards(new.get(turn, ()))}")
    return lines


# -- drawing a hidden world -----------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """One step of a history: a draw (``play`` False) or a play; ``card`` None when the step is
    hidden from the player (a draw, or a face-down card of another player)."""

    play: bool
    card: Card | None
    face_up: bool = True


Counts = dict[int, int]
"""Cards by kind → how many (kinds with none left out)."""


def _counted(kinds: Iterable[int]) -> Counts:
    return dict(Counter(kinds))


def _minus(a: Counts, b: Counts) -> Counts:
    """``a − b``, the kinds that stay positive."""
    out = {kind: count - b.get(kind, 0) for kind, count in a.items()}
    return {kind: count for kind, count in out.items() if count > 0}


@dataclass(frozen=True)
class _Ahead:
    """What lies ahead of one step up to the player's next decision (``decision``): the
    player's own draws and the hidden draws up to it (its own included), the plays whose card
    it knows and the others' face-down plays before it; and every play it knows of to the end."""

    decision: int | None
    draws: Counts
    hidden_draws: int
    known_plays: Counts
    face_down: int
    shown: Counts


class _OutOfBudget(Exception):
    pass


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
        kinds: _Kinds,
        steps: list[_Step],
        decisions: list[int],
        hands: dict[int, Counts],
        news: dict[int, Counts],
        required: Counts,
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
        demands: dict[int, Counts] = {}
        for previous, decision in zip(decisions, decisions[1:]):
            demands[decision] = self._demand(
                hands[decision], hands[previous], {}, self.ahead[previous + 1], news[decision]
            )
        self.later: dict[int, Counts] = {}
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

        def plus(counts: Counts, kind: int | None) -> Counts:
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
    def _demand(target: Counts, hand: Counts, fresh: Counts, ahead: _Ahead, news: Counts) -> Counts:
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
        kinds = _kinds(game.deck)
        new = _new_by_turn(game, player)
        steps: list[_Step] = []
        decisions: list[int] = []
        hands: dict[int, Counts] = {}
        news: dict[int, Counts] = {}
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
        kinds = _kinds(view.deck)
        players = hand_size = view.players
        step = 1 if view.pass_left else -1
        steps = [_Step(False, None) for _ in range(min(view.drawn, hand_size))]
        decisions: list[int] = []
        hands: dict[int, Counts] = {}
        news: dict[int, Counts] = {}
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
        self, start: Game, rng: np.random.Generator, keep: Any, attempts: int = _ATTEMPTS
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
            except _OutOfBudget:
                continue
        return None

    def _visit(
        self, game: Game, index: int, drawn: list[int], chooser: random.Random, keep: Any
    ) -> Game | None:
        self._nodes += 1
        if self._nodes > _NODE_BUDGET:
            raise _OutOfBudget
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

    def _hand(self, game: Game) -> tuple[Counts, Counts]:
        """The hand by kind, and its cards the player has not seen."""
        kinds, seen = self.kinds, game.seen[self.player]
        hand: Counts = {}
        fresh: Counts = {}
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

    def _counts_ok(self, index: int, hand: Counts, fresh: Counts, drawn: list[int]) -> bool:
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
        self, decision: int, ahead: _Ahead, hand: Counts, fresh: Counts, drawn: list[int]
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
        new = _new_by_turn(game, self.player).get(game.turn, ())
        return _counted(kinds.of(game.drawn[i]) for i in new) == self.news[step]


@dataclass(frozen=True)
class _OwnTurn:
    """One decision of the player in an invented history: its own draw (a kind), the hand it
    held and which of those cards were new to it."""

    draw: int
    hand: Counts
    new: Counts


class _OwnHistory:
    """``state_from_observation``'s first stage: the player's own side of a history — the hand
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
        kinds = _kinds(view.deck)
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
        self.between: list[Counts] = []
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
        except _OutOfBudget:
            return None

    def _fits_deck(self, unseen_plays: Counts) -> bool:
        return all(
            self.seen.get(kind, 0) + count <= self.copies[kind]
            for kind, count in unseen_plays.items()
        )

    def _choose(
        self, index: int, passed: Counts | None, unseen: Counts, unseen_plays: Counts
    ) -> list[_OwnTurn] | None:
        """Decisions ``index`` on, given the hand the player passed last (None before its first)
        and the seen cards not yet new (``unseen``); ``unseen_plays``: the cards played in sight
        that it never saw."""
        self._nodes += 1
        if self._nodes > _OWN_BUDGET:
            raise _OutOfBudget
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

    def _can_finish(self, index: int, hand: Counts, unseen: Counts) -> bool:
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

    def _must_hold(self, index: int, unseen: Counts, never: Counts) -> Counts:
        """The cards the hand at decision ``index`` must hold: the card played from it, the
        cards of the known last hand already seen, and the cards the plays in sight before the
        next decision take that the deck cannot supply unseen (they must be cards the player
        passed on, seen)."""
        play = self.plays[index]
        need: Counts = {play: 1} if play >= 0 else {}
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
        self, index: int, passed: Counts | None, taken: Counts, unseen: Counts, never: Counts
    ) -> Iterable[tuple[Counts, Counts]]:
        """Hands for decision ``index`` and their new cards, in a random order (a bounded number
        of random draws for the free ones)."""
        size = self.hand_size + 1
        pool = [kind for kind, count in unseen.items() for _ in range(count)]
        need = self._must_hold(index, unseen, never)
        last = self.final is not None and index == self.decisions - 1
        if passed is None:
            # The first hand: all new.
            if last:
                if not (_minus(self.final, unseen) or _minus(unseen, self.final)):  # type: ignore[arg-type]
                    yield self.final, self.final  # type: ignore[misc]
                return
            tried: set[object] = set()
            for _ in range(_SAMPLES):
                chosen = self._sample(pool, size, self._with_urgent(index, unseen, need))
                if chosen is None:
                    return
                key = tuple(sorted(chosen.items()))
                if key not in tried:
                    tried.add(key)
                    yield chosen, chosen
            return
        # Later hands: the passed hand loses the cards the plays in sight took and some more
        # face down, r in all, and gains r + 1 new cards.
        removable = _minus(passed, taken)
        forced = sum(taken.values())
        most = forced + self.face_down[index]
        if last:
            assert self.final is not None
            old = _minus(self.final, unseen)
            if _minus(unseen, self.final) or _minus(old, removable):
                return
            removed = self.hand_size - sum(old.values())
            if (
                forced <= removed <= most
                and sum(self.final.values()) - sum(old.values()) == removed + 1
            ):
                yield self.final, _minus(self.final, old)
            return
        seen_hands: set[object] = set()
        for _ in range(_SAMPLES):
            if len(pool) - 1 < forced:
                return
            must_new = self._with_urgent(
                index, unseen, need
            )  # need: before the old cards are known
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

    def _with_urgent(self, index: int, unseen: Counts, must: Counts) -> Counts:
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

    def _sample(self, pool: list[int], size: int, must: Counts) -> Counts | None:
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


def _required(view: Observation, kinds: _Kinds) -> Counts:
    """The fewest cards of each kind a history leading to ``view`` draws: every card the player
    has seen, and every card in sight in a train (the player's own were all seen)."""
    seen = Counter(kinds.of(card) for card in view.seen)
    shown = Counter(
        kinds.of(play.card)
        for seat, plays in enumerate(view.trains)
        if seat != view.player
        for play in plays
        if play is not None
    )
    shown.update(kinds.of(card) for card in view.train.cards)
    return {kind: max(seen[kind], shown[kind]) for kind in set(seen) | set(shown)}


register(CODEC)
