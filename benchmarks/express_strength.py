"""Yardmaster Express playing strength: loss against perfect play, duplicate-deal tournaments,
time per decision — the figures of docs/strength.md.

``python -m benchmarks express-strength [--only SECTION ...] [--workers N | --cluster local:N |
--scheduler ADDRESS] [--checkpoints DIR] [--seed S] [size options]``

Sections (each prints a Markdown table; ``--only`` runs some of them):

- ``loss``: two players, each bot against the ``perfect`` player (who knows the deck order) on
  ``--loss-deals`` known-order deals (default 50), the bot in both seats; a deal's loss is how
  far the bot's side ends below the deal's exact value, averaged over the two seats; the table
  gives the mean over deals with a 95 % interval (Student's t over deals). ``pimc-many`` is
  ``pimc`` with ``--many-worlds`` worlds (default 96): what more sampling still buys.
  ``pimc-told`` is ``pimc`` told the other player's face-down cards (a cheat: its worlds differ
  from the true game only in the order of the cards not drawn yet), so between ``pimc`` and it
  lies what knowing the hidden cards is worth — all an opponent model could win back — and
  between it and ``perfect`` the price of not knowing the deck's order (with the method's own
  error).
- ``price``: what not knowing the deck's order costs, on the loss table's games of each bot
  of ``--price-bots`` (default ``pimc``): at each of its decisions the *information price* —
  over ``--price-worlds`` worlds (default 32), the mean of the best play's exact value less the
  best mean of one play: how much the sampled worlds disagree about the best play there —
  summed over the game, beside its loss (the sum over its decisions of its play's shortfall in
  the true deal). A diagnostic, not a lower bound on any player's loss (docs/strength.md says
  why). Worlds drawn as ``pimc`` draws them, and told
  worlds (only the order unknown). The price is estimated low with few worlds (the best of the
  sampled means overstates the best true mean).
- ``duel``: two players, ``pimc`` against each of ``--duel-rivals`` (default ``search``,
  ``greedy`` and ``ismcts`` at 100 simulations), ``--duel-deals`` duplicate deals each (default
  200, both seats).
- ``three``: three players, ``pimc``, ``ismcts`` (100), ``search``, ``--three-deals`` deals
  (default 100; every deal in every seat rotation).
- ``four``: four players, ``pimc``, ``ismcts`` (100), ``search``, ``greedy``, ``--four-deals``
  deals (default 100).
- ``strong``: three players, ``pimc``, ``ismcts1000`` (1,000 simulations), ``search``, on
  ``--strong-deals`` deals (default 20: a small sample, reported as such).
- ``strong-duel``: two players, ``pimc`` against ``ismcts1000``, ``--strong-duel-deals``
  duplicate deals (default 50, both seats: a small sample, reported as such).
- ``rules``: three players, ``pimc`` (paranoid: a world's value is its score minus the best
  rival's) against ``pimc-maxn`` (max-n: every player maximises its own score) and ``search``,
  ``--rules-deals`` deals (default 100): the rule the default bot keeps.
- ``endgame``: two players, each bot of ``--endgame-bots`` (default ``pimc``, ``pimc-sampled``
  — pimc sampling worlds to the end —, ``search``, ``greedy``) on the decisions of the last
  ``--endgame-turns`` turns (default 5) of ``--endgame-games`` games of pimc against itself
  (default 100): its regret against the exact expectiminimax, summed over the last k turns,
  mean and 95 % interval over games (:mod:`benchmarks.endgame`).
- ``time``: seconds per decision of each bot, in ``--time-games`` games (default 4) for 2, 3
  and 4 players, against pimc's targets (a median of at most 0.25 s, at most 2 s worst).

Tournaments are :func:`arena.tournament` (duplicate deals, seat rotations, win shares with a
95 % interval over deals); they and the loss games run on the executor the options choose, and
with ``--checkpoints DIR`` every tournament saves its completed deals there, so an interrupted
run continues where it stopped when run again with the same options. OpenSpiel's ``ismcts``
needs the ``openspiel`` extra; without it the sections that need it say so and are skipped.
Figures depend on the machine's load: the header prints it.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

import arena
from arena import Policy, play
from arena.executors import executor_from, usable_cores
from arena.extras import MissingExtraError
from arena.play import seat_streams
from arena.progress import progress
from arena.stats import mean_interval
from benchmarks._suite import Timed, at_least, percentile, run_sections
from benchmarks.endgame import DEFAULT_ENDGAME_BOTS, ENDGAME_BOTS, regret_task
from express import Card, ExpressError, Game, Play, bot, deck_for, solve_deal
from express.exact import play_values
from express.pimc import DEFAULT_WORLDS
from express.worlds import game_view, sample_worlds

T = TypeVar("T")

#: The players of the tables: a label → (bot name, options).
BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "pimc": ("pimc", {}),
    "pimc-maxn": ("pimc", {"rule": "maxn"}),
    "search": ("search", {}),
    "greedy": ("greedy", {}),
    "ismcts": ("ismcts", {"simulations": 100}),
    "ismcts1000": ("ismcts", {"simulations": 1000}),
}

MEDIAN_TARGET = 0.25
"""pimc's target: a median decision of at most 0.25 s."""

