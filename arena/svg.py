"""Pictures as plain strings: a small SVG builder and an HTML table, shared by both games.

Jupyter shows a value through its ``_repr_svg_`` or ``_repr_html_`` method when it has one;
the games build those strings here, with nothing but the standard library, so a picture never
needs matplotlib. Every text and attribute value is escaped, so a truck or policy name can hold
any character.

>>> drawing = Svg(40, 20, title="a <box>")
>>> drawing.rect(1, 1, 38, 18, fill="#eee", stroke="black", class_="box")
>>> print(str(drawing).replace(' font-family="Helvetica, Arial, sans-serif"', ""))
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
<title>a &lt;box&gt;</title>
<rect x="1" y="1" width="38" height="18" fill="#eee" stroke="black" class="box"/>
</svg>
>>> html_table(["name", "score"], [["A & B", 3]])
'<table><thead><tr><th>name</th><th>score</th></tr></thead><tbody><tr><td>A &amp; B</td><td>3</td></tr></tbody></table>'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

__all__ = [
    "FONT",
    "PHONE_WIDTH",
    "Page",
    "Point",
    "Svg",
    "escape",
    "html_table",
    "number",
    "text_width",
    "wrap_text",
]

#: The font every picture asks for: common everywhere, with the generic family last.
FONT = "Helvetica, Arial, sans-serif"

#: The width of the picture column of a page on a phone 390 CSS pixels wide (the web
#: companion's pages leave 25 pixels of margin and padding each side): a picture drawn this
#: many units wide shows at 100 % there, so a text of 10 units is 10 pixels high.
PHONE_WIDTH = 340.0

Point = tuple[float, float]

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def escape(text: object) -> str:
    """``text`` (any value, through ``str``) safe inside an XML element or attribute value.

    >>> escape('<T07 "wide">')
    '&lt;T07 &quot;wide&quot;&gt;'
    """
    return str(text).translate(_ESCAPES)


def number(value: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros, never ``-0``.

    >>> number(3.0), number(2.456), number(-0.001)
    ('3', '2.46', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` at font ``size`` in a sans-serif font (no
    font metrics are at hand): what a layout leaves room for.

    >>> text_width("level 0", 10)
    43.4
    """
    return round(len(text) * size * 0.62, 2)


