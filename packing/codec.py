"""Pack & Stack in integers and tensors: the game's codec (:class:`arena.codec.Codec`, no extra).

The one translation every adapter reads — OpenSpiel (:mod:`packing.openspiel`, registered as
``python_pack_and_stack``) and PettingZoo/Gymnasium (:mod:`packing.pettingzoo`). Every rule
stays in :class:`packing.Game`.

**Parameters.** ``players`` (4); ``start_points`` (75); ``deck``, the deck as deck-file text
(the format ``packing deck`` prints and ``--deck`` reads; ``""``, the default, is the sample
deck), its line breaks written as ``|`` to keep it on one line — :func:`deck_parameter` writes
it (OpenSpiel's serialized games are line-based, and there a line starting with ``#`` is a
comment); ``max_rounds`` (:data:`packing.rules.DEFAULT_MAX_ROUNDS`, 40), the round cap: the game
ends after that round at the latest, on the standings then. The printed game has no fixed end
and the adapters need a bounded one; the cap is far above every measured game length
(``python -m benchmarks game-lengths``), see the rules page. A game the cap ended is
:meth:`~PackAndStackCodec.truncated`.

**Ids** — a fixed bijection, with ``D`` the number of trucks in the deck and ``n`` players. The
node decides which list an id indexes (it never changes within a node):

- a player's grab: the revealed truck at deck position ``j`` → ``j`` (the truck says whose it
  is: every truck lies in front of at most one player); the top of the pile → ``D``;
- a roll (chance): in OpenSpiel, two chance nodes (:data:`~packing.codec.DICE_STAGES`), the
  dice of lengths 1 and 2 and then those of 3, 4 and 5, each id the rank of the faces the
  node's dice show among their combinations in lexicographic order (``itertools.product`` over
  each die's distinct faces, ascending: 0..24, then 0..35); the ``arena`` game takes the cargo
  after the second. :meth:`~PackAndStackCodec.encode` and :meth:`~PackAndStackCodec.decode`
  number the roll node's own outcomes, the cargo's index in
  :func:`packing.game.roll_outcomes` (0..899);
- a draw from the pile, or the top of the pile after a pile grab (chance, :class:`~packing.game.Draw`): the
  drawn truck's position among the pile's trucks in deck order (0..pile size − 1);
- the grab order (chance, :class:`~packing.game.GrabOrder`): its rank among the orders of ``0..n-1`` in
  lexicographic order (``itertools.permutations``'s order), 0..n! − 1.

**Observations.** The observation string and tensor carry exactly what
:meth:`packing.Game.observation` carries — see :meth:`PackAndStackCodec.fill_tensor`'s layout
and :meth:`PackAndStackCodec.tensor_bounds`; the deck itself is a game parameter, not repeated.
In OpenSpiel, between a roll's two nodes, they also carry the dice known so far (a last line
of the string; in the tensor, :meth:`PackAndStackCodec.fill_staged_tensor`).
(Like the observation, they do not mark the end of a game the round cap ended — it reads like
the start of a round; ``is_terminal`` tells.) Perfect information: nothing is hidden but
chance (the pile's order is drawn when a truck is revealed).

**Standing.** A player's points (:meth:`PackAndStackCodec.standing`): a per-step reward is
their change, the round's bonus less its penalty when a round is scored.

**Search.** :meth:`PackAndStackCodec.state_from_observation` builds the state a search starts
from — nothing to draw, the game hides nothing but chance — ending with the current round
(:data:`SEARCH_ROUNDS`); the reasons are in :mod:`packing.openspiel`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache
from typing import Any, Final

import numpy as np

from arena.codec import ChanceStages, Codec, Limits, Parameters, elements
from arena.memo import IdentityMemo
from arena.values import whole_number
from packing.deck import SAMPLE_DECK, format_deck, parse_deck
from packing.errors import PackingError
from packing.game import (
    PILE,
    Draw,
    Game,
    Grab,
    GrabOrder,
    Observation,
    game_from_observation,
    roll_outcomes,
)
from packing.model import Cargo, Truck
from packing.queries import penalties_for
from packing.rules import (
    DEFAULT_MAX_ROUNDS,
    DICE,
    LENGTHS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUND_WIN_BONUS,
    START_POINTS,
    draws_per_player,
    penalty,
    penalty_floor,
)
from packing.tensor_layout import tensor_layout

__all__ = [
    "CODEC",
    "SEARCH_ROUNDS",
    "DICE_GROUPS",
    "DICE_STAGES",
    "SHORT_NAME",
    "PackAndStackCodec",
    "TensorWriter",
    "deck_from_parameter",
    "deck_parameter",
]

SHORT_NAME = "python_pack_and_stack"


# --- parameters -------------------------------------------------------------------------------


def deck_from_parameter(text: str) -> tuple[Truck, ...]:
    """The deck of the ``deck`` parameter: deck-file text, its line breaks as they are or
    written as ``|``; ``""`` for the sample deck."""
    if not isinstance(text, str):
        raise PackingError(f"{SHORT_NAME}: the deck parameter is deck-file text, not {text!r}")
    return _parsed_deck(text.replace(_LINE_BREAK, "\n")) if text.strip() else SAMPLE_DECK


@cache
def _parsed_deck(text: str) -> tuple[Truck, ...]:
    # One tuple per text: the game's per-deck caches are keyed by the deck's identity.
    return parse_deck(text, source="the deck parameter")


# OpenSpiel's serialized games and states (``serialize_game_and_state``, ``random_sim_test``'s
# serialization) are line-based, and a line starting with ``#`` — a mask row — is a comment
# there: a deck parameter keeps to one line with its line breaks written as ``|``, and to
# characters a game string ``name(key=value,...)`` can carry.
_LINE_BREAK = "|"
_NOT_IN_GAME_STRINGS = frozenset("|,=()")


def deck_parameter(deck: tuple[Truck, ...]) -> str:
    """The ``deck`` parameter of ``deck``: ``""`` for the sample deck, else its deck-file text
    on one line (line breaks written as ``|``), which survives OpenSpiel's serialization.

    >>> from packing import parse_deck
    >>> deck_parameter(parse_deck("A height 2\\n##.\\n.##\\n\\nB height 1\\n#\\n"))
    'A height 2|##.|.##||B height 1|#'
    """
    if deck == SAMPLE_DECK:
        return ""
    for truck in deck:
        if _NOT_IN_GAME_STRINGS & set(truck.name):
            raise PackingError(
                f"{SHORT_NAME}: truck name {truck.name!r} cannot be a game parameter "
                f"(no {' '.join(sorted(_NOT_IN_GAME_STRINGS))} in names)"
            )
    return format_deck(deck).strip().replace("\n", _LINE_BREAK)


def _whole(params: Parameters, name: str, low: int) -> int:
    # The one rule's TypeError for a value of the wrong kind, the game's error out of range.
    return whole_number(params[name], name, low=low, error=PackingError, where=SHORT_NAME)


def _players(params: Parameters) -> int:
    return _whole(params, "players", MIN_PLAYERS)  # too many: the game gives its range


# --- ids --------------------------------------------------------------------------------------


@cache
def _roll_index_by_id() -> dict[int, int]:
    # ``chance_outcomes()`` hands over the same 900 cargo objects at every roll (one cached
    # tuple, alive as long as the process): their ids find the index without hashing a cargo.
    # A fixed table of those 900 objects, not an IdentityMemo: nothing is added or evicted.
    return {id(cargo): i for i, (cargo, _) in enumerate(roll_outcomes())}


@cache
def _cargo_rows() -> dict[int, Any]:
    # Each roll's cargo's part of the tensor (rolled: 1, then its rods of each length), by the
    # cargo object's id like _roll_index_by_id: copied in one slice instead of six items.
    rows = {}
    for cargo, _ in roll_outcomes():
        rows[id(cargo)] = elements(np.array((1, *cargo.counts), np.float32))
    return rows


@cache
def _roll_index() -> dict[Cargo, int]:
    return {cargo: i for i, (cargo, _) in enumerate(roll_outcomes())}


DICE_GROUPS: Final = ((1, 2), (3, 4, 5))
"""The dice a roll is dealt in, by length: a chance node a group
(:data:`~packing.codec.DICE_STAGES`)."""


def _faces(length: int) -> tuple[int, ...]:
    """The distinct faces of die ``length``, ascending."""
    return tuple(sorted(set(DICE[length])))


@cache
def _group_faces() -> tuple[tuple[tuple[int, ...], ...], ...]:
    # Each group's face combinations in lexicographic order: a stage's id is the rank.
    return tuple(tuple(itertools.product(*map(_faces, group))) for group in DICE_GROUPS)


@cache
def _cargo_of_faces() -> dict[tuple[int, ...], Cargo]:
    # The faces of the five dice are the cargo's counts (die k shows how many rods of length k);
    # composed to the very objects of roll_outcomes, which the game and the codec find by id.
    return {cargo.counts: cargo for cargo, _ in roll_outcomes()}


def _known_faces(ids: tuple[int, ...]) -> tuple[int, ...]:
    """The faces of the dice the stage ids ``ids`` show, in order of length."""
    combos = _group_faces()
    return tuple(face for stage, i in enumerate(ids) for face in combos[stage][i])


def _compose_roll(ids: tuple[int, ...]) -> Cargo:
    return _cargo_of_faces()[_known_faces(ids)]


def _describe_dice(stage: int, i: int) -> str:
    faces = _group_faces()[stage][i]
    return ", ".join(
        f"die {length} shows {face}" for length, face in zip(DICE_GROUPS[stage], faces, strict=True)
    )


def _stage_outcomes(group: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    outcomes = []
    for i, faces in enumerate(itertools.product(*map(_faces, group))):
        p = Fraction(1)
        for length, face in zip(group, faces, strict=True):
            p *= Fraction(DICE[length].count(face), len(DICE[length]))
        outcomes.append((i, p))
    return tuple(outcomes)


DICE_STAGES: Final = ChanceStages(
    tuple(_stage_outcomes(group) for group in DICE_GROUPS),
    compose=_compose_roll,
    describe=_describe_dice,
)
"""A roll as OpenSpiel deals it: two chance nodes, the dice of lengths 1 and 2, then those of
3, 4 and 5 (:data:`~packing.codec.DICE_GROUPS`). A node's outcome is the faces its dice show
(how many rods of each length), its id their rank among the group's combinations of distinct
faces in lexicographic order (``itertools.product``'s), its probability the product of each
face's (the white die's two 1s: 1/3): 25 and 36 outcomes. The same chance as the one node of 900
cargos, whose probabilities are the products of the dice's; a game of two smaller nodes is
cheaper to list and sample than one of 900, and than five of one die each (fewer nodes, each
with a cost of its own to every caller)."""


@cache
def _order_rank(players: int) -> dict[tuple[int, ...], int]:
    return {order: i for i, order in enumerate(itertools.permutations(range(players)))}


_grab_ids = IdentityMemo[tuple[tuple[Grab, ...], ...], dict[int, int]](limit=64)


def _grab_ids_of(grabs: tuple[tuple[Grab, ...], ...], deck: tuple[Truck, ...]) -> dict[int, int]:
    # Each grab object's id as ``encode`` gives it; the memo holds the grabs, so they live and
    # their ids stay theirs.
    index = penalties_for(deck).index
    ids = {
        id(grab): index[truck]
        for of_owner in grabs
        for grab in of_owner
        if (truck := grab.truck) is not None  # always: these grabs all name a truck
    }
    ids[id(PILE)] = len(deck)
    return ids


def _deck_of(state: Game) -> tuple[Truck, ...]:
    return state.setup.deck


# --- the tensor -------------------------------------------------------------------------------


# --- the codec --------------------------------------------------------------------------------


class PackAndStackCodec(Codec):
    """Pack & Stack ↔ integers and tensors: parameters, limits, ids and observations (module
    docstring)."""

    short_name = SHORT_NAME
    long_name = "Pack & Stack"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    # A roll's ids are the cargos' places in the one tuple of 900 (in OpenSpiel its stages'),
    # a draw's its position, a grab order's its rank among the orders of the tuple's players:
    # the tuple alone decides them.
    stable_chance_ids = True
    # Listing and sampling the 900 cargos at every roll was most of a random playout's cost
    # through OpenSpiel; two nodes of dice, 25 and 36 outcomes, are the same chance.
    staged_chance = True
    parameters = {
        "players": 4,
        "start_points": START_POINTS,
        "deck": "",
        "max_rounds": DEFAULT_MAX_ROUNDS,
    }

    def new_state(self, params: Parameters) -> Game:
        return Game(
            _players(params),
            deck=deck_from_parameter(params["deck"]),
            start_points=_whole(params, "start_points", 1),
            max_rounds=_whole(params, "max_rounds", 1),
        )

    def limits(self, params: Parameters) -> Limits:
        players, rounds = _players(params), _whole(params, "max_rounds", 1)
        start = _whole(params, "start_points", 1)
        deck = deck_from_parameter(params["deck"])
        draws_each = draws_per_player(players)
        worst, best = _penalty_range(deck)
        # A player enters every round with at least 1 point (else the game would have ended),
        # and loses at most ``worst`` in it: 1 − worst is the lowest final score (a player who
        # never loses ends on ``start``). A round gains at most the bonus less the smallest
        # penalty, for at most ``rounds`` rounds: the highest final score.
        min_utility = start if worst <= 0 else min(start, 1 - worst)
        max_utility = start + rounds * max(0, ROUND_WIN_BONUS - best)
        return Limits(
            # Grab ids: the D trucks, and the pile.
            num_distinct_actions=len(deck) + 1,
            # Chance ids: a group of dice (a roll is two nodes in OpenSpiel, DICE_STAGES), a
            # draw from a pile of up to D trucks, the n! orders.
            max_chance_outcomes=max(
                *map(len, DICE_STAGES.outcomes), len(deck), math.factorial(players)
            ),
            min_utility=float(min_utility),
            max_utility=float(max_utility),
            # Each player grabs once a round (the last grabber too, with the pile as its only
            # choice): n decisions a round, for at most ``rounds`` rounds.
            max_game_length=players * rounds,
            # A round's chance nodes: n rolls (two nodes each), n × draws each, the grab order,
            # and the top of the pile for each pile grab (at most n: everyone may grab the pile).
            max_chance_nodes=rounds
            * (players * len(DICE_STAGES.outcomes) + players * draws_each + 1 + players),
        )

    def encode(self, state: Any, action: Any) -> int:
        if isinstance(action, Cargo):
            index = _roll_index_by_id().get(id(action))
            if index is None:
                index = _roll_index().get(action)
                if index is None:
                    raise ValueError(f"not a roll of the dice: {action!r}")
            return index
        if isinstance(action, Grab):
            deck = _deck_of(state)
            if action.truck is None:
                return len(deck)
            position = penalties_for(deck).index.get(action.truck)
            if position is None:
                raise ValueError(f"not a truck of the deck: {action!r}")
            return position
        if isinstance(action, Draw):
            return action.position
        if isinstance(action, GrabOrder):
            rank = _order_rank(state.num_players).get(action.order)
            if rank is None:
                raise ValueError(f"not a grab order of {state.num_players} players: {action!r}")
            return rank
        raise ValueError(f"not a Pack & Stack action: {action!r}")

    def decode(self, state: Any, number: int) -> Any:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if isinstance(outcomes[0][0], Cargo):
                outcomes = roll_outcomes()  # the ids' own list (the game hands over this tuple)
            # Draws are listed by position and orders lexicographically, so an id is an index;
            # the check below keeps that an invariant, not an assumption.
            if 0 <= number < len(outcomes):
                outcome = outcomes[number][0]
                if self.encode(state, outcome) != number:
                    raise AssertionError(
                        f"chance outcome {outcome!r} is not listed at its id {number}"
                    )
                return outcome
            raise ValueError(f"no chance outcome has id {number!r} here ({len(outcomes)} outcomes)")
        legal = state.legal_actions()
        if legal and isinstance(legal[0], Grab):  # a grab: its id found in the deck's index once
            deck = _deck_of(state)
            index = penalties_for(deck).index
            for action in legal:
                if (len(deck) if action.truck is None else index[action.truck]) == number:
                    return action
        else:
            for action in legal:
                if self.encode(state, action) == number:
                    return action
        raise ValueError(f"no legal action has id {number!r} here")

    def chance_stages(self, state: Any) -> ChanceStages | None:
        """A roll's stages, :data:`~packing.codec.DICE_STAGES` (two groups of dice); every
        other chance node is one."""
        return DICE_STAGES if state.chance_outcomes() is roll_outcomes() else None

    def fill_staged_tensor(
        self,
        observation: Observation,
        stages: ChanceStages,
        known: tuple[int, ...],
        tensor: np.ndarray,
    ) -> None:
        """The dice known so far of the roller's roll: its cargo's "rolled" element is the
        fraction of the five dice known (0 before the first, 1 once rolled), and the rods of the
        known dice's lengths are set."""
        faces = _known_faces(known)
        o = observation
        rolled = sum(cargo is not None for cargo in o.cargos)
        roller = (o.first_roller + rolled) % len(o.points)
        start = tensor_layout(len(o.points), len(o.deck))["cargos"][0]
        at = start + roller * (1 + len(LENGTHS))
        t = elements(tensor)
        t[at] = len(faces) / len(LENGTHS)
        for k, face in enumerate(faces, at + 1):
            t[k] = float(face)

    def tensor_size(self, params: Parameters) -> int:
        start, size = tensor_layout(_players(params), len(deck_from_parameter(params["deck"])))[
            "trucks"
        ]
        return start + size

    def tensor_bounds(self, params: Parameters) -> tuple[np.ndarray, np.ndarray]:
        """Each element's bounds, from the rules: one-hots and flags 0..1; the round 1..the
        cap; the start points 1..their value; everyone's points between the limits' lowest and highest
        score (no standing leaves them: see :meth:`limits`); the rods of each length 0..the most
        any roll gives; how many have grabbed 0..n."""
        players = _players(params)
        layout = tensor_layout(players, len(deck_from_parameter(params["deck"])))
        size = self.tensor_size(params)
        low, high = np.zeros(size, np.float32), np.ones(size, np.float32)
        limits = self.limits(params)

        def field(name: str, lo: float, hi: float) -> None:
            start, length = layout[name]
            low[start : start + length], high[start : start + length] = lo, hi

        field("round", 1, _whole(params, "max_rounds", 1))
        # The start points are one number; 1 as their low keeps the Box from having an element
        # with equal bounds, which Gymnasium's checker reports as a likely mistake.
        field("start_points", 1, _whole(params, "start_points", 1))
        field("points", limits.min_utility, limits.max_utility)
        most = [max(cargo.counts[k] for cargo, _ in roll_outcomes()) for k in range(len(LENGTHS))]
        start = layout["cargos"][0]
        for p in range(players):
            at = start + p * (1 + len(LENGTHS)) + 1
            high[at : at + len(LENGTHS)] = most
        field("grabbed", 0, players)
        return low, high

    def standing(self, state: Any) -> tuple[int, ...]:
        """Everyone's points now (the running score a per-step reward is the change of)."""
        points: tuple[int, ...] = state.points
        return points

    def truncated(self, state: Any) -> bool:
        """True when the round cap ended the game: everyone still has points (the rules' end is
        a player at 0 or below)."""
        return bool(state.is_terminal() and min(state.points) > 0)

    def fill_tensor(self, observation: Observation, tensor: np.ndarray) -> None:
        """Layout (``n`` players, ``D`` trucks), each field after the one before: the observing
        player one-hot (n); the round (1); the first roller one-hot (n); the start points (1);
        everyone's points (n); per player, rolled yet (0 or 1; in OpenSpiel, within a roll, the
        fraction of the dice known: :meth:`fill_staged_tensor`) and the rods of each length
        1..5 (n × 6); the grab order, known yet and then per position k and player p a 1 at
        k·n + p (1 + n²); how many have grabbed (1); per truck in deck order, one-hot over: in
        front of player p (n), taken by player p (n), in the pile, in the discards
        (D × (2n + 2))."""
        # Set through a memoryview, element by element: NumPy's own item assignment, and its
        # conversion of Python lists and tuples, cost several times more per element, which
        # made filling the tensor cost about as much as the game's own step.
        o = observation
        _fill(o, elements(tensor), tensor_layout(len(o.points), len(o.deck)))

    def legal_mask(self, state: Any, size: int) -> np.ndarray:
        """The legal ids as an int8 mask: a player's node is a grab, whose trucks are found in
        the deck's index once (not once per action, as :meth:`encode` would)."""
        mask = np.zeros(size, np.int8)
        legal = state.legal_actions()
        if not legal or not isinstance(legal[0], Grab):
            return super().legal_mask(state, size)
        deck = _deck_of(state)
        index = penalties_for(deck).index
        m = elements(mask)
        for action in legal:
            m[len(deck) if action.truck is None else index[action.truck]] = 1
        return mask

    def legal_ids(self, state: Any) -> dict[int, Any]:
        """The legal grabs by id, their trucks found in the deck's index once."""
        legal = state.legal_actions()
        if not legal or not isinstance(legal[0], Grab):
            return super().legal_ids(state)
        # The game's grabs are objects made once (and PILE): found by identity, unhashed.
        grabs = state.grab_actions()
        table = _grab_ids.get(grabs)
        if table is None:
            table = _grab_ids.put(grabs, _grab_ids_of(grabs, _deck_of(state)))
        by_id = table.get
        ids = {}
        for action in legal:
            j = by_id(id(action))
            ids[self.encode(state, action) if j is None else j] = action
        return ids

    def tensor_writer(self, params: Parameters) -> TensorWriter:
        """A writer that keeps the last tensor and rewrites only the fields whose values
        changed since the observation before (:class:`~packing.codec.TensorWriter`): between two steps a
        grab changes a few trucks and a count, and two players' observations of one state differ
        only in who observes."""
        return TensorWriter(self, _players(params), len(deck_from_parameter(params["deck"])))

    def observation_string(self, observation: Observation) -> str:
        """Everything ``observation`` carries, as lines of text (the pile as a set)."""
        o = observation
        deck = o.deck
        names = [t.name or f"#{j}" for j, t in enumerate(deck)]

        def trucks(positions: tuple[int, ...]) -> str:
            return " ".join(names[j] for j in positions) or "-"

        lines = [
            f"P{o.player} observes round {o.round} (first roller P{o.first_roller}), "
            f"{o.start_points} start points",
            "points: " + ", ".join(f"P{p} {x}" for p, x in enumerate(o.points)),
            "cargos: "
            + ", ".join(f"P{p} {'-' if c is None else c}" for p, c in enumerate(o.cargos)),
            "in front: " + ", ".join(f"P{p} {trucks(js)}" for p, js in enumerate(o.revealed_at)),
            "taken: "
            + ", ".join(f"P{p} {'-' if j is None else names[j]}" for p, j in enumerate(o.taken_at)),
            (
                "grab order: -"
                if o.grab_order is None
                else "grab order: " + ", ".join(f"P{p}" for p in o.grab_order)
            )
            + f"; {o.grabbed} grabbed",
            f"pile ({len(o.pile_at)}, order unknown): {trucks(o.pile_at)}",
            f"discards ({len(o.discards_at)}): {trucks(o.discards_at)}",
        ]
        return "\n".join(lines)

    def params_from_observation(
        self, observation: Observation
    ) -> dict[str, int | float | bool | str]:
        """The parameters of the game a search from ``observation`` plays: the observed game's
        players, start points and deck, and as its round cap (which no observation carries)
        the search's horizon, the end of the current round (:data:`SEARCH_ROUNDS`)."""
        return {
            "players": len(observation.points),
            "start_points": observation.start_points,
            "deck": deck_parameter(observation.deck),
            "max_rounds": _cap_for(observation),
        }

    def state_from_observation(self, observation: Observation, rng: np.random.Generator) -> Game:
        """The game :func:`packing.game.game_from_observation` builds (nothing to draw: the game
        hides nothing but chance, so ``rng`` is unused), ending with the current round (the
        search's horizon); no history, no round records."""
        return game_from_observation(observation, max_rounds=_cap_for(observation))


