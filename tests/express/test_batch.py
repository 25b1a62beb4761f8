"""The batched engine (``express.batch``) against the scalar game: seeded batch games are
``arena.play``'s games (trains, score breakdowns, returns, winners), step by step the legal
masks, observation tensors and bots' choices agree, and the generator's chance is the rules'
deal (chi-square)."""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from arena import CHANCE, TERMINAL, Policy, RandomPolicy, play
from arena.batch import engine_for, seeded
from arena.play import seat_streams
from arena.sampling import outcome_drawer
from express import (
    CABOOSES,
    DECK,
    Game,
    GreedyBot,
    Play,
    bot,
    deck_for,
    format_cards,
    parse_deck,
    without,
)
from express.batch import Batch, Engine, VectorGreedy, VectorRandom
from express.codec import CODEC
from express.errors import ExpressError, IllegalPlayError

BOTS: tuple[Policy, ...] = (bot("random"), bot("greedy"))

#: A variant deck: 24 cards of the standard deck in another order (kinds listed otherwise),
#: for 3 players over 6 rounds (3 + 18 = 21 cards drawn).
VARIANT = format_cards(tuple(reversed(DECK))[:24])


def _seating(games: int, players: int, seed: int) -> npt.NDArray[np.intp]:
    return np.random.default_rng(seed).integers(len(BOTS), size=(games, players))


def _check_against_scalar(options: dict[str, object], players: int, seeds: Sequence[int]) -> None:
    """Every seeded batch game equals ``arena.play``'s game of the same seed and bots."""
    engine = Game(players, **options).batch_engine()  # type: ignore[arg-type]
    assert engine is not None
    seating = _seating(len(seeds), players, seeds[0])
    policies = [engine.vector_policy(b) for b in BOTS]
    assert None not in policies
    batch = engine.new_batch(streams=seeded(seeds, players))
    result = batch.run(seating, policies)  # type: ignore[arg-type]
    assert batch.is_over().all()
    for g, seed in enumerate(seeds):
        game = play(
            Game(players, **options),  # type: ignore[arg-type]
            [BOTS[i] for i in seating[g]],
            seed,
        )
        score = game.score()
        where = f"seed {seed}, options {options}, seating {seating[g].tolist()}"
        assert batch.trains(g) == tuple(game.trains), where
        assert batch.caboose_name(g) == (None if game.caboose is None else game.caboose.name)
        assert batch.scores(g) == score.players, where
        assert result.returns[g].tolist() == game.returns(), where
        assert set(np.flatnonzero(result.winners[g]).tolist()) == game.winners(), where


SETUPS = [
    pytest.param(players, options, games, id=f"{players}p-{label}")
    for players in range(2, 6)
    for label, options, games in (
        ("plain", {}, 90),
        ("random-caboose", {"caboose": "random"}, 130),
        ("right", {"caboose": "random", "pass_left": False, "start_player": 1}, 60),
    )
] + [
    pytest.param(2, {"deck": DECK, "caboose": "random"}, 100, id="2p-purple-kept"),
    pytest.param(3, {"deck": VARIANT, "rounds": 6, "caboose": "random"}, 100, id="3p-variant"),
    pytest.param(4, {"rounds": 3, "start_player": 2}, 60, id="4p-3-rounds"),
]


@pytest.mark.parametrize(("players", "options", "games"), SETUPS)
def test_seeded_batch_games_are_the_scalar_games(
    players: int, options: dict[str, object], games: int
) -> None:
    _check_against_scalar(options, players, range(10 * games, 11 * games))


@pytest.mark.parametrize("caboose", [caboose.name for caboose in CABOOSES])
def test_each_caboose_scores_as_the_scalar_game(caboose: str) -> None:
    # 40 games each, at a player count and direction varying with the caboose.
    index = [c.name for c in CABOOSES].index(caboose)
    players = 2 + index % 4
    options = {"caboose": caboose, "pass_left": index % 3 != 0}
    _check_against_scalar(options, players, range(7_000 + 40 * index, 7_040 + 40 * index))


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 6))
def test_many_seeded_games_are_the_scalar_games(players: int) -> None:
    _check_against_scalar({"caboose": "random"}, players, range(50_000, 51_000))