WORST_TARGET = 2.0
"""pimc's target: no decision over 2 s."""


def make_bot(label: str, many_worlds: int = 96) -> Policy:
    """The bot a table's label names (``pimc-many``: pimc with ``many_worlds`` worlds)."""
    if label == "pimc-many":
        return bot("pimc", worlds=many_worlds, time_limit=None)
    name, options = BOTS[label]
    return bot(name, **options)


LOSS_BOTS = ("pimc", "pimc-many", "pimc-told", *(label for label in BOTS if label != "pimc"))
"""The labels the loss table knows: the bots of :data:`BOTS`, ``pimc-many`` and ``pimc-told``."""

DEFAULT_LOSS_BOTS = ("pimc", "pimc-many", "pimc-told", "search", "greedy", "ismcts")

DUEL_RIVALS = tuple(label for label in BOTS if label not in ("pimc", "pimc-maxn"))
"""The labels ``duel`` can seat against ``pimc``."""

DEFAULT_DUEL_RIVALS = ("search", "greedy", "ismcts")


PRICE_BOTS = ("pimc", "pimc-many", *(label for label in BOTS if label != "pimc"))
"""The labels the price table knows: the policies of the loss table (``pimc-told`` is not one)."""


def _labels_help(what: str, known: Sequence[str], default: Sequence[str]) -> str:
    """The help of a labels option: ``what``, its default and the other labels it takes."""
    others = ", ".join(label for label in known if label not in default)
    return f"{what} (default {','.join(default)}; also {others})"


def _labels_of(known: Sequence[str]) -> Callable[[str], list[str]]:
    """An option's type for argparse: labels separated by commas, each one of ``known``."""

    def labels_of(text: str) -> list[str]:
        labels = [label.strip() for label in text.split(",")]
        for label in labels:
            if label not in known:
                raise argparse.ArgumentTypeError(
                    f"unknown bot {label!r} in {text!r} (choose from {', '.join(known)})"
                )
        return labels

    return labels_of


def _available(labels: Sequence[str]) -> str | None:
    """Why the bots cannot all be made (a missing extra), or None."""
    for label in labels:
        try:
            make_bot(label)
        except (ExpressError, MissingExtraError) as missing:
            return str(missing)
    return None


def playable_bots(labels: Sequence[str]) -> tuple[list[str], list[str]]:
    """``labels`` without the bots that cannot be made here (a missing extra), and a line
    saying which were left out and why (none when all can be made)."""
    kept, dropped, why = [], [], ""
    for label in labels:
        reason = _available([label]) if label in BOTS else None
        if reason is None:
            kept.append(label)
        else:
            dropped.append(label)
            why = reason
    return kept, ([f"({', '.join(dropped)} left out: {why})"] if dropped else [])


def shuffled_orders(count: int, seed: int) -> list[tuple[Card, ...]]:
    """``count`` shuffles of the 2-player deck, reproducible from ``seed``."""
    deck = deck_for(2)
    rng = np.random.default_rng(seed)
    return [tuple(deck[i] for i in rng.permutation(len(deck))) for _ in range(count)]


def told_worlds(game: Game, count: int, rng: np.random.Generator) -> Iterator[Game]:
    """``count`` worlds of a known-order two-player ``game`` as ``pimc-told`` sees them (a
    cheat, like ``perfect``): the true game with the cards not drawn yet shuffled uniformly, so
    the deck's order is all they leave unknown."""
    assert game.order is not None
    drawn = list(game.order[: len(game.drawn)])
    rest = list(game.order[len(game.drawn) :])
    for _ in range(count):
        world = game.clone()
        world.order = tuple(drawn + [rest[i] for i in rng.permutation(len(rest))])
        yield world


