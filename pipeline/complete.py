"""What only the rules reader read, added to a model engine's reading for review.

For an engine whose records are cross-checked the pipeline reads every message with the rules reader as well
(``validate._cross_check``). Where the model left a field empty, or found fewer zones than the rules reader, that
second reading is already in hand; dropping it left the operator a zone with no time, or no drawing at all of areas
the notice lists ("engine found 1 zones, rules found 3"). These functions add it, and never as a reading anyone
confirmed: every value they add makes its record ``review`` with a reason naming the rules reader. Each model zone is
paired with the rules reader's zone of the same place (``pair_zones``); where the two differ on a field both read,
the spine shows the rules reader's record for review and names the model's values (``engine_differs_reason``). The
spine (``pipeline.batch``) calls them; they are pure over records.
"""

from __future__ import annotations

import math

from airspace.core.records import Limit, ZoneRecord, iso_utc
from airspace.pipeline.validate import CROSS_CHECK_CENTRE_M, DISAGREE, haversine_m, same_limit

__all__ = ["adopt_rules_places", "drawn", "fill_missing", "filled_reason", "pair_zones", "rules_only_zones",
           "same_place", "RULES_ONLY", "NONE_FOUND", "READ_OTHERWISE", "engine_differs_reason",
           "engine_filled_reason"]

# (what the reason calls it, the record's fields that travel together, the span keys that ground them)
_GROUPS = (
    ("the place", ("geometry",), ("center", "radius", "polygon", "name", "exclude")),
    ("the lower limit", ("lower", "lower_also"), ("lower",)),
    ("the upper limit", ("upper", "upper_also"), ("upper",)),
    ("the start", ("start",), ("start",)),
    ("the end", ("end", "end_estimated", "permanent"), ("end",)),
    ("the daily schedule", ("schedule", "windows"), ("schedule",)),
)
RADIUS_SAME = 0.01  # two circles about one centre are one zone when their radii differ by at most this share

RULES_ONLY = "a zone the rules reader found and the engine did not: the rules reader's reading, for review"
NONE_FOUND = "the engine found no zone in this message; the rules reader found this one: its reading, for review"
READ_OTHERWISE = "the rules reader's reading of this zone, shown where the engine read it otherwise, for review"


def drawn(recs: list[ZoneRecord]) -> list[ZoneRecord]:
    """The records that draw a zone (a place, and no error)."""
    return [r for r in recs if r.geometry is not None and r.status != "error"]


def _empty(rec: ZoneRecord, fields: tuple[str, ...]) -> bool:
    return not any(getattr(rec, f) for f in fields)


def same_place(a: ZoneRecord, b: ZoneRecord) -> bool:
    """Whether two records draw the same zone: circles about one centre with (nearly) one radius, polygons with the
    same vertices, or one named place with (nearly) one radius. Two rings about one centre (a VIP TFR's 30 NM and
    10 NM) are two zones."""
    g, h = a.geometry, b.geometry
    if g is None or h is None or g.type != h.type:
        return False
    if g.type == "circle":
        return (haversine_m(g.center, h.center) <= CROSS_CHECK_CENTRE_M
                and abs(g.radius_m - h.radius_m) <= RADIUS_SAME * max(g.radius_m, h.radius_m))
    if g.type == "polygon":
        return len(g.points) == len(h.points) and all(
            haversine_m(p, q) <= CROSS_CHECK_CENTRE_M for p, q in zip(g.points, h.points))
    if " ".join(g.name.split()).casefold() != " ".join(h.name.split()).casefold():
        return False
    # (two rings about one named place, a stadium's 30 NM and 1 NM, are two zones; a radius read by one side only
    # is the same place's)
    return g.radius_m is None or h.radius_m is None or abs(g.radius_m - h.radius_m) <= RADIUS_SAME * max(
        g.radius_m, h.radius_m)


def fill_missing(rec: ZoneRecord, rules: ZoneRecord) -> list[str]:
    """Fill, in place, each group of fields ``rec`` left empty and ``rules`` (the rules reader's record paired with
    it) read, with their spans; the groups filled, in words. Only where the two records are one zone: the model
    drew no place, or the same place. An error record of either side fills nothing."""
    if rec.status == "error" or rules.status == "error":
        return []
    if rec.geometry is not None and not same_place(rec, rules):
        return []
    filled = []
    for label, fields, spans in _GROUPS:
        if not _empty(rec, fields) or _empty(rules, fields):
            continue
        if fields[0] in ("lower", "upper") and fields[0] not in rules.spans:
            continue  # a limit the rules reader assumed (the surface where none is stated), not one it read
        if fields[0] == "schedule" and (rec.start, rec.end) != (rules.start, rules.end):
            continue  # daily windows are expanded over a period: the rules reader's, not this record's
        for f in fields:
            setattr(rec, f, getattr(rules, f))
        for k in spans:
            if k in rules.spans:
                rec.spans[k] = rules.spans[k]
        filled.append(label)
    return filled