def _tensor(game: Game, seat: int, size: int) -> npt.NDArray[np.float32]:
    tensor = np.zeros(size, np.float32)
    CODEC.fill_tensor(game.observation(seat), tensor)
    return tensor


def _gain(game: Game, play_: Play) -> tuple[int, bool]:
    train = game.trains[game.current_player()]
    after = train.add_play(play_)
    gain = after.value + after.longest_run - train.value - train.longest_run
    return gain, play_.face_up


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"caboose": "random"}),
        (3, {"caboose": "Lightweight", "pass_left": False, "start_player": 2}),
        (4, {"deck": DECK[::-1]}),
        (5, {"caboose": "random", "start_player": 4}),
    ],
)
def test_step_by_step_masks_observations_and_choices_agree(
    players: int, options: dict[str, object]
) -> None:
    """Lockstep with scalar games played as ``arena.play`` plays them: at every decision the
    legal mask, every seat's observation tensor (the codec's) and the bot's choice agree, and
    the greedy ties (equal gains; face up against face down) are met and broken alike."""
    seeds = list(range(300, 330))
    engine = Game(players, **options).batch_engine()  # type: ignore[arg-type]
    assert engine is not None
    params = CODEC.merged(
        {
            "players": players,
            "caboose": str(options.get("caboose", "")),
            "deck": format_cards(engine.deck),
            "start_player": int(options.get("start_player", 0)),  # type: ignore[call-overload]
            "pass_left": bool(options.get("pass_left", True)),
        }
    )
    size = CODEC.tensor_size(params)
    seating = _seating(len(seeds), players, 5)
    batch = engine.new_batch(streams=seeded(seeds, players))
    games, drawers, rngs = [], [], []
    for seed in seeds:
        chance, seat_rngs = seat_streams(seed, players)
        games.append(Game(players, **options))  # type: ignore[arg-type]
        drawers.append(outcome_drawer(chance))
        rngs.append(seat_rngs[0])
    policies = [engine.vector_policy(b) for b in BOTS]
    ties = 0
    while True:
        for game, draw in zip(games, drawers):
            while game.current_player() == CHANCE:
                game.apply_action(draw(game.chance_outcomes()))
        to_play = batch.to_play()
        assert to_play.tolist() == [
            TERMINAL if game.is_terminal() else game.current_player() for game in games
        ]
        for seat in range(players):
            tensors = batch.observations(seat)
            assert tensors.shape == (len(games), size)
            for g, game in enumerate(games):
                assert np.array_equal(tensors[g], _tensor(game, seat, size)), (seeds[g], seat)
        mask = batch.legal_mask()
        if (to_play == TERMINAL).all():
            assert not mask.any()
            break
        actions = np.zeros(len(games), np.intp)
        for index, policy in enumerate(policies):
            where = seating[np.arange(len(games)), to_play] == index
            assert policy is not None
            actions[where] = policy.act(batch, where)
        for g, game in enumerate(games):
            legal = game.legal_actions()
            assert np.flatnonzero(mask[g]).tolist() == [CODEC.encode(game, a) for a in legal]
            seat = game.current_player()
            action = BOTS[seating[g, seat]].act(game.observation(seat), legal, rngs[g])
            assert actions[g] == CODEC.encode(game, action), (seeds[g], game.turn)
            if seating[g, seat] == 1:
                keys = [_gain(game, p) for p in legal if isinstance(p, Play)]
                gains = [gain for gain, _ in keys]
                ties += keys.count(max(keys)) > 1 or gains.count(max(gains)) > 1
            game.apply_action(action)
        batch.apply(actions, np.ones(len(games), np.bool_))
    assert ties > 0  # the tie-breaking was exercised


