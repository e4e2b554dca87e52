"""The answer as text: zone fields whose values are verbatim spans of the message.

Engines hand the pipeline ``ZoneDraft`` s with spans (``airspace.core.contract``); this text form is for
training data (the corpus's gold answers), serialisation and tests. ``ground`` turns a text answer back into drafts.

Concrete syntax (one string, written by the model token by token)::

    answer := zone (ZONE_SEP zone)*
    zone   := field (FIELD_SEP field)*
    field  := key "=" value                  value: verbatim text copied from the message

Fields appear in the fixed order of ``FIELDS``; a field the message does not state is left out. ``ZONE_SEP``
(U+241E) and ``FIELD_SEP`` (U+241F) never occur in real messages, so values may contain anything else, newlines
included (a polygon that wraps over two lines is copied as it stands). ``NO_ZONE`` is the whole answer for a
message that defines no zone (an NOTAMC, an aerodrome procedure change).

Field meanings (all values verbatim):
- ``center``: one coordinate (``N480930 E0161028``, ``512107N 0003608W``, ``北纬22°38′ 东经113°49′``). A Q-line
  coordinate (``4215N13244E``) is used only when the message gives no better geometry.
- ``radius``: a distance with its unit (``1NM``, ``.5NM``, ``2公里``). A bare number (Q-line ``021``) is NM.
- ``polygon``: the run of text from the first to the last point of a boundary, separators, arcs and
  ``BACK TO START`` included; the normaliser reads the points (and arcs) out of it.
- ``name``: a named place or area that has no coordinates in the message (``大连梭鱼湾足球场``, ``SBR 217``).
- ``lower`` / ``upper``: a vertical limit (``SFC``, ``GND``, ``FL130``, ``500FT AMSL``, ``真高120米``, ``UNL``).
- ``start`` / ``end``: a time (``1509261100``, ``2309291346EST``, ``PERM``, ``July 23, 2026 at 2105 UTC``,
  ``2024年9月10日12时``; an end of ``24时`` takes its date from the start).
- ``schedule``: the D-item or prose schedule (``DAILY 0800-1700``, ``MON-FRI 1100-2100``, ``SR-SS``).
"""

from __future__ import annotations

from airspace.core.contract import FIELDS, Span, ZoneDraft

ZONE_SEP = "\u241e"
FIELD_SEP = "\u241f"
NO_ZONE = "NONE"


class AnswerFormatError(ValueError):
    """The answer text does not follow the format (unknown key, missing '=', repeated field)."""


def format_answer(zones: list[dict[str, str]]) -> str:
    """Serialise zones (field -> verbatim value) in the canonical field order."""
    if not zones:
        return NO_ZONE
    out = []
    for zone in zones:
        unknown = set(zone) - set(FIELDS)
        if unknown:
            raise AnswerFormatError(f"unknown field(s) {sorted(unknown)}")
        parts = []
        for key in FIELDS:
            value = zone.get(key)
            if value is None:
                continue
            if ZONE_SEP in value or FIELD_SEP in value:
                raise AnswerFormatError(f"field {key!r} contains a separator character")
            parts.append(f"{key}={value}")
        out.append(FIELD_SEP.join(parts))
    return ZONE_SEP.join(out)


def parse_answer(text: str) -> list[dict[str, str]]:
    """Parse an answer back into zones. Raises ``AnswerFormatError`` on malformed text."""
    if text.strip() == NO_ZONE or text == "":
        return []
    zones = []
    for raw_zone in text.split(ZONE_SEP):
        zone: dict[str, str] = {}
        for raw_field in raw_zone.split(FIELD_SEP):
            key, eq, value = raw_field.partition("=")
            if not eq:
                raise AnswerFormatError(f"field without '=': {raw_field[:40]!r}")
            if key not in FIELDS:
                raise AnswerFormatError(f"unknown field {key[:20]!r}")
            if key in zone:
                raise AnswerFormatError(f"field {key!r} repeated in one zone")
            zone[key] = value
        zones.append(zone)
    return zones


def _number_char(text: str, i: int) -> bool:
    """A digit, or a decimal point / thousands comma between digits (``0.7``, ``1,330``)."""
    if not 0 <= i < len(text):
        return False
    c = text[i]
    if c.isdigit():
        return True
    return c in ".," and i + 1 < len(text) and text[i + 1].isdigit()


def _find_whole(message: str, value: str, start: int, cut_ok: bool = True) -> int:
    """The first occurrence of ``value`` at or after ``start`` that keeps the numbers it touches whole (``.7NM`` and
    ``4NM`` are not found inside ``0.7NM`` and ``0.4NM``, nor ``650米`` inside ``2650米``), else (``cut_ok``) the
    first occurrence at all; -1 if none."""
    first = pos = message.find(value, start)
    while pos >= 0:
        cut_before = _number_char(value, 0) and pos > 0 and (
            message[pos - 1].isdigit() or (message[pos - 1] in ".," and pos > 1 and message[pos - 2].isdigit()))
        cut_after = value[-1].isdigit() and _number_char(message, pos + len(value))
        if not (cut_before or cut_after):
            return pos
        pos = message.find(value, pos + 1)
    return first if cut_ok else -1


def ground(message: str, zones: list[dict[str, str]]) -> list[ZoneDraft]:
    """Locate every value in the message. A value that is not a substring gets no span (validation flags it).

    Where a value occurs several times, the occurrence at or after the previous zone's same field is preferred,
    so that composite messages (six ``PSN`` lines) ground zone i to the i-th occurrence, and an occurrence that
    keeps the numbers around it whole before one inside a longer number.
    """
    drafts = []
    cursor: dict[str, int] = {}
    for zone in zones:
        draft = ZoneDraft(values=dict(zone))
        for key, value in zone.items():
            if not value:
                continue
            # a whole occurrence from the cursor on, else a whole one before it (a limit shared by the zones of a
            # list, ``000`` in the Q-line, is not the ``000`` inside a later ``03000E``), else any
            pos = _find_whole(message, value, cursor.get(key, 0), cut_ok=False)
            if pos < 0:
                pos = _find_whole(message, value, 0)
            if pos >= 0:
                draft.spans[key] = Span(pos, pos + len(value), value)
                cursor[key] = pos + 1
        drafts.append(draft)
    return drafts