def _listed(groups: list[str]) -> str:
    return groups[0] if len(groups) == 1 else ", ".join(groups[:-1]) + " and " + groups[-1]


def filled_reason(filled: list[str]) -> str:
    return f"{_listed(filled)}: read by the rules reader only (the engine read none), for review"


def engine_filled_reason(filled: list[str]) -> str:
    return f"{_listed(filled)}: read by the engine only (the rules reader read none), for review"


def _said(rec: ZoneRecord, what: str) -> str:
    """One field of ``rec`` as the engine read it, in a reason's words."""
    g = rec.geometry
    if what in ("start", "end"):
        return f"{what} {iso_utc(getattr(rec, what)) or 'none'}"
    if what in ("lower", "upper"):
        lim: Limit | None = getattr(rec, what)
        return f"{what} {' '.join(lim.raw.split())[:30] or lim.ref if lim else 'none'}"
    if g is None:
        return "no place"
    if g.type == "circle":
        return f"a circle of {g.radius_m / 1852:.3g} NM about {g.center[0]:.4f}, {g.center[1]:.4f}"
    if g.type == "polygon":
        return f"a polygon of {len(g.points)} vertices"
    return f"the place {g.name!r}"


def engine_differs_reason(rec: ZoneRecord, engine: ZoneRecord) -> str | None:
    """``READ_OTHERWISE`` with what ``engine`` read for each field the cross-check found different on ``rec``; None
    where it found none."""
    fields = [x[len(DISAGREE):] for x in rec.reasons if x.startswith(DISAGREE)]
    if not fields:
        return None
    said = []
    for f in fields:
        part = _said(engine, f if f in ("start", "end", "lower", "upper") else "place")
        if part not in said:
            said.append(part)
    return f"{READ_OTHERWISE} (the engine read {'; '.join(said)})"


def _floor(r: ZoneRecord) -> Limit | None:
    # (no floor read is the surface, as the spine assumes it; the ground and the surface are one floor)
    lo = r.lower
    return _SURFACE if lo is None or lo.ref == "GND" else lo


_SURFACE = Limit(ref="SFC", ft=0.0, m=0.0, raw="")


def _alike(a: ZoneRecord, b: ZoneRecord) -> bool:
    """One place with the same limits and period, compared as the cross-check compares them: the two readings of one
    zone agree."""
    return (same_place(a, b) and same_limit(_floor(a), _floor(b)) and same_limit(a.upper, b.upper)
            and (a.start, a.end) == (b.start, b.end))


def pair_zones(first: list[ZoneRecord | None], second: list[ZoneRecord | None]) -> dict[int, int]:
    """Each zone of ``first`` with a zone of ``second``: one that reads it alike (``_alike``), else one that draws
    the same place (``same_place``), else the zones left on both sides in their order (a zone without a place among
    them); ``{index in first: index in second}``. An error record, or a zone that could not be normalised (None), is
    never paired. Neither side's order decides a pair where a place does: a model that writes a notice's areas in
    another order, or one of them twice (area 3 read as area 4's circle), is still checked zone against zone, and a
    zone read alike is never taken from its twin by a misread one before it."""
    def live(recs: list[ZoneRecord | None]) -> list[int]:
        return [i for i, r in enumerate(recs) if r is not None and r.status != "error"]

    mine, theirs = live(first), live(second)
    near: dict[tuple, list[int]] = {}  # (a notice of a thousand circles is paired in well under a second)
    for j in theirs:
        for key in _cells(second[j])[:1]:  # (filed under its own key; looked up under its neighbours' too)
            near.setdefault(key, []).append(j)
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for test in (_alike, same_place):
        for i in mine:
            if i in pairs:
                continue
            found = sorted({j for key in _cells(first[i]) for j in near.get(key, ()) if j not in taken})
            j = next((j for j in found if test(first[i], second[j])), None)
            if j is not None:
                pairs[i] = j
                taken.add(j)
    rest = [j for j in theirs if j not in taken]
    for i, j in zip([i for i in mine if i not in pairs], rest):
        pairs[i] = j
    return pairs


