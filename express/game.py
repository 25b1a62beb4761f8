"""The whole draft of Yardmaster Express as an ``arena`` game: deal, draw, choose, pass, score.

>>> from arena import RandomPolicy, play
>>> game = play(Game(3, caboose="Lightweight"), [RandomPolicy()] * 3, seed=1)
>>> game.is_terminal(), [len(train) for train in game.trains], game.score().caboose.name
(True, [6, 6, 6], 'Lightweight')

The rules (``docs/rules/yardmaster-express.md``): with N players (2 to 5; the 8 cards showing
purple are out with 2) the start player is dealt a hand of N cards. On a turn the player holding
the hand draws 1 card from the deck, chooses 1 of the N + 1, adds it to their train — face up
when it connects, or face down — and passes the other N to the next player (to the left, that
is clockwise, unless the game passes right). There is one hand, travelling round the table.
After 9 − N rounds (``rounds=`` overrides it) every train is scored by
:func:`express.score_game`: train value, the longest-run award (ties all score), the caboose
(relative cabooses compare the trains; ties all score), and the tie-break.

**Decision (the tie-break when passing right).** The rules break a tie in favour of the tied
player seated farthest from the start player clockwise — clockwise being the direction of play.
In a game that passes right (game 2 of :class:`express.Match`) turns go counter-clockwise, and
the tie-break follows the direction of play: the tied player who plays latest in a round wins.

Chance
------
Without ``order`` the shuffle is chance, modelled as successive draws at the moment a card is
needed: each draw is a chance node whose outcomes are the distinct cards left in the deck, each
with probability (copies left) / (cards left) — identical cards are one outcome. The deal is
the first N draws. With ``order`` (the whole deck order, top card first) there is no shuffle
chance: the start player is dealt the first N cards of it and every draw takes the next one.
``caboose="random"`` adds a first chance node over the 16 cabooses (the caboose is shown at the
start). Chance outcomes are :class:`express.Card` values and :class:`CabooseDraw` values; a
player's action is an :class:`express.Play` (a card, face up or down).

The state's fields (read them; change the state only through ``apply_action``)
-------------------------------------------------------------------------------
- ``players``, ``hand_size`` (N = players), ``rounds``, ``start_player`` (the seat dealt the
  hand; seats are numbered clockwise), ``pass_left`` (True: the hand goes clockwise);
- ``deck``: the cards of the game's deck (a tuple of :class:`Card`, the composition every player
  knows); ``order``: the given deck order or None;
- ``caboose``: the caboose in play (a :class:`express.Caboose`, None without one, or before a
  random one is drawn) and ``caboose_pending`` (a random caboose not drawn yet);
- ``drawn``: every card taken from the deck so far, in order (the deal first); physical cards are
  known by their index in it;
- ``hand``: the travelling hand, as indices into ``drawn`` (``hand_cards()`` gives the cards);
- ``trains``: one :class:`express.Train` per seat;
- ``seen``: per seat, the indices into ``drawn`` of every card that has passed through that
  player's hands (what a player can remember);
- ``turn``: turns completed (``players × rounds`` at the end); ``current_player()`` is the seat
  ``start_player ± turn`` (mod players), + when passing left;
- ``events``: the log, :class:`CabooseShown`, :class:`Dealt` and one :class:`Turn` per turn.

A state is compared field by field (``==``), pickles, and ``clone()`` copies it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from arena import CHANCE, TERMINAL, Action
from arena.memo import IdentityMemo
from arena.values import whole_number
from express.batch import Engine
from express.cabooses import CABOOSES, Caboose, caboose_named
from express.cards import WILD, Card, deck_for
from express.deck import parse_deck
from express.errors import IllegalPlayError, RulesError
from express.rules import PLAYER_COUNTS, hand_size_for, rounds_for
from express.scoring import GameScore, PlayerScore, score_game
from express.train import Play, Train, runs_of

__all__ = [
    "Game",
    "GameAction",
    "CabooseDraw",
    "Observation",
    "Event",
    "CabooseShown",
    "Dealt",
    "Turn",
    "hand_size_for",
    "rounds_for",
]


@dataclass(frozen=True)
class CabooseDraw:
    """The chance outcome that shows the caboose of a game with ``caboose="random"``."""

    name: str

    def __str__(self) -> str:
        return self.name


GameAction = Play | Card | CabooseDraw
"""What moves a :class:`Game`: a player's :class:`Play`, a drawn :class:`Card`, a :class:`CabooseDraw`."""

