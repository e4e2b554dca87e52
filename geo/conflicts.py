"""Drone route x time x volumes: where and when a planned flight enters a no-fly volume.

A conflict needs all three at the same instant: the drone horizontally inside the zone's footprint, its altitude
within the zone's floor..ceiling, and the zone active at that time.

* **Legs are geodesics** between waypoints (``Geod.inv``/``Geod.fwd``), sampled every ``sample_m`` metres. Exact
  horizontal boundary crossings (intersection of the sampled leg with each footprint) are added to the samples so
  that a zone corner thinner than the sample spacing is not stepped over, and each entry/exit is refined by
  bisection to well under a metre (and so to well under a second in time).
* **Time**: the drone leaves the first waypoint at ``departure`` and flies at constant ``speed_mps`` along the
  legs; altitude changes linearly with distance along a leg.
* **Vertical comparison across references.** Same reference -> exact (limits inclusive). Different references
  cannot be compared exactly without a terrain model (AGL vs AMSL) or the QNH (AMSL vs flight levels), so the
  drone's altitude is turned into the interval of values it could have in the zone's reference, using physical
  bounds: terrain between -430 m (Dead Sea shore) and +8849 m (Everest); pressure altitude between 600 m below and
  1200 m above true altitude (QNH 1084..870 hPa). If that interval overlaps the zone's band the conflict is
  reported (conservative) and its reason says it was *assumed* for lack of a terrain model; only when no possible
  value overlaps (e.g. 800 m AGL above a ceiling of 300 m AMSL) is the zone cleared.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import shapely
from shapely.affinity import translate
from shapely.geometry import LineString

from airspace.core.records import Limit, iso_utc
from airspace.geo.volumes import GEOD, Volume, _utc

TERRAIN_MIN_M = -430.0
TERRAIN_MAX_M = 8849.0
PRESSURE_MINUS_TRUE_MIN_M = -600.0
PRESSURE_MINUS_TRUE_MAX_M = 1200.0

ROUTE_REFS = ("AGL", "AMSL")


@dataclass
class Waypoint:
    lat: float
    lon: float
    alt_m: float


@dataclass
class Route:
    waypoints: list[Waypoint]
    departure: datetime
    speed_mps: float
    alt_ref: str = "AGL"  # drone altitudes are usually heights above ground


@dataclass
class Conflict:
    key: tuple[int, int]
    id: str | None
    status: str
    enter_time: datetime
    exit_time: datetime
    enter_point: tuple[float, float, float]  # (lat, lon, alt_m)
    exit_point: tuple[float, float, float]
    leg: int  # 0-based: leg i goes from waypoint i to waypoint i+1
    reason: str
    assumed: bool = False  # vertical overlap assumed across references (no terrain model)
    extra: dict = field(default_factory=dict)

    @property
    def entry(self) -> tuple[float, float, float]:
        """Alias of ``enter_point`` (lat, lon, alt_m)."""
        return self.enter_point

    @property
    def exit(self) -> tuple[float, float, float]:
        """Alias of ``exit_point`` (lat, lon, alt_m)."""
        return self.exit_point

    def as_row(self) -> dict:
        """A flat dict for tables and JSON (times as ``YYYY-MM-DDTHH:MM:SSZ``, positions rounded to ~1 cm)."""
        return {
            "message": self.key[0],
            "zone": self.key[1],
            "id": self.id,
            "status": self.status,
            "leg": self.leg,
            "enter_time": iso_utc(self.enter_time),
            "exit_time": iso_utc(self.exit_time),
            "enter_lat": round(self.enter_point[0], 7),
            "enter_lon": round(self.enter_point[1], 7),
            "enter_alt_m": round(self.enter_point[2], 1),
            "exit_lat": round(self.exit_point[0], 7),
            "exit_lon": round(self.exit_point[1], 7),
            "exit_alt_m": round(self.exit_point[2], 1),
            "assumed": self.assumed,
            "reason": self.reason,
        }


# --------------------------------------------------------------------------------------------------------------
# parsing
# --------------------------------------------------------------------------------------------------------------

_ALT_RE = re.compile(r"^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(m|ft)?$", re.IGNORECASE)


def parse_route(
    text: str,
    *,
    departure: datetime | None = None,
    speed_mps: float | None = None,
    alt_ref: str | None = None,
) -> list[Waypoint] | Route:
    """Waypoints from lines of ``lat,lon,alt`` or ``lat lon alt`` (decimal degrees; altitude in metres, or with a
    ``m``/``ft`` suffix). Lines may also be separated by ``;``. Blank lines and ``#`` comments are skipped.

    Raises ValueError naming the offending line for anything else. Convenience for the UI: given ``departure``
    and ``speed_mps`` (and optionally ``alt_ref``) it returns the whole ``Route`` (see ``route_from_text``).
    """
    if departure is not None or speed_mps is not None or alt_ref is not None:
        if departure is None or speed_mps is None:
            raise ValueError("a route needs both a departure time and a speed")
        return route_from_text(text, departure=departure, speed_mps=speed_mps, alt_ref=alt_ref or "AGL")
    return _parse_waypoints(text)


def route_from_text(text: str, *, departure: datetime, speed_mps: float, alt_ref: str = "AGL") -> Route:
    """A checked Route from waypoint text plus departure time, ground speed (m/s) and altitude reference."""
    try:
        speed = float(speed_mps)
    except (TypeError, ValueError):
        raise ValueError(f"speed must be a number of m/s, got {speed_mps!r}") from None
    if not (speed > 0) or not math.isfinite(speed):
        raise ValueError(f"speed must be a positive number of m/s, got {speed_mps!r}")
    ref = {"MSL": "AMSL"}.get(str(alt_ref).strip().upper(), str(alt_ref).strip().upper())
    if ref not in ROUTE_REFS:
        raise ValueError(f"route altitude reference must be one of {ROUTE_REFS}, got {alt_ref!r}")
    if not isinstance(departure, datetime):
        raise ValueError(f"departure must be a date and time, got {departure!r}")
    return Route(waypoints=_parse_waypoints(text), departure=_utc(departure), speed_mps=speed, alt_ref=ref)


def _parse_waypoints(text: str) -> list[Waypoint]:
    if not isinstance(text, str):
        raise ValueError("route must be text")
    out: list[Waypoint] = []
    lines = [seg for line in text.splitlines() for seg in line.split(";")]
    for n, line in enumerate(lines, start=1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        parts = [p for p in re.split(r"\s*,\s*|\s+", s) if p]
        # allow "120 m" / "400 ft" with a space before the unit
        if len(parts) == 4 and parts[3].lower() in ("m", "ft"):
            parts = parts[:2] + [parts[2] + parts[3]]
        if len(parts) != 3:
            raise ValueError(f"route line {n}: expected 'lat,lon,alt' (3 numbers), got {line.strip()!r}")
        try:
            lat, lon = float(parts[0]), float(parts[1])
        except ValueError:
            raise ValueError(f"route line {n}: latitude/longitude must be decimal degrees, got {line.strip()!r}") from None
        m = _ALT_RE.match(parts[2])
        if not m:
            raise ValueError(f"route line {n}: altitude must be a number of metres (or with m/ft), got {parts[2]!r}")
        alt = float(m.group(1)) * (0.3048 if (m.group(2) or "").lower() == "ft" else 1.0)
        if not all(math.isfinite(x) for x in (lat, lon, alt)):
            raise ValueError(f"route line {n}: values must be finite numbers, got {line.strip()!r}")
        if not -90.0 <= lat <= 90.0:
            raise ValueError(f"route line {n}: latitude {lat} out of range [-90, 90]")
        if not -180.0 <= lon <= 180.0:
            raise ValueError(f"route line {n}: longitude {lon} out of range [-180, 180]")
        out.append(Waypoint(lat=lat, lon=lon, alt_m=alt))
    if not out:
        raise ValueError("route has no waypoints")
    return out


# --------------------------------------------------------------------------------------------------------------
# vertical comparison
# --------------------------------------------------------------------------------------------------------------


def _interval_in(alt_m: float, route_ref: str, zone_ref: str) -> tuple[float, float]:
    """Range of values the drone's altitude can have in ``zone_ref`` (AGL | AMSL | FL)."""
    if zone_ref == route_ref:
        return alt_m, alt_m
    if route_ref == "AGL":
        lo, hi = alt_m + TERRAIN_MIN_M, alt_m + TERRAIN_MAX_M  # as AMSL
        if zone_ref == "AMSL":
            return lo, hi
        return lo + PRESSURE_MINUS_TRUE_MIN_M, hi + PRESSURE_MINUS_TRUE_MAX_M  # FL
    # route AMSL
    if zone_ref == "AGL":
        return alt_m - TERRAIN_MAX_M, alt_m - TERRAIN_MIN_M
    return alt_m + PRESSURE_MINUS_TRUE_MIN_M, alt_m + PRESSURE_MINUS_TRUE_MAX_M  # FL


