"""A game of Pack & Stack as text, round by round: what ``packing play`` prints, and what the
PettingZoo environment's ``render()`` shows."""

from __future__ import annotations

from collections.abc import Sequence

from arena.text import plural
from packing.game import Game, RoundRecord

__all__ = ["play_text"]


def play_text(state: Game, names: Sequence[str], seed: int | None = None) -> str:
    """The game round by round, like a game report (what ``packing play`` prints); ``names``
    label the seats, ``seed`` is named in the title (None: not named). A game still under way
    shows its finished rounds and where it stands.

    >>> from packing import bot, play_game
    >>> state = play_game([bot("optimal"), bot("capacity")], seed=1)
    >>> play_text(state, ["optimal", "capacity"], 1).splitlines()[:2]
    ['Pack & Stack: 2 players, 75 points each, seed 1', 'players: P0 optimal, P1 capacity']
    """
    label = [f"P{p} {name}" for p, name in enumerate(names)]
    width = max(map(len, label))
    data = state.to_dict()
    lines = [
        f"Pack & Stack: {state.num_players} players, {data['start_points']} points each"
        + ("" if seed is None else f", seed {seed}")
    ]
    lines.append("players: " + ", ".join(label))
    variants = [truck.name or str(truck) for truck in state.observation(0).deck if truck.is_variant]
    if variants:  # trucks outside the printed game's facts: a reader of the report must know
        lines.append(f"variant trucks in the deck: {', '.join(variants)}")
    records: list[RoundRecord] = list(state.round_records)
    for record in records:
        lines.append("")
        lines += _round_lines(record, label, width)
    lines.append("")
    if not state.is_terminal():
        lines.append(f"under way: {state}")
        return "\n".join(lines)
    winners = sorted(state.winners())
    best = state.points[winners[0]]
    lines.append(
        f"game over after {plural(len(records), 'round')}: "
        + " and ".join(label[p] for p in winners)
        + (" share the win" if len(winners) > 1 else " wins")
        + f" with {best} points"
    )
    return "\n".join(lines)


def _round_lines(record: RoundRecord, label: Sequence[str], width: int) -> list[str]:
    lines = [f"round {record.number} (first roller P{record.first_roller})"]
    n = len(label)
    order = [(record.first_roller + i) % n for i in range(n)]
    for p in order:
        cargo = record.cargos[p]
        trucks = " ".join(f"{t.name}({t.capacity})" for t in record.revealed[p])
        lines.append(
            f"  {label[p]:<{width}}  rolls {str(cargo):<9} = {cargo.volume:>2} cubes, "
            f"reveals {trucks}"
        )
    lines.append("  grab order: " + ", ".join(f"P{p}" for p in record.grab_order))
    for p in record.grab_order:
        truck, source, plan = record.taken[p], record.sources[p], record.plans[p]
        where = "from the pile" if source[0] == "pile" else f"from P{source[1]}"
        lines.append(
            f"  {label[p]:<{width}}  takes {truck.name} {where:<13} loads {plan.loaded:>2}/"
            f"{record.cargos[p].volume:>2} cubes into {truck.capacity:>2} -> penalty "
            f"{record.penalties[p]:>2}{'  +10' if p in record.bonus else ''}"
        )
    lines.append("  standings: " + ", ".join(f"P{p} {x}" for p, x in enumerate(record.points)))
    return lines
