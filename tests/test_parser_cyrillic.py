"""Russian domestic NOTAMs in Cyrillic AFTN letters (``parser/cyrillic.py``), read as the Latin ICAO NOTAMs they
stand for; each form beside a real row of the world set's train split (``che603000``), cited by id."""

from datetime import datetime, timezone

import pytest
from world_rows import drawn_records, world_text

from airspace.parser.cyrillic import is_cyrillic_notam, latin_view


def _t(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=timezone.utc)


def test_the_latin_view_keeps_every_position_and_reads_items_and_hemispheres():
    """train ``che603000:К3153/19``: ``Щ)УУВЖ/ЩРТЦА/ИЖ/БО/В/000/120/5612С03709В004`` is the Q-line of UUWV, its
    coordinates north and east; ``Ф)ПОВЕРХНОСТЬ Г)ЭШ120`` are SFC and FL120."""
    text = world_text("che603000:К3153/19")
    view = latin_view(text)
    assert len(view) == len(text)
    assert "Q)UUWV/QRTCA/IV/BO/W/000/120/5612N03709E004" in view
    assert "A)UUWV B)1904250300 C)1904271100" in view and "560930N0370830E" in view
    assert "F)SFC" in view and "G)FL120" in view
    assert not any("\u0400" <= ch <= "\u04ff" for ch in view)


def test_a_cyrillic_notam_read_whole_with_its_records_keeping_the_message_as_written():
    text = world_text("che603000:К3153/19")
    (r,) = drawn_records(text)
    assert r.geometry.points[0] == pytest.approx((56 + 9 / 60 + 30 / 3600, 37 + 8 / 60 + 30 / 3600))
    assert (r.lower.ref, r.upper.ref, r.upper.ft) == ("SFC", "FL", 12000.0)
    assert (r.start, r.end) == (_t("2019-04-25T03:00"), _t("2019-04-27T11:00"))
    assert r.text == text  # the record keeps the Cyrillic message; its spans are the message's own positions
    sp = r.spans["polygon"]
    assert text[sp.start:sp.end].startswith("560930С0370830В")
    assert any("Cyrillic AFTN" in x for x in r.reasons)


@pytest.mark.parametrize(("row", "key", "ref", "ft"), [
    ("che603000:Ж2704/19", "upper", "AGL", 450 / 0.3048),  # Г)450 М УР.ЗЕМЛИ: above ground level
    ("che603000:Ж2865/19", "lower", "AGL", 50 / 0.3048),  # Ф)50 М УР.ЗЕМЛИ
    ("che603000:П2558/19", "upper", "AMSL", 2000 / 0.3048),  # Г)2000 М СР.УР.МОРЯ: above mean sea level
])
def test_a_height_in_metres_keeps_its_russian_reference(row, key, ref, ft):
    recs = drawn_records(world_text(row))
    lim = getattr(recs[0], key)
    assert (lim.ref, lim.ft) == (ref, pytest.approx(ft))


def test_a_circle_radius_and_centre_in_russian_words():
    """train ``che603000:К3417/19``: ``ОКРУЖНОСТЬ РАДИУС 5 КМ ЦЕНТР 553900С0360800В``."""
    (r,) = drawn_records(world_text("che603000:К3417/19"))
    assert r.geometry.center == pytest.approx((55 + 39 / 60, 36 + 8 / 60)) and r.geometry.radius_m == 5000.0


def test_text_in_cyrillic_without_the_notam_layout_is_left_as_written():
    prose = "В Москве 9 мая запрещены полёты дронов в радиусе 5 км от Красной площади."
    assert not is_cyrillic_notam(prose) and latin_view(prose) == prose
    latin = "(A1234/24 NOTAMN\nQ)UUWV/QRTCA/IV/BO/W/000/120/5612N03709E004\nA)UUWV B)2404250300 C)2404271100\nE)AREA)"
    assert latin_view(latin) == latin
