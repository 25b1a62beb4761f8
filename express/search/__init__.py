"""Exhaustive search for optimal trains: branch and bound over equivalent states.

:func:`best_train` finds, among all trains of exactly ``length`` cards drawn from a multiset of
cards (identical cards interchangeable), in any order, each laid face up (when legal) or face
down, one with the highest **solo score**:

    train value + its longest run (when ``bonus``) + the caboose's points (when the caboose is
    absolute and the train meets it).

A relative caboose ("most", "fewest", "lowest") needs rival trains, which a solo search does not
have, so it adds nothing (**decision**; the result reports 0 caboose points).

How it is exact and fast
------------------------
*State.* What the rest of a train can still earn depends only on: the cards left (a vector of
counts per distinct card), the train's last car (colour and value: it decides which cards may
follow face up and whether a run continues; wild after a face-down card), the length ``cur`` of
the run ending at that car, the longest run so far ``L`` (only through ``max(L, later runs)``,
so every ``L >= cur + 2k`` is the same state, ``k`` cards to go), and for an absolute caboose
its ``memo_key``. Without the run bonus ``cur`` and ``L`` are dropped. The search memoises the
value-to-go of these states, so different orders of the same cards that end alike are searched
once.

*Bound.* The value-to-go of a state is ``V + max(L, R) - L``: ``V`` the value the ``k`` remaining
plays add, ``R`` the longest run of the finished train. It is at most
``max(T, max over colours c of B_c - L)`` (plus the caboose's points unless the caboose is
monotone and already failed), where

* ``T`` is the sum of the ``k`` largest card values left. Admissible: a face-up card adds its
  value, a face-down one 4, and every card is worth at least 4 (two cars of at least 2).
* ``B_c`` is the largest sum, over ``k`` cards left, of value plus 2 for a card with both cars
  of colour ``c``, plus ``s_c`` and ``e_c``. A run of colour ``c`` that ends after the current
  point consists of: a start — the current run if the last car is ``c`` (``cur`` cars) or the
  right car of one new card whose left car is another colour (1 car); cards with both cars
  ``c`` (2 cars each); and an end — the left car of one card whose right car is another colour
  (1 car). So ``s_c = max(cur if the last car is c, 1 if such a start card is left)`` and
  ``e_c = 1 if such an end card is left``, and value plus run together never exceed ``B_c``.
  This is what a remaining card can add to value and run *together*: a bound that adds the best
  values to the best possible run separately is several points looser and needs far more nodes.

*Caboose.* With an absolute caboose the score of a train is its plain score plus the caboose's
points when it meets it, so the optimum is the larger of the best plain score over all trains
and the best plain score over the trains meeting the caboose, plus its points (a best train
that happens to meet the caboose is also found by the second). :func:`best_train` runs the
two as separate searches: the first is the plain search; the second (the *met case*) counts
only trains meeting the caboose and needs to beat the first minus the points, which is its
threshold from the start. Its bound knows what meeting the caboose still asks
(:class:`express.caboose_bounds.MetRules`, which each caboose carries): whether it can still be met at all (else the state is cut),
and, as *ways*, which cards of given car values the rest must contain — a Sequence's window,
End of Line's last card. It is the plain bound with the k cards split into a way's slots
(each weighing at most the best card left that fits, m alike slots the m best) and the others
(the largest weights left), never more than the plain bound itself, maximised over the ways.
On top of that: a caboose with ``face_up_ok`` (Lightweight, Efficient, Inefficient) lays the
cards it rules out face down, so they weigh 4 and lengthen no run; where runs are capped
(Inefficient: none longer than 1) the run adds at most the cap minus ``L``; where a face-up
card after a coloured car must join it by value (Inefficient, whose colour joins would make a
run of 2) the values are also bounded by the best walk over the cards' (left, right) values,
solved exactly on the relaxation that drops colours. And per colour ``c`` a second run bound
weighs +1 on every card with one car ``c`` instead of adding the run's start and end (a run
has at most one of each, and they are among those cards); the smaller of the two is used.
Where a way's slots are consecutive cards (``MetRules.ordered``: the Sequences, End of Line)
and the way must start at the next card (as many slots as cards to play, or a Sequence window
already begun), the way is bounded by the exact best plays of its slots, then the plain bound
over the cards after them: the slots' plays decide how the current run ends and what follows,
which the weights cannot see. Where the caboose asks for exact colour counts (Two-Timer,
Specialized) the values are bounded by the best cards adding exactly those cars, and value
and run together per split of the colour's cards into cards with one or two of its cars. A
card the caboose rules out face up is, in a train meeting it, only ever a face-down filler,
whichever it is: the met case keys its memo on how many such cards are left, not which.
Each bound's admissibility is argued where it is computed.
Counting optimal trains adds the two searches' counts where each reaches the optimum (no
train of the first at the optimum meets the caboose, or the second would beat it).

An absolute caboose the library does not know (a user's own card) is searched as one: the
plain bound plus the caboose's points while it is open (a monotone caboose can fail for good),
the smaller with the restricted weights above for ``face_up_ok``.

*Order.* Children are tried best first by their own bound plus what the play gains, so the first
dive finds a good train, and a node stops as soon as the next child's bound cannot beat (or,
counting, tie) the best found. Where the met-case bound is costly, a child gets it only when
the cheap plain bound (admissible for a met train too) leaves it the best candidate.

Memoised results that were cut off by the bound are stored as upper bounds, not as values, and a
state is searched again when a later visit needs more than its stored bound. ``count_optimal``
counts distinct optimal trains (sequences of plays; identical cards are interchangeable, and a
card face up and the same card face down are different plays); it explores ties, so it is slower.

>>> from express.cards import DECK
>>> result = best_train(DECK, 7)
>>> result.score, result.value, result.longest_run, result.optimal
(56, 51, 5, True)

The package
-----------
:mod:`~express.search.driver` holds :func:`best_train` (the arguments, the plain search and the
met-case search, the answer) and :func:`single_search`; :mod:`~express.search.core` one search
(:class:`~express.search.core.Search`: the memo, the children's order, the path);
:mod:`~express.search.pool` the cards left as small integers and the legal plays;
:mod:`~express.search.plain` the plain bound; :mod:`~express.search.met` the met-case bounds;
:mod:`~express.search.result` the answer, :class:`TrainSolution`. The submodules' classes are
public so that the tests can check each bound against the brute force (their test hook); the
package's API is :func:`best_train` and :class:`TrainSolution`.
"""

from __future__ import annotations

from express.search.driver import best_train, single_search
from express.search.result import TrainSolution

__all__ = ["TrainSolution", "best_train", "single_search"]
