""""Can I fly here?": one point, one moment, one height -> clear / restricted / review, with the zones that apply
and when they end. Pure functions over ``geo.volumes.Volume``.

The drone is taken to occupy the whole column from the ground up to its height (it climbs there and lands), in
the reference the operator gives (AGL by default). A zone applies when the point is inside its footprint, it is
active at the moment, and the column can reach into its band; the band is compared with the same terrain and
pressure allowances as the route check (``geo.conflicts``), so an AMSL or FL floor the column reaches only for some
terrain makes the answer "review", never "clear".

Verdicts: ``restricted`` when an ``ok`` zone certainly applies; ``review`` when a zone applies whose record needs
review, or whose band the column reaches only for some terrain; ``clear`` otherwise. Zones starting within
``zonetime.UPCOMING`` and zones whose edge is within ``NEAR_M`` are listed beside the verdict without changing it,
except an active zone whose edge is within ``within_m`` (how far the asked point may be from where the operator
meant, e.g. a click on the map): the point may be inside it, so the answer is "review", never "clear".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from shapely.geometry import Point

from airspace.geo import conflicts as C
from airspace.geo import zonetime as Z
from airspace.geo.volumes import Volume

DRONE_HEIGHT_M = 120.0
NEAR_M = 500.0
M_PER_DEG = 111_320.0

CLEAR, RESTRICTED, REVIEW = "clear", "restricted", "review"


@dataclass(frozen=True)
class ZoneHit:
    """A zone at the asked point: its volume, its state at the moment, whether the column certainly reaches its
    band, when its present period ends (None: no end) or when it starts, and how far its edge is (0 inside)."""

    volume: Volume
    state: str
    certain: bool
    ends: datetime | None = None
    starts: datetime | None = None
    distance_m: float = 0.0


@dataclass(frozen=True)
class FlyAnswer:
    verdict: str
    applies: tuple[ZoneHit, ...] = ()
    upcoming: tuple[ZoneHit, ...] = ()
    nearby: tuple[ZoneHit, ...] = ()
    reasons: tuple[str, ...] = field(default_factory=tuple)


GROUND_TOLERANCE_M = 50.0  # how far the ground elevation an operator gives may be off


def _in_ref(alt_m: float, ref: str, zone_ref: str, ground_m: float | None) -> tuple[float, float]:
    """The range of values an altitude (``ref`` AGL or AMSL) can have in ``zone_ref``: over every terrain height
    when ``ground_m`` is None (``conflicts``' allowances), else over ``ground_m`` +- ``GROUND_TOLERANCE_M``."""
    if ground_m is None or zone_ref == ref:
        return C._interval_in(alt_m, ref, zone_ref)
    g_lo, g_hi = ground_m - GROUND_TOLERANCE_M, ground_m + GROUND_TOLERANCE_M
    if ref == "AGL":
        lo, hi = alt_m + g_lo, alt_m + g_hi  # AMSL
    else:
        lo, hi = alt_m, alt_m
    if zone_ref == "AGL":
        return lo - g_hi, hi - g_lo
    if zone_ref == "AMSL":
        return lo, hi
    return lo + C.PRESSURE_MINUS_TRUE_MIN_M, hi + C.PRESSURE_MINUS_TRUE_MAX_M  # FL


def column_overlap(height_m: float, ref: str, vol: Volume, ground_m: float | None = None) -> tuple[bool, bool]:
    """(possible, certain): whether the column from the ground up to ``height_m`` (``ref``: AGL or AMSL) can reach
    into the volume's band, and whether it does for every terrain height and pressure allowed. The column meets
    the band when its top is at or above the floor and its bottom (the ground) at or below the ceiling."""
    top_lo, top_hi = _in_ref(height_m, ref, vol.floor_ref, ground_m)
    if top_hi < vol.floor_m:
        return False, False
    certain = top_lo >= vol.floor_m
    if vol.ceil_m is not None:
        ground_lo, ground_hi = _in_ref(0.0, "AGL", vol.ceil_ref, ground_m)
        if ground_lo > vol.ceil_m:
            return False, False
        certain = certain and ground_hi <= vol.ceil_m
    return True, certain


def distance_m(vol: Volume, lat: float, lon: float) -> float:
    """Approximate distance (m) from the point to the zone's footprint (0 inside)."""
    return footprint_distance_m(vol.polygon, lat, lon)


def footprint_distance_m(polygon, lat: float, lon: float) -> float:
    """Approximate distance (m) from the point to a footprint (lon/lat polygon; 0 inside); longitudes tried +-360
    so a footprint over the antimeridian is found from either side."""
    best = math.inf
    for dl in (0.0, 360.0, -360.0):
        p = Point(lon + dl, lat)
        if polygon.covers(p):
            return 0.0
        near = polygon.boundary.interpolate(polygon.boundary.project(p))
        dx = (near.x - p.x) * M_PER_DEG * math.cos(math.radians(lat))
        dy = (near.y - p.y) * M_PER_DEG
        best = min(best, math.hypot(dx, dy))
    return best


def can_i_fly(volumes: Sequence[Volume], lat: float, lon: float, t: datetime, *, height_m: float = DRONE_HEIGHT_M,
              ref: str = "AGL", ground_m: float | None = None, near_m: float = NEAR_M,
              upcoming: timedelta = Z.UPCOMING, within_m: float = 0.0) -> FlyAnswer:
    """The answer for a drone at (``lat``, ``lon``) at ``t`` from the ground up to ``height_m`` (``ref``);
    ``ground_m``: the site's elevation (m AMSL) where the operator knows it, else every terrain height counts;
    ``within_m``: the point's precision (0: exact)."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError(f"({lat}, {lon}) is not a point on Earth: latitude -90..90, longitude -180..180")
    if not height_m > 0:
        raise ValueError("the height must be above the ground (a positive number of metres)")
    applies, soon, nearby = [], [], []
    for v in volumes:
        possible, certain = column_overlap(height_m, ref, v, ground_m)
        if not possible:
            continue
        state = Z.zone_state(v, t, upcoming)
        if state == Z.EXPIRED:
            continue
        d = distance_m(v, lat, lon)
        if d > near_m:
            continue
        hit = ZoneHit(volume=v, state=state, certain=certain, ends=Z.ends_at(v, t), starts=Z.next_start(v, t),
                      distance_m=d)
        if d > 0:
            if state in (Z.ACTIVE, Z.PERMANENT, Z.UPCOMING_STATE):
                nearby.append(hit)
        elif state in (Z.ACTIVE, Z.PERMANENT):
            applies.append(hit)
        elif state == Z.UPCOMING_STATE:
            soon.append(hit)
    reasons = []
    if any(h.volume.status == "ok" and h.certain for h in applies):
        verdict = RESTRICTED
    elif applies:
        verdict = REVIEW
        for h in applies:
            if h.volume.status != "ok":
                reasons.append("a zone here is marked for review: its reading is not certain")
            elif not h.certain:
                reasons.append("whether the flight reaches a zone here depends on the ground's elevation (the "
                               "zone's limits are above sea level or flight levels): give the site's elevation")
    else:
        verdict = CLEAR
        edge = [h for h in nearby if h.distance_m <= within_m and h.state in (Z.ACTIVE, Z.PERMANENT)]
        if edge:
            verdict = REVIEW
            reasons.extend(f"the point is known to ±{within_m:,.0f} m and an active zone's edge is "
                           f"{h.distance_m:,.0f} m away: zoom in or type the coordinates" for h in edge)
    return FlyAnswer(verdict=verdict, applies=tuple(applies), upcoming=tuple(soon), nearby=tuple(nearby),
                     reasons=tuple(dict.fromkeys(reasons)))
