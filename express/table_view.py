"""A player's view of the table, typed as text, made into the :class:`express.Observation` the
advisor and the bots read.

A player at a real table knows the player count, their own seat, who started and which way the
hand goes, the round, the hand they hold (the cards passed or dealt to them and the one they
just drew: N + 1 with N players), every train (their own in full, the others with their
face-down cards hidden) and the cards that passed through their hands before.
:func:`table_observation` takes exactly that, checks that it could come from a game, and
returns the observation a :class:`express.Game` would give that player at that moment:

>>> view = table_observation(
...     players=3, seat=1, round=2, hand="R4|B4,B2|B3,Y3|G3,G2|G2",
...     trains=["B2|B2,~", "R3|G3", "G4|Y4"], seen="B3|Y3",
... )
>>> view.turn, view.drawn, [str(card) for card in view.seen]
(4, 8, ['G2|G2', 'B2|B3', 'R3|G3', 'B3|Y3', 'Y3|G3', 'R4|B4'])

The notation
------------
- Cards are ``LEFT|RIGHT`` (``R4|B4``), separated by commas or spaces.
- ``trains`` lists one train per seat, in seat order (seat 0 first, seats numbered clockwise),
  each the plays after the engine; ``""`` is an engine-only train. In another player's train a
  face-down card is ``~``; in your own it is ``~`` and the card (``~B2|B2``), since you know it.
- ``seen`` lists the cards you held on earlier turns and passed on, wherever they went since
  (face up or face down into another train); the hand you hold and your own train count as
  seen without being repeated. A card you held and passed on but leave out is taken as one you
  never saw, so the advice is then about another game.

What is checked
---------------
Every card is in the deck (with 2 players the 8 cards showing purple are out); no card is used
more often than the deck holds (a card you passed on and that lies face up in another train is
one physical card); the hand has N + 1 cards; each train has the length the round gives it (the
seats that play before you this round have added their card); a face-up card connects to the
card before it; your own train hides nothing from you; the cards you passed on went into the
other trains after your first turn (never as the first card of a seat that plays before you),
so those that lie there face up in none fit the face-down cards played since then. An input that fails raises an
:class:`express.ExpressError` whose one line quotes it. Whether some deal and some choices of
the other players lead to exactly this view (the order in which cards were passed) is the
world search's to find (:func:`express.worlds.sample_world`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from arena.text import plural
from arena.values import whole_number
from express.cabooses import caboose_named
from express.cards import Card, Color, deck_for
from express.errors import ParseError, PoolError, RulesError, type_error
from express.game import Observation
from express.rules import TWO_PLAYER_LEFT_OUT, check_players, hand_size_for, rounds_for
from express.train import Play, Train, check_plays

__all__ = ["play_position", "position_text", "table_observation"]

_SEPARATORS = re.compile(r"[,\s]+")


def _tokens(text: str) -> list[str]:
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def play_position(players: int, seat: int, start_player: int, pass_left: bool) -> int:
    """Where ``seat`` plays in every round, from 0 (the start player) to ``players`` − 1: the hand
    goes clockwise (to the next seat number) when passing left, the other way when passing right.

    >>> play_position(4, 1, 0, True), play_position(4, 1, 0, False), play_position(4, 3, 2, True)
    (1, 3, 1)
    """
    step = 1 if pass_left else -1
    return ((seat - start_player) * step) % players


def position_text(view: Observation) -> str:
    """How a view reads: the seat, the round, the order of play and the caboose, in one line
    (what ``express advise`` prints first, so a player sees how their input was taken).

    >>> print(position_text(table_observation(players=3, seat=1, round=2,
    ...     hand="R4|B4,B2|B3,Y3|G3,G2|G2", trains=["B2|B2,~", "R3|G3", "G4|Y4"], seen="B3|Y3")))
    seat 1 of 3, round 2 of 6: you play 2nd (seat 0 starts, passing left), no caboose
    """
    position = play_position(view.players, view.player, view.start_player, view.pass_left)
    caboose = "no caboose" if view.caboose is None else f"caboose {view.caboose}"
    way = "left" if view.pass_left else "right"
    return (
        f"seat {view.player} of {view.players}, round {view.turn // view.players + 1} of "
        f"{view.rounds}: you play {_ordinal(position + 1)} (seat {view.start_player} starts, "
        f"passing {way}), {caboose}"
    )


def _seat(value: object, name: str, what: str, players: int) -> int:
    """``value``, the argument ``name``, as a seat of the game (``what`` in the message)."""
    value = whole_number(value, name)
    if not 0 <= value < players:
        raise RulesError(
            f"{what} {value!r} does not exist in a {players}-player game "
            f"(seats are numbered 0..{players - 1}, clockwise)"
        )
    return value


class _Deck:
    """The deck of the game and how to say that a card is not in it."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.cards = deck_for(players)
        self.copies = Counter(self.cards)
        # An observation lists cards in the order the deck first lists them (as a Game does).
        self.rank = {card: n for n, card in enumerate(dict.fromkeys(self.cards))}

    def card(self, token: str, where: str) -> Card:
        try:
            card = Card.parse(token)
        except ParseError as error:
            raise ParseError(f"{where}: {error}") from None
        if card not in self.copies:
            why = ""
            left_out = Color(TWO_PLAYER_LEFT_OUT)
            if self.players == 2 and left_out in (card.left.color, card.right.color):
                why = " (with 2 players the 8 cards showing purple are out)"
            raise PoolError(f"{where}: {token!r} is not in the {self.players}-player deck{why}")
        return card

    def sorted(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=self.rank.__getitem__))


