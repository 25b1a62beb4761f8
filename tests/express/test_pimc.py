"""bot("pimc") and the values it plays by (express.pimc): exact where nothing is hidden,
blind to what its observation does not show, replayable from a seed."""

from __future__ import annotations

import pickle
from typing import cast

import numpy as np
import pytest

from arena import sample_outcome
from arena.stats import mean_interval
from express import ExpressError, Game, PimcBot, Play, bot, pimc
from express.exact import play_values_with_states
from express.pimc import (
    RULES,
    PlayEstimate,
    batched_playout_values,
    estimate_plays,
    playout_values,
)
from express.worlds import game_view, sample_world, sample_worlds


def advance(game: Game, rng: np.random.Generator, turns: int) -> Game:
    """``game`` after ``turns`` turns of random plays (chance sampled), at a decision."""
    while game.is_chance_node() or game.turn < turns:
        if game.is_chance_node():
            game.apply_action(sample_outcome(game.chance_outcomes(), rng))
        else:
            actions = game.legal_actions()
            game.apply_action(actions[int(rng.integers(len(actions)))])
    return game


def margin(game: Game, player: int) -> int:
    totals = [p.total for p in game.score().players]
    return totals[player] - totals[1 - player]


@pytest.mark.parametrize("seed", range(4))
def test_on_the_last_turn_every_value_is_the_exact_final_margin(seed: int) -> None:
    # The last play of a two-player game hides nothing that is scored: every world must give
    # each play the margin the real game ends with after it, checked with Game.score alone.
    game = advance(Game(2, rounds=3), np.random.default_rng(seed), turns=5)
    player = game.current_player()
    view = game.observation(player)
    sampled = estimate_plays(view, worlds=3, rng=np.random.default_rng(1), endgame_turns=0)
    expected = estimate_plays(view, worlds=3, rng=np.random.default_rng(1))
    assert [e.play for e in sampled] == [e.play for e in expected] == list(game.legal_actions())
    for estimate, exactly in zip(sampled, expected):
        after = game.clone()
        after.apply_action(estimate.play)
        assert after.is_terminal()
        exact = margin(after, player)
        assert (estimate.mean, estimate.low, estimate.high) == (exact, exact, exact)
        assert estimate.worlds == 3 and not estimate.expectation
        assert (exactly.mean, exactly.low, exactly.high) == (exact, exact, exact)
        assert exactly.worlds == 0 and exactly.expectation


def test_the_decision_depends_only_on_the_observation() -> None:
    # Two games the player cannot tell apart (the same observation: another deck order for the
    # cards it has not seen) get the same decision from the same generator state.
    rng = np.random.default_rng(7)
    first = advance(Game(2), rng, turns=3)
    player = first.current_player()
    view = first.observation(player)
    other = None
    for attempt in range(20):
        world = sample_world(view, np.random.default_rng(attempt))
        if world.drawn != first.drawn or world.trains != first.trains:
            other = world
            break
    assert other is not None and other.observation(player) == view
    pimc = bot("pimc", worlds=4, time_limit=None)
    decisions = {
        pimc.act(game.observation(player), game.legal_actions(), np.random.default_rng(3))
        for game in (first, other)
    }
    assert len(decisions) == 1


def test_a_seeded_game_replays() -> None:
    from arena import play

    seats = [bot("pimc", worlds=2, time_limit=None), bot("greedy")]
    first = play(Game(2, rounds=3), seats, seed=11)
    again = play(Game(2, rounds=3), seats, seed=11)
    assert first == again and first.is_terminal()


def test_the_bot_is_a_value_and_refuses_bad_options() -> None:
    pimc = bot("pimc", worlds=5)
    assert pickle.loads(pickle.dumps(pimc)) == pimc and hash(pimc) == hash(PimcBot(worlds=5))
    for options, message in (
        ({"worlds": 0}, "invalid number of worlds: 0"),
        ({"worlds": 100_001}, "invalid number of worlds: 100001 \\(1 to 100,000\\)"),
        ({"time_limit": 0}, "invalid time_limit 0: a positive, finite number of seconds"),
        ({"rule": "best"}, "unknown rule: 'best'"),
        ({"states": 0}, "invalid states budget: 0"),
    ):
        with pytest.raises(ExpressError, match=message):
            bot("pimc", **options)
    with pytest.raises(TypeError, match="worlds must be a whole number"):
        bot("pimc", worlds=2.5)
    # An option no bot of that name takes names the bot, not the class behind it.
    with pytest.raises(TypeError, match="^bot 'pimc' takes no option 'bogus'$"):
        bot("pimc", bogus=1)
    with pytest.raises(TypeError, match="^bot 'greedy' takes no option 'worlds'$"):
        bot("greedy", worlds=4)


