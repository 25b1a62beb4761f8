"""The designer page's endpoints: decks compared side by side with charts
(``POST /api/packing/compare``), and decks kept by name (``GET``/``POST /api/decks``,
``PATCH``/``DELETE /api/decks/{id}``).

A comparison is :func:`packing.design.deck_report` of each deck's exact table: the table
registry's (:func:`packing.table.find_table`: registered, shipped or built before),
else built here, one column per truck not already solved (the sample deck's shipped columns
are reused, so a deck sharing trucks with it solves only its new ones), and saved in the user's
table folder, so that ``packing stats`` of the same deck finds it at once. The charts are drawn
here with :class:`arena.svg.Svg`: the pages add no arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from fastapi import APIRouter, Request

from arena.svg import PHONE_WIDTH, Svg, text_width
from webapp.api import read_body, runner
from webapp.errors import BadRequest
from webapp.store import Store

__all__ = [
    "COMPARE_SECONDS",
    "LARGEST_DECK_TEXT",
    "LARGEST_NAME",
    "MOST_DECKS",
    "compare_answer",
    "router",
]

MOST_DECKS = 4
"""The most decks one comparison takes."""

LARGEST_DECK_TEXT = 64_000
"""The most characters of one deck file's text."""

LARGEST_NAME = 60
"""The most characters of a saved deck's name or a comparison's label."""

COMPARE_SECONDS = 120.0
"""The wall time of a comparison (its process is stopped past it)."""

LARGEST_BODY = MOST_DECKS * LARGEST_DECK_TEXT * 2 + 10_000
"""The most bytes a request to these endpoints may hold (room for JSON's escapes)."""

#: The lines' colours of the charts, one per deck (blue, orange, green, purple).
COLOURS = ("#1f6feb", "#d9480f", "#1a7f37", "#8250df")

router = APIRouter()


# --- checking the input -------------------------------------------------------------------------


