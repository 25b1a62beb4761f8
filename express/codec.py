"""Yardmaster Express in integers and tensors: the game's codec (:class:`arena.codec.Codec`, no
extra).

The one translation every adapter reads — OpenSpiel (:mod:`express.openspiel`, registered as
``python_yardmaster_express``) and PettingZoo/Gymnasium (:mod:`express.pettingzoo`). Every rule
stays in :class:`express.Game`.

>>> limits = CODEC.limits(CODEC.merged({"players": 2, "rounds": 2}))
>>> limits.num_distinct_actions, limits.max_chance_outcomes, limits.max_game_length
(40, 20, 4)

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

The information-state string is the player's view of the whole history (perfect recall),
:func:`express.worlds.seen_history`, one line an entry: the caboose shown; the deal (the cards
when the player was dealt them, else only how many); every turn of its own in full — the card
drawn, the hand held (in deck order: the order the cards joined the hand is not something a
player sees), which of those cards were new to it and the play; the other players' turns as the
player saw them — the card played face up, or "a card face down" — and then the current
observation. Nothing in it depends on what the player cannot see.

Hidden worlds
-------------
The game's own module :mod:`express.worlds` draws them (it knows nothing of OpenSpiel; its
docstring says how, and from which distribution): ``resample(state, player, rng)``, which
OpenSpiel's information-set MCTS calls through ``resample_from_infostate``, is
:func:`express.worlds.resample` — a world with the same observation and the same
information-state string; ``state_from_observation(observation, rng)``, which a search policy
starts each decision from, is :func:`express.worlds.sample_world` — a world with that
observation.

A :class:`express.MatchObservation` is read through its current game: a search policy in the
strategic variant plays each game for that game's score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.codec import HiddenInformationCodec, Limits, Parameters, elements
from arena.text import plural
from express.cabooses import CABOOSES, caboose_named
from express.cards import Card, deck_for, format_cards
from express.deck import parse_deck
from express.errors import RulesError
from express.game import CabooseDraw, Game, Observation, rounds_for
from express.train import Play
from express.worlds import (
    DealSeen,
    OtherTurnSeen,
    OwnTurnSeen,
    SeenEvent,
    deck_kinds,
    game_view,
    resample,
    sample_world,
    seen_history,
)

__all__ = ["CODEC", "ExpressCodec"]

_CABOOSE_INDEX = {caboose.name: index for index, caboose in enumerate(CABOOSES)}


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
    """Yardmaster Express's translation for the adapters (see the module docstring)."""

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
        rounds, kinds = game.rounds, deck_kinds(game.deck)
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
        kinds = deck_kinds(state.deck)
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
        kinds = deck_kinds(state.deck)
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
            game.players, game.rounds, game.hand_size, len(deck_kinds(game.deck).cards)
        ).size

    def tensor_bounds(self, params: Parameters) -> tuple[np.ndarray, np.ndarray]:
        """Every element lies between 0 and the most copies of one kind in the deck: one-hots
        and flags are 0 or 1, and a count per kind (the deck's copies, the hand, the cards
        seen) never passes the deck's copies of that kind."""
        game = self.new_state(params)
        size = self.tensor_size(params)
        most = max(1, *deck_kinds(game.deck).copies)
        return np.zeros(size, np.float32), np.full(size, most, np.float32)

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
        view = game_view(observation)
        kinds = deck_kinds(view.deck)
        layout = _TensorLayout(view.players, view.rounds, view.players, len(kinds.cards))
        K = layout.kinds
        # Set through a memoryview, element by element: NumPy's own item assignment costs
        # several times more per element (the tensor is filled at every step of an environment).
        t = elements(tensor)
        at = 0

        def one_hot(index: int | None, width: int) -> None:
            nonlocal at
            if index is not None:
                t[at + index] = 1.0
            at += width

        def counts(cards: Iterable[Card]) -> None:
            nonlocal at
            for kind, count in kinds.counts(cards).items():
                t[at + kind] = float(count)
            at += K

        one_hot(view.player, view.players)
        one_hot(view.start_player, view.players)
        one_hot(0 if view.pass_left else None, 1)
        one_hot(view.turn, layout.turns + 1)
        one_hot(view.drawn, layout.hand_size + layout.turns + 1)
        one_hot(None if view.caboose is None else _CABOOSE_INDEX[view.caboose], len(CABOOSES))
        for kind, copies in enumerate(kinds.copies, at):
            t[kind] = float(copies)
        at += K
        counts(view.hand)
        counts(view.seen)
        width = 2 * K + 1
        for seat, plays in enumerate(view.trains):
            for place, play in enumerate(plays):
                base = at + (seat * view.rounds + place) * width
                if play is None:
                    t[base + 2 * K] = 1.0
                else:
                    t[base + kinds.of(play.card) + (0 if play.face_up else K)] = 1.0
        at += view.players * view.rounds * width
        assert at == layout.size, (at, layout.size)

    def observation_string(self, observation: Any) -> str:
        return _observation_text(game_view(observation))

    def information_state_string(self, state: Any, player: int) -> str:
        game = _game_state(state)
        view = game.observation(player)  # also checks the player
        lines = [_seen_text(event) for event in seen_history(game, player)]
        return "\n".join([*lines, "now:", _observation_text(view)])

    # -- hidden worlds -----------------------------------------------------------------------

    def resample(self, state: Any, player: int, rng: np.random.Generator) -> Game:
        return resample(_game_state(state), player, rng)

    def params_from_observation(self, observation: Any) -> dict[str, int | float | bool | str]:
        view = game_view(observation)
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
        return sample_world(game_view(observation), rng)