def test_greedy_breaks_a_tie_face_up_first_then_by_the_legal_order() -> None:
    # Face down is worth 4 and keeps the run; a face-up B2|R2 after the engine is worth 4 and
    # makes a run of 1: 5 against 4. With only face-up ties the first kind wins; R2|R2 gains
    # 4 + 2 = 6 like B2|B2 (kinds 0 and 1 of the standard deck): B2|B2 is played.
    engine = Engine(2, deck=tuple(deck_for(2)))
    batch = engine.new_batch(1, rng=np.random.default_rng(0))
    batch.order[0, :3] = batch.hand_kind[0] = [1, 0, 1]  # the first hand: R2|R2, B2|B2, R2|R2
    chosen = VectorGreedy().act(batch, np.ones(1, np.bool_))
    hand = parse_deck("R2|R2,B2|B2,R2|R2")
    game = Game(2, order=hand + without(deck_for(2), hand))
    greedy = GreedyBot().act(game.observation(0), game.legal_actions(), np.random.default_rng())
    assert chosen[0] == CODEC.encode(game, greedy) == 0  # B2|B2 face up


def test_reset_starts_new_games_in_the_slots_given() -> None:
    engine = Engine(3, caboose="random")
    seating = _seating(8, 3, 1)
    batch = engine.new_batch(streams=seeded(range(8), 3))
    policies: list[VectorRandom | VectorGreedy] = [VectorRandom(), VectorGreedy()]
    for _ in range(4):  # a few turns, then half of the games start again with new seeds
        actions = np.zeros(8, np.intp)
        to_play = batch.to_play()
        for index, policy in enumerate(policies):
            where = seating[np.arange(8), to_play] == index
            actions[where] = policy.act(batch, where)
        batch.apply(actions, np.ones(8, np.bool_))
    restart = np.arange(8) % 2 == 0
    batch.reset(restart, streams=seeded([100, 102, 104, 106], 3))
    assert (batch.to_play()[restart] == 0).all()
    with pytest.raises(ExpressError, match="positions"):
        engine.positions([Game(3, caboose="Lightweight", order=deck_for(3))]).reset(restart[:1])
    result = batch.run(seating, policies)
    for g in range(0, 8, 2):
        game = play(Game(3, caboose="random"), [BOTS[i] for i in seating[g]], 100 + g)
        assert batch.trains(g) == tuple(game.trains)
        assert result.returns[g].tolist() == game.returns()


def test_an_illegal_action_raises_naming_the_game() -> None:
    batch = Engine(4).new_batch(3, rng=np.random.default_rng(2))
    mask = batch.legal_mask()
    actions = np.argmax(mask, axis=1)
    actions[2] = np.flatnonzero(~mask[2])[0]
    with pytest.raises(IllegalPlayError, match="game 2"):
        batch.apply(actions, np.ones(3, np.bool_))
    with pytest.raises(IllegalPlayError, match="game 1"):
        batch.apply(np.full(3, 10_000), np.array([False, True, False]))