def vertical_overlap(alt_m: float, route_ref: str, vol: Volume) -> tuple[bool, bool]:
    """(possible, certain): can the altitude be inside the band, and is it certainly inside."""
    possible = certain = True
    lo, hi = _interval_in(alt_m, route_ref, vol.floor_ref)
    if hi < vol.floor_m:
        return False, False
    if lo < vol.floor_m:
        certain = False
    if vol.ceil_m is not None:
        lo, hi = _interval_in(alt_m, route_ref, vol.ceil_ref)
        if lo > vol.ceil_m:
            return False, False
        if hi > vol.ceil_m:
            certain = False
    return possible, certain


def _fmt_limit(lim: Limit | None, metres: float | None, ref: str, is_floor: bool) -> str:
    if lim is not None and lim.raw:
        return lim.raw
    if metres is None:
        return "UNL"
    if is_floor and metres == 0 and ref == "AGL":
        return "SFC"
    return f"{metres:.0f} m {ref}"


def _band(vol: Volume) -> str:
    rec = vol.record
    return (
        f"{_fmt_limit(rec.lower, vol.floor_m, vol.floor_ref, True)}–"
        f"{_fmt_limit(rec.upper, vol.ceil_m, vol.ceil_ref, False)}"
    )


def _active_text(vol: Volume, t: datetime) -> str:
    w = vol.window_at(t)
    if w is not None:
        s, e = _utc(w.start), _utc(w.end)
        if s.date() == e.date():
            return f"active {s:%H:%M}–{e:%H:%M}Z on {s:%Y-%m-%d}"
        if e - s <= timedelta(days=1) and e.time() == datetime.min.time():
            return f"active {s:%H:%M}–24:00Z on {s:%Y-%m-%d}"
        return f"active {s:%Y-%m-%d %H:%M}Z–{e:%Y-%m-%d %H:%M}Z"
    rec = vol.record
    if rec.start is None and rec.end is None:
        return "active (no time limits stated)"
    start = f"{_utc(rec.start):%Y-%m-%d %H:%M}Z" if rec.start else "…"
    end = f"{_utc(rec.end):%Y-%m-%d %H:%M}Z" if rec.end else ("PERM" if rec.permanent else "open end")
    return f"active {start}–{end}"


