"""The bots: legal, reproducible, picklable; greedy's and search's choices on known positions;
the search bot's sampling pool is consistent with what the player may know."""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pytest

from arena import play
from express import BOT_NAMES, Game, Play, bot, parse_deck, solo_score
from express.bots import OPENSPIEL_BOTS, GreedyBot, SearchBot
from express.errors import ExpressError

# The bots that play any game with no extra and no deck order.
CORE_BOTS = [name for name in BOT_NAMES if name not in OPENSPIEL_BOTS and name != "perfect"]
# Options that keep a bot's games quick here (its strength is measured in the benchmarks).
QUICK = {"pimc": {"worlds": 2}}

# 3 players, 2 rounds: player 0 is dealt the first three cards and draws the fourth.
ORDER = "R3|G3,G2|G2,B4|G4,G3|B3,R2|R2,Y2|Y2,B2|B3,Y2|Y3,R4|B4"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_bot_plays_legal_reproducible_games(players: int) -> None:
    names = (CORE_BOTS * 2)[:players]
    for seed in range(2):
        seats = [bot(name, **QUICK.get(name, {})) for name in names]
        first = play(Game(players, caboose="random"), seats, seed=seed)
        again = play(
            Game(players, caboose="random"),
            [bot(name, **QUICK.get(name, {})) for name in names],
            seed=seed,
        )
        assert first.is_terminal() and first == again


def test_bot_names_are_every_name_bot_accepts() -> None:
    assert set(BOT_NAMES) == {"random", "greedy", "search", "mcts", "ismcts", "perfect", "pimc"}
    assert set(OPENSPIEL_BOTS) <= set(BOT_NAMES)
    assert [bot(name).name for name in CORE_BOTS] == CORE_BOTS  # type: ignore[attr-defined]
    with pytest.raises(ExpressError, match="deck order"):
        bot("perfect")
    assert bot("perfect", order=parse_deck(ORDER)).name == "perfect"  # type: ignore[attr-defined]


def test_bots_are_picklable_values() -> None:
    for name in CORE_BOTS:
        policy = bot(name)
        assert pickle.loads(pickle.dumps(policy)) == policy and policy.name == name  # type: ignore[attr-defined]
    assert bot(" Search ", samples=2, horizon=1) == SearchBot(samples=2, horizon=1)


def test_greedy_takes_the_highest_gain_in_value_and_run() -> None:
    game = Game(3, order=ORDER, rounds=2)
    # Hand R3|G3, G2|G2, B4|G4, G3|B3 after the engine: B4|G4 is worth 8 (run 1), G2|G2 4 + run 2.
    assert GreedyBot().act(
        game.observation(0), game.legal_actions(), np.random.default_rng(0)
    ) == Play.parse("B4|G4")
    game.apply_action(Play.parse("R3|G3"))
    game.apply_action(Play.parse("~G3|B3"))
    game.apply_action(Play.parse("Y2|Y2"))
    # Player 0's train ends G3; the hand is G2|G2, B4|G4, R2|R2, B2|B3. G2|G2 adds 4 and makes
    # a green run of 3 (+2); B4|G4 cannot connect face up; face down adds 4.
    choice = GreedyBot().act(game.observation(0), game.legal_actions(), np.random.default_rng(0))
    assert choice == Play.parse("G2|G2")


def test_search_is_exact_on_the_last_turn() -> None:
    game = Game(3, order=ORDER, rounds=2, caboose="End of Line")
    for token in ("R3|G3", "~G3|B3", "Y2|Y2"):
        game.apply_action(Play.parse(token))
    view = game.observation(0)
    # Every play's final score (the rivals' longest run is 2, Y2|Y2: any run of 2 or more counts).
    best = max(
        solo_score(view.train.add_play(p), caboose=game.caboose)
        for p in game.legal_actions()
        if isinstance(p, Play)
    )
    choice = SearchBot().act(view, game.legal_actions(), np.random.default_rng(0))
    assert (
        isinstance(choice, Play)
        and solo_score(view.train.add_play(choice), caboose=game.caboose) == best
    )
    # Only face-down plays besides G2|G2: End of Line needs a 3 last, G2|G2 gives 4 + a green run of 3.
    assert choice == Play.parse("G2|G2")


def test_search_reads_the_rivals_longest_run_from_the_trains_in_sight() -> None:
    # The search bot counts a run only when it reaches the rivals' longest run.
    game = Game(2, order="B2|B2,B2|B3,B3|Y3,R4|B4,G2|G2,Y2|Y2", rounds=1)
    game.apply_action(Play.parse("B2|B2"))
    assert game.observation(1).rivals_longest_run() == 2
    assert game.observation(0).rivals_longest_run() == 0
    hidden = Game(2, order="B2|B2,B2|B3,B3|Y3,R4|B4,G2|G2,Y2|Y2", rounds=1)
    hidden.apply_action(Play.parse("~B2|B2"))
    assert hidden.observation(1).rivals_longest_run() == 0  # a face-down card is two wild cars


def test_the_search_pool_is_what_the_player_cannot_place() -> None:
    # Over random games: the unseen draw pile is inside the pool, and the pool holds nothing but
    # the pile and other players' face-down cards.
    rng = np.random.default_rng(3)
    for players in (2, 3, 5):
        for _ in range(15):
            game = Game(players)
            while not game.is_terminal():
                legal = game.legal_actions()
                if not game.is_chance_node():
                    seat = game.current_player()
                    pool = Counter(game.observation(seat).unknown_cards())
                    pile = Counter(game.deck) - Counter(game.drawn)
                    hidden = Counter(
                        p.card
                        for s, t in enumerate(game.trains)
                        if s != seat
                        for p in t.plays
                        if not p.face_up
                    )
                    assert not pile - pool and not pool - (pile + hidden)
                if game.is_chance_node():
                    outcomes = game.chance_outcomes()
                    game.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                else:
                    game.apply_action(legal[int(rng.integers(len(legal)))])


def test_bad_bots() -> None:
    with pytest.raises(ExpressError, match="'clever'"):
        bot("clever")
    with pytest.raises(ExpressError, match="samples: 0"):
        bot("search", samples=0)
    with pytest.raises(TypeError):
        bot("search", samples=2.5)
    with pytest.raises(TypeError):
        bot("greedy", samples=3)
    with pytest.raises(TypeError):
        bot(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="observation"):
        GreedyBot().act("a view", [Play.parse("R3|G3")], np.random.default_rng(0))
    assert parse_deck(ORDER)  # the order is a real deck excerpt
