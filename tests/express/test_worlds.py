"""Hidden worlds (``express.worlds``): every world drawn is consistent with what the player saw,
the rest varies, and a seeded generator draws the same world again. No OpenSpiel needed."""

from __future__ import annotations

import ast
import importlib
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import express.worlds
from arena import sample_outcome
from express import ExpressError, Game, Match
from express.worlds import (
    DealSeen,
    OtherTurnSeen,
    OwnTurnSeen,
    census,
    deck_kinds,
    game_view,
    resample,
    sample_world,
    seen_history,
)
from tests.express.walks import random_walk

TABLES = (
    (2, {"rounds": 3}),
    (3, {"rounds": 3}),
    (3, {"caboose": "random", "rounds": 2}),
    (4, {"caboose": "Lightweight", "rounds": 2}),
    (5, {"rounds": 2}),
)


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A counting budget small enough that the bigger tables take the approximate search: both
    ways of drawing a world are checked here, at a fraction of the default budget's time (the
    exact law is test_worlds_exact.py's)."""
    monkeypatch.setattr(census, "BUDGET", 2_000)
    census.census_for.cache_clear()
    yield
    census.census_for.cache_clear()


def decisions(seeds: range) -> Iterator[Game]:
    """The decision states of random games at every table of :data:`TABLES`."""
    for seed in seeds:
        for players, options in TABLES:
            for state in random_walk(Game(players, **options), seed):
                if not state.is_chance_node() and not state.is_terminal():
                    yield state


def fingerprint(game: Game) -> tuple[str, ...]:
    """Everything a game holds, hidden or not, as text."""
    return (
        *(str(event) for event in game.events),
        " ".join(str(card) for card in game.drawn),
        *(str(train) for train in game.trains),
    )


def assert_consistent(world: Game, real: Game, player: int) -> None:
    """``world`` shows ``player`` exactly what ``real`` shows it, piece by piece, and is a
    possible deal of the deck."""
    view, seen = real.observation(player), world.observation(player)
    assert seen == view
    # The player's own hand (while holding it) and train, in full.
    assert sorted(map(str, seen.hand)) == sorted(map(str, view.hand))
    assert world.trains[player] == real.trains[player]
    # The other trains: the same face-up cards in the same places, face down where it was.
    for seat in range(real.players):
        if seat == player:
            continue
        assert len(world.trains[seat]) == len(real.trains[seat])
        for mine, theirs in zip(world.trains[seat].plays, real.trains[seat].plays, strict=True):
            assert mine.face_up == theirs.face_up
            if theirs.face_up:
                assert mine.card == theirs.card
    # The cards that passed through the player's hands; the counts.
    assert Counter(world.seen_cards(player)) == Counter(real.seen_cards(player))
    assert (world.turn, len(world.drawn), world.caboose) == (
        real.turn,
        len(real.drawn),
        real.caboose,
    )
    assert not Counter(world.drawn) - Counter(world.deck)  # no card more often than the deck has it
    assert Counter(world.deck) == Counter(real.deck)
    if real.current_player() == player:  # the hand it holds: the same choices
        assert sorted(map(str, world.legal_actions())) == sorted(map(str, real.legal_actions()))


@pytest.mark.slow
def test_sample_world_matches_the_observation() -> None:
    rng = np.random.default_rng(5)
    checked = approximate = 0
    for state in decisions(range(4)):
        player = state.current_player()
        world = sample_world(state.observation(player), rng)
        assert_consistent(world, state, player)
        checked += 1
        approximate += census.census_for(game_view(state.observation(player)), ()) is None
    assert checked > 100 and 0 < approximate < checked  # both ways of drawing were checked


@pytest.mark.slow
def test_sample_world_serves_every_seat_not_only_the_one_to_play() -> None:
    rng = np.random.default_rng(8)
    for state in decisions(range(1)):
        for player in range(state.players):
            assert_consistent(sample_world(state.observation(player), rng), state, player)


@pytest.mark.slow
def test_resample_keeps_what_the_player_saw_and_when() -> None:
    rng = np.random.default_rng(11)
    for state in decisions(range(2)):
        for player in range(state.players):
            world = resample(state, player, rng)
            assert_consistent(world, state, player)
            assert seen_history(world, player) == seen_history(state, player)


@pytest.mark.slow
def test_hidden_cards_do_get_redrawn() -> None:
    varied = {"resample": 0, "sample_world": 0}
    for seed in range(8):
        *_, last = decisions(range(seed, seed + 1))  # the last decision of a 5-player game
        player = last.current_player()
        view = last.observation(player)
        draws = {
            "resample": [resample(last, player, np.random.default_rng(k)) for k in range(6)],
            "sample_world": [sample_world(view, np.random.default_rng(k)) for k in range(6)],
        }
        for name, worlds in draws.items():
            varied[name] += len({tuple(str(t) for t in w.trains) for w in worlds}) > 1
    assert varied["resample"] >= 3 and varied["sample_world"] >= 3


def test_a_seeded_generator_draws_the_same_world() -> None:
    for state in list(decisions(range(2)))[::5]:
        player = (state.current_player() + 1) % state.players
        view = state.observation(player)
        for seed in (0, 1):
            assert fingerprint(resample(state, player, np.random.default_rng(seed))) == fingerprint(
                resample(state, player, np.random.default_rng(seed))
            )
            assert fingerprint(sample_world(view, np.random.default_rng(seed))) == fingerprint(
                sample_world(view, np.random.default_rng(seed))
            )


def test_samplers_leave_the_real_game_alone() -> None:
    for state in list(decisions(range(1)))[::4]:
        before = fingerprint(state)
        resample(state, 0, np.random.default_rng(0))
        sample_world(state.observation(0), np.random.default_rng(0))
        assert fingerprint(state) == before


