"""Places in Polish, Czech and Greek prose that reports a flight ban (``parser.rules.news_pl_cs_el``), their periods
(``parser.eudates``: an end alone, an end on the next day, Greek months) and their clocks (the clock a language's
notices keep, ``parser.tzplace.language_zone``), on train rows of the world set cited by id beside variants of them.
Test rows are never read."""

from __future__ import annotations

import pytest
from world_rows import drawn_records as _records
from world_rows import utc as _utc
from world_rows import world_text as _world

from airspace.parser.rules import rules_zones
from airspace.parser.tzplace import language_zone

PRAHA = "irozhlas:lkp-centrum-2022"
WARSZAWA = "demopansa:rol-45-46-warszawa-2014"
ATTIKI = "skai:conference-league-final-2024"


def test_czech_ban_in_the_centre_with_its_diameter_and_its_end():
    # "jsou v centru Prahy … dočasně zakázané lety dronů … v oblasti o průměru 7,4 kilometrů … Zákaz platí do 25.
    # října." and the dateline "22. července 2022": the place as declined, the radius half the diameter, the end the
    # whole day 25 October in Prague's clock (CEST), its year from the date after it
    (rec,) = _records(_world(PRAHA))
    assert rec.geometry.name == "centru Prahy" and rec.geometry.radius_m == 3700.0
    assert rec.start is None and rec.end == _utc("2022-10-25T21:59Z")
    assert rec.status == "review"
    assert any("Czech-language" in x and "Europe/Prague" in x for x in rec.inferred)


def test_polish_restriction_over_two_places_joined():
    # "Rejony Ograniczeń Lotów (ROL 45-46), nad centrum Warszawy i rejonem Stadionu Narodowego": two zones, the word
    # for "the area of" (rejonem) left out of the second; the band "(GND – 2000 ft AMSL)" for both
    recs = _records(_world(WARSZAWA))
    assert [r.geometry.name for r in recs] == ["centrum Warszawy", "Stadionu Narodowego"]
    assert all((r.lower.ref, r.upper.ft, r.upper.ref) == ("GND", 2000.0, "AMSL") for r in recs)
    assert all(r.status == "review" for r in recs)


def test_greek_ban_over_an_area_until_a_clock_on_the_next_day():
    # "από την 14.00 ώρα της 29 Μαΐου 2024 έως και την 06.00 ώρα της επόμενης μέρας και καλύπτει περιοχή του
    # λεκανοπεδίου της Αττικής": the area's name after "περιοχή του", the end the next day at 06.00, both in Athens
    # time (EEST, UTC+3)
    (rec,) = _records(_world(ATTIKI))
    assert rec.geometry.name == "λεκανοπεδίου της Αττικής"
    assert (rec.start, rec.end) == (_utc("2024-05-29T11:00Z"), _utc("2024-05-30T03:00Z"))
    assert any("the day after the period's first, 2024-05-29" in x for x in rec.inferred)
    assert rec.status == "review"


@pytest.mark.parametrize(("places", "expected"), [
    # a radius from a place, the place after it as declined
    ("w promieniu 3 km od Pałacu Prezydenckiego", [("Pałacu Prezydenckiego", "3 km")]),
    # a bare "w" before a town where no marker with a kind word is written
    ("w Krakowie", [("Krakowie", None)]),
])
def test_polish_markers(places, expected):
    text = _world(WARSZAWA).replace("nad centrum Warszawy i rejonem Stadionu Narodowego", places)
    assert [(z["name"], z.get("radius")) for z in rules_zones(text)] == expected


def test_czech_bare_place_takes_the_noun_its_adjective_names():
    text = _world(PRAHA).replace("v centru Prahy a širším centru", "v Národním divadle")
    assert [z["name"] for z in rules_zones(text)][:1] == ["Národním divadle"]


def test_greek_radius_around_a_venue():
    text = _world(ATTIKI).replace("περιοχή του λεκανοπεδίου της Αττικής",
                                  "σε ακτίνα 5 χιλιομέτρων από το Ολυμπιακό Στάδιο")
    assert [(z["name"], z.get("radius")) for z in rules_zones(text)] == [("Ολυμπιακό Στάδιο", "5 χιλιομέτρων")]


def test_no_ban_of_flights_no_place():
    # the places without the ban, and a ban of something else, are no zone
    assert rules_zones(_world(PRAHA).replace("zakázané lety dronů", "otevřené kavárny")
                       .replace("Zákaz platí", "Akce platí")) == []
    assert rules_zones("Zákaz vstupu do parku v centru Prahy platí do 25. října 2022.") == []
    assert rules_zones(_world(ATTIKI).replace("απαγορεύονται", "επιτρέπονται")
                       .replace("απαγόρευσης", "λειτουργίας").replace("Της απαγόρευσης", "Της λειτουργίας")) == []


def test_a_language_names_its_clock_only_with_its_own_letters():
    assert language_zone(_world(PRAHA)) == ("Europe/Prague", "Czech")
    assert language_zone(_world(WARSZAWA)) == ("Europe/Warsaw", "Polish")
    assert language_zone(_world(ATTIKI)) == ("Europe/Athens", "Greek")
    # Slovak and German share no five of these letters; English none
    assert language_zone("Zákaz letov dronov nad Bratislavou platí do 25. októbra.") is None
    assert language_zone("Drone flights are banned over the city centre.") is None


@pytest.mark.parametrize("written, metres", [
    ("7,4 kilometrů", 7400.0), ("3 kilometrów", 3000.0), ("2 kilometry", 2000.0), ("5 χιλιομέτρων", 5000.0),
    ("2 χλμ.", 2000.0), ("3 mile morskie", 5556.0), ("2 námořních mil", 3704.0), ("4 ναυτικά μίλια", 7408.0),
])
def test_polish_czech_and_greek_distance_units(written, metres):
    from airspace.parser.units import parse_distance_m

    assert parse_distance_m(written) == pytest.approx(metres)