_CELL_DEG = 0.01  # a band of latitude ~1.1 km wide: two places ``same_place`` calls one (100 m) are in neighbouring bands


def _cells(r: ZoneRecord) -> list[tuple]:
    """The keys under which a zone that may draw the same place as ``r`` is filed: its own band of latitude first,
    then the two beside it; a named place by its name alone. A zone without a place has none."""
    g = r.geometry
    if g is None:
        return []
    if g.type == "named":
        return [("named", " ".join(g.name.split()).casefold())]
    lat, shape = (g.center[0], ()) if g.type == "circle" else (g.points[0][0], (len(g.points),))
    band = math.floor(lat / _CELL_DEG)
    return [(g.type, band + d, *shape) for d in (0, -1, 1)]


def rules_only_zones(model: list[ZoneRecord], rules: list[ZoneRecord]) -> list[ZoneRecord]:
    """The rules reader's drawn zones (``rules``: its records of the message, as its own engine gives them) that no
    drawn record of ``model`` places alike, at most as many as the rules reader drew more than the model did, those
    past the model's count first (the model's n-th zone and the rules reader's n-th are the cross-check's pair)."""
    mine, theirs = drawn(model), drawn(rules)
    room = len(theirs) - len(mine)
    if room <= 0:
        return []
    unmatched = [(i, r) for i, r in enumerate(theirs) if not any(same_place(r, d) for d in mine)]
    unmatched.sort(key=lambda p: (p[0] < len(mine), p[0]))
    return [r for _, r in sorted(unmatched[:room], key=lambda p: p[0])]


def _named(rec: ZoneRecord | None) -> bool:  # (None: a zone that could not be normalised)
    return rec is not None and rec.status != "error" and rec.geometry is not None and rec.geometry.type == "named"


def adopt_rules_places(model: list[ZoneRecord | None], rules: list[ZoneRecord]) -> None:
    """A place the model named, where the rules reader named another for the zone of the same index: the rules
    reader's place, in place, with the model's name said in a review reason; and a radius the rules reader read
    around the same place where the model read none.

    Why the rules reader's: a model points at a span, and on named places (news, police orders, municipal notices)
    the span it points at is most often a piece of the sentence around the place ("Narendra Modi’s", "Section 144",
    "Super Bowl LVI (56"), where the rules reader names a place only from the phrase of the ban itself. A named
    place is never ``ok`` (it has no coordinates), so this changes what the operator is shown to look up, never what
    is dispatchable. A model's place that the rules reader names too, for any zone, is kept; a rules reader's place
    already given to another zone is not taken twice."""
    theirs = [r for r in rules if _named(r)]
    if not theirs:
        return
    def key(r: ZoneRecord) -> str:
        return " ".join(r.geometry.name.split()).casefold()

    def place(r: ZoneRecord) -> tuple[str, float | None]:  # (two rings about one place are two places)
        return key(r), None if r.geometry.radius_m is None else round(r.geometry.radius_m)

    used = {place(r) for r in model if _named(r)}
    for z, rec in enumerate(model):
        mate = rules[z] if z < len(rules) else None
        if not _named(rec) or not _named(mate):
            continue
        if key(rec) == key(mate):
            if rec.geometry.radius_m is None and mate.geometry.radius_m is not None:
                rec.geometry = rec.geometry.model_copy(update={"radius_m": mate.geometry.radius_m})
                if "radius" in mate.spans:
                    rec.spans["radius"] = mate.spans["radius"]
                rec.review("the radius: read by the rules reader only (the engine read none), for review")
            continue
        if any(key(rec) == key(r) for r in theirs) or place(mate) in used:
            continue
        was = rec.geometry
        rec.geometry = mate.geometry
        for k in ("name", "radius"):
            rec.spans.pop(k, None)
            if k in mate.spans:
                rec.spans[k] = mate.spans[k]
        # (what the normaliser said of the model's own name: unresolved, or no place at all)
        rec.reasons = [x for x in rec.reasons
                       if x != was.unresolved_reason() and not x.startswith(f"name {was.name!r} is no place")]
        rec.review(mate.geometry.unresolved_reason())
        rec.review(f"the place: the engine named {was.name!r}, the rules reader {mate.geometry.name!r} from the "
                   "phrase of the ban; the rules reader's, for review")
        used.add(place(mate))
