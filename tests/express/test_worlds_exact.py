"""``express.worlds`` draws each consistent world with its exact probability: checked against a
brute-force enumeration written here, without the sampler — every kind order of a small deck,
every face-down card each player could have hidden, replayed through :class:`express.Game` and
kept when the observation matches — by a chi-square goodness-of-fit test with a fixed seed, whose
power is shown on a sampler biased on purpose."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from math import factorial, prod, sqrt

import numpy as np
import pytest

from express import Card, Game, InconsistentObservation, Observation, Play
from express.worlds import count_worlds, resample, sample_world, sample_worlds, seen_history
from tests.express.walks import random_walk

# Small decks with duplicates: every kind order of them can be listed.
TABLES = (
    (2, 2, "B2|B2,B2|B2,R2|R2,Y2|Y2,G2|G2,R3|R3,B3|B3"),
    (2, 3, "B2|B2,B2|B2,R2|R2,R2|R2,G2|G2,R3|R3,B3|B3,B3|B3"),
    (3, 1, "B2|B2,B2|B2,B2|B2,R2|R2,Y2|Y2,G2|G2,R3|R3"),
)


def kind_orders(cards: list[str], length: int) -> Iterator[tuple[str, ...]]:
    """Every distinct sequence of ``length`` cards drawn from ``cards`` (identical cards are one
    kind)."""
    left = Counter(cards)

    def extend(prefix: list[str]) -> Iterator[tuple[str, ...]]:
        if len(prefix) == length:
            yield tuple(prefix)
            return
        for card in sorted(left):
            if left[card]:
                left[card] -= 1
                prefix.append(card)
                yield from extend(prefix)
                prefix.pop()
                left[card] += 1

    yield from extend([])


def arrangements(cards: Counter[str]) -> int:
    """How many distinct orders ``cards`` have."""
    return factorial(sum(cards.values())) // prod(factorial(n) for n in cards.values())


Key = tuple[tuple[str, ...], tuple[str, ...]]
"""A world up to the undrawn rest of the deck: the cards drawn, in order, and every train."""


def key(game: Game, drawn: int) -> Key:
    order = game.order if game.order is not None else tuple(game.drawn)
    return (
        tuple(str(card) for card in order[:drawn]),
        tuple(str(play) for train in game.trains for play in train.plays),
    )


def replay(real: Game, drawn: tuple[str, ...], found: list[Game], game: Game) -> None:
    """Play ``game`` on to ``real``'s point, drawing ``drawn`` and trying every face-down card;
    each game reached joins ``found``."""
    if game.is_chance_node() and len(game.drawn) < len(drawn):
        game.apply_action(Card.parse(drawn[len(game.drawn)]))
        replay(real, drawn, found, game)
    elif game.turn < real.turn and not game.is_chance_node():
        seat = game.current_player()
        play = real.trains[seat].plays[game.turn // real.players]
        choices = (
            [play]
            if play.face_up
            else [Play(card, face_up=False) for card in dict.fromkeys(game.hand_cards())]
        )
        for choice in choices:
            if choice.card in game.hand_cards():
                child = game.clone()
                child.apply_action(choice)
                replay(real, drawn, found, child)
    else:
        found.append(game)


def histories(real: Game) -> list[Game]:
    """Every game that reaches ``real``'s point with its face-up plays, by brute force: every
    sequence of the cards drawn, every face-down card each player could have played."""
    deck = [str(card) for card in real.deck]
    found: list[Game] = []
    for drawn in kind_orders(deck, len(real.drawn)):
        replay(
            real,
            drawn,
            found,
            Game(
                real.players,
                deck=real.deck,
                rounds=real.rounds,
                start_player=real.start_player,
                pass_left=real.pass_left,
            ),
        )
    return found


def enumerate_worlds(real: Game, seat: int) -> dict[Key, int]:
    """Every world consistent with what ``seat`` sees of ``real``: the histories whose
    observation matches, each standing for every order of the undrawn rest (its count)."""
    view = real.observation(seat)
    return {
        key(game, view.drawn): arrangements(
            Counter(map(str, real.deck)) - Counter(map(str, game.drawn))
        )
        for game in histories(real)
        if game.observation(seat) == view
    }


def states(players: int, rounds: int, deck: str, seed: int) -> Iterator[Game]:
    """Every state of one random game of that table, mostly played face down."""
    game = Game(players, deck=deck, rounds=rounds, start_player=seed % players)
    return random_walk(game, seed, face_down=0.7)


def critical_value(df: int) -> float:
    """The chi-square quantile at 1 − 10⁻³ (Wilson–Hilferty: within 2 % for df ≥ 3)."""
    z = 3.090  # the standard normal quantile at 1 − 10⁻³
    return float(df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3)


def chi_square(counts: Counter[Key], worlds: dict[Key, int]) -> tuple[float, int]:
    """The statistic of ``counts`` against the law giving each key its share of the worlds, and
    its degrees of freedom; a draw outside ``worlds`` fails at once."""
    assert set(counts) <= set(worlds), set(counts) - set(worlds)
    draws, total = sum(counts.values()), sum(worlds.values())
    statistic = 0.0
    for world, weight in worlds.items():
        expected = draws * weight / total
        statistic += (counts[world] - expected) ** 2 / expected
    return statistic, len(worlds) - 1


Case = tuple[Observation, dict[Key, int]]

REAL: list[tuple[Game, int]] = []
"""The game and seat of each case."""


def cases() -> list[Case]:
    """Observations with between 4 and 30 distinct histories, from every table, at several
    turns, every seat (holding the hand or not)."""
    found: list[Case] = []
    for players, rounds, deck in TABLES:
        taken = 0
        for seed in range(3):
            for real in states(players, rounds, deck, seed):
                if not 1 <= real.turn <= players * rounds - 1 or taken >= 5:
                    continue
                for seat in range(players):
                    worlds = enumerate_worlds(real, seat)
                    if 4 <= len(worlds) <= 30 and taken < 5:
                        found.append((real.observation(seat), worlds))
                        REAL.append((real, seat))
                        taken += 1
    return found


CASES = cases()


def test_the_cases_cover_what_the_sampler_must_handle() -> None:
    players = {view.players for view, _ in CASES}
    assert players == {2, 3}
    # Others' face-down cards, draws the observer never saw, and turns that are not its own.
    assert any(None in plays for view, _ in CASES for plays in view.trains)
    assert any(len(view.seen) < view.drawn for view, _ in CASES)
    assert any(not view.hand for view, _ in CASES) and any(view.hand for view, _ in CASES)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_count_worlds_is_the_number_of_consistent_worlds(case: int) -> None:
    view, worlds = CASES[case]
    assert count_worlds(view) == sum(worlds.values())


DRAWS = 6_000
"""Worlds drawn per case: enough that the test rejects the biased sampler below in every case."""


@cache
def drawn(case: int) -> list[Key]:
    """``DRAWS`` worlds of case ``case`` by :func:`sample_worlds` (seeded), as keys; each checked
    to be a complete game showing the case's observation."""
    view, _ = CASES[case]
    keys = []
    for world in sample_worlds(view, DRAWS, np.random.default_rng(case)):
        assert world.observation(view.player) == view
        assert world.order is not None and len(world.order) == len(view.deck)
        keys.append(key(world, view.drawn))
    return keys


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(CASES)))
def test_worlds_are_drawn_with_their_probability(case: int) -> None:
    _, worlds = CASES[case]
    statistic, df = chi_square(Counter(drawn(case)), worlds)
    assert statistic < critical_value(df), (statistic, df)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_test_rejects_a_sampler_biased_by_five_per_cent(case: int) -> None:
    # The same draws, but one in twenty replaced by the likeliest world: a sampler within 5 %
    # of the right law in total variation. The statistic must reject it.
    _, worlds = CASES[case]
    likeliest = max(worlds, key=lambda world: (worlds[world], world))
    biased = [likeliest if n % 20 == 0 else world for n, world in enumerate(drawn(case))]
    statistic, df = chi_square(Counter(biased), worlds)
    assert statistic > critical_value(df), (statistic, df)