def _object(body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    return body


def _unknown(body: dict[str, Any], known: Sequence[str]) -> None:
    for name in body:
        if name not in known:
            raise BadRequest(f"unknown field {name!r} (the fields: {', '.join(known)})")


def _deck_text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise BadRequest(f"field {field!r}: a deck file's text (a string) is wanted")
    if len(value) > LARGEST_DECK_TEXT:
        raise BadRequest(
            f"field {field!r}: {len(value):,} characters, more than {LARGEST_DECK_TEXT:,}"
        )
    return value


def _name(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"field {field!r}: a name (a non-empty string) is wanted")
    name = " ".join(value.split())
    if len(name) > LARGEST_NAME:
        raise BadRequest(f"field {field!r}: {len(name)} characters, more than {LARGEST_NAME}")
    return name


def _parsed(text: str, field: str) -> tuple[Any, ...]:
    """The trucks of a deck file's text, or one line saying what is wrong with it."""
    from packing.deck import parse_deck
    from packing.errors import PackingError

    try:
        trucks = parse_deck(text, source=field)
    except PackingError as error:
        raise BadRequest(" ".join(str(error).split())) from None
    if not trucks:
        raise BadRequest(f"field {field!r}: the deck holds no truck")
    return trucks


# --- the comparison (in a process of its own) ---------------------------------------------------


def _table(deck: tuple[Any, ...], cache: Any) -> Any:
    """The deck's table from the registry, else built from ``cache`` and saved for later."""
    from packing.errors import PackingError
    from packing.table import find_table, register, table_filename, user_table_dir

    found = find_table(deck)
    if found is not None:
        return found
    table = cache.table(deck)
    register(table)
    try:
        table.save(user_table_dir() / table_filename(deck))
    except (OSError, PackingError):  # an unwritable table folder only costs time next time
        pass
    return table


def compare_answer(texts: list[str], labels: list[str]) -> dict[str, Any]:
    """Worker task: the report of each deck (as ``packing decks compare --json`` gives it)
    and the charts. Module level: it runs in a process of its own."""
    from packing.deck import SAMPLE_DECK
    from packing.design import ColumnCache, deck_report

    decks = [_parsed(text, f"decks[{i}]") for i, text in enumerate(texts)]
    cache = ColumnCache()
    cache.missing([SAMPLE_DECK, *decks])  # the shipped table's columns are never solved again
    reports = [deck_report(_table(deck, cache), label=label) for deck, label in zip(decks, labels)]
    data = [report.to_dict() for report in reports]
    return {
        "decks": data,
        "charts": {
            "best_by_volume": by_volume_chart(data),
            "p_best": [p_best_chart(d, COLOURS[i % len(COLOURS)]) for i, d in enumerate(data)],
        },
    }


def _fraction_label(value: float) -> str:
    return f"{value:.1%}"


def by_volume_chart(reports: Sequence[dict[str, Any]]) -> str:
    """A line per deck: the expected penalty of its best truck at each load volume 1..40."""
    left, right, top, bottom = 40.0, 12.0, 30.0, 38.0
    plot_w, plot_h = PHONE_WIDTH - left - right, 170.0  # a phone shows it at 100 %
    legend = 18.0 * len(reports)
    svg = Svg(
        left + plot_w + right,
        top + plot_h + bottom + legend,
        title="expected penalty of the best truck, by load volume",
    )
    values = [float(v) for r in reports for v in r["best_by_volume"].values()]
    highest = max([1.0, *values])
    step = 1.0 if highest <= 5 else 2.0 if highest <= 10 else 5.0 if highest <= 25 else 10.0
    ceiling = step * -(-highest // step)

    def x_of(volume: float) -> float:
        return left + (volume - 1) / 39 * plot_w

    def y_of(value: float) -> float:
        return top + plot_h - value / ceiling * plot_h

    svg.text(
        left, 16, "Best truck's expected penalty by load volume", font_size=12, font_weight=700
    )
    tick = 0.0
    while tick <= ceiling + 1e-9:
        svg.line((left, y_of(tick)), (left + plot_w, y_of(tick)), stroke="#e3e6e9")
        svg.text(left - 4, y_of(tick) + 4, f"{tick:g}", font_size=10, text_anchor="end")
        tick += step
    for volume in (1, 10, 20, 30, 40):
        svg.text(x_of(volume), top + plot_h + 14, volume, font_size=10, text_anchor="middle")
    svg.text(
        left + plot_w / 2,
        top + plot_h + 28,
        "load volume (cubes)",
        font_size=10,
        text_anchor="middle",
    )
    svg.line((left, top), (left, top + plot_h), stroke="#5b6670")
    svg.line((left, top + plot_h), (left + plot_w, top + plot_h), stroke="#5b6670")
    for i, report in enumerate(reports):
        colour = COLOURS[i % len(COLOURS)]
        points = [(x_of(int(v)), y_of(float(e))) for v, e in report["best_by_volume"].items()]
        svg.polyline(points, stroke=colour, stroke_width=2)
        y = top + plot_h + bottom + 18.0 * i + 6
        svg.line((left, y), (left + 22, y), stroke=colour, stroke_width=3)
        label = f"{report['deck']}: mean {report['best_mean_penalty']:.2f}"
        svg.text(left + 28, y + 4, label, font_size=11)
    return str(svg)


def p_best_chart(report: dict[str, Any], colour: str = COLOURS[0]) -> str:
    """A bar per truck of the deck: how often it is the best truck (ties count as best)."""
    trucks = report["trucks"]
    names = [str(t["truck"]) for t in trucks]
    label_w = min(110.0, max([30.0, *(text_width(n, 11) for n in names)]) + 6)
    bar_w, row, top = PHONE_WIDTH - label_w - 52, 16.0, 30.0  # a phone shows it at 100 %
    highest = max([0.01, *(float(t["p_best"]) for t in trucks)])
    svg = Svg(label_w + bar_w + 52, top + row * len(trucks) + 8, title=f"{report['deck']}: P(best)")
    svg.text(0, 16, f"{report['deck']}: P(best) per truck", font_size=12, font_weight=700)
    for i, truck in enumerate(trucks):
        y = top + row * i
        name = names[i] if len(names[i]) <= 16 else names[i][:15] + "…"
        svg.text(label_w - 6, y + 11, name, font_size=11, text_anchor="end")
        width = float(truck["p_best"]) / highest * bar_w
        svg.rect(label_w, y + 2, max(width, 0.5), row - 4, fill=colour)
        svg.text(label_w + width + 4, y + 11, _fraction_label(float(truck["p_best"])), font_size=10)
    return str(svg)


# --- the endpoints ------------------------------------------------------------------------------


@router.post(
    "/api/packing/compare",
    tags=["designer"],
    summary="decks side by side, with charts",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "decks": {
                                "type": "array",
                                "minItems": 1,
                                "maxItems": MOST_DECKS,
                                "items": {"type": "string", "maxLength": LARGEST_DECK_TEXT},
                                "description": "the decks' file texts (1 to 4)",
                            },
                            "labels": {
                                "type": "array",
                                "items": {"type": "string", "maxLength": LARGEST_NAME},
                                "description": "a label per deck (default: deck 1, deck 2, …)",
                            },
                        },
                        "required": ["decks"],
                        "additionalProperties": False,
                    }
                }
            },
        }
    },
)
async def compare(request: Request) -> dict[str, Any]:
    """What `packing decks compare --json` says of each deck (coverage, balance, skill, the best
    truck's expected penalty by load volume, each truck's P(best) and expected penalty, the
    published facts it breaks) as `decks`, and `charts`: `best_by_volume`, an SVG of a line per
    deck, and `p_best`, an SVG bar chart per deck.

    **Limits.** At most 4 decks of at most 64,000 characters each, labels of at most 60. A deck
    without a table has its table built (each truck not in the sample deck: 900 solves); it runs
    in a process of its own, stopped after 120 s (HTTP 422 then; 503 while every slot for long
    answers is taken). Bad input: `{"error": "one line"}`, HTTP 422."""
    body = _object(await read_body(request, limit=LARGEST_BODY))
    _unknown(body, ("decks", "labels"))
    decks = body.get("decks")
    if not isinstance(decks, list) or not decks:
        raise BadRequest("field 'decks': a list of 1 to 4 deck file texts is wanted")
    if len(decks) > MOST_DECKS:
        raise BadRequest(f"field 'decks': {len(decks)} decks, more than {MOST_DECKS}")
    texts = [_deck_text(text, f"decks[{i}]") for i, text in enumerate(decks)]
    for i, text in enumerate(texts):
        _parsed(text, f"decks[{i}]")  # one line now, before any process is started
    given = body.get("labels")
    if given is None:
        labels = [f"deck {i}" for i in range(1, len(texts) + 1)]
    elif not isinstance(given, list) or len(given) != len(texts):
        raise BadRequest(f"field 'labels': a list of {len(texts)} labels, one per deck, is wanted")
    else:
        labels = [_name(label, f"labels[{i}]") for i, label in enumerate(given)]
    return await runner(request).heavy(
        compare_answer, texts, labels, seconds=COMPARE_SECONDS, label="a deck comparison"
    )