def told_pimc_play(game: Game, worlds: int, rng: np.random.Generator) -> Play:
    """``pimc``'s play when it is told the other player's face-down cards: each of ``worlds``
    :func:`told_worlds` is solved exactly (:func:`express.exact.play_values`); the best mean
    wins, ties to the first legal play."""
    sums: dict[Play, float] = {}
    for world in told_worlds(game, worlds, rng):
        for action, value in play_values(world).items():
            sums[action] = sums.get(action, 0.0) + value
    legal = [action for action in game.legal_actions() if isinstance(action, Play)]
    return max(legal, key=lambda action: sums[action])


def _told_game(order: tuple[Card, ...], seat: int, deal: int, worlds: int) -> Game:
    """One known-order game of ``pimc-told`` in ``seat`` against ``perfect``, played out."""
    game = Game(2, order=order)
    perfect = bot("perfect", order=order)
    rng = np.random.default_rng([deal, seat])
    while not game.is_terminal():
        player = game.current_player()
        if player == seat:
            game.apply_action(told_pimc_play(game, worlds, rng))
        else:
            observation = game.observation(player)
            game.apply_action(perfect.act(observation, game.legal_actions(), rng))
    return game


def deal_loss(label: str, many_worlds: int, deal: int, order: tuple[Card, ...]) -> float:
    """``label``'s loss against perfect play on one known-order deal: the bot in each seat in
    turn, the mean of how far its side ends below the deal's exact value."""
    value = solve_deal(Game(2, order=order)).value
    perfect = bot("perfect", order=order)
    losses = []
    for seat in (0, 1):
        if label == "pimc-told":
            game = _told_game(order, seat, deal, DEFAULT_WORLDS)
        else:
            player = make_bot(label, many_worlds)
            seats = [player, perfect] if seat == 0 else [perfect, player]
            game = play(Game(2, order=order), seats, seed=deal)
        score = game.score()
        difference = score.players[0].total - score.players[1].total
        losses.append(value - difference if seat == 0 else difference - value)
    return statistics.mean(losses)


def information_price(values: Sequence[dict[Play, int]]) -> float:
    """What not knowing the world costs one decision at the least: over ``values`` (every
    play's exact value in each world, :func:`express.exact.play_values`), the mean of the best
    play's value less the best mean of one play. A player who must choose one play for all the
    worlds expects to end that much below one who knows the world, or more (its expected loss
    at this decision is the mean best less its play's mean)."""
    best_each = statistics.fmean(max(world.values()) for world in values)
    best_mean = max(statistics.fmean(world[play] for world in values) for play in values[0])
    return best_each - best_mean


def deal_price(
    label: str, worlds: int, deal: int, order: tuple[Card, ...]
) -> tuple[float, float, float]:
    """``label`` against ``perfect`` on one known-order deal (the loss table's games: same
    seeds), the bot in each seat in turn; the means over the two seats of its loss and of the
    :func:`information_price` of its decisions, summed over the game, with ``worlds`` worlds
    drawn as ``pimc`` draws them (:func:`express.worlds.sample_worlds`) and with ``worlds``
    :func:`told_worlds`.

    The loss is the sum over the bot's decisions of its play's shortfall from the best play's
    exact value (the perfect player's never fall short); the function checks that identity."""
    value = solve_deal(Game(2, order=order)).value
    losses, prices, told_prices = [], [], []
    for seat in (0, 1):
        game = Game(2, order=order)
        policies = [make_bot(label), bot("perfect", order=order)]
        if seat == 1:
            policies.reverse()
        _, streams = seat_streams(deal, 2)  # what play(..., seed=deal) gives the seats
        measuring = np.random.default_rng([deal, seat])  # its own: the games stay the same
        shortfall = price = told_price = 0.0
        while not game.is_terminal():
            player = game.current_player()
            observation, legal = game.observation(player), game.legal_actions()
            action = policies[player].act(observation, legal, streams[player])
            if player == seat and len(legal) > 1:
                exact = play_values(game)
                shortfall += max(exact.values()) - exact[action]
                sampled = sample_worlds(game_view(observation), worlds, measuring)
                price += information_price([play_values(world) for world in sampled])
                told = told_worlds(game, worlds, measuring)
                told_price += information_price([play_values(world) for world in told])
            game.apply_action(action)
        score = game.score()
        difference = score.players[0].total - score.players[1].total
        loss = value - difference if seat == 0 else difference - value
        if loss != shortfall:
            raise AssertionError(
                f"deal {deal}, seat {seat}: loss {loss} but shortfalls {shortfall}"
            )
        losses.append(loss)
        prices.append(price)
        told_prices.append(told_price)
    return statistics.mean(losses), statistics.mean(prices), statistics.mean(told_prices)


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    """The executor the options choose; None (this process) for one local worker."""
    if args.scheduler is None and args.cluster is None and args.workers == 1:
        yield None
        return
    chosen = (
        {"scheduler": args.scheduler}
        if args.scheduler is not None
        else {"cluster": args.cluster}
        if args.cluster is not None
        else {"workers": args.workers}
    )
    with executor_from(**chosen) as executor:
        yield executor


