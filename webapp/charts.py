"""The progress page's charts, as SVG drawn with :class:`arena.svg.Svg` (no matplotlib).

Each chart is a small scatter of values in time order (oldest left) over labelled axes, with an
optional line (a trailing mean) and a legend; its view box is 420 units wide with text of 13
units and more, so it still reads when a phone's page scales it to 360 pixels. A chart with no
values is still a picture: its frame says "no data yet".

>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(trainer_loss_chart([0.0, 1.5, 0.25]))
>>> root.find("{http://www.w3.org/2000/svg}title").text
'Points lost per trainer answer'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.svg import Svg, escape, text_width

__all__ = [
    "WIDTH",
    "Series",
    "chart",
    "nice_ticks",
    "practice_loss_chart",
    "rolling_mean",
    "trainer_loss_chart",
    "trainer_seconds_chart",
]

WIDTH = 420
HEIGHT = 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 52.0, WIDTH - 14.0, 74.0, HEIGHT - 44.0
_AXIS = "#5b6670"
_GRID = "#e3e6e9"
_INK = "#1d2329"
_TICK_SIZE = 13
_POINTS = "#1f6feb"
_MEAN = "#b42318"


@dataclass(frozen=True)
class Series:
    """One set of values drawn on a chart: ``points`` are (x, y) pairs; ``line`` draws them
    joined by a line rather than as dots."""

    name: str
    points: Sequence[tuple[float, float]]
    color: str
    line: bool = False


def rolling_mean(values: Sequence[float], window: int) -> list[float]:
    """The mean of each value and the up to ``window - 1`` values before it.

    >>> rolling_mean([1.0, 3.0, 5.0, 7.0], 2)
    [1.0, 2.0, 4.0, 6.0]
    """
    means = []
    total = 0.0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        means.append(total / min(i + 1, window))
    return means


def _nice_step(rough: float) -> float:
    exponent = math.floor(math.log10(rough))
    fraction = rough / 10**exponent
    nice = next(n for n in (1, 2, 2.5, 5, 10) if fraction <= n + 1e-9)
    return float(nice * 10**exponent)


def nice_ticks(top: float, count: int = 4) -> list[float]:
    """Round ticks from 0 up to at least ``top``, about ``count`` steps.

    >>> nice_ticks(7.3)
    [0.0, 2.0, 4.0, 6.0, 8.0]
    >>> nice_ticks(0)
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if not top > 0 or not math.isfinite(top):
        return [0.0, 0.25, 0.5, 0.75, 1.0]
    step = _nice_step(top / count)
    steps = math.ceil(top / step - 1e-9)
    return [round(i * step, 12) for i in range(steps + 1)]


def _x_ticks(first: float, last: float) -> list[int]:
    """Whole-number ticks between ``first`` and ``last``, at most about six."""
    if last - first < 8:
        return list(range(int(first), int(last) + 1))
    span = last - first
    rough = span / 5
    exponent = 10 ** max(0, math.floor(math.log10(rough))) if rough >= 1 else 1
    step = next(n * exponent for n in (1, 2, 5, 10) if rough <= n * exponent)
    start = math.ceil(first / step) * step
    ticks = [int(first)] if first != start else []
    ticks += list(range(int(start), int(last) + 1, step))
    # the first tick may crowd the next one: keep it only when far enough apart
    if len(ticks) > 1 and ticks[1] - ticks[0] < step * 0.6:
        del ticks[1]
    return ticks