def _fill(o: Observation, t: Any, layout: dict[str, tuple[int, int]]) -> None:
    """``fill_tensor``'s work on a zeroed tensor's :func:`elements` ``t``, in ``layout``."""
    n = len(o.points)
    t[layout["player"][0] + o.player] = 1.0
    t[layout["round"][0]] = float(o.round)
    t[layout["first_roller"][0] + o.first_roller] = 1.0
    t[layout["start_points"][0]] = float(o.start_points)
    start = layout["points"][0]
    for p, points in enumerate(o.points):
        t[start + p] = float(points)
    start, size = layout["cargos"][0], 1 + len(LENGTHS)
    rows = _cargo_rows()
    for p, cargo in enumerate(o.cargos):
        if cargo is not None:
            at = start + p * size
            row = rows.get(id(cargo))
            if row is None:  # a cargo not handed over by a roll: its counts one by one
                t[at] = 1.0
                for k, count in enumerate(cargo.counts, at + 1):
                    t[k] = float(count)
            else:
                t[at : at + size] = row
    if o.grab_order is not None:
        start = layout["grab_order"][0]
        t[start] = 1.0
        for k, p in enumerate(o.grab_order):
            t[start + 1 + k * n + p] = 1.0
    t[layout["grabbed"][0]] = float(o.grabbed)
    start = layout["trucks"][0]
    width = 2 * n + 2
    for p, trucks in enumerate(o.revealed_at):
        for j in trucks:
            t[start + j * width + p] = 1.0
    for p, taken in enumerate(o.taken_at):
        if taken is not None:
            t[start + taken * width + n + p] = 1.0
    at = start + 2 * n
    for j in o.pile_at:
        t[at + j * width] = 1.0
    at += 1
    for j in o.discards_at:
        t[at + j * width] = 1.0


