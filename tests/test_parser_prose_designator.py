"""Designated areas free text names where it says they are restricted (``readers.prose_designator``): the ICAO
nationality letters apart from the kind (``ED-R 146``, ``LO R 9``) or joined with the number (``EGD703``), a name after
the kind (``ED-R Reichenhall``), a US restricted area (``R-2508``). Never an area switched off, never an abbreviation
with a number (a document, a parade, a datum). On world train rows cited by id."""

from __future__ import annotations

import pytest
from world_rows import drawn_records, utc, world_text


def test_a_german_report_of_a_restricted_area_by_its_name():
    # de-pilothub:nfl-2024-1-3103-reichenhall: "… betrifft das speziell definierte Gebiet „ED-R Reichenhall“ …
    # von FL110 bis FL150 … vom 26. bis 28. Juni 2024 jeweils von 0600 Uhr bis 1600 Uhr UTC"
    (rec,) = drawn_records(world_text("de-pilothub:nfl-2024-1-3103-reichenhall"))
    assert (rec.geometry.name, rec.lower.raw, rec.upper.raw) == ("ED-R Reichenhall", "FL110", "FL150")
    assert (rec.start, rec.end, rec.status) == (utc("2024-06-26T06:00Z"), utc("2024-06-28T16:00Z"), "review")


@pytest.mark.parametrize("text, names", [
    ("Flugbeschränkungsgebiet ED-R 146 wird am 3. Mai 2025 aktiviert.", ["ED-R 146"]),
    ("The danger area EGD703 is active from 0800 to 1600 UTC on 4 March 2025.", ["EGD703"]),
    ("Drone flights are restricted inside R-2508 and LO R 9 this week.", ["R-2508", "LO R 9"]),
])
def test_designated_areas_in_prose(text, names):
    assert [r.geometry.name for r in drawn_records(text)] == names


def test_an_area_switched_off_or_an_abbreviation_is_no_zone():
    # ro-lrbb-sample:1350, an item E copied alone: "DANGER AREA EGD703 TAIN DEACTIVATED"
    assert drawn_records(world_text("ro-lrbb-sample:1350")) == []
    # flyer:stratford-2006-06: "MIL ACFT SHOULD COMPLY WITH JSP 552" is a publication, not the restricted area
    assert "JSP 552" not in [r.geometry.name for r in drawn_records(world_text("flyer:stratford-2006-06"))]
    for text in ("Drones are banned during NDP 2022 rehearsals.", "Coordinates (NAD 1983) of the restricted site."):
        assert drawn_records(text) == []