_CABOOSE_OUTCOMES: tuple[tuple[CabooseDraw, Fraction], ...] = tuple(
    (CabooseDraw(caboose.name), Fraction(1, len(CABOOSES))) for caboose in CABOOSES
)


_PROBABILITIES: dict[tuple[int, int], Fraction] = {}


def _probability(count: int, total: int) -> Fraction:
    """``Fraction(count, total)``, built once per pair: draws ask for the same few hundred."""
    probability = _PROBABILITIES.get((count, total))
    if probability is None:
        probability = _PROBABILITIES[count, total] = Fraction(count, total)
    return probability


_STANDARD_DECKS: dict[int, tuple[Card, ...]] = {
    players: deck_for(players) for players in PLAYER_COUNTS
}
"""The standard deck of each player count, one tuple each: observations send it as a mark."""


@dataclass(frozen=True)
class CabooseShown:
    """The caboose in play, shown at the start."""

    caboose: str

    def __str__(self) -> str:
        caboose = caboose_named(self.caboose)
        return f"caboose {caboose.name} ({caboose.points}): {caboose.condition}"


@dataclass(frozen=True)
class Dealt:
    """The start player's hand of N cards."""

    player: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"player {self.player} is dealt {', '.join(str(card) for card in self.cards)}"


@dataclass(frozen=True)
class Turn:
    """One turn: who played in which round, the card drawn, the N + 1 cards held, the play, the
    train after it, and who got the rest of the hand (None after the last turn)."""

    round: int
    player: int
    drew: Card
    hand: tuple[Card, ...]
    play: Play
    train: Train
    passed_to: int | None

    def __str__(self) -> str:
        way = "face up" if self.play.face_up else "face down"
        passed = (
            ""
            if self.passed_to is None
            else f", passes {len(self.hand) - 1} to player {self.passed_to}"
        )
        return (
            f"round {self.round}: player {self.player} draws {self.drew}, holds "
            f"{' '.join(str(card) for card in self.hand)}, plays {self.play.card} {way}{passed}"
        )


Event = CabooseShown | Dealt | Turn
"""An entry of :attr:`Game.events`."""


