"""The positions and hands of a known deal, and its exact searches for three to five players.

A deal whose whole deck order is known is a game without chance. :class:`World` turns it into
small ints — distinct cards, cars and colours are indices, and each train's *position* (what of
it the rest of the game depends on, see :mod:`express.exact`) is interned once with one
representative train — and both the two-player minimax of :mod:`express.exact` and the
searches below run on it. End-of-game terms (the run award and the caboose) always come from
:func:`express.score_game` on representative trains, so the scoring rules live in one place.

Three to five players (:func:`express.play_values` calls these):

*Paranoid.* The player to move at the root maximises its final score minus the best rival's,
the rivals jointly minimise it: a two-sided zero-sum game, searched by fail-soft alpha-beta
with a transposition table (MTD(f) null windows at the root's children). The value is not a sum
of plays alone — which rival is best depends on their totals so far — so a state's key holds,
beside the turn's hand and every position, each other rival's train value relative to one
reference rival (the next player), and the search returns the value minus the root player's
lead over that reference rival; those differences move with the plays.

*Max-n.* Every player maximises its own final score. Each state's value is the vector of what
every player still adds, independent of the scores so far, so it is kept exactly per state
(there is no sound alpha-beta cut-off for max-n with unbounded sums). **Ties** between a
player's plays worth the same to it are broken towards the play that is **worst for the root
player** (the one whose plays are being valued), and among those the first in
``Game.legal_actions()`` order (cards in the deck's order, face up before face down). The
pessimistic rule keeps the root player from counting on gifts a rival has no reason to give
(the paranoid rule's caution where max-n is silent), and the order makes the result
deterministic.

*Merged positions.* A train whose reach (its longest run if every car to come extended it)
stays below another train's longest run can win no run award: its runs decide nothing, so the
key forgets them (not with a relative caboose, which may count runs).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import accumulate
from operator import itemgetter

from express.cabooses import Caboose
from express.cards import ENGINE, WILD, Car, Card, Color
from express.rules import FACE_DOWN_VALUE, hand_size_for
from express.scoring import score_game
from express.train import Play, Train, connects

INFINITY = 10**9
"""Beyond any score difference: the searches' open window."""
_COLORS = list(Color)

# The end terms of final positions, by what they depend on (see World.ends), for every deal.
_END_TERMS: dict[Hashable, tuple[int, ...]] = {}
_END_TERMS_LIMIT = 200_000

# A move out of a state: (gain, card id, face up, the mover's new position, the next hand's id).
Move = tuple[int, int, bool, int, int]


class NodeBudgetSpent(Exception):
    """The searches' node budget ran out: raised deep in a search, turned into
    :class:`express.SearchLimitReached` by the function that started it."""


def _caboose_key(caboose: Caboose | None, row: tuple[Car, ...]) -> Hashable:
    if caboose is None:
        return ()
    if not caboose.is_relative and caboose.memo_key is not None:
        return caboose.memo_key(row)
    # A relative caboose's measure after any continuation: its summary (see Caboose.summary).
    return row if caboose.summary is None else caboose.summary(row)


