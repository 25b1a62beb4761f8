"""The answer of the optimal-train search (:func:`express.best_train`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from express.cabooses import Caboose
from express.train import Play, Train

__all__ = ["TrainSolution"]


@dataclass(frozen=True)
class TrainSolution:
    """The answer of :func:`~express.best_train`, an exact solver: the plays added to ``start``
    and the proof statistics.

    ``score``, ``value`` and ``longest_run`` describe the whole train (``start`` plus ``plays``);
    ``optimal`` is True unless a node or time limit stopped the search, in which case the train
    is the best one found. ``nodes`` counts the states searched; ``count`` is the number of
    distinct optimal trains when ``count_optimal`` was asked (else None). ``seconds`` (the wall
    time) is left out of equality: two identical searches are equal results.
    """

    start: Train
    plays: tuple[Play, ...]
    score: int
    value: int
    longest_run: int
    run_bonus: int
    caboose: Caboose | None
    caboose_points: int
    optimal: bool
    nodes: int
    count: int | None
    seconds: float = field(compare=False)

    @property
    def train(self) -> Train:
        """The whole train: ``start`` followed by ``plays``."""
        return self.start.extend(self.plays)

    def __str__(self) -> str:
        """The train and its score in one line (``repr`` stays the whole value)."""
        parts = [f"value {self.value}"]
        if self.run_bonus:
            parts.append(f"run bonus {self.run_bonus}")
        if self.caboose is not None:
            parts.append(f"caboose {self.caboose_points}")
        proof = "optimal" if self.optimal else "best found, not proven optimal (a limit stopped it)"
        train = str(self.train) or "(no card)"
        return f"train {train}: {' + '.join(parts)} = score {self.score} ({proof})"

    def _repr_svg_(self) -> str:
        """The train as a picture, for Jupyter, its heading the score (as a train shows)."""
        from express.svg import train_svg  # the pictures import the values: imported on use

        proof = "optimal" if self.optimal else "best found (a limit stopped the search)"
        return train_svg(self.train, title=f"score {self.score}, {proof}")

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON: the train as text, the score breakdown and the statistics."""
        return {
            "start": str(self.start),
            "plays": [str(play) for play in self.plays],
            "train": str(self.train),
            "score": self.score,
            "value": self.value,
            "longest_run": self.longest_run,
            "run_bonus": self.run_bonus,
            "caboose": None if self.caboose is None else self.caboose.name,
            "caboose_points": self.caboose_points,
            "optimal": self.optimal,
            "nodes": self.nodes,
            "count": self.count,
            "seconds": round(self.seconds, 6),
        }