@dataclass(frozen=True)
class Observation:
    """What one player may know: a value that pickles and compares.

    ``hand`` is the travelling hand when it is this player's turn (else empty); ``trains`` shows
    every seat's train with other players' face-down cards hidden (``None``), this player's own
    in full; ``train`` is this player's own train; ``seen`` the cards that have passed through
    this player's hands (each physical card once); ``deck`` the game's deck composition and
    ``drawn`` how many cards have left the deck. Card tuples list cards in the deck's order.
    """

    player: int
    players: int
    start_player: int
    pass_left: bool
    rounds: int
    turn: int
    caboose: str | None
    deck: tuple[Card, ...]
    drawn: int
    hand: tuple[Card, ...]
    trains: tuple[tuple[Play | None, ...], ...]
    train: Train
    seen: tuple[Card, ...]

    def __post_init__(self) -> None:
        # Bots and the OpenSpiel codec read an observation by its seat numbers: one naming a
        # player the game does not have would be read as some other seat, or fail deep inside.
        if isinstance(self.players, bool) or self.players not in PLAYER_COUNTS:
            raise RulesError(
                f"invalid observation: {self.players!r} players "
                f"(Yardmaster Express is for {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]})"
            )
        for what, seat in (("player", self.player), ("start player", self.start_player)):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
                raise RulesError(
                    f"invalid observation: {what} {seat!r} does not exist in a "
                    f"{self.players}-player game (players are numbered 0..{self.players - 1})"
                )
        if len(self.trains) != self.players:
            raise RulesError(
                f"invalid observation: {len(self.trains)} trains for {self.players} players"
            )

    @property
    def turns_left(self) -> int:
        """How many more cards this player adds to its train, counting the current turn if it is its own."""
        return self.rounds - len(self.train)

    def unknown_cards(self) -> tuple[Card, ...]:
        """The cards whose place this player does not know: in the deck still, or face down in
        another train without having passed through its hands (sorted by their text).

        >>> cards = "B2|B2,B2|B3,B3|Y3,R4|B4,G2|G2,Y2|Y2"
        >>> game = Game(2, deck=cards, order=cards, rounds=1)
        >>> game.apply_action(Play.parse("~B2|B2"))  # player 1 never held B2|B2
        >>> [str(card) for card in game.observation(1).unknown_cards()]
        ['B2|B2', 'G2|G2', 'Y2|Y2']
        """
        placed = Counter(self.hand) + Counter(self.train.cards)
        for seat, plays in enumerate(self.trains):
            if seat != self.player:
                placed.update(play.card for play in plays if play is not None)
        # Cards it saw that are neither in its hand nor anywhere visible now lie face down elsewhere.
        hidden_seen = Counter(self.seen) - placed
        left = Counter(self.deck) - placed - hidden_seen
        return tuple(sorted(left.elements(), key=str))

    def rivals_longest_run(self) -> int:
        """The longest run in the other players' trains: all of it is in sight, since a face-down
        card is two wild cars whatever it hides.

        >>> game = Game(2, order="B2|B2,B2|B3,B3|Y3,R4|B4,G2|G2,Y2|Y2", rounds=1)
        >>> game.apply_action(Play.parse("B2|B2"))
        >>> game.observation(1).rivals_longest_run(), game.observation(0).rivals_longest_run()
        (2, 0)
        """
        longest = 0
        for seat, plays in enumerate(self.trains):
            if seat != self.player:
                cars = [
                    car
                    for play in plays
                    for car in (play.cars if play is not None else (WILD, WILD))
                ]
                longest = max([longest, *(run.length for run in runs_of(cars))])
        return longest

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Cards travel as their text, read back through a cache: a few dozen short strings pickle
        # far faster than the tree of card, car and colour objects.
        trains = tuple(",".join(_play_text(play) for play in plays) for plays in self.trains)
        return (
            _observation_from_text,
            (
                self.player,
                self.players,
                self.start_player,
                self.pass_left,
                self.rounds,
                self.turn,
                self.caboose,
                None if self.deck is _STANDARD_DECKS.get(self.players) else _cards_text(self.deck),
                self.drawn,
                _cards_text(self.hand),
                trains,
                ",".join(_play_text(play) for play in self.train.plays),
                _cards_text(self.seen),
            ),
        )


# Text of the cards met so far, found again by the card object's identity (a card hashes slowly:
# its colours are enums).
_TEXTS = IdentityMemo[Card, str](limit=100_000)
_text_of = _TEXTS.lookup  # bound once: the observations' pickling calls it per card


def _card_text(card: Card) -> str:
    return _text_of(card, str)


def _cards_text(cards: Iterable[Card]) -> str:
    return ",".join([_text_of(card, str) for card in cards])


def _play_text(play: Play | None) -> str:
    if play is None:
        return "?"
    text = _text_of(play.card, str)
    return text if play.face_up else "~" + text


def _reader(deck: tuple[Card, ...]) -> dict[str, Card]:
    """Text → card for the cards of ``deck``, so that cards read back are the deck's own objects
    (equal observations then compare by identity, fast)."""
    return _READERS.lookup(deck, _text_to_card)


def _text_to_card(deck: tuple[Card, ...]) -> dict[str, Card]:
    return {_card_text(card): card for card in deck}


_READERS = IdentityMemo[tuple[Card, ...], dict[str, Card]](limit=100_000)


def _read_card(text: str, reader: dict[str, Card]) -> Card:
    card = reader.get(text)
    return Card.parse(text) if card is None else card


def _read_play(text: str, reader: dict[str, Card]) -> Play:
    if text.startswith("~"):
        return Play(_read_card(text[1:], reader), face_up=False)
    return Play(_read_card(text, reader))


def _read_cards(text: str, reader: dict[str, Card]) -> tuple[Card, ...]:
    return tuple(_read_card(token, reader) for token in text.split(",")) if text else ()