CODEC = ExpressCodec()
"""Yardmaster Express's codec (``python_yardmaster_express`` in OpenSpiel)."""


def _game_state(state: Any) -> Game:
    if not isinstance(state, Game):
        raise TypeError(f"an express.Game is expected, not {type(state).__name__}")
    return state


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
    kinds = deck_kinds(view.deck)
    standard = view.deck is deck_for(view.players) or view.deck == deck_for(view.players)
    deck = (
        f"the standard {view.players}-player deck"
        if standard
        else f"deck {format_cards(view.deck)}"
    )
    direction = "passing left" if view.pass_left else "passing right"
    lines = [
        f"player {view.player} of {view.players}, start player {view.start_player}, {direction}, "
        f"{plural(view.rounds, 'round')}, caboose {view.caboose or '-'}, {deck}",
        f"turn {view.turn} of {view.players * view.rounds}, {plural(view.drawn, 'card')} drawn",
        f"hand: {_cards_text(kinds.sorted(view.hand))}",
        f"seen: {_cards_text(kinds.sorted(view.seen))}",
    ]
    for seat, plays in enumerate(view.trains):
        cards = " ".join("~?" if play is None else str(play) for play in plays) or "-"
        lines.append(f"train {seat}{' (you)' if seat == view.player else ''}: {cards}")
    return "\n".join(lines)


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def _seen_text(event: SeenEvent) -> str:
    """One line of the information-state string: an entry of :func:`express.worlds.seen_history`."""
    if isinstance(event, DealSeen):
        if event.cards is None:
            return f"dealt player {event.player}: {event.size} cards"
        return f"dealt you: {_cards_text(event.cards)}"
    if isinstance(event, OwnTurnSeen):
        if event.play is None:  # the turn in progress: its hand is the observation's
            return f"turn {event.turn}, you: drew {event.drew}, new {_cards_text(event.new)}"
        return (
            f"turn {event.turn}, you: drew {event.drew}, held {_cards_text(event.held)}, "
            f"new {_cards_text(event.new)}, played {event.play}"
        )
    if isinstance(event, OtherTurnSeen):
        shown = "a card face down" if event.play is None else f"{event.play.card} face up"
        return f"turn {event.turn}, player {event.player}: played {shown}"
    return f"caboose {event.caboose}"