class World:
    """One known deal as small ints: cards, cars and colours are indices, positions interned.

    ``cards`` are the distinct cards in the order ties are broken in (a card's id is its index);
    ``order`` the deck order, top card first; trains are scored in play order (index 0 is the
    start player), which is all the totals depend on.
    """

    def __init__(
        self,
        cards: Sequence[Card],
        order: Sequence[Card],
        caboose: Caboose | None,
        rounds: int,
        players: int,
    ) -> None:
        self.caboose = caboose
        self.players = players
        self.hand_size = hand_size_for(players)
        self.rounds = rounds
        self.turns = players * rounds
        self.cards = list(cards)
        self.card_id = card_id = {card: i for i, card in enumerate(self.cards)}
        self.order = tuple(card_id[card] for card in order[: self.hand_size + self.turns])
        cars = sorted(
            {ENGINE, WILD} | {car for card in self.cards for car in (card.left, card.right)},
            key=str,
        )
        car_id = {car: i for i, car in enumerate(cars)}
        self.cars = cars
        self.color = [-1 if car.color is None else _COLORS.index(car.color) for car in cars]
        self.engine, self.wild = car_id[ENGINE], car_id[WILD]
        self.value = [card.value for card in self.cards]
        self.left = [car_id[card.left] for card in self.cards]
        self.right = [car_id[card.right] for card in self.cards]
        # The connection rule, asked once per (last car, card) pair.
        self.fits = [[connects(last, card.left) for card in self.cards] for last in cars]
        # A relative caboose may count runs (Diversified): its positions keep the run.
        self.forget_runs = caboose is None or not caboose.is_relative
        # The positions: what of a train the future depends on, interned as ints.
        self._index: dict[Hashable, int] = {}
        self.last: list[int] = []
        self.info: list[tuple[int, int, int, Hashable, int]] = []
        self.rows: list[tuple[Car, ...]] = []
        self.plays: list[tuple[tuple[int, bool], ...]] = []
        self.up: list[list[int]] = []
        self.down: list[int] = []
        self.plays_left: list[int] = []
        self.longest: list[int] = []
        self.reach: list[int] = []
        self.bare: list[int] = []
        self.keyed: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._bare: dict[Hashable, int] = {}
        self.caboose_points = 0 if caboose is None else caboose.points
        self._ends_by_position: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.hands: list[tuple[int, tuple[int, ...]]] = []
        self._hand_ids: dict[tuple[int, tuple[int, ...]], int] = {}
        self._offers: list[list[tuple[int, int, bool, int]] | None] = []
        self.best_gains: list[list[int]] = []
        self.gain = [max(value, FACE_DOWN_VALUE) for value in self.value]
        self._future = [
            [self.gain[card] for card in self.order[self.hand_size + t + 1 :]]
            for t in range(self.turns + 1)
        ]

    # -- positions ----------------------------------------------------------------------------

    def _intern(
        self,
        last: int,
        run: int,
        longest: int,
        row: tuple[Car, ...],
        plays: tuple[tuple[int, bool], ...],
    ) -> int:
        laid = len(plays)
        if self.forget_runs and run + 2 * (self.rounds - laid) <= longest:
            run = 0  # it can never outgrow the longest run: nothing reads it any more
        if laid == self.rounds and self.caboose is None:
            last = self.engine  # a finished train is scored on its longest run alone
        info = (last, run, longest, _caboose_key(self.caboose, row), laid)
        position = self._index.get(info)
        if position is None:
            position = self._index[info] = len(self.info)
            self.info.append(info)
            self.last.append(last)
            self.rows.append(row)
            self.plays.append(plays)
            self.up.append([-1] * len(self.cards))
            self.down.append(-1)
            left = self.rounds - laid
            self.plays_left.append(left)
            self.longest.append(longest)
            # The longest run this train can still end with: its run grown by every car to come.
            self.reach.append(max(longest, run + 2 * left))
            # Once a rival's longest run is out of this train's reach, its runs decide nothing:
            # positions equal but for them are one (a negative id; a relative caboose may
            # count runs, so it keeps them).
            if self.forget_runs:
                bare = (last, info[3], laid)
                self.bare.append(self._bare.setdefault(bare, -1 - len(self._bare)))
            else:
                self.bare.append(position)
        return position

    def start(self, train: Train) -> int:
        """The position of a train on the table (a hidden face-down card: any card)."""
        position = self._intern(self.engine, 0, 0, (), ())
        for play in train.plays:
            position = self.child(position, self.card_id.get(play.card, 0), play.face_up)
        return position

    def child(self, position: int, card: int, face_up: bool) -> int:
        """The position after laying ``card`` (face down: the same for every card)."""
        if face_up:
            known = self.up[position][card]
            if known < 0:
                known = self.up[position][card] = self._grow(position, card, True)
            return known
        known = self.down[position]
        if known < 0:
            known = self.down[position] = self._grow(position, card, False)
        return known

    def _grow(self, position: int, card: int, face_up: bool) -> int:
        last, run, longest, _, _ = self.info[position]
        pair = (self.left[card], self.right[card]) if face_up else (self.wild, self.wild)
        color = self.color
        for car in pair:
            if color[car] < 0:
                run = 0
            elif color[car] == color[last]:
                run += 1
            else:
                run = 1
            if run > longest:
                longest = run
            last = car
        row = self.rows[position]
        if self.caboose is not None:  # without one nothing reads the cars
            row = row + (self.cars[pair[0]], self.cars[pair[1]])
        return self._intern(last, run, longest, row, self.plays[position] + ((card, face_up),))

    def end_key(self, position: int) -> Hashable:
        """What of a final position the end-of-game terms read: the run award only the longest
        run; a caboose its summary, the last car and the run. Final positions with the same
        key score the same end terms against any other trains."""
        last, run, longest, summary, _ = self.info[position]
        if self.caboose is None:
            return longest
        return (self.cars[last], run, longest, summary)

    def ends(self, positions: tuple[int, ...]) -> tuple[int, ...]:
        """Each player's end-of-game terms (run award and caboose) from final positions."""
        terms = self._ends_by_position.get(positions)
        if terms is None:
            # Those facts are the same in every deal: the terms are kept for all of them.
            name = None if self.caboose is None else self.caboose.name
            key: Hashable = (name, *(self.end_key(p) for p in positions))
            terms = _END_TERMS.get(key)
            if terms is None:
                trains = [
                    Train(tuple(Play(self.cards[card], up) for card, up in self.plays[p]))
                    for p in positions
                ]
                game = score_game(trains, start_player=0, caboose=self.caboose)
                if len(_END_TERMS) >= _END_TERMS_LIMIT:
                    _END_TERMS.clear()
                terms = _END_TERMS[key] = tuple(score.total - score.value for score in game.players)
            self._ends_by_position[positions] = terms
        return terms

    # -- hands ------------------------------------------------------------------------------

    def hand(self, t: int, held: tuple[int, ...]) -> int:
        """The id of the hand ``held`` (sorted card ids, the turn's draw included) at turn ``t``."""
        key = (t, held)
        found = self._hand_ids.get(key)
        if found is None:
            found = self._hand_ids[key] = len(self.hands)
            self.hands.append(key)
            self._offers.append(None)
            # What k plays can add at most from here: the k best cards of this hand and the
            # draws to come (each play adds its card's value, or 4 face down: never more).
            pool = [self.gain[card] for card in held] + self._future[t]
            pool.sort(reverse=True)
            self.best_gains.append([0, *accumulate(pool)])
        return found

    def start_hand(self, t: int, hand: Sequence[Card]) -> int:
        """The id of the hand of turn ``t`` given as cards."""
        return self.hand(t, tuple(sorted(self.card_id[card] for card in hand)))

    def passes(self, hand: int) -> list[tuple[int, int]]:
        """Each distinct card of a hand with the next player's hand once it has drawn (read once
        per hand, by :meth:`offers`, which keeps the result)."""
        t, held = self.hands[hand]
        found = []
        draw = self.order[self.hand_size + t + 1] if t + 1 < self.turns else -1
        for i, card in enumerate(held):
            if i and held[i - 1] == card:
                continue  # identical cards are one choice
            rest = held[:i] + held[i + 1 :]
            if draw >= 0:
                rest = tuple(sorted((*rest, draw)))
            found.append((card, self.hand(t + 1, rest)))
        return found

    def offers(self, hand: int) -> list[tuple[int, int, bool, int]]:
        """Every play of a hand as if every card could go face up: (gain, card, face up, the
        next player's hand), largest gain first (stable: cards in order, face up first)."""
        found = self._offers[hand]
        if found is None:
            value = self.value
            found = []
            for card, rest in self.passes(hand):
                found.append((value[card], card, True, rest))
                found.append((FACE_DOWN_VALUE, card, False, rest))
            found.sort(key=itemgetter(0), reverse=True)
            self._offers[hand] = found
        return found

    def moves(self, hand: int, position: int) -> list[Move]:
        """The distinct plays from a hand: (gain, card, face up, the mover's new position, the
        next player's hand), largest gain first: the hand's :meth:`offers` that fit the train
        (sorted once per hand, not once per position)."""
        out: list[Move] = []
        fits = self.fits[self.last[position]]
        ups = self.up[position]
        down = self.child(position, 0, False)
        for gain, card, face_up, rest in self.offers(hand):
            if face_up:
                if fits[card]:
                    moved = ups[card]
                    if moved < 0:
                        moved = self.child(position, card, True)
                    out.append((gain, card, True, moved, rest))
            else:
                out.append((gain, card, False, down, rest))
        return out