class TensorWriter:
    """Observations to tensors (fresh arrays, each equal to ``fill_tensor`` on a zeroed one),
    by patching the tensor of the observation before: within a round each field is compared
    with the last observation's (the observations' fields are tuples and numbers, never
    changed in place) and only a changed one is cleared and written again — between two
    decisions a grab changes a few trucks and a count, and two players' observations of one
    state differ only in who observes. An observation of another round, player count or deck
    is written from scratch (a new round changes nearly every field)."""

    def __init__(self, codec: PackAndStackCodec, players: int, trucks: int) -> None:
        self._codec = codec
        self._layout(players, trucks)
        self._last: Observation | None = None

    def _layout(self, players: int, trucks: int) -> None:
        self._players, self._trucks = players, trucks
        layout = self._layout_of = tensor_layout(players, trucks)
        start, size = layout["trucks"]
        self._tensor = np.zeros(start + size, np.float32)
        self._t = elements(self._tensor)
        self._player = layout["player"][0]
        self._grabbed = layout["grabbed"][0]
        self._width = 2 * players + 2
        self._front = start  # truck j in front of p: start + j·width + p
        self._taken = start + players  # ... taken by p: + j·width + p
        self._pile = start + 2 * players  # ... in the pile: + j·width (the discards: + 1)

    def __call__(self, observation: Observation) -> np.ndarray:
        o, last = observation, self._last
        if (
            last is not None
            and o.deck is last.deck
            and o.round == last.round
            and (o.points is last.points or o.points == last.points)
            and o.cargos == last.cargos
            and (o.grab_order is last.grab_order or o.grab_order == last.grab_order)
            and o.first_roller == last.first_roller
            and o.start_points == last.start_points
        ):
            self._patch(last, o)
        else:
            if len(o.points) != self._players or len(o.deck) != self._trucks:
                self._layout(len(o.points), len(o.deck))
            self._tensor.fill(0.0)
            _fill(o, self._t, self._layout_of)
        self._last = o
        return self._tensor.copy()

    def _patch(self, last: Observation, o: Observation) -> None:
        """The fields a round's grabs change: who observes, how many have grabbed, the trucks in
        front of each player, taken, in the pile and in the discards."""
        t = self._t
        if o.player != last.player:
            t[self._player + last.player] = 0.0
            t[self._player + o.player] = 1.0
        if o.grabbed != last.grabbed:
            t[self._grabbed] = float(o.grabbed)
        width = self._width
        before, now = last.revealed_at, o.revealed_at
        if now is not before and now != before:
            at = self._front
            for p in range(self._players):
                if now[p] != before[p]:
                    for j in before[p]:
                        t[at + j * width + p] = 0.0
                    for j in now[p]:
                        t[at + j * width + p] = 1.0
        taken_before, taken = last.taken_at, o.taken_at
        if taken != taken_before:
            at = self._taken
            for p in range(self._players):
                was, now_at = taken_before[p], taken[p]
                if was != now_at:
                    if was is not None:
                        t[at + was * width + p] = 0.0
                    if now_at is not None:
                        t[at + now_at * width + p] = 1.0
        for at, js, ks in (
            (self._pile, last.pile_at, o.pile_at),
            (self._pile + 1, last.discards_at, o.discards_at),
        ):
            if ks is not js and ks != js:
                for j in js:
                    t[at + j * width] = 0.0
                for j in ks:
                    t[at + j * width] = 1.0