def _per_deal(
    executor: Executor | None,
    task: Callable[[int, tuple[Card, ...]], T],
    orders: Sequence[tuple[Card, ...]],
    desc: str,
) -> list[T]:
    """``task(deal, order)`` for every deal, on the executor (None: in this process), in the
    deals' order, with progress."""
    deals = range(len(orders))
    results = map(task, deals, orders) if executor is None else executor.map(task, deals, orders)
    out = []
    with progress(len(orders), desc=desc, unit="deal") as bar:
        for result in results:
            out.append(result)
            bar.update()
    return out


def loss(args: argparse.Namespace) -> list[str]:
    """Each bot's mean loss against perfect play (two players, both seats)."""
    labels, left_out = playable_bots(args.loss_bots)
    orders = shuffled_orders(args.loss_deals, args.seed)
    lines = [
        f"Two players, mean loss against perfect play over {len(orders)} deals (the bot in both "
        f"seats; 95 % interval over deals; pimc-many = pimc with {args.many_worlds} worlds)",
        "",
        "| bot | mean loss | 95 % interval | perfect deals |",
        "|---|---:|---|---:|",
    ]
    with _executor(args) as executor:
        for label in labels:
            task = partial(deal_loss, label, args.many_worlds)
            losses = _per_deal(executor, task, orders, f"loss of {label}")
            mean, low, high = mean_interval(losses)
            perfect = sum(1 for x in losses if x == 0)
            lines.append(f"| {label} | {mean:.2f} | {low:.2f} – {high:.2f} | {perfect} |")
    return lines + left_out


def price(args: argparse.Namespace) -> list[str]:
    """What the unknown deck order costs the bots' decisions, on the loss table's games."""
    labels, left_out = playable_bots(args.price_bots)
    orders = shuffled_orders(args.loss_deals, args.seed)
    lines = [
        f"Two players against perfect play over {len(orders)} deals (the loss table's games, "
        f"both seats): each bot's loss, and the information price of its decisions summed over "
        f"a game, in worlds drawn as pimc draws them and in told worlds ({args.price_worlds} "
        f"worlds a decision; mean per deal, 95 % interval over deals)",
        "",
        "| bot | loss | price, pimc's worlds | price, told worlds |",
        "|---|---|---|---|",
    ]
    with _executor(args) as executor:
        for label in labels:
            task = partial(deal_price, label, args.price_worlds)
            rows = _per_deal(executor, task, orders, f"price of {label}")
            cells = []
            for column in zip(*rows, strict=True):
                mean, low, high = mean_interval(list(column))
                cells.append(f"{mean:.2f} ({low:.2f} – {high:.2f})")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines + left_out


def _tournament(
    args: argparse.Namespace, name: str, players: int, labels: Sequence[str], deals: int
) -> list[str]:
    missing = _available(labels)
    if missing is not None:
        return [f"{name}: skipped ({missing})"]
    checkpoint = None
    if args.checkpoints is not None:
        Path(args.checkpoints).mkdir(parents=True, exist_ok=True)
        checkpoint = Path(args.checkpoints) / f"{name}-seed{args.seed}-{deals}.ckpt"
    with _executor(args) as executor:
        result = arena.tournament(
            partial(Game, players),
            {label: make_bot(label) for label in labels},
            games=deals,
            seed=args.seed,
            executor=executor,
            progress=True,
            checkpoint=checkpoint,
        )
    lines = [
        f"{name}: {players} players, {result.deals} deals x {players} seatings = "
        f"{result.deals * players} games (seed {args.seed})"
        + (f", INTERRUPTED after {result.deals} of {deals} deals" if result.interrupted else ""),
        "",
        "| bot | win share | 95 % interval | mean points |",
        "|---|---:|---|---:|",
    ]
    for s in sorted(result.stats, key=lambda s: -s.win_rate):
        low, high = s.win_interval
        lines.append(
            f"| {s.name} | {100 * s.win_rate:.1f} % | {100 * low:.1f} – {100 * high:.1f} % | "
            f"{s.mean_points:.2f} |"
        )
    return lines


