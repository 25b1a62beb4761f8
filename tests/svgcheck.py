"""Reading the library's SVG pictures back in tests: parse them, find shapes, check extents.

Every picture must be well-formed XML and keep every shape inside its view box. Shapes are read
from their own attributes (the pictures use no transforms, which :func:`shapes` checks); a
text's extent is estimated generously from its length and font size.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"

#: An upper estimate of a character's width in a sans-serif font, as a share of the font size.
CHAR_WIDTH = 0.62


@dataclass(frozen=True)
class Box:
    """A shape's extent: left, top, right, bottom."""

    tag: str
    left: float
    top: float
    right: float
    bottom: float


def parse(text: str) -> ET.Element:
    """The root ``<svg>`` element; fails unless ``text`` is one well-formed SVG document."""
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg", root.tag
    return root


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    left, top, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert float(root.attrib["width"]) == width and float(root.attrib["height"]) == height
    return left, top, width, height


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    """Every element whose class list holds ``name``."""
    return [e for e in root.iter() if name in e.attrib.get("class", "").split()]


def _points(text: str) -> list[tuple[float, float]]:
    pairs = [pair.split(",") for pair in text.split()]
    return [(float(x), float(y)) for x, y in pairs]


def shapes(root: ET.Element) -> Iterator[Box]:
    """The extent of every drawn element, inheriting font size and text anchor from groups."""

    def walk(element: ET.Element, size: float, anchor: str) -> Iterator[Box]:
        assert "transform" not in element.attrib, "the pictures place shapes without transforms"
        size = float(element.attrib.get("font-size", size))
        anchor = element.attrib.get("text-anchor", anchor)
        tag = element.tag.removeprefix(SVG)
        a = element.attrib
        if tag == "rect":
            x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
            assert w >= 0 and h >= 0
            yield Box(tag, x, y, x + w, y + h)
        elif tag == "circle":
            x, y, r = float(a["cx"]), float(a["cy"]), float(a["r"])
            yield Box(tag, x - r, y - r, x + r, y + r)
        elif tag == "line":
            xs, ys = (float(a["x1"]), float(a["x2"])), (float(a["y1"]), float(a["y2"]))
            yield Box(tag, min(xs), min(ys), max(xs), max(ys))
        elif tag in ("polygon", "polyline"):
            points = _points(a["points"])
            assert len(points) >= 2
            left, right = min(p[0] for p in points), max(p[0] for p in points)
            yield Box(tag, left, min(p[1] for p in points), right, max(p[1] for p in points))
        elif tag == "text":
            x, y = float(a["x"]), float(a["y"])
            width = len(element.text or "") * size * CHAR_WIDTH
            left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
            yield Box(tag, left, y - size, left + width, y + size * 0.25)
        for child in element:
            yield from walk(child, size, anchor)

    yield from walk(root, 16.0, "start")


def outside(root: ET.Element, slack: float = 0.5) -> list[Box]:
    """The shapes reaching out of the view box by more than ``slack`` units (none, we hope)."""
    left, top, width, height = view_box(root)
    return [
        box
        for box in shapes(root)
        if box.left < left - slack
        or box.top < top - slack
        or box.right > left + width + slack
        or box.bottom > top + height + slack
    ]


def text_sizes(root: ET.Element) -> list[tuple[float, str]]:
    """Every ``<text>``'s font size (inherited from its groups; SVG's default is 16) and its
    words, smallest first: a picture shown at 100 % renders each at that many pixels."""

    def walk(element: ET.Element, size: float) -> Iterator[tuple[float, str]]:
        size = float(element.attrib.get("font-size", size))
        if element.tag == f"{SVG}text":
            yield size, "".join(element.itertext())
        for child in element:
            yield from walk(child, size)

    return sorted(walk(root, 16.0))
