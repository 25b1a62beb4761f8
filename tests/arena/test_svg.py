"""arena.svg: the SVG builder escapes everything and writes well-formed documents; the HTML
table; a tournament's short repr and its table in Jupyter."""

from __future__ import annotations

import pickle
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from arena import PolicyStats, RandomPolicy, TournamentResult, tournament
from arena.svg import Svg, escape, html_table, number, text_width, wrap_text
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace
from tests.svgcheck import SVG, outside, parse, with_class

# Text XML can carry: no control characters but tab and newlines, no surrogates.
xml_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
)


@given(xml_text, xml_text)
def test_any_text_is_escaped(title: str, label: str) -> None:
    page = Svg(100, 50, title=title)
    with page.group(class_=label, data_name=label):
        page.text(10, 20, label, font_size=8)
        page.rect(0, 0, 100, 50, fill="none")
    root = parse(str(page))
    assert root.findtext(f"{SVG}title") == title
    group = root.find(f"{SVG}g")
    assert group is not None and group.attrib["data-name"] == label
    assert (group.findtext(f"{SVG}text") or "") == label


def test_shapes_and_attributes() -> None:
    page = Svg(60, 40)
    page.polygon([(0, 0), (10.004, 0), (5, 8.5)], fill="#abc", stroke_width=0.5, class_="tri")
    page.polyline([(1, 1), (2, 2)], stroke="black")
    page.line((0, 39), (59.5, 39), stroke_dasharray="4 2")
    page.circle(30, 20, 5, fill="red", opacity=None)
    root = parse(str(page))
    assert outside(root) == []
    polygon = root.find(f"{SVG}polygon")
    assert polygon is not None
    assert polygon.attrib == {
        "points": "0,0 10,0 5,8.5",
        "fill": "#abc",
        "stroke-width": "0.5",
        "class": "tri",
    }
    assert root.find(f"{SVG}polyline").attrib["fill"] == "none"  # type: ignore[union-attr]
    assert "opacity" not in root.find(f"{SVG}circle").attrib  # type: ignore[union-attr]
    assert root.find(f"{SVG}line").attrib["stroke-dasharray"] == "4 2"  # type: ignore[union-attr]
    assert with_class(root, "tri") == [polygon]


def test_outside_sees_a_shape_out_of_the_view_box() -> None:
    # The checker the picture tests rely on, on a picture that is wrong on purpose.
    page = Svg(20, 20)
    page.rect(15, 15, 10, 2)
    page.text(19, 10, "a long label")
    assert [box.tag for box in outside(parse(str(page)))] == ["rect", "text"]


def test_numbers_and_widths() -> None:
    assert [number(v) for v in (0.0, 1.5, 2.004, -3.456, 1e-9)] == ["0", "1.5", "2", "-3.46", "0"]
    assert text_width("", 12) == 0 and text_width("ab", 10) > text_width("a", 10)
    assert escape("a<b>&'\"") == "a&lt;b&gt;&amp;&#39;&quot;"


words = st.text("ab ·", min_size=1, max_size=60).map(lambda t: " ".join(t.split()))


@given(words, st.floats(10, 400))
def test_wrapped_lines_fit_and_keep_every_word(text: str, width: float) -> None:
    lines = wrap_text(text, 10, width)
    # a line wider than the width is one word alone (never cut)
    assert all(text_width(line, 10) <= width or " " not in line for line in lines)
    assert "".join(lines).replace(" ", "").replace("·", "") == text.replace(" ", "").replace(
        "·", ""
    )
    assert wrap_text(text, 10, 10_000) == [text]


def test_wrapping_breaks_a_list_between_its_parts_first() -> None:
    heading = "Truck S15 #####/##.##/##... · height 2 · capacity 22"
    assert wrap_text(heading, 13, 324) == ["Truck S15 #####/##.##/##... · height 2", "capacity 22"]
    assert wrap_text("averyveryverylongword and more", 10, 50) == [
        "averyveryverylongword",
        "and more",
    ]


def test_html_table() -> None:
    text = html_table(["a", "b<"], [[1, "x & y"], [2, None]], caption="<c>", right=[0])
    root = ET.fromstring(text)
    assert root.findtext("caption") == "<c>"
    assert [th.text for th in root.iter("th")] == ["a", "b<"]
    assert [[td.text for td in tr] for tr in root.iter("tr")][1:] == [["1", "x & y"], ["2", "None"]]
    assert root.find("./tbody/tr/td").attrib["style"] == "text-align:right"  # type: ignore[union-attr]


def interval_half(stats: PolicyStats) -> float:
    low, high = stats.rating_interval
    return (high - low) / 2


def result() -> TournamentResult:
    return tournament(
        lambda: DiceRace(players=3),
        {"keep": AlwaysKeep(), "bank": AlwaysBank(), "random": RandomPolicy()},
        games=30,
        seed=3,
        progress=False,
        records=True,
    )


def test_a_tournament_repr_is_a_summary() -> None:
    outcome = result()
    text = repr(outcome)
    assert len(outcome.records) == 90 and len(text) < 160, text
    assert text.startswith("<TournamentResult keep, bank, random: 30 of 30 deals x 3 seatings")
    best = max(outcome.stats, key=lambda s: s.rating).name
    assert f"best rating {best}" in text
    # The repr is a view: equality and pickling still see every record.
    copy = pickle.loads(pickle.dumps(outcome))
    assert copy == outcome and copy.records == outcome.records and repr(copy) == text


def test_a_tournament_as_html() -> None:
    outcome = result()
    root = ET.fromstring(outcome._repr_html_())
    rows = root.findall("./tbody/tr")
    assert [row[0].text for row in rows] == [
        s.name for s in sorted(outcome.stats, key=lambda s: (-s.rating, s.name))
    ]
    # The same figures as the text table.
    for row in rows:
        stats = outcome.stat(row[0].text or "")
        assert row[1].text == str(stats.games)
        assert row[6].text == f"{stats.rating:+.0f} ± {interval_half(stats):.0f}"
        assert row[6].text in str(outcome)
