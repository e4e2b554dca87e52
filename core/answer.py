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


def ground(message: str, zones: list[dict[str, str]]) -> list[ZoneDraft]:
    """Locate every value in the message. A value that is not a substring gets no span (validation flags it).

    Where a value occurs several times, the occurrence at or after the previous zone's same field is preferred,
    so that composite messages (six ``PSN`` lines) ground zone i to the i-th occurrence.
    """
    drafts = []
    cursor: dict[str, int] = {}
    for zone in zones:
        draft = ZoneDraft(values=dict(zone))
        for key, value in zone.items():
            if not value:
                continue
            pos = message.find(value, cursor.get(key, 0))
            if pos < 0:
                pos = message.find(value)
            if pos >= 0:
                draft.spans[key] = Span(pos, pos + len(value), value)
                cursor[key] = pos + 1
        drafts.append(draft)
    return drafts