def _label(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    if step > 0 and abs(step * 10**decimals - round(step * 10**decimals)) > 1e-9:
        decimals += 1
    text = f"{value:.{decimals}f}"
    return "0" if float(text) == 0 else text


def chart(
    series: Sequence[Series],
    *,
    title: str,
    y_label: str,
    x_label: str,
    description: str = "",
    empty: str = "no data yet",
) -> str:
    """A chart of ``series`` (x: whole numbers in time order; y: values of 0 and more) with a
    title, the y axis' label above it, the x axis' label below it and a legend."""
    drawing = Svg(WIDTH, HEIGHT, title=title)
    if description:
        drawing.element("desc", escape(description))
    drawing.rect(0, 0, WIDTH, HEIGHT, fill="#ffffff")
    drawing.text(
        WIDTH / 2, 22, _fit(title, 16, WIDTH - 16), font_size=16, font_weight="bold",
        text_anchor="middle", fill=_INK,
    )  # fmt: skip
    drawing.text(8, _TOP - 14, _fit(y_label, 13, WIDTH - 16), font_size=13, fill=_AXIS)
    drawing.text(
        WIDTH / 2, HEIGHT - 8, _fit(x_label, 13, WIDTH - 16), font_size=13,
        text_anchor="middle", fill=_AXIS,
    )  # fmt: skip

    points = [p for s in series for p in s.points]
    if not points:
        drawing.rect(_LEFT, _TOP, _RIGHT - _LEFT, _BOTTOM - _TOP, fill="#f6f7f8", stroke=_GRID)
        drawing.text(
            (_LEFT + _RIGHT) / 2, (_TOP + _BOTTOM) / 2 + 6, empty, font_size=16,
            text_anchor="middle", fill=_AXIS, class_="empty",
        )  # fmt: skip
        return str(drawing)

    _legend(drawing, series)
    first = min(x for x, _ in points)
    last = max(x for x, _ in points)
    low, high = first - 0.5, last + 0.5
    y_ticks = nice_ticks(max(y for _, y in points))
    top = y_ticks[-1]
    step = y_ticks[1] - y_ticks[0]

    def at(x: float, y: float) -> tuple[float, float]:
        px = _LEFT + (x - low) / (high - low) * (_RIGHT - _LEFT)
        py = _BOTTOM - min(max(y, 0.0), top) / top * (_BOTTOM - _TOP)
        return px, py

    with drawing.group(class_="y-axis", font_size=_TICK_SIZE, text_anchor="end", fill=_AXIS):
        for tick in y_ticks:
            _, y = at(first, tick)
            drawing.line((_LEFT, y), (_RIGHT, y), stroke=_GRID, stroke_width=1)
            drawing.text(_LEFT - 6, y + 4.5, _label(tick, step))
    with drawing.group(class_="x-axis", font_size=_TICK_SIZE, text_anchor="middle", fill=_AXIS):
        for tick in _x_ticks(first, last):
            x, _ = at(tick, 0)
            drawing.line((x, _BOTTOM), (x, _BOTTOM + 5), stroke=_AXIS, stroke_width=1)
            drawing.text(x, _BOTTOM + 19, str(tick))
    drawing.line((_LEFT, _TOP), (_LEFT, _BOTTOM), stroke=_AXIS, stroke_width=1)
    drawing.line((_LEFT, _BOTTOM), (_RIGHT, _BOTTOM), stroke=_AXIS, stroke_width=1)

    radius = 3.5 if len(points) <= 60 else 2.5 if len(points) <= 250 else 1.8
    for one in series:
        if one.line:
            if len(one.points) >= 2:
                drawing.polyline(
                    [at(x, y) for x, y in one.points], stroke=one.color, stroke_width=2.5,
                    stroke_linejoin="round", class_="line",
                )  # fmt: skip
            continue
        if not one.points:
            continue
        with drawing.group(fill=one.color, fill_opacity=0.7, class_="points"):
            for x, y in one.points:
                drawing.circle(*at(x, y), radius)
    return str(drawing)


def _legend(drawing: Svg, series: Sequence[Series]) -> None:
    x = 8.0
    y = 44.0
    for one in series:
        if not one.points:
            continue
        width = 22 + text_width(one.name, 13)
        if x + width > WIDTH - 8 and x > 8:
            break  # no room left: the title and description still say what is drawn
        if one.line:
            drawing.line((x, y - 4), (x + 16, y - 4), stroke=one.color, stroke_width=2.5)
        else:
            drawing.circle(x + 8, y - 4, 4.5, fill=one.color, fill_opacity=0.7)
        drawing.text(x + 20, y, one.name, font_size=13, fill=_INK)
        x += width + 14


def _fit(text: str, size: float, room: float) -> str:
    """``text`` cut with an ellipsis to fit ``room`` units at font ``size``."""
    if text_width(text, size) <= room:
        return text
    keep = max(1, int(room / (size * 0.62)) - 1)
    return text[:keep] + "…"


# --- the progress page's three charts ---------------------------------------------------------

MEAN_WINDOW = 10
"""How many answers (or games) the trailing mean line averages."""


def _indexed(values: Sequence[float], first: int) -> list[tuple[float, float]]:
    return [(float(first + i), float(v)) for i, v in enumerate(values)]


def _with_mean(values: Sequence[float], first: int, name: str) -> list[Series]:
    means = rolling_mean(values, MEAN_WINDOW)
    return [
        Series(name, _indexed(values, first), _POINTS),
        Series(f"mean of last {MEAN_WINDOW}", _indexed(means, first), _MEAN, line=True),
    ]


def trainer_loss_chart(losses: Sequence[float], first: int = 1) -> str:
    """Expected points lost per trainer answer, oldest first (numbered from ``first``), with a
    trailing mean."""
    mean = sum(losses) / len(losses) if losses else 0.0
    return chart(
        _with_mean(losses, first, "each answer"),
        title="Points lost per trainer answer",
        y_label="expected points lost (0 = the best grab)",
        x_label="trainer answers, oldest → newest",
        description=f"{len(losses)} answers; mean {mean:.2f} expected points lost",
    )


def trainer_seconds_chart(seconds: Sequence[float], first: int = 1) -> str:
    """Seconds taken per trainer answer, oldest first, with a trailing mean."""
    mean = sum(seconds) / len(seconds) if seconds else 0.0
    return chart(
        _with_mean(seconds, first, "each answer"),
        title="Reaction time per trainer answer",
        y_label="seconds to choose",
        x_label="trainer answers, oldest → newest",
        description=f"{len(seconds)} answers; mean {mean:.1f} seconds",
    )


def practice_loss_chart(losses: Sequence[float], *, game: str, unit: str) -> str:
    """One game's practice games (``game``: its name), oldest first: the mean points lost per
    graded decision in each, measured in ``unit``, with a trailing mean. The two games' losses
    are never drawn on one axis: Pack & Stack's are exact expected points, Express's the
    advisor's estimates."""
    mean = sum(losses) / len(losses) if losses else 0.0
    return chart(
        _with_mean(losses, 1, "each game"),
        title="Points lost per decision, per game",
        y_label=f"mean {unit} lost per decision",
        x_label="practice games, oldest → newest",
        description=f"{game}: {len(losses)} games with graded decisions; mean {mean:.2f} {unit}",
    )