def test_an_observation_no_game_leads_to_is_reported() -> None:
    view = next(v for v, _ in CASES if v.seen)
    bad = Observation(
        **{
            **{name: getattr(view, name) for name in view.__dataclass_fields__},
            "seen": (*view.seen, *view.deck),  # more cards than the deck holds
        }
    )
    assert count_worlds(bad) == 0
    with pytest.raises(InconsistentObservation, match="no history of the game matches"):
        sample_world(bad, np.random.default_rng(0))


def test_the_undrawn_rest_of_the_deck_is_shuffled_uniformly() -> None:
    # Before any draw, every order of the deck is a world: 7! / 2! of them.
    view = Game(2, deck=TABLES[0][2], rounds=2).observation(0)
    assert count_worlds(view) == 2520
    sampled = sample_worlds(view, 20_000, np.random.default_rng(7))
    firsts = Counter(str(world.order[0]) for world in sampled if world.order is not None)
    deck = Counter(str(card) for card in view.deck)
    expected = {card: 20_000 * copies / 7 for card, copies in deck.items()}
    statistic = sum((firsts[c] - e) ** 2 / e for c, e in expected.items())
    assert statistic < critical_value(len(deck) - 1)


@pytest.mark.parametrize("case", range(0, len(CASES), 3))
def test_resample_draws_uniformly_over_the_worlds_with_the_same_seen_history(case: int) -> None:
    real, seat = REAL[case]
    view, known = real.observation(seat), seen_history(real, seat)
    deck = Counter(map(str, real.deck))
    worlds = {  # each standing for every order of the undrawn rest
        (key(game, view.drawn)[1], tuple(str(card) for card in game.drawn)): arrangements(
            deck - Counter(map(str, game.drawn))
        )
        for game in histories(real)
        if game.observation(seat) == view and seen_history(game, seat) == known
    }
    rng = np.random.default_rng(case)
    counts: Counter[Key] = Counter()
    for _ in range(300 * len(worlds)):
        world = resample(real, seat, rng)
        assert world.order is None and seen_history(world, seat) == known
        counts[key(world, view.drawn)[1], tuple(str(card) for card in world.drawn)] += 1
    if len(worlds) > 1:
        statistic, df = chi_square(counts, worlds)
        assert statistic < critical_value(df), (statistic, df)
    else:
        assert set(counts) == set(worlds)