def test_the_states_budget_stops_the_sampling_after_the_world_that_spends_it() -> None:
    # The first decision of a whole two-player deal: every world takes thousands of states, so
    # a budget of one state still solves one world, one of what the first world took stops
    # after it, and twice that after the second — with the values of those same first worlds.
    game = advance(Game(2), np.random.default_rng(4), turns=0)
    view = game.observation(game.current_player())
    worlds = list(sample_worlds(game_view(view), 3, np.random.default_rng(9)))
    taken = [play_values_with_states(world)[1] for world in worlds]
    assert min(taken) > 1_000
    for budget, count in ((1, 1), (taken[0], 1), (taken[0] + 1, 2), (taken[0] + taken[1], 2)):
        estimates = estimate_plays(view, worlds=3, rng=np.random.default_rng(9), states=budget)
        assert {e.worlds for e in estimates} == {count}
        first = [play_values_with_states(world)[0] for world in worlds[:count]]
        for estimate in estimates:
            assert estimate.mean == pytest.approx(np.mean([v[estimate.play] for v in first]))
    unbounded = estimate_plays(view, worlds=3, rng=np.random.default_rng(9), states=None)
    assert {e.worlds for e in unbounded} == {3}


def test_a_hand_that_is_not_there_is_refused() -> None:
    game = advance(Game(2, rounds=2), np.random.default_rng(2), turns=1)
    waiting = 1 - game.current_player()
    with pytest.raises(ExpressError, match="not this player's turn"):
        estimate_plays(game.observation(waiting), rng=np.random.default_rng(0))
    assert all(isinstance(a, Play) for a in game.legal_actions())


def test_advice_ranks_every_play_and_travels() -> None:
    from express import Advice, advise

    game = advance(Game(2, rounds=3), np.random.default_rng(5), turns=2)
    player = game.current_player()
    advice = advise(game.observation(player), worlds=3, rng=4, endgame_turns=0)
    assert isinstance(advice, Advice) and advice.player == player and advice.worlds == 3
    assert sorted(str(e.play) for e in advice.plays) == sorted(str(a) for a in game.legal_actions())
    means = [e.mean for e in advice.plays]
    assert means == sorted(means, reverse=True) and advice.recommended == advice.plays[0].play
    assert all(e.low <= e.mean <= e.high for e in advice.plays)
    again = advise(game.observation(player), worlds=3, rng=4, endgame_turns=0)
    assert again.plays == advice.plays  # a seed replays
    data = advice.to_dict()
    assert data["recommended"] == str(advice.recommended) and data["plays"] == [
        e.to_dict() for e in advice.plays
    ]
    assert "minus your opponent's" in str(advice) and "<- play this" in str(advice)
    assert pickle.loads(pickle.dumps(advice)) == advice


def test_in_the_endgame_the_advice_is_the_exact_expectation() -> None:
    from express import advise
    from express.endgame import expected_values

    game = advance(Game(2), np.random.default_rng(6), turns=10)
    view = game.observation(game.current_player())
    advice = advise(view, worlds=3, rng=4)
    assert advice.expectation and advice.worlds == 0
    exact = expected_values(view)
    assert {e.play: e.mean for e in advice.plays} == {p: float(v) for p, v in exact.items()}
    assert all(e.low == e.mean == e.high and e.expectation for e in advice.plays)
    assert advice.recommended == max(exact, key=lambda play: exact[play])
    text = str(advice)
    assert "exact: every draw to come weighed by its probability" in text
    assert "[" not in text  # no interval
    data = advice.to_dict()
    assert data["expectation"] is True and data["worlds"] == 0
    rows = cast(list[dict[str, object]], data["plays"])
    assert all(row["low"] is None and row["expectation"] for row in rows)
    assert pickle.loads(pickle.dumps(advice)) == advice
    # Five turns from the end the advisor samples worlds again (the default endgame is four).
    earlier = advance(Game(2), np.random.default_rng(6), turns=9)
    assert not advise(earlier.observation(earlier.current_player()), worlds=3, rng=4).expectation


