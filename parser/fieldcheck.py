"""Does a verbatim span read as the field it was copied for?

A model engine copies every value as a span of the message; a span that runs on past its value (``龙兴足球场上空实施临时
禁飞，时间``) or starts at the wrong coordinate (a Q-line's ``4902N00227E001`` … through to item E) does not read as
its field. ``reads_as(field, value)`` answers with the same parsers the normaliser uses, so a value it accepts is one
the normaliser can read; the decoder uses it to prefer, among its own likeliest spans, one that reads
(``airspace.model.pointers.repair_block``). Times are read without their context (the year or the start they may
lean on), so only a value no context could make readable is refused. The one value read by where it stands is a
Q-line limit (``000``/``999``/``050`` of ``Q) …/000/999/…``, a notice without F)/G)): ``span_reads_as`` knows the
span, as the normaliser does.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import lru_cache

from airspace.parser.coords import find_coords, parse_coord
from airspace.parser.distwords import distance_m
from airspace.parser.header import qline_limit_field
from airspace.parser.partial_time import complete_time, is_partial, is_warning
from airspace.parser.places import CN_BOUNDED
from airspace.parser.polygon import area_points, is_corridor, is_sector
from airspace.parser.times import BEIJING, parse_time
from airspace.parser.units import parse_limit

_REF = datetime(2026, 1, 1, tzinfo=timezone.utc)  # any reference: only readability is asked, not the value
_NAME_BREAKS = re.compile(r"[，。；！？\n]|[,;:] ")  # a place name does not run across a clause
_NAME_ITEM = re.compile(r"(?:^|\s)[A-GQ]\)")  # nor across an ICAO item letter ("GCCC B) 2605131004 C) …")
_NAME_DANGLING = tuple("及和与或的在于设")  # nor end on a conjunction, particle or the verb that follows it ("…中心及")


def _time(value: str) -> None:
    for kw in ({}, {"year": 2026}, {"ref": _REF}, {"ref": _REF, "local_tz": BEIJING}):
        try:
            parse_time(value, **kw)
            return
        except ValueError:
            continue
    raise ValueError(f"not a time: {value[:40]!r}")


def _name(value: str) -> None:
    v = value.strip()
    if CN_BOUNDED.fullmatch(v):
        return  # an area bounded on its sides: its clauses are the name (东至…，南至…，西至…，北至…)
    if not any(ch.isalpha() for ch in v):
        raise ValueError(f"a name has a letter: {value[:40]!r}")  # "2021/908", a decision's number
    if _NAME_BREAKS.search(v):
        raise ValueError(f"a name does not run across a clause: {value[:40]!r}")
    if _NAME_ITEM.search(v):
        raise ValueError(f"a name does not run across an item of the message: {value[:40]!r}")
    if v.endswith(_NAME_DANGLING):
        raise ValueError(f"a name does not end on {v[-1]!r}: {value[:40]!r}")


def _radius(value: str) -> None:
    """A distance as the normaliser reads it: digits and a unit, or a count in words (``TWO NM``) or a bare mile."""
    distance_m(value)


_READERS = {
    "center": parse_coord, "radius": _radius, "polygon": area_points, "lower": parse_limit,
    "upper": parse_limit, "start": _time, "end": _time, "name": _name,
}


def reads_as(field: str, value: str) -> bool:
    """True if ``value`` reads as ``field`` (fields without a reader, e.g. ``schedule``, always do)."""
    reader = _READERS.get(field)
    if reader is None:
        return True
    try:
        reader(value)
    except (ValueError, TypeError, IndexError, KeyError, ArithmeticError):
        return False
    return True


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def cut_number(text: str, start: int, end: int) -> str | None:
    """The number of ``text`` that the span [start, end) begins or ends inside (``1 NM`` out of ``0.1 NM``,
    ``500FT`` out of ``1500FT``), or None when the span keeps every number it touches whole."""
    for m in _NUMBER.finditer(text, max(0, start - 40), min(len(text), end + 40)):
        if m.start() < start < m.end() or m.start() < end < m.end():
            return m.group()
    return None


_LIST_SEP = re.compile(r"[ \t\r\n]*(?:\([^()\n]{1,30}\)[ \t\r\n]*)?(?:[-\u2013\u2014,][ \t\r\n]*)?")


def list_goes_on(text: str, end: int) -> bool:
    """Whether a vertex list goes on after ``end``: a list separator (a dash, a comma, blanks or a line break: wrapped
    lists are written ``…E-  1420…``), perhaps after the vertex's name in brackets (``…4053E (ASSAD) - 1810…``), and
    then a coordinate."""
    sep = _LIST_SEP.match(text, end)
    if sep is None or sep.end() == end:
        return False
    coords = find_coords(text[sep.end():sep.end() + 60])
    return bool(coords) and coords[0].start == 0


def _starts_at_its_boundary(value: str) -> bool:
    """An area's span begins where its boundary does: at its first coordinate, or at the width of a corridor
    (``1KM EITHER SIDE OF LINE …``) or the words of a sector. Text before that (a heading, the times, the message's
    first line) is not part of the area, however many of its coordinates the span goes on to take."""
    coords = find_coords(value[:400])
    if not coords or coords[0].start == 0:
        return True
    return is_corridor(value[:coords[0].start]) or is_sector(value)


@lru_cache(maxsize=64)
def _coords_of(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((c.start, c.end) for c in find_coords(text))


def starts_inside_coordinate(text: str, start: int) -> bool:
    """Whether ``start`` falls inside a coordinate of the message as read from its beginning: a place span that
    drops the first group of its first vertex (``51 00 S 167 44 00 W`` out of ``27 51 00 S 167 44 00 W``) reads
    as a point all the same, elsewhere. The whole message is read, as the rules reader reads it, because a window
    cut before ``start`` can pair the halves of two vertices the wrong way round."""
    return any(a < start < b for a, b in _coords_of(text))


def span_reads_as(field: str, text: str, start: int, end: int) -> bool:
    """True if ``text[start:end]`` reads as ``field`` where it stands: a Q-line's own lower (upper) limit field reads
    as the lower (upper) limit, as the normaliser reads it (``pipeline.normalize``); a span that begins or ends inside
    a number of the message is no value of it (the validator flags that span: ``5NM`` out of ``0.5NM``), nor a polygon
    that stops where its vertex list goes on or starts before its boundary; a time written without its month or year
    in a navigational warning (``191218Z``, ``28 MAR``) reads where the warning states them (``parser.partial_time``);
    anything else as ``reads_as``."""
    if field in ("lower", "upper") and qline_limit_field(text, start, end) == field:
        return True
    if field in ("start", "end") and is_partial(text[start:end]) and is_warning(text):
        # a warning's "191218Z" or "28 MAR": its month and year are in the notice, as the normaliser completes them
        # (elsewhere a day without its year or clock, "02 Jan" of "02 Jan 2025 19:00 GMT", is a cut value)
        try:
            complete_time(text[start:end], text, end, is_end=field == "end")
            return True
        except ValueError:
            pass  # (read as any other value: "23日" of a notice's own month)
    if field in _READERS and cut_number(text, start, end) is not None:
        return False
    if field == "polygon" and (list_goes_on(text, end) or not _starts_at_its_boundary(text[start:end])):
        return False
    if field in ("polygon", "center") and starts_inside_coordinate(text, start):
        return False
    return reads_as(field, text[start:end])