@router.get("/api/decks", tags=["designer"], summary="the saved decks")
async def saved_decks(request: Request) -> dict[str, Any]:
    """The decks saved with `POST /api/decks`, newest first: `{"decks": [{id, name, text,
    created}]}` (the server keeps the latest 200)."""
    store: Store = request.app.state.store
    decks = await runner(request).cheap(store.decks)
    return {"decks": [deck.to_dict() for deck in decks]}


_NAME_SCHEMA = {
    "type": "string",
    "maxLength": LARGEST_NAME,
    "description": "the deck's name (at most 60 characters, unique whatever its case)",
}

_SAVE_SCHEMA = {
    "type": "object",
    "properties": {
        "name": _NAME_SCHEMA,
        "text": {
            "type": "string",
            "maxLength": LARGEST_DECK_TEXT,
            "description": "the deck file's text (it must parse)",
        },
        "replace": {
            "type": "boolean",
            "description": "replace the saved deck of that name (default false: 409 instead)",
        },
    },
    "required": ["name", "text"],
    "additionalProperties": False,
}


@router.post(
    "/api/decks",
    tags=["designer"],
    summary="save a deck",
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": _SAVE_SCHEMA}}}
    },
)
async def save_deck(request: Request) -> dict[str, Any]:
    """Keep a deck by name: `{id, name, text, created}` of the saved deck.

    **Limits.** The name at most 60 characters; the text at most 64,000 characters and a deck
    file that parses (`packing.deck.parse_deck`), holding at least one truck. Names are unique
    whatever their case: a name already saved is HTTP 409, unless `replace` is true (the saved
    deck of that name then takes the new text and keeps its id). Bad input:
    `{"error": "one line"}`, HTTP 422. The server keeps the latest 200 decks."""
    body = _object(await read_body(request, limit=LARGEST_BODY))
    _unknown(body, ("name", "text", "replace"))
    name = _name(body.get("name"), "name")
    text = _deck_text(body.get("text"), "text")
    replace = body.get("replace", False)
    if not isinstance(replace, bool):
        raise BadRequest(f"field 'replace': {replace!r} is not true or false")
    _parsed(text, "text")
    store: Store = request.app.state.store
    saved = await runner(request).cheap(partial(store.add_deck, replace=replace), name, text)
    return saved.to_dict()


@router.patch(
    "/api/decks/{deck_id}",
    tags=["designer"],
    summary="rename a saved deck",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {"name": _NAME_SCHEMA},
                        "required": ["name"],
                        "additionalProperties": False,
                    }
                }
            },
        }
    },
)
async def rename_deck(request: Request, deck_id: str) -> dict[str, Any]:
    """Give a saved deck a new name (`{"name": …}`): `{id, name, text, created}` of the deck.
    HTTP 404 when there is no such deck, 409 when another deck has that name (whatever its
    case), 422 for a name that is empty or longer than 60 characters."""
    body = _object(await read_body(request, limit=LARGEST_BODY))
    _unknown(body, ("name",))
    name = _name(body.get("name"), "name")
    store: Store = request.app.state.store
    renamed = await runner(request).cheap(store.rename_deck, deck_id, name)
    return renamed.to_dict()


@router.delete("/api/decks/{deck_id}", tags=["designer"], summary="delete a saved deck")
async def delete_deck(request: Request, deck_id: str) -> dict[str, str]:
    """Forget a saved deck: `{"deleted": id}`; HTTP 404 when there is no such deck."""
    store: Store = request.app.state.store
    await runner(request).cheap(store.delete_deck, deck_id)
    return {"deleted": deck_id}