def test_the_bot_plays_the_best_exact_expectation_in_the_endgame() -> None:
    from express.endgame import expected_values

    pimc = bot("pimc")
    for seed in range(3):
        game = advance(Game(2), np.random.default_rng(seed), turns=11)
        view = game.observation(game.current_player())
        exact = expected_values(view)
        chosen = pimc.act(view, game.legal_actions(), np.random.default_rng(0))
        assert exact[chosen] == max(exact.values())


def test_more_worlds_only_where_worlds_are_cheap() -> None:
    # Before the exact endgame the worlds are small: the bot goes on to more_worlds there; at a
    # deal's first turn every world is a whole deal, and it stops at ``worlds``.
    late = advance(Game(2), np.random.default_rng(2), turns=8)
    view = late.observation(late.current_player())
    many = estimate_plays(view, worlds=4, more_worlds=12, rng=np.random.default_rng(0))
    assert many[0].worlds == 12
    early = advance(Game(2), np.random.default_rng(2), turns=0)
    view = early.observation(early.current_player())
    few = estimate_plays(view, worlds=2, more_worlds=12, rng=np.random.default_rng(0))
    assert few[0].worlds == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [({"endgame_turns": -1}, "endgame_turns"), ({"more_worlds": 0}, "worlds: 0")],
)
def test_bad_endgame_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ExpressError, match=message):
        bot("pimc", **options)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (5, 3), (3, 4)])
def test_playouts_are_the_greedy_bots_games(players: int, seed: int) -> None:
    # The fast playout must be exactly the game the greedy bot plays through express.Game.
    from arena import play

    rng = np.random.default_rng(seed)
    deck = Game(players).deck
    order = tuple(deck[i] for i in rng.permutation(len(deck)))
    caboose = "random" if seed % 2 else None
    world = Game(players, order=order, caboose=caboose)
    while world.is_chance_node():
        world.apply_action(sample_outcome(world.chance_outcomes(), rng))
    world = advance(world, rng, turns=seed)
    mover = world.current_player()
    for rule in RULES:
        values = playout_values(world, rule)
        assert list(values) == list(world.legal_actions())
        for action, value in values.items():
            game = world.clone()
            game.apply_action(action)
            game = play(game, [bot("greedy")] * players, seed=0)
            totals = [p.total for p in game.score().players]
            best_rival = max(t for s, t in enumerate(totals) if s != mover)
            assert value == (totals[mover] - best_rival if rule == "paranoid" else totals[mover])