def duel(args: argparse.Namespace) -> list[str]:
    """Two players: pimc against each rival of ``--duel-rivals`` (by default search, greedy
    and ismcts at 100 simulations), each duel on the same deals."""
    lines: list[str] = []
    for rival in args.duel_rivals:
        lines += _tournament(args, f"duel-{rival}", 2, ["pimc", rival], args.duel_deals)
        lines.append("")
    return lines[:-1]


def three(args: argparse.Namespace) -> list[str]:
    """Three players: pimc, ismcts (100 simulations), search."""
    return _tournament(args, "three", 3, ["pimc", "ismcts", "search"], args.three_deals)


def four(args: argparse.Namespace) -> list[str]:
    """Four players: pimc, ismcts (100 simulations), search, greedy."""
    return _tournament(args, "four", 4, ["pimc", "ismcts", "search", "greedy"], args.four_deals)


def strong(args: argparse.Namespace) -> list[str]:
    """Three players against ismcts at 1,000 simulations, on a small sample."""
    return _tournament(args, "strong", 3, ["pimc", "ismcts1000", "search"], args.strong_deals)


def strong_duel(args: argparse.Namespace) -> list[str]:
    """Two players: pimc against ismcts at 1,000 simulations, on a small sample."""
    return _tournament(args, "strong-duel", 2, ["pimc", "ismcts1000"], args.strong_duel_deals)


def rules(args: argparse.Namespace) -> list[str]:
    """Three players: pimc's two rules for a world's value, against each other and search."""
    return _tournament(args, "rules", 3, ["pimc", "pimc-maxn", "search"], args.rules_deals)


