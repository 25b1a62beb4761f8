"""The grab trainer: Pack & Stack's race, practised. A roll (drawn with its exact odds) and some
revealed trucks of the sample deck appear; the player picks as fast as possible; the pick is
graded by the exact expected points it loses against the best choice
(:func:`packing.stats.grab_decision`, from the deck's optimal table; the pile is the rest of the
deck), and kept with the time it took."""

from __future__ import annotations

import secrets
import time
from typing import Any

import numpy as np

from arena import sample_outcome
from webapp.errors import BadRequest
from webapp.store import Store, TrainerAnswer

__all__ = ["DEFAULT_REVEALED", "MAX_REVEALED", "answer", "deal", "history"]

DEFAULT_REVEALED = 4
MAX_REVEALED = 8
LONGEST_ANSWER = 3600.0
PILE = "the pile"


def _whole(body: dict[str, Any], name: str, low: int, high: int, default: int | None) -> int | None:
    value = body.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"field {name!r}: {value!r} is not a whole number from {low} to {high:,}")
    return value


def _object(body: object, fields: set[str]) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    unknown = sorted(set(body) - fields)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(fields))})")
    return body


def deal(body: object) -> dict[str, Any]:
    """A question: ``{"roll", "volume", "revealed": [trucks with pictures], "pile"}``."""
    from packing.deck import SAMPLE_DECK
    from packing.odds import roll_outcomes
    from webapp.pictures import truck_entry

    fields = _object(body, {"revealed", "seed"})
    count = _whole(fields, "revealed", 1, MAX_REVEALED, DEFAULT_REVEALED)
    seed = _whole(fields, "seed", 0, 2**63 - 1, None)
    rng = np.random.default_rng(secrets.randbits(63) if seed is None else seed)
    cargo = sample_outcome(roll_outcomes(), rng)
    chosen = sorted(rng.choice(len(SAMPLE_DECK), size=count, replace=False).tolist())
    return {
        "roll": ",".join(str(n) for n in cargo.counts),
        "volume": cargo.volume,
        "revealed": [truck_entry(SAMPLE_DECK[j]) for j in chosen],
        "pile": len(SAMPLE_DECK) - len(chosen),
    }


def answer(store: Store, body: object) -> dict[str, Any]:
    """Grade and keep one answer (see the module's docstring)."""
    from packing.deck import SAMPLE_DECK
    from packing.errors import PackingError
    from packing.model import Cargo
    from packing.stats import grab_decision

    fields = _object(body, {"roll", "revealed", "chosen", "seconds"})
    roll = fields.get("roll")
    if isinstance(roll, list):
        roll = ",".join(str(n) for n in roll)
    if not isinstance(roll, str):
        raise BadRequest(f"field 'roll': {roll!r} is not a roll such as '3,2,3,0,1'")
    try:
        cargo = Cargo.parse(roll, roll=True)
    except PackingError as error:
        raise BadRequest(f"field 'roll': {error}") from None
    names = fields.get("revealed")
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    by_name = {t.name: t for t in SAMPLE_DECK}
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= MAX_REVEALED
        or not all(isinstance(n, str) and n in by_name for n in names)
        or len(set(names)) != len(names)
    ):
        raise BadRequest(
            f"field 'revealed': {names!r} is not a list of 1 to {MAX_REVEALED} different truck "
            "names of the sample deck"
        )
    chosen = fields.get("chosen")
    if not isinstance(chosen, str) or (chosen != PILE and chosen not in names):
        raise BadRequest(f"field 'chosen': {chosen!r} is not a revealed truck or {PILE!r}")
    seconds = fields.get("seconds")
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not 0 < seconds <= LONGEST_ANSWER
    ):
        raise BadRequest(f"field 'seconds': {seconds!r} is not a time from 0 to 3,600 seconds")
    revealed = [by_name[n] for n in names]
    pile = [t for t in SAMPLE_DECK if t.name not in names]
    choices = grab_decision(cargo, revealed, pile)
    values = {c.label: float(c.expected_penalty) for c in choices}
    best = choices[0].label
    loss = round(values[chosen] - values[best], 3)
    store.add_trainer_answer(
        TrainerAnswer(time.time(), roll, tuple(names), chosen, best, loss, float(seconds))
    )
    return {
        "roll": roll,
        "chosen": chosen,
        "best": best,
        "loss": loss,
        "seconds": float(seconds),
        "unit": "expected points",
        "choices": [
            {
                "label": c.label,
                "value": round(float(c.expected_penalty), 3),
                "exact": str(c.expected_penalty),
            }
            for c in choices
        ],
    }


def history(store: Store) -> dict[str, Any]:
    """The last 1,000 answers, oldest first, with their count and means."""
    answers = store.trainer_answers(1000)
    count = len(answers)
    return {
        "answers": [a.to_dict() for a in answers],
        "summary": {
            "count": count,
            "mean_loss": round(sum(a.loss for a in answers) / count, 3) if count else None,
            "mean_seconds": round(sum(a.seconds for a in answers) / count, 3) if count else None,
        },
    }
