"""Where in an SVG drawing each part of an imported map was drawn, so that problems point into the drawing.

A problem of the map an SVG makes is found on the map document (a land's outline, a leg's start); the
import records, for each key path of the document, the SVG element it came from: its label, id and layer,
and its line in the file (read with expat, which svgelements does not keep). Problems are then said in the
drawing's terms, never in those of the TOML file the import would write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from somaliland.inputs import LimitError, read_limited
from somaliland.map.errors import KeyPath, MapError, Problem
from somaliland.map.schema import describe

INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
SHAPE_TAGS = ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")  # svgelements' Shapes
_KINDS = {"land": "land shape", "zone": "destination shape", "pirate_port": "pirate port"}


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a part of the map was drawn: the place in words ("'Isle' on layer 'land'") and its SVG line."""

    place: str
    line: int | None = None

    def problem(self, source: str, expected: str, found: str, detail: str = "") -> Problem:
        """Return a problem located here (`detail`: a part of the element, e.g. its second subpath)."""
        return Problem(source, (self.place + detail,), expected, found, self.line)


@dataclass(frozen=True)
class Drawing:
    """The map document an SVG drawing makes, with where in the drawing each part of it came from."""

    source: str
    doc: dict
    origins: dict[KeyPath, Origin]  # a key path of the document (and everything under it) -> where it was drawn

    def problems(self) -> list[Problem]:
        """Return every problem of the map (schema and geometry, as `map check`), each located in the SVG."""
        from somaliland.map.loader import check

        return [self.locate(path, expected, found) for path, expected, found in check(self.doc)]

    def locate(self, path: KeyPath, expected: str, found: str) -> Problem:
        """Return the problem of this document key path placed on the SVG element it was drawn from."""
        n = next(n for n in range(len(path), -1, -1) if path[:n] in self.origins)
        rest = path[n:]
        detail = f", its subpath {rest[1] + 2} (a hole)" if rest[:1] == ("holes",) and len(rest) > 1 else ""
        if {"outline", "holes", "centre_line"} & set(path):  # the drawing's arrays are all of points
            expected, found = (re.sub(r"\bitem(s?)\b", r"point\1", text) for text in (expected, found))
        return self.origins[path[:n]].problem(self.source, self._in_svg_terms(expected),
                                              self._in_svg_terms(found), detail)

    def _in_svg_terms(self, text: str) -> str:
        """Return a message part with the map file's names of things (`land[2]`, `routes.gulf`) said as drawn."""
        def where(path: KeyPath) -> str:
            origin = self.origins.get(path)
            if origin is None:
                return ".".join(map(str, path))
            return origin.place + (f" (line {origin.line})" if origin.line else "")

        text = re.sub(r"\[\[(land|zone|pirate_port)\]\]", lambda m: _KINDS[m.group(1)], text)
        text = re.sub(r"\b(land|zone|pirate_port)\[(\d+)\]", lambda m: where((m.group(1), int(m.group(2)))), text)
        return re.sub(r"\broutes\.([a-z][a-z0-9_]*)", lambda m: where(("routes", m.group(1))), text)


@dataclass(frozen=True)
class Lines:
    """The lines of an SVG's elements: by id, by Inkscape label, the <svg> element's, and each layer's shapes."""

    by_id: dict[str, int] = field(default_factory=dict)
    by_label: dict[str, int] = field(default_factory=dict)  # the first element of each label
    shapes: dict[str, list[int]] = field(default_factory=dict)  # layer label -> its shapes' lines, in order
    root: list[int] = field(default_factory=list)
    drawn: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)  # (line, tag, attributes) with d
    # or transform attributes, which svgelements may fail to read

    def of(self, layer: str, ordinal: int, count: int, label: str, ident: str | None) -> int | None:
        """Return the line of a layer's shape: by id, else by label, else by its place among the layer's shapes
        (only when svgelements found as many shapes there as the file has, so the count cannot mislead)."""
        if ident:
            return self.by_id.get(ident)
        if label:
            return self.by_label.get(label)
        tags = self.shapes.get(layer, [])
        return tags[ordinal] if len(tags) == count else None


def element_lines(source: str) -> Lines:
    """Return the lines of the SVG's elements.

    Raises:
        MapError: the file is not well-formed XML (with the line and column where it breaks).
    """
    from xml.parsers import expat

    lines = Lines()
    parser = expat.ParserCreate(namespace_separator=" ")
    label_key, mode_key = f"{INKSCAPE[1:-1]} label", f"{INKSCAPE[1:-1]} groupmode"
    layers: list[str | None] = []  # per open element: the layer label it opens, or None

    def start(tag: str, attrs: dict[str, str]) -> None:
        here, local = parser.CurrentLineNumber, tag.rsplit(" ", 1)[-1]
        if local == "svg":
            lines.root.append(here)
        if "id" in attrs:
            lines.by_id.setdefault(attrs["id"], here)
        if label_key in attrs:
            lines.by_label.setdefault(attrs[label_key], here)
        inside = next((layer for layer in reversed(layers) if layer is not None), None)
        if local in SHAPE_TAGS and inside is not None:
            lines.shapes.setdefault(inside, []).append(here)
        layers.append(attrs.get(label_key, attrs.get("id", "")) if attrs.get(mode_key) == "layer" else None)
        if "d" in attrs or "transform" in attrs:
            name = attrs.get(label_key) or attrs.get("id")
            lines.drawn.append((here, f"<{local}>{f' {name!r}' if name else ''}", attrs))

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: layers.pop()
    try:
        parser.Parse(read_limited(source, "drawing"), True)
    except LimitError as exc:
        raise MapError([Problem(source, (), exc.expected, exc.found)]) from None
    except expat.ExpatError as exc:
        raise MapError([Problem(source, (), "an SVG file (well-formed XML)",
                                f"{expat.ErrorString(exc.code)} at column {exc.offset + 1}", exc.lineno)]) from None
    except (LookupError, ValueError) as exc:  # an encoding Python does not know, say
        raise MapError([Problem(source, (), "an SVG file (well-formed XML)", str(exc), 1)]) from None
    except OSError as exc:
        raise MapError([Problem(source, (), "a readable SVG file", exc.strerror or str(exc))]) from None
    return lines


def unreadable(source: str, lines: Lines, error: Exception) -> Problem:
    """Return the problem of a well-formed SVG svgelements failed on: the first path data or transform it cannot
    read, on its line, or else svgelements' own complaint about the whole file."""
    from svgelements import Matrix, Path as SvgPath

    for line, element, attrs in lines.drawn:
        # svgelements reads path data lazily: writing it out again reads every number
        for attribute, read, what in (("d", lambda d: SvgPath(d).d(), "path data"),
                                      ("transform", Matrix, "a transform")):
            if attribute in attrs:
                try:
                    read(attrs[attribute])
                except Exception as exc:  # svgelements raises many kinds on values it cannot read  # noqa: BLE001
                    return Problem(source, (f"{element} attribute {attribute}",), f"{what} svgelements can read",
                                   f"{describe(attrs[attribute])} ({type(exc).__name__}: {exc})", line)
    return Problem(source, (), "an SVG file svgelements can read", f"{type(error).__name__}: {error}")