def wrap_text(text: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines that :func:`text_width` says fit ``width`` at font ``size``:
    a picture drawn for a narrow screen writes its long lines this way, so that its text keeps
    its size instead of the whole picture being shrunk. Lines break between the parts of a
    ``" · "`` list first (the separator is dropped at a break), else between words; a word wider
    than ``width`` stands on a line of its own, never cut.

    >>> wrap_text("Truck S15 · height 2 · capacity 22", 10, 130)
    ['Truck S15 · height 2', 'capacity 22']
    >>> wrap_text("penalty 1 = 1 empty + 2 × 0 left over", 10, 130)
    ['penalty 1 = 1 empty', '+ 2 × 0 left over']
    """
    lines: list[str] = []
    line = ""
    for part in text.split(" · "):
        joined = f"{line} · {part}" if line else part
        if text_width(joined, size) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
            line = ""
        for word in part.split(" "):
            joined = f"{line} {word}" if line else word
            if line and text_width(joined, size) > width:
                lines.append(line)
                line = word
            else:
                line = joined
    lines.append(line)
    return lines


def _attribute(name: str, value: object) -> str:
    # Python names cannot hold "-" or be "class": stroke_width is stroke-width, class_ is class.
    key = "class" if name == "class_" else name.replace("_", "-")
    text = number(value) if isinstance(value, float) else str(value)
    return f'{key}="{escape(text)}"'


class Page(Protocol):
    """What a picture is drawn on: :class:`Svg` writes the elements as SVG, and another page
    (matplotlib's, for a PNG or a PDF) may draw the same calls, so a picture has one drawing.

    Coordinates are user units, the origin at the top left; keyword attributes are SVG's
    (``fill``, ``stroke``, ``stroke_width``, ``font_size``, ``text_anchor``, ...), and a
    group's attributes hold for what is drawn inside it.
    """

    width: float
    height: float

    def element(self, tag: str, content: str | None = None, /, **attributes: object) -> None: ...
    def rect(
        self, x: float, y: float, width: float, height: float, **attributes: object
    ) -> None: ...
    def polygon(self, points: Iterable[Point], **attributes: object) -> None: ...
    def polyline(self, points: Iterable[Point], **attributes: object) -> None: ...
    def line(self, a: Point, b: Point, **attributes: object) -> None: ...
    def circle(self, x: float, y: float, r: float, **attributes: object) -> None: ...
    def text(self, x: float, y: float, text: object, **attributes: object) -> None: ...
    def group(self, **attributes: object) -> AbstractContextManager[None]: ...


class Svg:
    """An SVG document built element by element, in drawing order (later ones on top).

    Coordinates are user units of a ``width`` × ``height`` view box whose origin is the top left.
    Keyword attributes are written as SVG names (``stroke_width`` → ``stroke-width``,
    ``class_`` → ``class``); ``None`` leaves an attribute out. ``str()`` gives the document.
    """

    def __init__(self, width: float, height: float, *, title: str | None = None) -> None:
        self.width = width
        self.height = height
        self._parts: list[str] = []
        if title is not None:
            self._parts.append(f"<title>{escape(title)}</title>")

    def element(self, tag: str, content: str | None = None, /, **attributes: object) -> None:
        """Append ``<tag ...>`` holding the (already escaped) ``content``, or empty."""
        attrs = "".join(
            f" {_attribute(name, value)}" for name, value in attributes.items() if value is not None
        )
        if content is None:
            self._parts.append(f"<{tag}{attrs}/>")
        else:
            self._parts.append(f"<{tag}{attrs}>{content}</{tag}>")

    def rect(self, x: float, y: float, width: float, height: float, **attributes: object) -> None:
        """An axis-parallel rectangle with its top left corner at (``x``, ``y``)."""
        self.element(
            "rect", x=float(x), y=float(y), width=float(width), height=float(height), **attributes
        )

    def polygon(self, points: Iterable[Point], **attributes: object) -> None:
        """A closed polygon through ``points``."""
        self.element("polygon", points=_points(points), **attributes)

    def polyline(self, points: Iterable[Point], **attributes: object) -> None:
        """An open line through ``points`` (unfilled unless ``fill`` says otherwise)."""
        attributes.setdefault("fill", "none")
        self.element("polyline", points=_points(points), **attributes)

    def line(self, a: Point, b: Point, **attributes: object) -> None:
        """A straight segment from ``a`` to ``b``."""
        self.element(
            "line",
            x1=float(a[0]),
            y1=float(a[1]),
            x2=float(b[0]),
            y2=float(b[1]),
            **attributes,
        )

    def circle(self, x: float, y: float, r: float, **attributes: object) -> None:
        """A circle of radius ``r`` centred on (``x``, ``y``)."""
        self.element("circle", cx=float(x), cy=float(y), r=float(r), **attributes)

    def text(self, x: float, y: float, text: object, **attributes: object) -> None:
        """``text`` (escaped here) anchored at (``x``, ``y``), on its baseline by default."""
        self.element("text", escape(text), x=float(x), y=float(y), **attributes)

    @contextmanager
    def group(self, **attributes: object) -> Iterator[None]:
        """Everything drawn inside the ``with`` block, as one ``<g>`` with ``attributes``."""
        attrs = "".join(
            f" {_attribute(name, value)}" for name, value in attributes.items() if value is not None
        )
        self._parts.append(f"<g{attrs}>")
        try:
            yield
        finally:
            self._parts.append("</g>")

    def __str__(self) -> str:
        width, height = number(float(self.width)), number(float(self.height))
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">'
        )
        return "\n".join([head, *self._parts, "</svg>"])


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{number(float(x))},{number(float(y))}" for x, y in points)


def html_table(
    headers: Sequence[object],
    rows: Iterable[Sequence[object]],
    *,
    caption: str | None = None,
    right: Iterable[int] = (),
) -> str:
    """An HTML ``<table>`` of ``rows`` under ``headers``, every cell escaped; the columns
    numbered in ``right`` are right-aligned (numbers read best that way)."""
    aligned = set(right)

    def cell(tag: str, column: int, value: object) -> str:
        style = ' style="text-align:right"' if column in aligned else ""
        return f"<{tag}{style}>{escape(value)}</{tag}>"

    head = "".join(cell("th", c, h) for c, h in enumerate(headers))
    body = "".join(
        "<tr>" + "".join(cell("td", c, v) for c, v in enumerate(row)) + "</tr>" for row in rows
    )
    title = f"<caption>{escape(caption)}</caption>" if caption is not None else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