SEARCH_ROUNDS: Final = 1
"""How many rounds a search from an observation looks ahead: the current one (module docstring)."""


def _cap_for(observation: Observation) -> int:
    return observation.round + SEARCH_ROUNDS - 1


@cache
def _penalty_range(deck: tuple[Truck, ...]) -> tuple[int, int]:
    """The largest and smallest penalty of a round: over every cargo the dice can roll and
    every truck of the deck, the optimal loading's penalty (the game loads optimally). Exact
    from the deck's optimal table; without one, bounds from the rules — nothing loaded
    (capacity + 2 × volume) for the largest, ``penalty_floor`` (as much as could ever fit) for
    the smallest — because solving all 900 cargos on every truck takes minutes."""
    table = penalties_for(deck)
    rows = [table.row(cargo) for cargo, _ in roll_outcomes()]
    if all(row is not None for row in rows):
        values = [x for row in rows if row is not None for x in row]
        return max(values), min(values)
    volumes = {cargo.volume for cargo, _ in roll_outcomes()}
    worst = max(penalty(capacity=t.capacity, volume=max(volumes), loaded=0) for t in deck)
    best = min(penalty_floor(capacity=t.capacity, volume=v) for t in deck for v in volumes)
    return worst, best


CODEC = PackAndStackCodec()
"""Pack & Stack's codec (``python_pack_and_stack`` in OpenSpiel)."""
