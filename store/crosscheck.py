"""A feed's own geometry against the zones read from its text: where they disagree the records are ``review``.

The text is what the notice says; a feed's structured geometry is a second reading of the same notice (the FAA
draws TFR polygons, AIXM events carry the changed airspace). Neither is assumed right: when the two overlap less
than ``MIN_OVERLAP`` (intersection over union of the footprints), or only one of them locates the zone, every
record of the message says so and asks for review, as the rules cross-check does for a model's reading.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from airspace.core.records import CircleGeometry, PolygonGeometry, ZoneRecord
from airspace.geo.volumes import geodesic_area_m2, record_shape

MIN_OVERLAP = 0.8


def overlap(a: BaseGeometry, b: BaseGeometry) -> float:
    """Intersection over union of two (lon, lat) footprints, by geodesic area."""
    union = shapely.union(a, b)
    inter = shapely.intersection(a, b)
    u = geodesic_area_m2(union)
    return geodesic_area_m2(inter) / u if u > 0 else 0.0


def crosscheck(records: list[ZoneRecord], area: BaseGeometry | None) -> None:
    """Mark the message's records ``review`` where the feed's area and the text's zones disagree (in place)."""
    if area is None or area.is_empty:
        return
    shapes = []
    for r in records:
        if isinstance(r.geometry, (CircleGeometry, PolygonGeometry)) and r.status != "error":
            try:
                shapes.append(record_shape(r))
            except Exception:  # noqa: BLE001 - an impossible shape is already a review reason of its own
                continue
    live = [r for r in records if r.status != "error"]
    if not shapes:
        for r in live:
            r.review("the feed gives an area for this notice that the text reading did not locate")
        return
    ours = shapely.union_all(shapes)
    iou = overlap(ours, shapely.make_valid(area))
    if iou < MIN_OVERLAP:
        for r in live:
            r.review(f"the feed's own geometry and the zone read from the text overlap only {iou:.0%} (intersection "
                     f"over union): one of them is wrong")