def _key_positions(world: World, positions: tuple[int, ...]) -> tuple[int, ...]:
    """``positions`` with every train whose runs decide nothing any more merged (see above)."""
    found = world.keyed.get(positions)
    if found is None:
        found = world.keyed[positions] = _merged(world, positions)
    return found


def _merged(world: World, positions: tuple[int, ...]) -> tuple[int, ...]:
    longest, reach, bare = world.longest, world.reach, world.bare
    runs = [longest[p] for p in positions]
    top = max(runs)
    second = sorted(runs)[-2]
    return tuple(
        bare[p] if reach[p] < (second if runs[j] == top else top) else p
        for j, p in enumerate(positions)
    )


class Paranoid:
    """The root player against a coalition of rivals (see the module docstring).

    ``search(t, hand, positions, rel, alpha, beta)`` is the root player's value-to-go: its final
    score minus the best rival's, less its current lead over the reference rival; ``rel[j]``
    is rival ``j``'s train value minus the reference rival's (0 for the root and the
    reference).
    """

    def __init__(self, world: World, root: int, node_limit: int | None = None) -> None:
        self.world = world
        self.root = root
        self.reference = (root + 1) % world.players
        self._build(node_limit)

    def _build(self, node_limit: int | None) -> None:
        world, root, reference = self.world, self.root, self.reference
        players, turns = world.players, world.turns
        table: dict[Hashable, tuple[int, int]] = {}
        move_lists: dict[tuple[int, int], list[Move]] = {}
        counter = [0]
        limit = INFINITY if node_limit is None else node_limit
        new_moves, world_ends = world.moves, world.ends
        infinity = INFINITY
        rivals = [j for j in range(players) if j != root]
        keyed = world.keyed
        best_gains, left, reach = world.best_gains, world.plays_left, world.reach
        points, down = world.caboose_points, FACE_DOWN_VALUE

        def moves(hand: int, position: int) -> list[Move]:
            found = move_lists.get((hand, position))
            if found is None:
                found = move_lists[hand, position] = new_moves(hand, position)
            return found

        def terminal(positions: tuple[int, ...], rel: tuple[int, ...]) -> int:
            terms = world_ends(positions)
            return terms[root] - max(rel[j] + terms[j] for j in rivals)

        def shifted(rel: tuple[int, ...], mover: int, gain: int) -> tuple[int, ...]:
            # The reference rival gaining lowers every other rival's value relative to it.
            if mover == reference:
                return tuple(
                    0 if j == root or j == reference else x - gain for j, x in enumerate(rel)
                )
            return rel[:mover] + (rel[mover] + gain,) + rel[mover + 1 :]

        # Hot-loop twin of express.exact._TwoPlayer's search, for any number of rivals (see
        # there why the two-player one stays apart); a change to one is a change to both.
        def search(
            t: int,
            hand: int,
            positions: tuple[int, ...],
            rel: tuple[int, ...],
            alpha: int,
            beta: int,
        ) -> int:
            # A cheap bound first (see _TwoPlayer): the root adds at most its best cards, its run
            # and the caboose; each rival at least 4 a play — and the other way round.
            sums = best_gains[hand]
            mine = positions[root]
            least = most = -infinity
            for j in rivals:
                p = positions[j]
                x = rel[j] + down * left[p]
                if x > least:
                    least = x
                x = rel[j] + sums[left[p]] + reach[p]
                if x > most:
                    most = x
            high = sums[left[mine]] + reach[mine] + points - least
            if high <= alpha:
                return high
            low = down * left[mine] - points - most
            if low >= beta:
                return low
            merged = keyed.get(positions)
            if merged is None:
                merged = _key_positions(world, positions)
            key = (hand, merged, rel)
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
            mover = t % players
            last = t + 1 == turns
            listed = moves(hand, positions[mover])
            chosen = index = 0
            if mover == root:
                best = -infinity
                for gain, _, _, moved, rest in listed:
                    after = positions[:mover] + (moved,) + positions[mover + 1 :]
                    if last:
                        value = gain + terminal(after, rel)
                    else:
                        value = gain + search(t + 1, rest, after, rel, a - gain, b - gain)
                    if value > best:
                        best, chosen = value, index
                        if best > a:
                            a = best
                            if a >= b:
                                break
                    index += 1
            else:
                best = infinity
                sign = 1 if mover == reference else 0
                for gain, _, _, moved, rest in listed:
                    after = positions[:mover] + (moved,) + positions[mover + 1 :]
                    moved_rel = shifted(rel, mover, gain)
                    g = sign * gain
                    if last:
                        value = terminal(after, moved_rel) - g
                    else:
                        value = search(t + 1, rest, after, moved_rel, a + g, b + g) - g
                    if value < best:
                        best, chosen = value, index
                        if best < b:
                            b = best
                            if a >= b:
                                break
                    index += 1
            if chosen:  # tried first from this hand and position next time
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
        self.terminal = terminal
        self.shifted = shifted

        def nodes() -> int:
            return counter[0]

        self.nodes = nodes

    def mtd(
        self, t: int, hand: int, positions: tuple[int, ...], rel: tuple[int, ...], guess: int
    ) -> int:
        """The exact value-to-go by MTD(f) null-window searches from ``guess``."""
        low, high = -INFINITY, INFINITY
        value = guess
        while low < high:
            beta = value + 1 if value == low else value
            value = self.search(t, hand, positions, rel, beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
        return value

    def play_values(
        self, t: int, hand: int, positions: tuple[int, ...], values: Sequence[int]
    ) -> dict[Move, int]:
        """The root player's final score minus the best rival's after each of its moves, the
        trains being worth ``values`` now (in play order)."""
        root, reference = self.root, self.reference
        rel = tuple(
            0 if j == root else values[j] - values[reference] for j in range(self.world.players)
        )
        lead = values[root] - values[reference]
        out: dict[Move, int] = {}
        guess = 0
        for move in list(self.moves(hand, positions[root])):
            gain, _, _, moved, rest = move
            after = positions[:root] + (moved,) + positions[root + 1 :]
            if t + 1 == self.world.turns:
                value = self.terminal(after, rel)
            else:
                value = guess = self.mtd(t + 1, rest, after, rel, guess)
            out[move] = lead + gain + value
        return out


class MaxN:
    """Every player maximising its own final score (see the module docstring for ties).

    ``search(t, hand, positions)`` is the vector of what each player (play order) still adds.
    """

    def __init__(self, world: World, root: int, node_limit: int | None = None) -> None:
        self.world = world
        self.root = root
        self._build(node_limit)

    def _build(self, node_limit: int | None) -> None:
        world, root = self.world, self.root
        players, turns = world.players, world.turns
        table: dict[Hashable, tuple[int, ...]] = {}
        move_lists: dict[tuple[int, int], list[Move]] = {}
        counter = [0]
        limit = INFINITY if node_limit is None else node_limit
        new_moves, world_ends = world.moves, world.ends
        keyed = world.keyed

        def moves(hand: int, position: int) -> list[Move]:
            # In Game.legal_actions() order: the order ties are broken in.
            found = move_lists.get((hand, position))
            if found is None:
                found = move_lists[hand, position] = world_moves_in_order(hand, position)
            return found

        def world_moves_in_order(hand: int, position: int) -> list[Move]:
            return sorted(new_moves(hand, position), key=lambda move: (move[1], not move[2]))

        def search(t: int, hand: int, positions: tuple[int, ...]) -> tuple[int, ...]:
            merged = keyed.get(positions)
            if merged is None:
                merged = _key_positions(world, positions)
            key = (hand, merged)
            found = table.get(key)
            if found is not None:
                return found
            counter[0] += 1
            if counter[0] > limit:
                raise NodeBudgetSpent
            mover = t % players
            last = t + 1 == turns
            best: tuple[int, ...] = ()
            best_gain = best_own = best_root = 0
            for gain, _, _, moved, rest in moves(hand, positions[mover]):
                after = positions[:mover] + (moved,) + positions[mover + 1 :]
                if last:
                    child = world_ends(after)
                else:  # the table read here saves a call for the many states met again
                    merged = keyed.get(after)
                    known = None if merged is None else table.get((rest, merged))
                    child = search(t + 1, rest, after) if known is None else known
                own = gain + child[mover]
                mine = child[root] + (gain if mover == root else 0)
                if not best or own > best_own or (own == best_own and mine < best_root):
                    best, best_gain, best_own, best_root = child, gain, own, mine
            found = best[:mover] + (best[mover] + best_gain,) + best[mover + 1 :]
            table[key] = found
            return found

        self.search = search
        self.moves = moves

        def nodes() -> int:
            return counter[0]

        self.nodes = nodes

    def play_values(
        self, t: int, hand: int, positions: tuple[int, ...], values: Sequence[int]
    ) -> dict[Move, int]:
        """The root player's final score after each of its moves, the trains being worth
        ``values`` now (in play order)."""
        root = self.root
        out: dict[Move, int] = {}
        for move in self.moves(hand, positions[root]):
            gain, _, _, moved, rest = move
            after = positions[:root] + (moved,) + positions[root + 1 :]
            child = (
                self.world.ends(after)
                if t + 1 == self.world.turns
                else self.search(t + 1, rest, after)
            )
            out[move] = values[root] + gain + child[root]
        return out