def _train(
    text: str, seat: int, own: bool, deck: _Deck, stand_in: Card
) -> tuple[tuple[Play | None, ...], list[Play]]:
    """One seat's train as an observation shows it (``None`` for a hidden card), and the plays
    whose connection is checked (a hidden card stands as some face-down card: wild either way)."""
    where = f"your train (seat {seat}) {text!r}" if own else f"the train of seat {seat} {text!r}"
    shown: list[Play | None] = []
    checked: list[Play] = []
    for token in _tokens(text):
        if token == "~":
            if own:
                raise RulesError(
                    f"{where}: '~' hides a card from you, but it is your own train: write the "
                    "face-down card you played in full, like '~B2|B2'"
                )
            shown.append(None)
            checked.append(Play(stand_in, face_up=False))
            continue
        face_up = not token.startswith("~")
        card = deck.card(token if face_up else token[1:], where)
        if not face_up and not own:
            raise RulesError(
                f"{where}: {token!r} shows another player's face-down card, which nobody but "
                "them sees: write it '~' (a card you passed on and know they hid goes in seen)"
            )
        play = Play(card, face_up=face_up)
        shown.append(play)
        checked.append(play)
    problems = check_plays(checked)
    if problems:
        raise RulesError(f"{where}: {problems[0]}")
    return tuple(shown), checked


def table_observation(
    *,
    players: int,
    seat: int,
    round: int,
    hand: str,
    trains: Sequence[str],
    seen: str = "",
    start_player: int = 0,
    pass_left: bool = True,
    caboose: str | None = None,
    rounds: int | None = None,
) -> Observation:
    """The :class:`express.Observation` of the player at ``seat`` whose turn it is in ``round``
    (from 1), from what they can see written as text (see the module docstring for the
    notation and the checks).

    ``hand``: the N + 1 cards held; ``trains``: one per seat in seat order; ``seen``: the cards
    held on earlier turns and passed on; ``start_player``: the seat dealt the first hand;
    ``pass_left``: the hand goes clockwise (the rules; game 2 of the strategic variant passes
    right); ``caboose``: the caboose in play, by name; ``rounds``: the game's rounds when not
    9 − N. Raises :class:`express.ExpressError` (one line quoting the input) for a view no game
    can show, and ``TypeError`` (one line naming the argument) for a value of the wrong type.

    >>> view = table_observation(players=2, seat=0, round=1, hand="B2|B2,R4|B4,G3|B3", trains=["", ""])
    >>> view.turn, view.hand == view.seen, view.turns_left
    (0, True, 7)
    """
    players = check_players(players)
    seat = _seat(seat, "seat", "seat", players)
    start_player = _seat(start_player, "start_player", "start player", players)
    if not isinstance(pass_left, bool):
        raise type_error("pass_left", "a bool (True: the hand goes clockwise)", pass_left)
    if caboose is not None and not isinstance(caboose, str):
        raise type_error("caboose", "a caboose's name (str), like 'Two-Timer', or None", caboose)
    for what, value in (("hand", hand), ("seen", seen)):
        if not isinstance(value, str):
            raise type_error(what, "text (cards like 'R4|B4,B2|B3')", value)
    # Any ordered collection of texts (a list, a tuple, NumPy's strings), never text itself,
    # nor a mapping or a set, which would give the seats no order.
    if isinstance(trains, (str, bytes, Mapping, AbstractSet)) or not isinstance(trains, Iterable):
        raise type_error(
            "trains", "a list of texts, one train per seat, like ['B2|B2,~', '']", trains
        )
    trains = list(trains)
    for number, text in enumerate(trains):
        if not isinstance(text, str):
            raise type_error(
                f"trains[{number}]", "text (a train like 'B2|B2,~', '' for just the engine)", text
            )
    total_rounds = rounds_for(players) if rounds is None else whole_number(rounds, "rounds")
    if total_rounds < 1:
        raise RulesError(f"rounds {total_rounds!r}: a game has at least 1 round")
    deck = _Deck(players)
    needed = hand_size_for(players) + players * total_rounds
    if needed > len(deck.cards):
        raise RulesError(
            f"rounds {total_rounds!r}: {players} players over {total_rounds} rounds use "
            f"{needed} cards, the {players}-player deck holds {len(deck.cards)}"
        )
    round = whole_number(round, "round")
    if not 1 <= round <= total_rounds:
        raise RulesError(
            f"round {round!r} does not exist in a {players}-player game of {total_rounds} rounds "
            f"(rounds are numbered 1..{total_rounds})"
        )
    caboose_name = None if caboose is None else caboose_named(caboose).name

    held = [deck.card(token, f"hand {hand!r}") for token in _tokens(hand)]
    size = hand_size_for(players) + 1
    if len(held) != size:
        raise RulesError(
            f"hand {hand!r} holds {plural(len(held), 'card')}: at your turn a "
            f"{players}-player hand holds {size} (the {size - 1} passed or dealt to you and the "
            "card you drew)"
        )

    if len(trains) != players:
        raise RulesError(
            f"{plural(len(trains), 'train')} "
            f"({', '.join(repr(text) for text in trains) or 'none'}) for {players} players: give "
            "one train per seat in seat order, '' for an engine-only train"
        )
    position = play_position(players, seat, start_player, pass_left)
    shown: list[tuple[Play | None, ...]] = []
    own: list[Play] = []
    for number, text in enumerate(trains):
        plays, checked = _train(text, number, number == seat, deck, deck.cards[0])
        before = play_position(players, number, start_player, pass_left) < position
        length = round if before else round - 1
        if len(plays) != length:
            if number == seat:
                why = (
                    f"in round {round} you have played {plural(round - 1, 'card')} before this turn"
                )
            else:
                when = "before" if before else "after"
                why = (
                    f"in round {round} seat {number} plays {when} you "
                    f"(you play {_ordinal(position + 1)}, seat {start_player} starts), so it has "
                    f"{plural(length, 'card')}"
                )
            whose = (
                f"your train (seat {number})" if number == seat else f"the train of seat {number}"
            )
            raise RulesError(f"{whose} {text!r} has {plural(len(plays), 'card')}: {why}")
        if number == seat:
            own = checked
        shown.append(plays)
    train = Train(tuple(own))

    passed = [deck.card(token, f"seen {seen!r}") for token in _tokens(seen)]
    if passed and round == 1:
        raise RulesError(
            f"seen {seen!r}: in round 1 you have passed no cards on yet (the hand you hold "
            "counts as seen by itself)"
        )
    # A card passed on was played into another train after this player's first turn: not as
    # the first card of a seat that plays before them in a round.
    early = {
        number
        for number in range(players)
        if play_position(players, number, start_player, pass_left) < position
    }
    _check_counts(deck, held, train, shown, seat, passed, seen, early)

    turn = (round - 1) * players + position
    return Observation(
        player=seat,
        players=players,
        start_player=start_player,
        pass_left=pass_left,
        rounds=total_rounds,
        turn=turn,
        caboose=caboose_name,
        deck=deck.cards,
        drawn=hand_size_for(players) + turn + 1,
        hand=deck.sorted(held),
        trains=tuple(shown),
        train=train,
        seen=deck.sorted([*held, *train.cards, *passed]),
    )