def _observation_from_text(
    player: int,
    players: int,
    start_player: int,
    pass_left: bool,
    rounds: int,
    turn: int,
    caboose: str | None,
    deck: str | None,
    drawn: int,
    hand: str,
    trains: tuple[str, ...],
    train: str,
    seen: str,
) -> Observation:
    """An :class:`Observation` from its pickled text form (see ``Observation.__reduce__``)."""
    cards = _STANDARD_DECKS[players] if deck is None else parse_deck(deck)
    reader = _reader(cards)
    return Observation(
        player=player,
        players=players,
        start_player=start_player,
        pass_left=pass_left,
        rounds=rounds,
        turn=turn,
        caboose=caboose,
        deck=cards,
        drawn=drawn,
        hand=_read_cards(hand, reader),
        trains=tuple(
            tuple(None if token == "?" else _read_play(token, reader) for token in text.split(","))
            if text
            else ()
            for text in trains
        ),
        train=Train(
            tuple(_read_play(token, reader) for token in train.split(",")) if train else ()
        ),
        seen=_read_cards(seen, reader),
    )


def _cards(value: Iterable[Card] | str, what: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_deck(value)
    try:
        cards = tuple(value)
    except TypeError:
        raise TypeError(f"{what} must be cards or their text, not {type(value).__name__}") from None
    for card in cards:
        if not isinstance(card, Card):
            raise TypeError(f"{what} must hold Card values, not {type(card).__name__}")
    return cards


def _int(value: object, what: str) -> int:
    return whole_number(value, what)


def _format(cards: Iterable[Card]) -> str:
    return ",".join(str(card) for card in cards)


#: The fields a :class:`Game` shares with its clone: values no move changes in place (a move may
#: rebind one); the other fields are lists a move changes, so a clone copies them.
_SHARED_BY_CLONES = (
    "players",
    "hand_size",
    "rounds",
    "start_player",
    "pass_left",
    "deck",
    "order",
    "caboose",
    "caboose_pending",
    "turn",
    "_kinds",
    "_kind_of",
)


class Game:
    """A game of Yardmaster Express in the ``arena`` protocol (see the module docstring).

    ``Game(players=3, caboose=None, deck=None, order=None, rounds=None)``: ``caboose`` is a
    :class:`Caboose`, its name, or ``"random"``; ``deck`` any deck (default: the standard one
    for the player count); ``order`` the deck order, top card first — a sequence drawn from the
    deck holding at least the N + players × rounds cards the game uses; ``rounds`` overrides
    9 − N. ``start_player`` and ``pass_left`` set the seat dealt the hand and the direction of
    passing (game 2 of the strategic variant starts elsewhere and passes right).

    >>> game = Game(2, order="B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2", rounds=2)
    >>> game.hand_cards(), game.current_player()
    ((Card.parse('B2|B2'), Card.parse('R2|R2'), Card.parse('B2|B3')), 0)
    >>> game.apply_action(Play.parse("B2|B2"))
    >>> game.hand_cards(), game.current_player()
    ((Card.parse('R2|R2'), Card.parse('B2|B3'), Card.parse('R2|R3')), 1)
    """

    __slots__ = (*_SHARED_BY_CLONES, "drawn", "hand", "trains", "seen", "_ids", "_left", "_log")

    players: int
    hand_size: int
    rounds: int
    start_player: int
    pass_left: bool
    deck: tuple[Card, ...]
    order: tuple[Card, ...] | None
    caboose: Caboose | None
    caboose_pending: bool
    drawn: list[Card]
    hand: list[int]
    trains: list[Train]
    seen: list[set[int]]
    turn: int
    _kinds: tuple[Card, ...]
    _kind_of: dict[Card, int]
    _ids: list[int]
    _left: list[int]
    _log: list[Event]

    def __init__(
        self,
        players: int = 3,
        *,
        caboose: Caboose | str | None = None,
        deck: Iterable[Card] | str | None = None,
        order: Iterable[Card] | str | None = None,
        rounds: int | None = None,
        start_player: int = 0,
        pass_left: bool = True,
    ) -> None:
        players = _int(players, "players")
        self.players = players
        self.hand_size = hand_size_for(players)
        self.rounds = rounds_for(players) if rounds is None else _int(rounds, "rounds")
        if self.rounds < 1:
            raise RulesError(f"invalid rounds: {self.rounds!r} (a game has at least 1 round)")
        start_player = _int(start_player, "start_player")
        if not 0 <= start_player < players:
            raise RulesError(
                f"invalid start player: {start_player!r} (players are numbered 0..{players - 1})"
            )
        self.start_player = start_player
        if not isinstance(pass_left, bool):
            raise TypeError(f"pass_left must be a bool, not {type(pass_left).__name__}")
        self.pass_left = pass_left
        self.deck = _STANDARD_DECKS[players] if deck is None else _cards(deck, "deck")
        needed = self.hand_size + players * self.rounds
        if len(self.deck) < needed:
            raise RulesError(
                f"deck too small: {len(self.deck)} cards, {players} players over {self.rounds} rounds use {needed}"
            )
        self.order = None if order is None else _cards(order, "order")
        if self.order is not None:
            copies = Counter(self.deck)
            missing = Counter(self.order) - copies
            if missing:
                card = next(iter(missing))
                if not copies[card]:
                    raise RulesError(f"order card not in the deck: {str(card)!r}")
                raise RulesError(
                    f"order card used too often: {str(card)!r} is in the order "
                    f"{self.order.count(card)} times, the deck holds {copies[card]}"
                )
            if len(self.order) < needed:
                raise RulesError(
                    f"order too short: {_format(self.order)!r} has {len(self.order)} "
                    f"card{'s' if len(self.order) != 1 else ''}, the game uses {needed}"
                )
        self.caboose_pending = False
        self.caboose = None
        if isinstance(caboose, str):
            if caboose.strip().lower() == "random":
                self.caboose_pending = True
            else:
                self.caboose = caboose_named(caboose)
        elif isinstance(caboose, Caboose):
            if caboose not in CABOOSES:
                raise RulesError(f"unknown caboose: {caboose.name!r} (use one of the 16 cabooses)")
            self.caboose = caboose
        elif caboose is not None:
            raise TypeError(
                f"caboose must be a Caboose, its name or 'random', not {type(caboose).__name__}"
            )
        # Cards are known inside by their kind: their index among the deck's distinct cards.
        counts = Counter(self.deck)
        self._kinds = tuple(counts)
        self._kind_of = {card: kind for kind, card in enumerate(self._kinds)}
        self._left = [counts[card] for card in self._kinds]
        self._ids = []
        self.drawn = []
        self.hand = []
        self.trains = [Train() for _ in range(players)]
        self.seen = [set() for _ in range(players)]
        self.turn = 0
        self._log = []
        if self.caboose is not None:
            self._log.append(CabooseShown(self.caboose.name))
        self._advance()

    # -- the arena protocol ------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """How many players sit at the table."""
        return self.players

    def is_terminal(self) -> bool:
        """True once every player has added ``rounds`` cards."""
        return self.turn >= self.players * self.rounds

    def is_chance_node(self) -> bool:
        """True when a caboose is to be drawn, or a card dealt or drawn from a shuffled deck."""
        if self.caboose_pending:
            return True
        return not self.is_terminal() and len(self.drawn) <= self.hand_size + self.turn

    def current_player(self) -> int:
        """The seat holding the hand, :data:`arena.CHANCE` or :data:`arena.TERMINAL`."""
        if self.is_chance_node():
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return self._seat(self.turn)

    def chance_outcomes(self) -> Sequence[tuple[GameAction, Fraction]]:
        """The caboose (1/16 each), or the next card: each distinct card left, copies / cards left."""
        if self.caboose_pending:
            return _CABOOSE_OUTCOMES
        if not self.is_chance_node():
            return ()
        total = sum(self._left)
        return tuple(
            (card, _probability(count, total))
            for card, count in zip(self._kinds, self._left)
            if count
        )

    def legal_actions(self) -> Sequence[GameAction]:
        """The chance outcomes at a chance node; else every distinct card of the hand, in the
        deck's order, face up (when it connects) and face down; empty at the end."""
        if self.is_chance_node():
            return tuple(action for action, _ in self.chance_outcomes())
        if self.is_terminal():
            return ()
        train = self.trains[self._seat(self.turn)]
        actions: list[GameAction] = []
        kinds = sorted({self._ids[i] for i in self.hand})
        for card in (self._kinds[kind] for kind in kinds):
            if train.can_add(card):
                actions.append(Play(card))
            actions.append(Play(card, face_up=False))
        return tuple(actions)

    def apply_action(self, action: Action) -> None:
        """Draw the caboose, deal or draw a card (chance), or play a card of the hand."""
        if self.caboose_pending:
            if not isinstance(action, CabooseDraw):
                raise RulesError(f"a caboose is to be drawn, not {str(action)!r}")
            self.caboose = caboose_named(action.name)
            self.caboose_pending = False
            self._log.append(CabooseShown(self.caboose.name))
        elif self.is_terminal():
            raise RulesError(f"the game is over: no more actions ({str(action)!r})")
        elif self.is_chance_node():
            if not isinstance(action, Card):
                raise RulesError(f"a card is to be drawn, not {str(action)!r}")
            self._draw(action)
        else:
            if not isinstance(action, Play):
                raise IllegalPlayError(f"a play is expected, not {str(action)!r}")
            self._play(action)
        self._advance()

    def returns(self) -> list[float]:
        """Each player's final total (train value + run award + caboose); zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self.players
        return [float(player.total) for player in self.score().players]

    def winners(self) -> frozenset[int]:
        """The winner after the tie-break (one seat); empty before the end."""
        if not self.is_terminal():
            return frozenset()
        return frozenset({self.score().winner})

    def clone(self) -> Game:
        """An independent copy."""
        copy = Game.__new__(Game)
        for name in _SHARED_BY_CLONES:
            object.__setattr__(copy, name, getattr(self, name))
        copy.drawn = list(self.drawn)
        copy.hand = list(self.hand)
        copy.trains = list(self.trains)
        copy.seen = [set(s) for s in self.seen]
        copy._left = list(self._left)
        copy._ids = list(self._ids)
        copy._log = list(self._log)
        return copy

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        # What a state shares with its clone is immutable, so the clone is a deep copy, and
        # far cheaper than copying card by card (OpenSpiel deep-copies its states).
        return self.clone()

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now (see :class:`Observation`)."""
        player = self._check_player(player)
        holding = (
            not self.is_chance_node() and not self.is_terminal() and self._seat(self.turn) == player
        )
        trains = tuple(
            tuple(train.plays)
            if seat == player
            else tuple(p if p.face_up else None for p in train.plays)
            for seat, train in enumerate(self.trains)
        )
        return Observation(
            player=player,
            players=self.players,
            start_player=self.start_player,
            pass_left=self.pass_left,
            rounds=self.rounds,
            turn=self.turn,
            caboose=None if self.caboose is None else self.caboose.name,
            deck=self.deck,
            drawn=len(self.drawn),
            hand=self._sorted(self.hand) if holding else (),
            trains=trains,
            train=self.trains[player],
            seen=self._sorted(self.seen[player]),
        )

    def action_to_string(self, action: Action) -> str:
        """``"play R3|G3 face up"``, ``"draw B2|B2"``, ``"caboose Lightweight"``."""
        if isinstance(action, Play):
            return f"play {action.card} {'face up' if action.face_up else 'face down'}"
        if isinstance(action, CabooseDraw):
            return f"caboose {action.name}"
        return f"{'deal' if len(self.drawn) < self.hand_size else 'draw'} {action}"

    @property
    def events(self) -> tuple[Event, ...]:
        """The log so far: the caboose, the deal, then one :class:`Turn` per turn."""
        return tuple(self._log)

    def batch_engine(self) -> Engine | None:
        """The batched engine of this game's setup (:class:`express.batch.Engine`): its
        players, caboose (``"random"`` while a random caboose is still to be drawn; once
        drawn, the caboose in play), deck, rounds, start player and direction. None for a game
        with a fixed deck ``order``: the engine's chance is the shuffle, and an ordered deck
        has none (every game of a batch would be the same deal).

        >>> engine = Game(4, caboose="random").batch_engine()
        >>> engine.players, engine.caboose, engine.rounds
        (4, 'random', 5)
        """
        if self.order is not None:
            return None
        return Engine(
            self.players,
            caboose="random"
            if self.caboose_pending
            else (None if self.caboose is None else self.caboose.name),
            deck=self.deck,
            rounds=self.rounds,
            start_player=self.start_player,
            pass_left=self.pass_left,
        )

    # -- the game's own queries --------------------------------------------------------------

    def hand_cards(self) -> tuple[Card, ...]:
        """The cards of the travelling hand, in the order they joined it."""
        return tuple(self.drawn[i] for i in self.hand)

    def deck_left(self) -> tuple[tuple[Card, int], ...]:
        """Each distinct card of the deck with its copies not drawn yet, in the order the deck
        first lists them: what the draws can still bring (the state's truth; a player knows
        only what its :class:`Observation` shows).

        >>> game = Game(2, order="B2|B2,R2|R2,B2|B2,Y2|Y2", deck="B2|B2,R2|R2,B2|B2,Y2|Y2", rounds=1)
        >>> [(str(card), n) for card, n in game.deck_left()]
        [('B2|B2', 0), ('R2|R2', 0), ('Y2|Y2', 1)]
        """
        return tuple(zip(self._kinds, self._left))

    def seen_cards(self, player: int) -> tuple[Card, ...]:
        """Every card that has passed through ``player``'s hands, each physical card once."""
        player = self._check_player(player)
        return tuple(self.drawn[i] for i in sorted(self.seen[player]))

    @property
    def round(self) -> int:
        """The current round, from 1 (``rounds`` + 1 once the game is over)."""
        return self.turn // self.players + 1

    def seat_order(self) -> tuple[int, ...]:
        """The seats in order of play within a round, from the start player."""
        return tuple(self._seat(i) for i in range(self.players))

    def score(self) -> GameScore:
        """The final scoring of the trains (:func:`express.score_game`), also for a game passing
        right, where the tie-break follows the direction of play (see the module docstring)."""
        if self.caboose_pending:
            raise RulesError("the caboose has not been drawn yet")
        if self.pass_left:
            return score_game(self.trains, start_player=self.start_player, caboose=self.caboose)
        # Score the trains listed in order of play, so the clockwise tie-break of score_game reads
        # the direction of play; the run award and cabooses do not depend on seating.
        seats = self.seat_order()
        game = score_game(
            [self.trains[seat] for seat in seats], start_player=0, caboose=self.caboose
        )
        players = sorted(
            (
                PlayerScore(seats[p.player], p.value, p.longest_run, p.run_bonus, p.caboose_points)
                for p in game.players
            ),
            key=lambda p: p.player,
        )
        return GameScore(
            tuple(players),
            self.start_player,
            game.longest_run,
            game.caboose,
            seats[game.winner],
            tuple(self.trains),
        )

    # -- internals -------------------------------------------------------------------------

    def _check_player(self, player: object) -> int:
        # A bool is an int to Python, and -1 indexes the last seat: neither names a player.
        player = whole_number(player, "player")
        if not 0 <= player < self.players:
            raise RulesError(
                f"invalid player: {player!r} (players are numbered 0..{self.players - 1})"
            )
        return player

    def _sorted(self, indices: Iterable[int]) -> tuple[Card, ...]:
        """The drawn cards at ``indices`` in the deck's order (an observation's canonical order)."""
        ids = self._ids
        return tuple(self._kinds[kind] for kind in sorted(ids[i] for i in indices))

    def _seat(self, turn: int) -> int:
        step = 1 if self.pass_left else -1
        return (self.start_player + step * turn) % self.players

    def _draw(self, card: Card) -> None:
        kind = self._kind_of.get(card)
        if kind is None:
            raise RulesError(f"card not in the deck: {str(card)!r}")
        if not self._left[kind]:
            raise RulesError(f"no {str(card)!r} left in the deck")
        self._left[kind] -= 1
        self.hand.append(len(self.drawn))
        self.drawn.append(self._kinds[kind])
        self._ids.append(kind)
        if len(self.drawn) == self.hand_size:
            self._log.append(Dealt(self.start_player, tuple(self.drawn)))

    def _play(self, play: Play) -> None:
        player = self._seat(self.turn)
        held = self.hand_cards()
        kind = self._kind_of.get(play.card)
        position = next((n for n, i in enumerate(self.hand) if self._ids[i] == kind), None)
        if position is None:
            raise IllegalPlayError(
                f"card not in the hand: {str(play.card)!r} (the hand holds {_format(held)})"
            )
        train = self.trains[player].add_play(play)  # raises on a face-up card that does not connect
        round_ = self.round
        self.hand.pop(position)
        self.trains[player] = train
        self.turn += 1
        passed_to = None if self.is_terminal() else self._seat(self.turn)
        # The card drawn this turn is the last one taken from the deck.
        self._log.append(Turn(round_, player, self.drawn[-1], held, play, train, passed_to))

    def _advance(self) -> None:
        """Take the cards an ordered deck deals without chance; note what the player to act sees."""
        if self.caboose_pending or self.is_terminal():
            return
        if self.order is not None:
            while len(self.drawn) <= self.hand_size + self.turn:
                self._draw(self.order[len(self.drawn)])
        if not self.is_chance_node():
            self.seen[self._seat(self.turn)].update(self.hand)

    # -- values ----------------------------------------------------------------------------

    def _fields(self) -> tuple[object, ...]:
        return (
            self.players,
            self.hand_size,
            self.rounds,
            self.start_player,
            self.pass_left,
            self.deck,
            self.order,
            self.caboose,
            self.caboose_pending,
            self.drawn,
            self.hand,
            self.trains,
            self.seen,
            self.turn,
            self._ids,
            self._left,
            self._log,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # a mutable state

    def __getstate__(self) -> dict[str, object]:
        # The caboose travels by name: its conditions are code.
        # The kind index is worked out again on loading.
        state: dict[str, object] = {
            name: getattr(self, name) for name in self.__slots__ if name != "_kind_of"
        }
        state["caboose"] = None if self.caboose is None else self.caboose.name
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        caboose = state["caboose"]
        self.caboose = None if caboose is None else caboose_named(str(caboose))
        self._kind_of = {card: kind for kind, card in enumerate(self._kinds)}

    def __str__(self) -> str:
        lines = [
            f"Yardmaster Express, {self.players} players, round {min(self.round, self.rounds)} of {self.rounds}"
        ]
        if self.caboose is not None:
            lines.append(f"caboose: {self.caboose.name}")
        for seat, train in enumerate(self.trains):
            mark = "*" if seat == self.start_player else " "
            lines.append(
                f"{seat}{mark} " + " > ".join(["engine", *(str(play) for play in train.plays)])
            )
        if not self.is_terminal() and self.hand:
            lines.append(f"hand: {_format(self.hand_cards())}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<express.Game {self.players} players, turn {self.turn} of {self.players * self.rounds}>"

    def _repr_svg_(self) -> str:
        """Every train, with the scores once the game is over, for Jupyter
        (:func:`express.svg.trains_svg`)."""
        from express.svg import trains_svg  # the pictures sit beside the values: imported on use

        score = self.score() if self.is_terminal() else None
        caboose = f"caboose {self.caboose.name}" if self.caboose is not None else "no caboose"
        if score is not None:
            state = f"player {score.winner} wins"
        else:
            state = f"round {min(self.round, self.rounds)} of {self.rounds}"
        title = f"Yardmaster Express, {self.players} players, {caboose}: {state}"
        return trains_svg(self.trains, title=title, start_player=self.start_player, score=score)

    def to_dict(self) -> dict[str, object]:
        """The game as JSON-ready data: the caboose, every turn, the events' text, the trains
        and, once the game is over, the score (``express play --json`` adds players and seed)."""
        return {
            "caboose": None if self.caboose is None else self.caboose.name,
            "turns": [
                {
                    "round": e.round,
                    "player": e.player,
                    "drew": str(e.drew),
                    "hand": [str(c) for c in e.hand],
                    "play": str(e.play),
                    "train": str(e.train),
                }
                for e in self.events
                if isinstance(e, Turn)
            ],
            "events": [str(e) for e in self.events],
            "trains": [str(train) for train in self.trains],
            "score": self.score().to_dict() if self.is_terminal() else None,
        }