def test_before_any_draw_nothing_is_hidden() -> None:
    for game in (Game(3), Game(3, caboose="random"), Game(2, caboose="Lightweight")):
        world = sample_world(game.observation(1), np.random.default_rng(0))
        assert world.observation(1) == game.observation(1) and not world.drawn
        copy = resample(game, 1, np.random.default_rng(0))
        assert copy == game and copy is not game


def test_a_match_observation_is_read_through_its_current_game() -> None:
    match = Match(2, rounds=2)
    rng = np.random.default_rng(3)
    while not match.is_terminal() and match.current_player() < 0:
        match.apply_action(sample_outcome(match.chance_outcomes(), rng))
    observation = match.observation(match.current_player())
    assert game_view(observation) is observation.current
    world = sample_world(observation, np.random.default_rng(0))
    assert world.observation(match.current_player()) == observation.current
    with pytest.raises(TypeError, match="express observation"):
        game_view("not an observation")  # type: ignore[arg-type]


def test_seen_history_holds_only_cards_the_player_saw() -> None:
    for state in decisions(range(3)):
        for player in range(state.players):
            shown = {
                play.card
                for seat, train in enumerate(state.trains)
                if seat != player
                for play in train.plays
                if play.face_up
            }
            visible = set(state.seen_cards(player)) | shown
            face_down = 0
            for event in seen_history(state, player):
                if isinstance(event, DealSeen):
                    cards: tuple[object, ...] = event.cards or ()
                elif isinstance(event, OwnTurnSeen):
                    cards = (event.drew, *event.held, *event.new)
                elif isinstance(event, OtherTurnSeen):
                    cards = () if event.play is None else (event.play.card,)
                    face_down += event.play is None
                else:
                    cards = ()
                assert set(cards) <= visible
            hidden = sum(
                not play.face_up
                for seat, train in enumerate(state.trains)
                if seat != player
                for play in train.plays
            )
            assert face_down == hidden


def test_seen_history_records_the_players_own_turns_in_full() -> None:
    *_, end = random_walk(Game(3, rounds=2), 4)
    kinds = deck_kinds(end.deck)
    for player in range(3):
        history = seen_history(end, player)
        deals = [event for event in history if isinstance(event, DealSeen)]
        assert len(deals) == 1 and deals[0].size == 3
        assert (deals[0].cards is not None) == (player == end.start_player)
        own = [event for event in history if isinstance(event, OwnTurnSeen)]
        others = [event for event in history if isinstance(event, OtherTurnSeen)]
        assert len(own) == 2 and len(others) == 4
        assert tuple(event.play for event in own) == end.trains[player].plays
        for turn in own:
            assert turn.drew in turn.held and turn.drew in turn.new
            assert turn.held == kinds.sorted(turn.held)  # in kind order
        for other in others:
            played = end.trains[other.player].plays[other.turn // 3]
            assert other.play == (played if played.face_up else None)


def test_deck_kinds_number_the_distinct_cards_in_deck_order() -> None:
    game = Game(3)
    kinds = deck_kinds(game.deck)
    assert deck_kinds(game.deck) is kinds  # computed once per deck
    assert list(kinds.cards) == list(dict.fromkeys(game.deck))
    assert sum(kinds.copies) == len(game.deck)
    assert all(kinds.of(card) == kinds.cards.index(card) for card in game.deck)
    with pytest.raises(ValueError, match="not in the deck"):
        deck_kinds(Game(2).deck).of(next(c for c in game.deck if c not in Game(2).deck))


def test_an_impossible_observation_is_reported() -> None:
    state = next(s for s in decisions(range(1)) if s.turn >= 3)
    player = state.current_player()
    view = state.observation(player)
    # The player claims to have seen more copies of a card than the deck holds.
    kinds = deck_kinds(view.deck)
    single = next(card for card, copies in zip(kinds.cards, kinds.copies) if copies == 1)
    bad = view.__class__(
        **{
            **{f: getattr(view, f) for f in view.__dataclass_fields__},
            "seen": (*view.seen, single, single),
        }
    )
    with pytest.raises(ExpressError, match="no history"):
        sample_world(bad, np.random.default_rng(0))


def test_the_module_knows_nothing_of_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    package = Path(express.worlds.__file__).parent
    imported = {
        name
        for source in package.glob("*.py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
        )
    }
    assert not {name for name in imported if "spiel" in name}, imported
    # And it imports with OpenSpiel missing.
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    for name in [name for name in sys.modules if name.startswith("express.worlds")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(express, "worlds", express.worlds)  # the package's attribute comes back too
    assert importlib.import_module("express.worlds").sample_world is not sample_world


def test_advice_from_searched_worlds_says_they_are_not_uniform() -> None:
    # The small counting budget of this file's fixture sends a late three-player view to the
    # randomized search: the advice says so, in its text and its data.
    from express import advise
    from express.worlds import worlds_are_uniform

    rng = np.random.default_rng(5)
    for _ in range(40):
        game = Game(4)
        while game.is_chance_node() or game.turn < 10:
            if game.is_chance_node():
                game.apply_action(sample_outcome(game.chance_outcomes(), rng))
            else:
                actions = game.legal_actions()
                game.apply_action(actions[int(rng.integers(len(actions)))])
        view = game.observation(game.current_player())
        if not worlds_are_uniform(view):
            break
    else:
        pytest.fail("no view past the counting budget found")
    advice = advise(view, worlds=2, rng=1)
    assert not advice.uniform and advice.to_dict()["uniform"] is False
    assert "not drawn uniformly" in str(advice)