def time_per_decision(args: argparse.Namespace) -> list[str]:
    """Seconds per decision of every bot, timed in whole games (in this process)."""
    labels, left_out = playable_bots(["pimc", "search", "greedy", "ismcts"])
    lines = [
        f"Seconds per decision, {args.time_games} games per player count (every bot seated "
        f"in every game, seats rotating); pimc's targets: median ≤ {MEDIAN_TARGET} s, "
        f"worst ≤ {WORST_TARGET} s",
        "",
        "| players | bot | decisions | mean | median | 95th percentile | worst |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for players in (2, 3, 4):
        timed = {label: Timed(make_bot(label)) for label in labels}
        for g in range(args.time_games):
            # Rotate who sits where, so every bot plays in every player count.
            at_table = [labels[(g + i) % len(labels)] for i in range(players)]
            play(Game(players), [timed[label] for label in at_table], seed=args.seed + g)
        for label in labels:
            seconds = timed[label].seconds
            if not seconds:
                continue
            verdict = ""
            if label == "pimc":
                ok = statistics.median(seconds) <= MEDIAN_TARGET and max(seconds) <= WORST_TARGET
                verdict = " (meets the targets)" if ok else " (MISSES a target)"
            lines.append(
                f"| {players} | {label}{verdict} | {len(seconds)} | {statistics.mean(seconds):.3f} | "
                f"{statistics.median(seconds):.3f} | {percentile(seconds, 0.95):.3f} | "
                f"{max(seconds):.3f} |"
            )
    return lines + left_out


def endgame(args: argparse.Namespace) -> list[str]:
    """Each bot's summed regret over the last k turns against the exact expectiminimax, on the
    positions of seeded games of pimc against itself (:mod:`benchmarks.endgame`)."""
    labels, turns = list(args.endgame_bots), args.endgame_turns
    task = regret_task(labels, args.seed, turns)
    games = range(args.endgame_games)
    rows: list[dict[str, list[Fraction]]] = []
    with _executor(args) as executor:
        results = map(task, games) if executor is None else executor.map(task, games)
        with progress(len(games), desc="endgame", unit="game") as bar:
            for result in results:
                rows.append(result)
                bar.update()
    header = " | ".join(f"last {k}" for k in range(1, turns + 1))
    lines = [
        f"Two players, regret against the exact expectiminimax summed over the last k turns "
        f"(both players' decisions), {len(rows)} games of pimc against itself (seed "
        f"{args.seed}); mean points a game (95 % interval over games)",
        "",
        f"| bot | {header} | decisions with a regret |",
        "|---|" + "---|" * turns + "---:|",
    ]
    for label in labels:
        cells = []
        for k in range(1, turns + 1):
            sums = [float(sum(row[label][:k])) for row in rows]
            mean, low, high = mean_interval(sums)
            cells.append(f"{mean:.3f} ({low:.3f} – {high:.3f})")
        decisions = [regret for row in rows for regret in row[label]]
        missed = sum(1 for regret in decisions if regret > 0)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {missed} of {len(decisions)} |")
    return lines


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "time": time_per_decision,
    "loss": loss,
    "price": price,
    "duel": duel,
    "three": three,
    "four": four,
    "strong": strong,
    "strong-duel": strong_duel,
    "rules": rules,
    "endgame": endgame,
}
"""The sections of the suite, in the order they run."""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks express-strength", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=at_least(0), default=1, help="deals' seed (default 1)")
    parser.add_argument(
        "--loss-deals", type=at_least(1), default=50, help="loss deals (default 50)"
    )
    parser.add_argument(
        "--many-worlds", type=at_least(1), default=96, help="pimc-many's worlds (default 96)"
    )
    parser.add_argument(
        "--loss-bots",
        type=_labels_of(LOSS_BOTS),
        default=list(DEFAULT_LOSS_BOTS),
        help=_labels_help("the bots of the loss table", LOSS_BOTS, DEFAULT_LOSS_BOTS),
    )
    parser.add_argument(
        "--price-bots",
        type=_labels_of(PRICE_BOTS),
        default=["pimc"],
        help=_labels_help("the bots of the price table", PRICE_BOTS, ["pimc"]),
    )
    parser.add_argument(
        "--price-worlds",
        type=at_least(1),
        default=32,
        help="worlds a decision of the price (default 32)",
    )
    parser.add_argument(
        "--duel-deals", type=at_least(1), default=200, help="duel deals (default 200)"
    )
    parser.add_argument(
        "--duel-rivals",
        type=_labels_of(DUEL_RIVALS),
        default=list(DEFAULT_DUEL_RIVALS),
        help=_labels_help("pimc's rivals in the duels", DUEL_RIVALS, DEFAULT_DUEL_RIVALS),
    )
    parser.add_argument("--three-deals", type=at_least(1), default=100, help="3-player deals (100)")
    parser.add_argument("--four-deals", type=at_least(1), default=100, help="4-player deals (100)")
    parser.add_argument(
        "--strong-deals", type=at_least(1), default=20, help="ismcts1000 deals (20)"
    )
    parser.add_argument(
        "--strong-duel-deals",
        type=at_least(1),
        default=50,
        help="2-player ismcts1000 deals (50)",
    )
    parser.add_argument("--rules-deals", type=at_least(1), default=100, help="rules deals (100)")
    parser.add_argument("--time-games", type=at_least(1), default=4, help="timed games (default 4)")
    parser.add_argument(
        "--endgame-games", type=at_least(1), default=100, help="endgame games (default 100)"
    )
    parser.add_argument(
        "--endgame-turns",
        type=at_least(1),
        default=5,
        help="the last turns the endgame table measures (default 5; 6 takes about ten times longer)",
    )
    parser.add_argument(
        "--endgame-bots",
        type=_labels_of(tuple(ENDGAME_BOTS)),
        default=list(DEFAULT_ENDGAME_BOTS),
        help=_labels_help(
            "the bots of the endgame table", tuple(ENDGAME_BOTS), DEFAULT_ENDGAME_BOTS
        ),
    )
    parser.add_argument(
        "--checkpoints", metavar="DIR", help="save tournaments' deals in DIR, to resume"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=at_least(1),
        default=usable_cores(),
        help="local worker processes (default: the usable cores; 1 = in this process)",
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (the dask extra)")
    where.add_argument("--cluster", metavar="local:N", help="a Dask LocalCluster (the dask extra)")
    return run_sections(parser, argv, SECTIONS, "Yardmaster Express strength")
