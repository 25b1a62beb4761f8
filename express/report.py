"""A game of Yardmaster Express as text, turn by turn: what ``express play`` prints, and what
the PettingZoo environment's ``render()`` shows."""

from __future__ import annotations

from collections.abc import Sequence

from express.game import Dealt, Game, Turn
from express.review import hindsight
from express.scoring import GameScore
from express.train import Train

__all__ = ["play_text", "score_lines"]


def _cars(train: Train) -> str:
    """A train as a row of cards after the engine; a face-down card shows only its back, ``~``."""
    return " > ".join(
        ["engine", *(str(play.card) if play.face_up else "~" for play in train.plays)]
    )


def score_lines(score: GameScore, names: Sequence[str], trains: Sequence[Train]) -> list[str]:
    """The final scoring's lines: each player's value, run, award, caboose points, total and
    train, the run award, the caboose and the winner; ``names`` label the seats."""
    width = max(len(name) for name in names)
    lines = [
        f"  {'player':<{width + 4}}{'value':>6}{'run':>5}{'award':>7}{'caboose':>9}{'total':>7}  train"
    ]
    for p, train in zip(score.players, trains):
        mark = "*" if p.player == score.start_player else " "
        lines.append(
            f"  {p.player}{mark} {names[p.player]:<{width + 1}}{p.value:>6}{p.longest_run:>5}"
            f"{p.run_bonus:>7}{p.caboose_points:>9}{p.total:>7}  {train}"
        )
    runners = " and ".join(f"{seat} ({names[seat]})" for seat in score.run_winners)
    if score.run_winners:
        lines.append(
            f"longest run {score.longest_run}: player{'s' if len(score.run_winners) > 1 else ''} "
            f"{runners} gain{'' if len(score.run_winners) > 1 else 's'} {score.longest_run}"
        )
    else:
        lines.append("longest run: no coloured car, no award")
    if score.caboose is not None:
        winners = ", ".join(f"{seat} ({names[seat]})" for seat in score.caboose_winners) or "nobody"
        lines.append(
            f"caboose {score.caboose.name} ({score.caboose.points}, {score.caboose.condition}): {winners}"
        )
    winner = score.players[score.winner]
    tied = [p.player for p in score.players if p.total == winner.total]
    note = f" (tie-break among players {', '.join(map(str, tied))})" if len(tied) > 1 else ""
    lines.append(
        f"winner: player {winner.player} ({names[winner.player]}) with {winner.total}{note}"
    )
    return lines


def play_text(
    game: Game, names: Sequence[str], seed: int | None = None, *, with_hindsight: bool = False
) -> str:
    """The game turn by turn (what ``express play`` prints); ``names`` label the seats,
    ``seed`` is named in the title (None: not named). A game still under way shows its turns so
    far; a finished one ends with the final scoring (and, ``with_hindsight``, the best train
    each player could have built from the cards it saw).

    >>> from arena import play
    >>> from express.bots import bot
    >>> game = play(Game(2), [bot("greedy"), bot("random")], seed=3)
    >>> play_text(game, ["greedy", "random"], 3).splitlines()[0]
    'Yardmaster Express, 2 players (greedy, random), seed 3, no caboose'
    """
    names = list(names)
    width = max(len(name) for name in names)
    caboose = (
        "no caboose"
        if game.caboose is None
        else f"caboose {game.caboose.name} ({game.caboose.points}): {game.caboose.condition}"
    )
    lines = [
        f"Yardmaster Express, {game.players} players ({', '.join(names)}), "
        + ("" if seed is None else f"seed {seed}, ")
        + caboose
    ]
    trains = [Train() for _ in range(game.players)]
    for event in game.events:
        if isinstance(event, Dealt):
            lines.append(
                f"player {event.player} ({names[event.player]}) is dealt "
                f"{' '.join(str(card) for card in event.cards)}"
            )
        elif isinstance(event, Turn):
            if event.player == game.start_player:
                lines.append(f"round {event.round}")
            way = "face up" if event.play.face_up else "face down"
            lines.append(
                f"  {event.player} {names[event.player]:<{width}}  draws {event.drew}, holds "
                f"{' '.join(str(card) for card in event.hand)} -> plays {event.play.card} {way}"
            )
            trains[event.player] = event.train
            if event.passed_to is None or event.passed_to == game.start_player:
                for seat, train in enumerate(trains):
                    mark = "*" if seat == game.start_player else " "
                    lines.append(f"    {seat}{mark} {names[seat]:<{width}}  {_cars(train)}")
    if not game.is_terminal():
        return "\n".join(lines)
    lines.append("final scoring (trains in full, ~ = face down)")
    lines.extend(score_lines(game.score(), names, game.trains))
    if with_hindsight:
        lines.append(
            "hindsight: the best train from the cards each player saw (value + own longest run + caboose)"
        )
        for h in hindsight(game):
            lines.append(
                f"  {h.player} {names[h.player]:<{width}}  best {h.best.score} ({h.best.train}), "
                f"actual {h.solo}, gap {h.gap}"
            )
    return "\n".join(lines)