def _chi_square_limit(df: int, z: float = 3.719) -> float:
    """The chi-square quantile of upper tail about 1e-4 (z: the normal's), by Wilson and
    Hilferty's cube-root approximation: a test failing beyond it is one in ten thousand."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def _chi_square(observed: npt.NDArray[np.int64], expected: npt.NDArray[np.float64]) -> float:
    return float((((observed - expected) ** 2) / expected).sum())


@pytest.mark.parametrize("players", [2, 4])
def test_the_generator_deals_as_the_rules_shuffle(players: int) -> None:
    engine = Engine(players, caboose="random")
    games = 20_000
    batch = engine.new_batch(games, rng=np.random.default_rng(2026))
    deck = deck_for(players)
    kinds = list(dict.fromkeys(deck))
    copies = np.array([deck.count(card) for card in kinds], np.float64)
    share = copies / len(deck)
    deal = np.bincount(batch.order[:, :players].ravel(), minlength=len(kinds))
    assert _chi_square(deal, share * games * players) < _chi_square_limit(len(kinds) - 1)
    last = np.bincount(batch.order[:, -1], minlength=len(kinds))
    assert _chi_square(last, share * games) < _chi_square_limit(len(kinds) - 1)
    cabooses = np.bincount(batch.caboose, minlength=len(CABOOSES))
    expected = np.full(len(CABOOSES), games / len(CABOOSES))
    assert _chi_square(cabooses, expected) < _chi_square_limit(len(CABOOSES) - 1)
    # Every game's deck order is a draw without replacement from the deck.
    held = np.stack([np.bincount(row, minlength=len(kinds)) for row in batch.order[:200]])
    assert (held <= copies).all()


def test_games_of_one_deal_share_their_chance() -> None:
    engine = Engine(3, caboose="random")
    deals = np.array([0, 1, 0, 2, 1, 0])
    batch = engine.new_batch(rng=np.random.default_rng(3), deals=deals)
    for a in range(6):
        for b in range(6):
            same = bool((batch.order[a] == batch.order[b]).all())
            assert same == (deals[a] == deals[b]) or (deals[a] != deals[b] and not same)
            if deals[a] == deals[b]:
                assert same and batch.caboose[a] == batch.caboose[b]
    seating = np.array([[0, 1, 1], [0, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 1], [1, 1, 1]])
    result = engine.play(seating, [VectorRandom(), VectorGreedy()], deals, np.random.default_rng(4))
    assert result.returns.shape == (6, 3) and (result.winners.sum(axis=1) == 1).all()
    assert (result.returns >= 4 * engine.rounds).all()


def test_the_engine_and_policies_of_a_game() -> None:
    game = Game(3, caboose="Two-Timer", pass_left=False)
    engine = engine_for(game)
    assert isinstance(engine, Engine)
    assert (engine.players, engine.caboose, engine.pass_left) == (3, "Two-Timer", False)
    assert engine_for(Game(2, order=deck_for(2))) is None
    assert isinstance(engine.vector_policy(RandomPolicy()), VectorRandom)
    assert isinstance(engine.vector_policy(bot("random")), VectorRandom)
    assert engine.vector_policy(bot("greedy")) == VectorGreedy()
    assert engine.vector_policy(bot("search")) is None

    class Sly(GreedyBot):
        pass

    assert engine.vector_policy(Sly()) is None
    with pytest.raises(ExpressError, match="vector policy"):
        batch = engine.new_batch(1, rng=np.random.default_rng())
        batch.run(np.zeros((1, 3), np.intp), [bot("greedy")])  # type: ignore[list-item]


def test_engines_and_policies_pickle_as_values_in_a_fresh_process() -> None:
    values = (
        Engine(4, caboose="random", pass_left=False),
        Engine(3, deck=VARIANT and tuple(reversed(DECK))[:24], rounds=6),  # type: ignore[arg-type]
        VectorRandom(),
        VectorGreedy("mine"),
    )
    payload = pickle.dumps(values)
    code = (
        "import pickle, sys\n"
        "from express import DECK\n"
        "from express.batch import Engine, VectorGreedy, VectorRandom\n"
        "values = pickle.loads(sys.stdin.buffer.read())\n"
        "expected = (Engine(4, caboose='random', pass_left=False),"
        " Engine(3, deck=tuple(reversed(DECK))[:24], rounds=6), VectorRandom(),"
        " VectorGreedy('mine'))\n"
        "assert values == expected, values\n"
        "assert values[0].new_batch(2, rng=__import__('numpy').random.default_rng()).num_games == 2\n"
    )
    subprocess.run([sys.executable, "-c", code], input=payload, check=True)
    assert pickle.loads(payload) == values


def test_memory_per_game_is_small() -> None:
    batch: Batch = Engine(5, caboose="random").new_batch(1_000, rng=np.random.default_rng())
    assert batch.nbytes / batch.num_games < 1_000


def test_the_batch_summaries_are_decisive_of_the_scalar_games() -> None:
    """A batched tournament's summaries (``decisive.from_batch``) are :func:`express.decisive`
    of the same games, the run award and the caboose deciding in some of them."""
    from express import decisive

    engine = Engine(3, caboose="random")
    seeds = list(range(300))
    seating = _seating(len(seeds), 3, 9)
    batch = engine.new_batch(streams=seeded(seeds, 3))
    batch.run(seating, [VectorRandom(), VectorGreedy()])
    summaries = decisive.from_batch(batch)  # type: ignore[attr-defined]
    expected = [
        decisive(play(Game(3, caboose="random"), [BOTS[i] for i in seating[g]], seed))
        for g, seed in enumerate(seeds)
    ]
    assert summaries == expected
    assert any(s.run_award for s in expected) and any(s.caboose for s in expected)