@pytest.mark.parametrize("players", range(2, 6))
def test_batched_playouts_are_the_scalar_playouts(players: int) -> None:
    # Sampled worlds of seeded positions from the first turn to the last, every rule.
    checked = 0
    for seed in range(4):
        rng = np.random.default_rng(100 + seed)
        game = Game(players, caboose="random", pass_left=seed % 2 == 0, start_player=seed % 2)
        turns = players * game.rounds
        game = advance(game, rng, turns=seed * (turns - 1) // 3)
        worlds = sample_worlds(game.observation(game.current_player()), 12, rng)
        for rule in RULES:
            expected = [playout_values(world, rule) for world in worlds]
            assert batched_playout_values(worlds, rule) == expected
            checked += len(worlds)
    assert checked == 4 * 12 * len(RULES)


def test_estimate_plays_values_the_same_with_the_batched_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = advance(Game(4, caboose="random"), np.random.default_rng(3), turns=2)
    view = start.observation(start.current_player())
    batched = estimate_plays(view, worlds=24, rng=np.random.default_rng(5))
    assert not any(e.exact for e in batched)

    def scalar(worlds: list[Game], rule: str) -> list[dict[Play, int]]:
        return [playout_values(world, rule) for world in worlds]

    monkeypatch.setattr(pimc, "batched_playout_values", scalar)
    assert estimate_plays(view, worlds=24, rng=np.random.default_rng(5)) == batched


@pytest.mark.parametrize("batch", [1, 5, 24, 1_000])
def test_worlds_valued_in_batches_of_any_size_give_the_same_estimates(
    monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    # The same worlds and values whether the worlds are played out one at a time, in batches
    # that do not divide them, or all at once (24 and 1,000: one list, as before batching);
    # the expected estimates are made here from the sampled worlds' scalar playouts.
    start = advance(Game(4, caboose="random"), np.random.default_rng(3), turns=2)
    view = start.observation(start.current_player())
    worlds = sample_worlds(view, 24, np.random.default_rng(5))
    values = [playout_values(world) for world in worlds]
    legal = [action for action in worlds[0].legal_actions() if isinstance(action, Play)]
    expected = tuple(
        PlayEstimate(play, *mean_interval([float(v[play]) for v in values]), 24, exact=False)
        for play in legal
    )
    monkeypatch.setattr(pimc, "PLAYOUT_BATCH", batch)
    assert estimate_plays(view, worlds=24, rng=np.random.default_rng(5)) == expected


def test_the_memory_of_worlds_played_out_does_not_grow_with_their_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ten times the worlds, in batches of 8: the memory the valuation holds at its peak stays
    # that of a batch. Measured above what is still allocated when it returns (the interpreter
    # keeps freed tuples for reuse, more of them after a longer run), with the garbage
    # collector paused (a collection allocates for a moment, more often in a longer run) and
    # after a first run of the same worlds (which fills the cache of their census). One batch
    # of all the worlds grew it about tenfold, one list of values per play by half.
    import gc
    import tracemalloc

    start = advance(Game(4), np.random.default_rng(3), turns=2)
    view = start.observation(start.current_player())
    monkeypatch.setattr(pimc, "PLAYOUT_BATCH", 8)

    def working_memory(worlds: int) -> int:
        gc.collect()
        gc.disable()
        tracemalloc.start()
        try:
            estimates = estimate_plays(view, worlds=worlds, rng=np.random.default_rng(1))
            held, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
            gc.enable()
        assert estimates[0].worlds == worlds and not estimates[0].exact
        return peak - held

    estimate_plays(view, worlds=320, rng=np.random.default_rng(1))
    few, many = working_memory(32), working_memory(320)
    assert many < 1.15 * few, (few, many)


def test_progress_moves_as_each_batch_of_worlds_is_valued(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import arena.progress

    start = advance(Game(4), np.random.default_rng(3), turns=2)
    view = start.observation(start.current_player())
    events: list[tuple[str, int]] = []
    valued = pimc.batched_playout_values
    advance_to = arena.progress.Progress.advance_to

    def batched(worlds: list[Game], rule: str) -> list[dict[Play, int]]:
        events.append(("valuing", len(worlds)))
        return valued(worlds, rule)

    def reported(self: arena.progress.Progress, done: int) -> None:
        events.append(("done", done))
        advance_to(self, done)

    monkeypatch.setattr(pimc, "batched_playout_values", batched)
    monkeypatch.setattr(arena.progress.Progress, "advance_to", reported)
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)
    monkeypatch.setattr(pimc, "PLAYOUT_BATCH", 8)
    estimate_plays(view, worlds=20, rng=np.random.default_rng(1), progress=True)
    # Each batch's worlds are reported before the next batch is valued.
    assert events == [
        ("valuing", 8), ("done", 8), ("valuing", 8), ("done", 16), ("valuing", 4), ("done", 20)
    ]  # fmt: skip
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" worlds")[0] for line in lines] == [
        "advise: 8/20", "advise: 16/20", "advise: 20/20"
    ]  # fmt: skip


def test_three_players_are_exact_at_the_end_and_played_out_at_the_start() -> None:
    start = advance(Game(3), np.random.default_rng(8), turns=0)
    early = estimate_plays(
        start.observation(start.current_player()), worlds=2, rng=np.random.default_rng(0)
    )
    assert not any(e.exact for e in early)
    end = advance(Game(3), np.random.default_rng(8), turns=17)
    late = estimate_plays(
        end.observation(end.current_player()), worlds=2, rng=np.random.default_rng(0)
    )
    assert all(e.exact for e in late)