# --------------------------------------------------------------------------------------------------------------
# route x volumes
# --------------------------------------------------------------------------------------------------------------


class _Leg:
    """Position, altitude and time as functions of distance ``s`` (metres) along one geodesic leg."""

    def __init__(self, a: Waypoint, b: Waypoint, t0: datetime, speed: float):
        self.a, self.b, self.t0, self.speed = a, b, t0, speed
        az, _, d = GEOD.inv(a.lon, a.lat, b.lon, b.lat)
        self.az, self.d = float(az), float(d)

    def at(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        s = np.atleast_1d(np.asarray(s, dtype=float))
        if self.d > 0:
            lon, lat, _ = GEOD.fwd(np.full(s.shape, self.a.lon), np.full(s.shape, self.a.lat), np.full(s.shape, self.az), s)
            frac = s / self.d
        else:
            lon, lat = np.full(s.shape, self.a.lon), np.full(s.shape, self.a.lat)
            frac = np.zeros(s.shape)
        alt = self.a.alt_m + (self.b.alt_m - self.a.alt_m) * frac
        secs = s / self.speed
        return np.asarray(lon, dtype=float), np.asarray(lat, dtype=float), alt, secs

    def time(self, secs: float) -> datetime:
        return self.t0 + timedelta(seconds=float(secs))

    @property
    def duration(self) -> float:
        return self.d / self.speed


def _horizontal_crossings(leg: _Leg, s: np.ndarray, lon: np.ndarray, lat: np.ndarray, vol: Volume) -> list[float]:
    """Distances along the leg where the sampled leg line crosses the footprint's boundary."""
    if leg.d <= 0 or len(s) < 2:
        return []
    ulon = np.unwrap(lon, period=360.0)
    line = LineString(np.column_stack([ulon, lat]))
    shapes = [vol.polygon]
    if ulon.min() < -180.0:
        shapes.append(translate(vol.polygon, xoff=-360.0))
    if ulon.max() > 180.0:
        shapes.append(translate(vol.polygon, xoff=360.0))
    seg = np.hypot(np.diff(ulon), np.diff(lat))
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    out: list[float] = []
    for shp in shapes:
        if not line.intersects(shp):
            continue
        inter = line.intersection(shp.boundary)
        pts = []
        for g in getattr(inter, "geoms", [inter]):
            if g.is_empty:
                continue
            pts.extend(shapely.get_coordinates(g).tolist())
        for x, y in pts:
            out.append(float(np.interp(line.project(shapely.Point(x, y)), cum, s)))
    return out


def _predicate(vol: Volume, route: Route, lon, lat, alt, when: list[datetime]) -> tuple[np.ndarray, np.ndarray]:
    """(conflict, certain-vertical) flags at the given samples."""
    inside = shapely.intersects_xy(vol.polygon, lon, lat)
    flags = np.zeros(len(lon), dtype=bool)
    certain = np.zeros(len(lon), dtype=bool)
    for i in np.nonzero(inside)[0]:
        possible, sure = vertical_overlap(float(alt[i]), route.alt_ref, vol)
        if possible and vol.active_at(when[i]):
            flags[i] = True
            certain[i] = sure
    return flags, certain


def _refine(leg: _Leg, vol: Volume, route: Route, s_out: float, s_in: float, iters: int = 24) -> float:
    """Bisect between a non-conflicting and a conflicting distance; returns a conflicting distance."""
    for _ in range(iters):
        if abs(s_in - s_out) < 1e-3:
            break
        mid = 0.5 * (s_in + s_out)
        lon, lat, alt, secs = leg.at(np.array([mid]))
        f, _ = _predicate(vol, route, lon, lat, alt, [leg.time(secs[0])])
        if f[0]:
            s_in = mid
        else:
            s_out = mid
    return s_in


def route_conflicts(route: Route, volumes: list[Volume], *, sample_m: float = 50) -> list[Conflict]:
    """Every passage of the route through an active volume at a conflicting altitude, sorted by entry time.

    One Conflict per (leg, continuous passage); a passage spanning a waypoint gives one conflict per leg.
    """
    wps = route.waypoints
    if not wps:
        raise ValueError("route has no waypoints")
    if not (route.speed_mps > 0) or not math.isfinite(route.speed_mps):
        raise ValueError(f"speed must be a positive number of m/s, got {route.speed_mps}")
    if route.alt_ref not in ROUTE_REFS:
        raise ValueError(f"route altitude reference must be one of {ROUTE_REFS}, got {route.alt_ref!r}")
    if not (sample_m > 0):
        raise ValueError("sample_m must be positive")
    t = _utc(route.departure)
    legs: list[_Leg] = []
    pairs = list(zip(wps[:-1], wps[1:])) or [(wps[0], wps[0])]  # a single waypoint: a point check at departure
    for a, b in pairs:
        leg = _Leg(a, b, t, route.speed_mps)
        legs.append(leg)
        t = t + timedelta(seconds=leg.duration)

    conflicts: list[Conflict] = []
    for li, leg in enumerate(legs):
        n = max(1, int(math.ceil(leg.d / sample_m)))
        s_base = np.linspace(0.0, leg.d, n + 1)
        lon_b, lat_b, _, _ = leg.at(s_base)
        for vol in volumes:
            extra = _horizontal_crossings(leg, s_base, lon_b, lat_b, vol)
            if not extra and not shapely.intersects_xy(vol.polygon, lon_b, lat_b).any():
                continue
            # samples plus points just either side of each boundary crossing
            eps = 1e-3
            s = np.unique(np.clip(np.concatenate([s_base, [x + d for x in extra for d in (-eps, eps)]]), 0.0, leg.d))
            lon, lat, alt, secs = leg.at(s)
            when = [leg.time(x) for x in secs]
            flags, certain = _predicate(vol, route, lon, lat, alt, when)
            if not flags.any():
                continue
            # contiguous runs of conflicting samples
            idx = np.nonzero(flags)[0]
            breaks = np.nonzero(np.diff(idx) > 1)[0]
            starts = np.concatenate([[idx[0]], idx[breaks + 1]])
            ends = np.concatenate([idx[breaks], [idx[-1]]])
            for i0, i1 in zip(starts, ends):
                s_in = s[i0] if i0 == 0 else _refine(leg, vol, route, s[i0 - 1], s[i0])
                s_out = s[i1] if i1 == len(s) - 1 else _refine(leg, vol, route, s[i1 + 1], s[i1])
                pe = leg.at(np.array([s_in, s_out]))
                t_in, t_out = leg.time(pe[3][0]), leg.time(pe[3][1])
                sure = bool(certain[i0 : i1 + 1].all())
                alt_in = float(pe[2][0])
                vert = f"{alt_in:.0f} m {route.alt_ref}"
                if sure:
                    vtxt = f"{vert} within {_band(vol)}"
                else:
                    vtxt = (
                        f"{vert} vs {_band(vol)}: references differ and there is no terrain model, "
                        f"assumed overlapping"
                    )
                reason = f"inside horizontally, {vtxt}, {_active_text(vol, t_in)}"
                if vol.status != "ok":
                    reason += f" (zone status {vol.status})"
                conflicts.append(
                    Conflict(
                        key=vol.key,
                        id=vol.id,
                        status=vol.status,
                        enter_time=t_in,
                        exit_time=t_out,
                        enter_point=(float(pe[1][0]), float(pe[0][0]), alt_in),
                        exit_point=(float(pe[1][1]), float(pe[0][1]), float(pe[2][1])),
                        leg=li,
                        reason=reason,
                        assumed=not sure,
                        extra={"enter_s": float(s_in), "exit_s": float(s_out)},
                    )
                )
    conflicts.sort(key=lambda c: (c.enter_time, c.key, c.leg))
    return conflicts
