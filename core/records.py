"""Validated zone records: SI units beside the original text, every value tied to its span of the message.

These models are the contract between the parser, the engines, ``geo`` and the app. ``ZoneRecord.to_json()`` is
the ``--format jsonl`` object of the CLI.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

FT_TO_M = 0.3048
NM_TO_M = 1852.0

LimitRef = Literal["SFC", "GND", "AGL", "AMSL", "FL", "UNL"]
Status = Literal["ok", "review", "error"]


def iso_utc(t: datetime | None) -> str | None:
    """``YYYY-MM-DDTHH:MM:SSZ`` for an aware or naive-UTC datetime."""
    if t is None:
        return None
    if t.tzinfo is not None:
        t = t.astimezone(timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class SpanModel(BaseModel):
    """Half-open character range ``[start, end)`` of the message text."""

    model_config = ConfigDict(frozen=True)
    start: int
    end: int
    text: str


class Limit(BaseModel):
    """A vertical limit. ``ft``/``m`` are ``None`` only for UNL. FL keeps its pressure-altitude feet (FL130 = 13000)."""

    model_config = ConfigDict(frozen=True)
    ref: LimitRef
    ft: float | None
    m: float | None
    raw: str


class CircleGeometry(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["circle"] = "circle"
    center: tuple[float, float]  # (lat, lon) decimal degrees WGS84
    radius_m: float
    approximate: bool = False  # e.g. centre from an ICAO location indicator or a coarse Q-line
    # an inner circle around the same centre that the message excludes ("30 NMR OF c … EXCLUDING THE AIRSPACE
    # WITHIN 10 NMR OF c", the outer ring of a VIP TFR): the zone is the ring between the two radii
    inner_radius_m: float | None = None


class PolygonGeometry(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["polygon"] = "polygon"
    points: list[tuple[float, float]]  # (lat, lon), open ring (first point not repeated)


NamedKind = Literal["place", "fir", "area"]


class NamedGeometry(BaseModel):
    """A place named in the message that could not be resolved to coordinates: never an invented point.

    ``kind`` says what the name is: a place (a stadium, a city, an aerodrome not in the offline table), a whole FIR
    (``ZWUQ``, ``FIR TRIPOLI (HLLL)``) or a published area (``R5206``, ``VAD 8``), whose boundaries are in no
    offline data here."""

    model_config = ConfigDict(frozen=True)
    type: Literal["named"] = "named"
    name: str
    radius_m: float | None = None  # "半径2公里" around the named place, kept for when it is resolved
    kind: NamedKind = "place"

    def unresolved_reason(self) -> str:
        """The review reason of a zone located only by this name."""
        if self.kind == "fir":
            return (f"the zone is the whole FIR {self.name!r}: its boundary is not in the message and no FIR "
                    "boundary data is available offline")
        if self.kind == "area":
            return (f"named area {self.name!r}: its boundary is published elsewhere (AIP), not in the message; no "
                    "airspace data is available offline")
        return f"named place {self.name!r} could not be resolved to coordinates"


Geometry = Annotated[CircleGeometry | PolygonGeometry | NamedGeometry, Field(discriminator="type")]


class Window(BaseModel):
    """An active interval ``[start, end)`` in UTC."""

    model_config = ConfigDict(frozen=True)
    start: datetime
    end: datetime

    @field_serializer("start", "end")
    def _ser(self, t: datetime) -> str | None:
        return iso_utc(t)


class ZoneRecord(BaseModel):
    """One zone of one message (or one error record for a message that could not be read)."""

    message: int  # 0-based index of the message in the batch
    zone: int = 0  # 0-based index of the zone within its message
    id: str | None = None  # e.g. "A1912/15", "BOS 01/502"
    notam_type: Literal["N", "R", "C"] | None = None
    ref_id: str | None = None  # the NOTAM replaced (R) or cancelled (C)
    status: Status = "ok"
    reasons: list[str] = Field(default_factory=list)
    geometry: Geometry | None = None
    lower: Limit | None = None
    upper: Limit | None = None
    # the same limit as the message states it a second time in another reference ("1000FT AGL (1500FT AMSL)"):
    # kept for the operator; the volume is built from ``lower``/``upper`` (the one written first)
    lower_also: Limit | None = None
    upper_also: Limit | None = None
    start: datetime | None = None
    end: datetime | None = None
    end_estimated: bool = False
    permanent: bool = False
    schedule: str | None = None
    windows: list[Window] = Field(default_factory=list)
    # values the message does not write in full, completed from elsewhere (a year from the notice's own stamp, a time
    # zone from the zone's position): one sentence each saying what and from where; also given as a ``note:`` reason
    inferred: list[str] = Field(default_factory=list)
    spans: dict[str, SpanModel] = Field(default_factory=dict)
    text: str = ""  # the original message, verbatim
    engine: str = "rules"
    # the id of the NOTAM of the same batch that replaced (NOTAMR) or cancelled (NOTAMC) this one: no longer in force
    # (``pipeline.notam_graph``)
    replaced_by: str | None = None
    cancelled_by: str | None = None

    @field_serializer("start", "end")
    def _ser_time(self, t: datetime | None) -> str | None:
        return iso_utc(t)

    def review(self, reason: str) -> None:
        """Mark for human review with a readable reason (an error record stays an error)."""
        if self.status == "ok":
            self.status = "review"
        if reason not in self.reasons:
            self.reasons.append(reason)

    def to_json(self) -> dict:
        """The CLI's ``--format jsonl`` object."""
        return self.model_dump(mode="json")


_GROUND_REFS = ("SFC", "GND", "AGL")
_SEA_REFS = ("AMSL", "FL")


def limits_conflict(lower: Limit | None, upper: Limit | None) -> str | None:
    """Why a floor and a ceiling cannot bound a volume, or None. One rule for the validator and every export, so
    that a record and what is written of it always agree.

    Limits of one reference family (above ground: SFC, GND, AGL; above sea level: AMSL and FL, FL taken as its
    pressure-altitude feet) are compared directly. Limits of different families depend on the terrain, which is
    unknown here; they are compared where the terrain is at sea level: a floor above ground at or above a ceiling
    above sea level (``5000FT AGL`` to ``1000FT AMSL``) is above it over any ground at or above sea level, and a
    floor above sea level over a ceiling above ground (``3000FT AMSL`` to ``400FT AGL``) leaves a volume only
    where the ground is higher than their difference. Either is a pair no known terrain reconciles."""
    if lower is None or upper is None or upper.ref == "UNL":
        return None
    if lower.ref == "UNL":
        return f"the floor {lower.raw or 'UNL'} is unlimited"
    lo = 0.0 if lower.ref in ("SFC", "GND") else lower.ft
    hi = upper.ft
    if lo is None or hi is None or lo != lo or hi != hi:
        return None
    lo_ground, hi_ground = lower.ref in _GROUND_REFS, upper.ref in _GROUND_REFS
    lo_raw, hi_raw = lower.raw or lower.ref, upper.raw or upper.ref
    if lo_ground == hi_ground:
        return f"lower limit {lo_raw} is not below the upper limit {hi_raw}" if lo >= hi else None
    if lo < hi:
        return None
    if lo_ground:
        return (f"lower limit {lo_raw} (above ground) is not below the upper limit {hi_raw} (above sea level) over any "
                "ground at or above sea level: no terrain reconciles the two")
    return (f"lower limit {lo_raw} (above sea level) is not below the upper limit {hi_raw} (above ground) unless the "
            f"ground is higher than {lo - hi:,.0f} ft; the terrain is not known here")