def _check_counts(
    deck: _Deck,
    held: list[Card],
    train: Train,
    trains: list[tuple[Play | None, ...]],
    seat: int,
    passed: list[Card],
    seen: str,
    early: set[int],
) -> None:
    """No card used more often than the deck holds; the cards passed on fit the cards the other
    trains took since this player's first turn (all but the first card of the ``early`` seats)."""
    others = [plays for number, plays in enumerate(trains) if number != seat]
    others_up = Counter(play.card for plays in others for play in plays if play is not None)
    # The cards the others played since this player's first turn: where a card passed on lies.
    later = [
        plays[1:] if number in early else plays
        for number, plays in enumerate(trains)
        if number != seat
    ]
    later_up = Counter(play.card for plays in later for play in plays if play is not None)
    early_up = others_up - later_up
    mine = Counter(held) + Counter(train.cards)
    passed_on = Counter(passed)
    for card in dict.fromkeys([*held, *train.cards, *others_up, *passed]):
        # A card passed on may be one played face up since, never one played before.
        used = mine[card] + early_up[card] + max(later_up[card], passed_on[card])
        if used > deck.copies[card]:
            places = [
                f"{count} {where}"
                for where, count in (
                    ("in the hand", Counter(held)[card]),
                    ("in your train", Counter(train.cards)[card]),
                    ("in seen", passed_on[card]),
                    ("face up in other trains", others_up[card]),
                )
                if count
            ]
            if later_up[card] and passed_on[card]:
                places.append("a card passed on may be one of those played since your first turn")
            if early_up[card] and passed_on[card]:
                places.append(
                    "a card played before your first turn never passed through your hands"
                )
            raise PoolError(
                f"{str(card)!r} needs {plural(used, 'copy')} ({', '.join(places)}): the "
                f"{deck.players}-player deck holds {deck.copies[card]}"
            )
    hidden = sum(1 for plays in later for play in plays if play is None)
    unplaced = sum((passed_on - later_up).values())
    if unplaced > hidden:
        raise RulesError(
            f"seen {seen!r}: {unplaced} of these cards {'lies' if unplaced == 1 else 'lie'} face "
            "up in no train among the cards "
            "played since your first turn, so they went face down, but those hold "
            f"{plural(hidden, 'face-down card')} (seen is the cards you held and passed on, not "
            "every card in sight)"
        )