def test_a_time_limit_is_kept_whatever_the_number_of_worlds() -> None:
    # The worlds are drawn as they are valued: a limit of half a second with 100,000 worlds
    # asked for answers soon after, without holding the worlds it never values (it took 73 s
    # and 950 MB when every world was drawn first). Generous bounds: the machine is shared.
    import time
    import tracemalloc

    game = advance(Game(3), np.random.default_rng(1), 3)
    view = game.observation(game.current_player())
    tracemalloc.start()
    began = time.perf_counter()
    estimates = estimate_plays(
        view, worlds=100_000, rng=np.random.default_rng(2), time_limit=0.5, exact_nodes=1
    )
    took = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert took < 5.0
    assert peak < 100 * 2**20
    assert 1 <= estimates[0].worlds < 100_000
    # The bot keeps its limit the same way.
    pimc = bot("pimc", worlds=100_000, time_limit=0.5)
    began = time.perf_counter()
    play = pimc.act(view, game.legal_actions(), np.random.default_rng(3))
    assert time.perf_counter() - began < 5.0 and play in game.legal_actions()


def test_the_first_worlds_drawn_one_at_a_time_are_the_sampled_worlds() -> None:
    from itertools import islice

    from express.worlds import iter_worlds

    game = advance(Game(3), np.random.default_rng(4), 4)
    view = game.observation(game.current_player())
    drawn = list(islice(iter_worlds(view, np.random.default_rng(9)), 6))
    assert [w.order for w in drawn] == [
        w.order for w in sample_worlds(view, 6, np.random.default_rng(9))
    ]


def test_advice_from_one_world_shows_no_interval_and_says_so() -> None:
    from express import advise

    game = advance(Game(2, rounds=3), np.random.default_rng(3), 1)
    advice = advise(game.observation(game.current_player()), worlds=1, rng=1)
    text = str(advice)
    assert advice.worlds == 1 and "one world: no interval" in text and "[" not in text
    assert advice.uniform and advice.to_dict()["uniform"] is True
    assert "randomized search" not in text
    # In JSON too, one world has no interval: null, not an interval of width zero.
    plays = cast(list[dict[str, object]], advice.to_dict()["plays"])
    assert all(p["low"] is None and p["high"] is None for p in plays)
    several = advise(game.observation(game.current_player()), worlds=3, rng=1)
    assert "95 % interval" in str(several) and "[" in str(several)
    plays = cast(list[dict[str, object]], several.to_dict()["plays"])
    assert all(isinstance(p["low"], float) and isinstance(p["high"], float) for p in plays)


def test_maxn_with_two_players_is_refused_and_exact_nodes_is_checked() -> None:
    from express import advise

    game = advance(Game(2, rounds=3), np.random.default_rng(3), 1)
    with pytest.raises(ExpressError, match="'maxn' is for three to five players"):
        advise(game.observation(game.current_player()), worlds=2, rule="maxn")
    with pytest.raises(ExpressError, match="invalid exact_nodes: 0"):
        bot("pimc", exact_nodes=0)
    with pytest.raises(TypeError, match="exact_nodes must be a whole number"):
        bot("pimc", exact_nodes=2.5)


def test_advice_on_a_finished_game_says_it_is_over() -> None:
    game = advance(Game(2, rounds=2), np.random.default_rng(3), 4)
    while not game.is_terminal():
        game.apply_action(game.legal_actions()[0])
    with pytest.raises(ExpressError, match="the game is over"):
        estimate_plays(game.observation(0), worlds=2, rng=np.random.default_rng(0))


def test_advice_and_a_best_train_show_as_a_table_and_a_picture() -> None:
    from express import advise, best_train

    game = advance(Game(2, rounds=3), np.random.default_rng(3), 1)
    advice = advise(game.observation(game.current_player()), worlds=3, rng=1)
    html = advice._repr_html_()
    assert html.startswith("<table") and html.count("<tr") == len(advice.plays) + 1
    assert "play this" in html and str(advice.recommended) in html
    solution = best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", 4)
    svg = solution._repr_svg_()
    assert svg.startswith("<svg") and f"score {solution.score}, optimal" in svg


def test_a_best_train_prints_as_its_train_and_score() -> None:
    from express import best_train

    solution = best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", 3)
    text = str(solution)
    assert "TrainSolution(" not in text and "\n" not in text
    assert str(solution.train) in text and f"score {solution.score}" in text
    assert f"value {solution.value}" in text and "optimal" in text
    limited = best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", 4, node_limit=1)
    assert not limited.optimal and "not proven optimal" in str(limited)
    assert repr(solution).startswith("TrainSolution(")  # repr stays the full value
