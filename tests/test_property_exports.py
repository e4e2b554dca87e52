"""Property tests of the exports (hypothesis, derandomized, bounded): for any records — read from generated and
mutated messages, or built directly anywhere on the globe (poles, the antimeridian, tiny and huge radii,
self-crossing rings) — every record appears in the GeoJSON, every exported geometry is valid and follows the
right-hand rule, no volume has its floor at or above its ceiling, and the ED-318 document passes the published
schema."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from airspace.core.records import CircleGeometry, Limit, PolygonGeometry, ZoneRecord
from airspace.data.paths import ED318_SCHEMA
from airspace.eval.fuzz import _schema_validator, export_problems, grammar_message, mutate
from airspace.geo.export import to_geojson
from airspace.pipeline.batch import process_batch

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
VALIDATOR = _schema_validator()
ED318_EXAMPLES = ED318_SCHEMA.parent / "examples"

lat = st.one_of(st.floats(-90, 90), st.sampled_from([90.0, -90.0, 0.0, 89.999, -89.999]))
lon = st.one_of(st.floats(-180, 180), st.sampled_from([180.0, -180.0, 179.9999, -179.9999, 0.0]))
radius = st.one_of(st.floats(1e-6, 5_000_000), st.sampled_from([0.0002, 1.0, 926.0, 1852.0, 4_630_000.0]))


def _limit(ft: float | None, ref: str) -> Limit:
    if ref in ("SFC", "GND"):
        return Limit(ref=ref, ft=0.0, m=0.0, raw=ref)
    if ref == "UNL":
        return Limit(ref="UNL", ft=None, m=None, raw="UNL")
    return Limit(ref=ref, ft=ft, m=ft * 0.3048, raw=f"{ft:g}FT {ref}")


limit = st.builds(_limit, st.floats(-2000, 2e6), st.sampled_from(["SFC", "AGL", "AMSL", "FL", "UNL"]))


@st.composite
def ring(draw):
    n = draw(st.integers(3, 70))
    la0, lo0 = draw(st.floats(-89, 89)), draw(lon)
    r = draw(st.sampled_from([1e-8, 1e-4, 0.05, 1.0, 10.0]))
    crossing = draw(st.booleans())
    pts = []
    for i in range(n):
        k = (i * (n // 2 - 1)) % n if crossing and n > 4 else i
        a = 2 * math.pi * k / n
        pts.append((max(-90.0, min(90.0, la0 + r * math.sin(a))), (lo0 + r * math.cos(a) + 180.0) % 360.0 - 180.0))
    return pts


@st.composite
def record(draw):
    geom = draw(st.one_of(st.builds(lambda a, b, r: CircleGeometry(center=(a, b), radius_m=r), lat, lon, radius),
                          st.builds(lambda p: PolygonGeometry(points=p), ring())))
    return ZoneRecord(message=draw(st.integers(0, 5)), zone=draw(st.integers(0, 3)),
                      status=draw(st.sampled_from(["ok", "review"])), geometry=geom,
                      lower=draw(st.one_of(st.none(), limit)), upper=draw(st.one_of(st.none(), limit)),
                      notam_type=draw(st.sampled_from([None, "N", "R", "C"])))


def _check(records):
    problems = export_problems(records, VALIDATOR)
    assert problems == []
    fc = to_geojson(records)
    assert [(f["properties"]["message"], f["properties"]["zone"]) for f in fc["features"]] == \
        [(r.message, r.zone) for r in records]


@SETTINGS
@given(st.lists(record(), min_size=1, max_size=4))
def test_exports_of_any_records_are_valid(records):
    _check(records)


@SETTINGS
@given(st.lists(st.tuples(st.randoms(use_true_random=False), st.booleans()), min_size=1, max_size=4))
def test_exports_of_generated_and_mutated_messages_are_valid(seeds):
    texts = [mutate(grammar_message(rnd), rnd) if hostile else grammar_message(rnd) for rnd, hostile in seeds]
    records, _ = process_batch("\n\n".join(texts), "rules")
    _check(records)


@pytest.mark.parametrize("example", sorted(ED318_EXAMPLES.glob("*Example_*.json")), ids=lambda p: p.stem)
def test_the_vendored_ed318_schema_judges_its_published_examples(example):
    """The schema the exports are held to is the published one: it accepts EUROCONTROL's whole-collection examples
    and rejects the one published as invalid."""
    errors = list(VALIDATOR.iter_errors(json.loads(example.read_text(encoding="utf-8"))))
    if example.name.startswith("Example_"):
        assert errors == []
    elif example.name.startswith("InvalidExample_"):
        assert errors
