"""The message builder: text assembled from parts, some parts tagged with the answer fields they carry.

A family writes a message as a sequence of parts; a part that holds (all or a piece of) a field value is tagged
with ``(zone, field)`` targets. Noise is applied part by part, so after any transformation the answer value of a
field is exactly ``text[first tagged part : last tagged part]`` — verbatim by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from airspace.core.answer import format_answer
from airspace.core.contract import FIELDS

Target = tuple[int, str]


@dataclass
class Part:
    text: str
    targets: tuple[Target, ...] = ()


@dataclass
class Doc:
    """A message under construction."""

    parts: list[Part] = field(default_factory=list)

    def add(self, text: str, *targets: Target) -> Doc:
        if text:
            self.parts.append(Part(text, tuple(targets)))
        return self

    def field(self, text: str, zones: int | list[int] | tuple[int, ...], name: str) -> Doc:
        """Add a value that is the whole field ``name`` of one zone or of several zones (a shared limit)."""
        zs = [zones] if isinstance(zones, int) else list(zones)
        return self.add(text, *[(z, name) for z in zs])

    def text(self) -> str:
        return "".join(p.text for p in self.parts)

    def map(self, fn) -> Doc:
        """Apply a str -> str transformation to every part (noise)."""
        return Doc([Part(fn(p.text), p.targets) for p in self.parts])

    def map_untagged(self, fn) -> Doc:
        return Doc([Part(p.text if p.targets else fn(p.text), p.targets) for p in self.parts])

    def values(self, n_zones: int) -> list[dict[str, str]]:
        """Field values per zone: the text from the first to the last part tagged with that field."""
        bounds: dict[Target, list[int]] = {}
        pos = 0
        for p in self.parts:
            end = pos + len(p.text)
            for t in p.targets:
                b = bounds.setdefault(t, [pos, end])
                b[0] = min(b[0], pos)
                b[1] = max(b[1], end)
            pos = end
        text = self.text()
        zones: list[dict[str, str]] = [{} for _ in range(n_zones)]
        for (z, name), (a, b) in bounds.items():
            if name not in FIELDS:
                raise ValueError(f"unknown field {name}")
            zones[z][name] = text[a:b]
        return zones


@dataclass
class Example:
    """One generated message with its gold answer values and gold normalised zones."""

    doc: Doc
    gold: list[dict]  # gold normalised zone dicts, one per zone (empty = NO_ZONE message)
    lang: str = "en"
    tags: tuple[str, ...] = ()

    def text(self) -> str:
        return self.doc.text()

    def answer_zones(self) -> list[dict[str, str]]:
        return self.doc.values(len(self.gold))

    def answer(self) -> str:
        return format_answer(self.answer_zones())


def circle(center: tuple[float, float], radius_m: float) -> dict:
    return {"type": "circle", "center": [center[0], center[1]], "radius_m": round(radius_m, 3)}


def polygon(points: list[tuple[float, float]]) -> dict:
    return {"type": "polygon", "points": [[p[0], p[1]] for p in points]}


def named(name: str, radius_m: float | None = None) -> dict:
    g = {"type": "named", "name": name}
    if radius_m is not None:
        g["radius_m"] = round(radius_m, 3)
    return g


def zone(geometry: dict | None, lower: dict | None, upper: dict | None, start: str | None, end: str | None,
         schedule: str | None = None, *, end_estimated: bool = False, permanent: bool = False) -> dict:
    def lim(x):
        if x is None:
            return None
        ft = x["ft"]
        return {"ref": x["ref"], "ft": None if ft is None else round(ft, 3)}

    return {
        "geometry": geometry,
        "lower": lim(lower),
        "upper": lim(upper),
        "start": start,
        "end": end,
        "schedule": schedule,
        "end_estimated": end_estimated,
        "permanent": permanent,
    }
