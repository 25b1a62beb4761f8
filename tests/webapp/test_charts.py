"""webapp.charts: the progress charts are well-formed SVG inside their view box, for no value,
one value and many; titles are escaped; the axes carry labelled ticks."""

from __future__ import annotations

import pytest

from tests.svgcheck import SVG, outside, parse, with_class
from webapp import charts


def _texts(svg: str) -> list[str]:
    return [e.text or "" for e in parse(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize(
    "draw", [charts.trainer_loss_chart, charts.trainer_seconds_chart], ids=["loss", "seconds"]
)
def test_empty_history_draws_a_chart_that_says_so(draw: object) -> None:
    assert callable(draw)
    svg = draw([])
    root = parse(svg)
    assert outside(root) == []
    assert [e.text for e in with_class(root, "empty")] == ["no data yet"]
    assert with_class(root, "points") == []


def test_empty_practice_chart() -> None:
    svg = charts.practice_loss_chart([], game="Pack & Stack", unit="expected points")
    assert outside(parse(svg)) == []
    assert "no data yet" in _texts(svg)


def test_one_point() -> None:
    root = parse(charts.trainer_loss_chart([2.5]))
    assert outside(root) == []
    (points,) = with_class(root, "points")
    assert len(points.findall(f"{SVG}circle")) == 1
    assert with_class(root, "line") == []  # one value makes no line
    assert with_class(root, "empty") == []
    y_ticks = [e.text for e in with_class(root, "y-axis")[0].iter(f"{SVG}text")]
    assert y_ticks[0] == "0" and float(y_ticks[-1] or "") >= 2.5
    x_ticks = [e.text for e in with_class(root, "x-axis")[0].iter(f"{SVG}text")]
    assert x_ticks == ["1"]


def test_many_points_with_a_mean_line() -> None:
    values = [((i * 37) % 11) / 4 for i in range(300)]
    root = parse(charts.trainer_seconds_chart(values, first=41))
    assert outside(root) == []
    (points,) = with_class(root, "points")
    assert len(points.findall(f"{SVG}circle")) == 300
    (line,) = with_class(root, "line")
    assert len(line.attrib["points"].split()) == 300
    x_ticks = [int(e.text or "") for e in with_class(root, "x-axis")[0].iter(f"{SVG}text")]
    assert x_ticks[0] >= 41 and x_ticks[-1] <= 340 and 2 <= len(x_ticks) <= 8
    y_ticks = [float(e.text or "") for e in with_class(root, "y-axis")[0].iter(f"{SVG}text")]
    assert y_ticks[0] == 0 and y_ticks[-1] >= max(values) and len(y_ticks) <= 7


def test_all_zero_losses_still_have_an_axis() -> None:
    root = parse(charts.trainer_loss_chart([0.0] * 5))
    assert outside(root) == []
    y_ticks = [e.text for e in with_class(root, "y-axis")[0].iter(f"{SVG}text")]
    assert y_ticks == ["0", "0.25", "0.50", "0.75", "1"] or y_ticks[-1] == "1.00"


def test_a_practice_chart_is_one_game_in_its_unit() -> None:
    svg = charts.practice_loss_chart([1.5, 0.25, 3.0], game="Express", unit="points")
    root = parse(svg)
    assert outside(root) == []
    (points,) = with_class(root, "points")
    assert len(points.findall(f"{SVG}circle")) == 3
    texts = _texts(svg)
    assert "Points lost per decision, per game" in texts
    assert "mean points lost per decision" in texts


@pytest.mark.parametrize("values", [[], [1.0], [0.5, 2.0, 1.0]])
def test_titles_and_names_are_escaped(values: list[float]) -> None:
    title = '<script>alert("x")</script> & co'
    series = [charts.Series("<b>&", [(float(i + 1), v) for i, v in enumerate(values)], "#000")]
    svg = charts.chart(
        series, title=title, y_label="<y>", x_label="a & b", description="'quoted' <desc>"
    )
    assert "<script>" not in svg and "<b>" not in svg
    root = parse(svg)
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == title  # type: ignore[union-attr]
    assert title in _texts(svg)
    assert outside(root) == []


def test_a_long_title_is_cut_to_fit() -> None:
    svg = charts.chart([], title="x" * 200, y_label="y" * 200, x_label="z" * 200)
    assert outside(parse(svg)) == []


def test_nice_ticks_and_rolling_mean() -> None:
    assert charts.nice_ticks(7.3) == [0, 2, 4, 6, 8]
    assert charts.nice_ticks(0.03)[-1] >= 0.03
    assert charts.nice_ticks(100) == [0, 25, 50, 75, 100]
    assert charts.rolling_mean([2.0] * 20, 10) == [2.0] * 20
    assert charts.rolling_mean([], 10) == []
