"""What the rules reader's parts pass each other: a zone under construction, a span helper, the message region."""

from __future__ import annotations

import re
from dataclasses import dataclass

from airspace.core.contract import Span
from airspace.parser.header import Header


@dataclass
class Zone:
    """A zone under construction: field -> span of the message."""

    fields: dict[str, Span]
    anchor: int  # where the zone's geometry starts (orders zones, bounds local limit search)
    anchor_end: int
    kind: str  # 'circle' | 'polygon' | 'point' | 'qline' | 'named'
    local_limits: bool = False


def sp(text: str, s: int, e: int) -> Span:
    return Span(s, e, text[s:e])


def body(text: str, h: Header) -> tuple[int, int]:
    """The free-text region where geometry is stated: item E, the FAA text after its id, else everything."""
    e = h.item("E")
    if e:
        return e.span.start, e.span.end
    if h.kind == "faa" and h.id_span:
        return h.id_span.end, len(text)
    if h.qline:
        last = max((it.span.end for it in h.items.values()), default=h.qline.raw.end)
        return h.qline.raw.end, max(last, h.qline.raw.end)
    return 0, len(text)


_AIRSPACE_WORDS = re.compile(
    r"\b(?:AREA|AREAS|AIRSPACE|RESTRICT\w*|DANGER|PROHIBIT\w*|UAS|UAV|RPAS|DRONES?|TFR|EXER|FIRING|LAUNCH|"
    r"ACTIVATED|ACT|ESTABLISHED|DISPLAY|FIREWORKS?|LASER|BALLOONS?|PJE|PARACHUT\w*)\b"
)


# What a Q-code says its notice is when that is no area: a line or a point (a route notice without coordinates
# closes or changes a route; its Q-line circle only says where the route runs), or a condition under which no area
# is active (deactivated; a trigger NOTAM announces an AIP publication whose areas the publication defines).
_SUBJECT_WORDS = {"AR": "an ATS route", "AN": "an area navigation route", "AP": "a reporting point",
                  "AX": "a significant point"}
_POINT_SUBJECTS = ("AP", "AX")
_CONDITION_WORDS = {"CD": "a deactivation", "TT": "a trigger NOTAM (the AIP publication it announces defines the areas)"}


def _q_code(h: Header) -> str:
    """The Q-code when the Q-line has a well-formed one (``QRTCA``), else ''."""
    code = (h.qline.code if h.qline else None) or ""
    return code if re.fullmatch(r"Q[A-Z]{4}", code) else ""


def not_an_area(h: Header) -> str | None:
    """What the Q-code says the notice is, when that is a route, a point, a deactivation or a trigger (no area)."""
    code = _q_code(h)
    what = code and (_SUBJECT_WORDS.get(code[1:3]) or _CONDITION_WORDS.get(code[3:5]))
    return f"the Q-code {code} marks {what}, not an area" if what else None


def zone_notice(text: str, h: Header, lo: int, hi: int) -> bool:
    """Whether a notice without coordinates still describes an area (so that its coarse Q-line circle or its
    aerodrome stands for it). ICAO Q-code subjects W (warnings), R (restricted/danger areas) and A (airspace
    organisation) do; M/F/I/L/N/C/P/S/G/O (movement area, facilities, navaids, lighting, comms, procedures,
    services, obstacles) are aerodrome/procedure notices with no zone; so are route and point subjects and the
    deactivated / trigger conditions (``not_an_area``). An unknown code ('QXXXX', 'undefined', empty) is decided by
    the text."""
    if not_an_area(h) is not None:
        return False
    code = _q_code(h)
    subj = code[1:2]
    if subj in ("W", "R", "A"):
        return True
    if subj and subj != "X":
        return False
    return _AIRSPACE_WORDS.search(text, lo, hi) is not None


def points_are_hazards(h: Header) -> bool:
    """Lone coordinates are zones (obstacles, areas) unless the Q-code says the notice is about a facility,
    movement area, navaid, procedure or service (threshold coordinates in aerodrome data are not obstacles)."""
    code = _q_code(h)
    if not code:
        return True
    return code[1] in "WRAOX" and code[1:3] not in _POINT_SUBJECTS  # reporting / significant points: waypoints


@dataclass
class Message:
    """One message as the readers see it: its text, header and free-text region ``[lo, hi)``, and what its Q-line
    says about the notice as a whole."""

    text: str
    h: Header
    lo: int
    hi: int
    zone_notice: bool = False  # the notice describes an area (see ``zone_notice``)
    q999: bool = False  # the Q-line radius is 999 NM: "the whole FIR", not a circle
    q_null: bool = False  # the Q-line position 0000N00000E is a placeholder (UHHH writes it for named areas)

    @classmethod
    def of(cls, text: str, h: Header) -> Message:
        lo, hi = body(text, h)
        q = h.qline
        return cls(
            text, h, lo, hi, zone_notice=zone_notice(text, h, lo, hi),
            q999=q is not None and q.radius_nm is not None and q.radius_nm >= 999,
            q_null=q is not None and q.coord is not None and re.fullmatch(r"0000[NS]00000[EW]", q.coord.text) is not None,
        )
