"""Notices in other European languages, as the rules reader reads them: limits in German, French, Spanish,
Portuguese and Italian words, French decree coordinates, a radius "of radius" after its distance, and the German
``sm`` (Seemeile). Each form beside a real row of the world set's train split, cited by id."""

import pytest
from world_rows import drawn_records as _records
from world_rows import utc as _utc
from world_rows import world_text

from airspace.parser.coords import find_coords
from airspace.parser.distwords import seemeile
from airspace.parser.rules.limits import eu_limits
from airspace.parser.units import parse_limit
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

NM = 1852.0


def _band(r) -> tuple:
    return (r.lower.ref, r.lower.ft), (r.upper.ref, r.upper.ft)


@pytest.mark.parametrize(("text", "ref", "ft"), [
    ("Erdoberfläche", "SFC", 0.0),
    ("3600 Fuß über NN", "AMSL", 3600.0),
    ("1.500 Fuß über Grund", "AGL", 1500.0),
    ("800 pieds (250 mètres) par rapport à la surface", "AGL", 800.0),
    ("4 100 pieds (1 250 mètres) par rapport au niveau moyen de la mer", "AMSL", 4100.0),
    ("niveau de vol 115", "FL", 11500.0),
    ("120 m sobre el terreno", "AGL", 120 / 0.3048),
    ("400 pés acima do nível do mar", "AMSL", 400.0),
    ("400FT (120M) AGL", "AGL", 400.0),  # an English height restated in brackets before its reference
])
def test_a_limit_in_other_languages_words(text, ref, ft):
    lim = parse_limit(text)
    assert lim.ref == ref and lim.ft == pytest.approx(ft)


def test_a_band_in_other_languages_is_read_only_where_no_english_one_is():
    t = "- Höhenbegrenzung: Erdoberfläche bis 3600 Fuß über NN."
    assert {k: s.text for k, s in eu_limits(t, 0, len(t)).items()} == {"lower": "Erdoberfläche",
                                                                         "upper": "3600 Fuß über NN"}
    t = "Die vertikale Begrenzung ist auf Flughöhen von FL110 bis FL150 festgelegt."
    assert {k: s.text for k, s in eu_limits(t, 0, len(t)).items()} == {"lower": "FL110", "upper": "FL150"}
    t = "entre el suelo y 120 m sobre el terreno"
    assert eu_limits(t, 0, len(t))["upper"].text == "120 m sobre el terreno"
    # an English notice keeps its own reading: "SFC TO 400FT AGL", and a lone height is no band
    (r,) = _records("DRONE RESTRICTION WI 2NM OF 513000N 0001000W SFC TO 400FT AGL 2506011000 TO 2506011800")
    assert _band(r) == (("SFC", 0.0), ("AGL", 400.0))
    t = "a 3 km radius and a height of 120 m"
    assert eu_limits(t, 0, len(t)) == {}


def test_a_german_nfl_circle_in_seemeilen_with_its_band():
    """train ``de-pilothub:nfl-2024-1-3308``: ``Radius von 0,8 sm um Punkt 48°16’07″N 11°40’28″E``,
    ``Höhenbegrenzung: Erdoberfläche bis 3600 Fuß über NN``: 0.8 NM (the Seemeile), SFC to 3600 ft AMSL."""
    recs = _records(world_text("de-pilothub:nfl-2024-1-3308"))
    first = recs[0]
    assert first.geometry.radius_m == pytest.approx(0.8 * NM)
    assert first.geometry.center == pytest.approx((48 + 16 / 60 + 7 / 3600, 11 + 40 / 60 + 28 / 3600))
    assert _band(first) == (("SFC", 0.0), ("AMSL", 3600.0))
    assert any("Seemeile" in x and x.startswith("note:") for x in first.reasons)
    assert recs[1].geometry.radius_m == pytest.approx(1.1 * NM)
    # each numbered area's bullets are its own attributes: the second area's ceiling is its own 2200 ft
    assert _band(recs[1]) == (("SFC", 0.0), ("AMSL", 2200.0))
    assert not any("area" in x and "text" in x for x in recs[1].reasons)


def test_sm_is_the_seemeile_only_in_a_german_notice():
    german = "Radius von 0,8 sm um Punkt 48°16’07″N 11°40’28″E. Höhenbegrenzung: Erdoberfläche bis 3600 Fuß über NN."
    metres, note = seemeile("0,8 sm", german)
    assert metres == pytest.approx(0.8 * NM) and "Seemeile" in note
    assert seemeile("3 sm", "TFR WITHIN 3 sm OF THE STADIUM, SFC TO 3000 FT") is None  # the statute mile
    assert seemeile("0,8 SM", german) is None  # capitals: the statute mile's abbreviation


def test_french_decree_coordinates_with_seconds_marked_and_minutes_bare():
    """train ``fr-jorf:zit-rouge-caen-2014`` writes ``49° 28 00'' N - 000° 58 00'' W`` (minutes without their sign,
    a dash between latitude and longitude); ``fr-jorf:colmar-2010-05-08`` ``48° 04'36.71'' N - 007° 21' 14.19'' E``."""
    (c,) = find_coords("49° 28 00'' N - 000° 58 00'' W ;")
    assert (c.lat, c.lon) == pytest.approx((49 + 28 / 60, -(58 / 60)))
    (c,) = find_coords("48° 04'36.71'' N - 007° 21' 14.19'' E.")
    assert (c.lat, c.lon) == pytest.approx((48 + 4 / 60 + 36.71 / 3600, 7 + 21 / 60 + 14.19 / 3600))
    (r,) = _records(world_text("fr-jorf:zit-rouge-caen-2014"))
    assert r.geometry.points[0] == pytest.approx((49 + 28 / 60, -(58 / 60)))
    assert len(r.geometry.points) == 9
    assert _band(r) == (("SFC", 0.0), ("FL", 11500.0))  # "De la surface au niveau de vol 115 (3 770 mètres)"


def test_a_french_circle_of_radius_and_limits_above_the_ground_or_the_sea():
    """train ``fr-jorf:colmar-2010-05-08``: ``Cercle de 5 NM (9,3 km) de rayon, centré sur le point …``, ``De la
    surface à 3 000 pieds (920 mètres) par rapport au sol``; ``fr-jorf:lf-p30-moronvilliers``: ``Cercle de 5
    kilomètres de rayon``, ``… à 4 100 pieds (1 250 mètres) par rapport au niveau moyen de la mer``;
    ``fr-jorf:lf-r45-n2-ardennes``: ``de 800 pieds (250 mètres) par rapport à la surface à 2 400 pieds …``."""
    (r,) = _records(world_text("fr-jorf:colmar-2010-05-08"))
    assert r.geometry.radius_m == pytest.approx(5 * NM)
    assert _band(r) == (("SFC", 0.0), ("AGL", 3000.0))
    (r,) = _records(world_text("fr-jorf:lf-p30-moronvilliers"))
    assert r.geometry.radius_m == pytest.approx(5000.0)
    assert _band(r) == (("SFC", 0.0), ("AMSL", 4100.0))
    (r,) = _records(world_text("fr-jorf:lf-r45-n2-ardennes"))
    assert _band(r) == (("AGL", 800.0), ("AGL", 2400.0))


def test_a_french_period_with_its_clocks_in_utc_as_the_decree_heads_it():
    """train ``fr-jorf:zit-rouge-caen-2014``: under ``Dates et heures d'activation (UTC)``, ``Du mardi 3 juin 2014 à
    10 heures au vendredi 6 juin 2014 à 21 h 59``."""
    (r,) = _records(world_text("fr-jorf:zit-rouge-caen-2014"))
    assert (r.start, r.end) == (_utc("2014-06-03T10:00Z"), _utc("2014-06-06T21:59Z"))
    assert r.status == "ok" and all(x.startswith("note:") for x in r.reasons)


def test_one_day_alone_is_the_whole_day():
    """train ``fr-jorf:colmar-2010-05-08``: ``dans la région de Colmar le samedi 8 mai 2010`` (hours to be published),
    UTC by its heading: the whole day. Without a time zone anywhere it is read as UTC and left for review."""
    (r,) = _records(world_text("fr-jorf:colmar-2010-05-08"))
    assert (r.start, r.end) == (_utc("2010-05-08T00:00Z"), _utc("2010-05-08T23:59Z"))
    (r,) = _records("Zone interdite temporaire: cercle de 2 km de rayon centré sur 48° 04' 36'' N, 007° 21' 14'' E, "
                    "de la surface à 500 pieds par rapport au sol, le samedi 8 mai 2010.")
    assert (r.start, r.end) == (_utc("2010-05-08T00:00Z"), _utc("2010-05-08T23:59Z"))
    assert r.status == "review" and any("read as UTC" in x for x in r.reasons)


def test_days_in_a_german_period_take_their_hours_from_the_daily_window():
    """train ``de-pilothub:nfl-2024-1-3103-reichenhall``: ``vom 26. bis 28. Juni 2024 jeweils von 0600 Uhr bis 1600
    Uhr UTC``: the first day's month and year are the last's, its start the window's; the end the window's end."""
    recs, _ = process_batch([Message(0, world_text("de-pilothub:nfl-2024-1-3103-reichenhall"))], "rules")
    (r,) = recs
    assert (r.start, r.end) == (_utc("2024-06-26T06:00Z"), _utc("2024-06-28T16:00Z"))
    assert any("month Juni from the period" in x for x in r.inferred)


def test_local_clock_times_in_the_time_zone_of_the_zone():
    """An Italian period written clock first (``dalle ore 17:00 del 30 dicembre 2025 alle ore 03:00 del 1° gennaio
    2026``) with no time zone: local time where the zone is (Europe/Rome, UTC+1 in winter), said on the record."""
    text = ("Divieto di sorvolo con droni entro 2 km da 38° 54' 30'' N, 016° 35' 10'' E, dalle ore 17:00 del 30 "
            "dicembre 2025 alle ore 03:00 del 1° gennaio 2026, fino a 120 m sopra il suolo.")
    (r,) = _records(text)
    assert (r.start, r.end) == (_utc("2025-12-30T16:00Z"), _utc("2026-01-01T02:00Z"))
    assert any("Europe/Rome" in x for x in r.inferred)
    # the same in summer is UTC+2
    (r,) = _records(text.replace("30 dicembre 2025", "30 luglio 2025").replace("1° gennaio 2026", "1° agosto 2025"))
    assert r.start == _utc("2025-07-30T15:00Z")


@pytest.mark.parametrize(("text", "start", "end"), [
    ("del 3 al 6 de junio de 2014", "2014-06-03T00:00Z", "2014-06-06T23:59Z"),
    ("desde las 10:00 horas del 3 de junio hasta las 22:00 horas del 6 de junio de 2014", "2014-06-03T10:00Z",
     "2014-06-06T22:00Z"),
    ("de 4 de maio de 2024 a 10 de maio de 2024", "2024-05-04T00:00Z", "2024-05-10T23:59Z"),
    ("du 3 au 6 juin 2014", "2014-06-03T00:00Z", "2014-06-06T23:59Z"),
    # Dutch, Norwegian, Swedish, Polish and Czech (months in the genitive), Indonesian; a range "between … and …"
    ("van 3 tot en met 5 mei 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("fra 3. til 5. mai 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("från 3 till 5 maj 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("od 3 do 5 maja 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("od 3. do 5. května 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("dari 3 hingga 5 Mei 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("zwischen dem 3. und 5. Mai 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
    ("entre el 3 y el 5 de mayo de 2025", "2025-05-03T00:00Z", "2025-05-05T23:59Z"),
])
def test_periods_in_other_languages(text, start, end):
    """Each period as the rules reader finds it and the normaliser reads it: whole days where it states no clock (read
    as UTC for review, the notice naming no time zone and the zone no position here)."""
    (r,) = process_batch([Message(0, f"Zona restringida: {text}.")], "rules")[0]
    assert (r.start, r.end) == (_utc(start), _utc(end))


def test_english_month_words_alone_are_not_read_as_another_language():
    from airspace.parser.eudates import ONE_DAY, PERIOD

    assert PERIOD.search("from 2 to 4 August 2024") is None and ONE_DAY.search("on 8 August 2024") is None
    assert PERIOD.search("de 10 a 20 km") is None


@pytest.mark.parametrize(("text", "end"), [
    # an end alone: the whole day it names (read as UTC here, for review: no time zone, no position)
    ("bis zum 25. Oktober 2024", "2024-10-25T23:59Z"),
    ("jusqu'au 3 juin 2014", "2014-06-03T23:59Z"),
    ("hasta el 5 de mayo de 2025", "2025-05-05T23:59Z"),
    ("do 25. října 2022", "2022-10-25T23:59Z"),
])
def test_an_end_alone_in_other_languages(text, end):
    (r,) = process_batch([Message(0, f"Zona restringida: {text}.")], "rules")[0]
    assert (r.start, r.end) == (None, _utc(end))


@pytest.mark.parametrize(("text", "start", "end"), [
    # an end that writes only its clock on "the next day": the day after the period's first
    ("vom 29. Mai 2024 um 14 Uhr bis 6 Uhr des Folgetages", "2024-05-29T14:00Z", "2024-05-30T06:00Z"),
    ("du 29 mai 2024 à 14 h au 6 h du lendemain", "2024-05-29T14:00Z", "2024-05-30T06:00Z"),
    ("από την 14.00 ώρα της 31 Μαΐου 2024 έως την 06.00 ώρα της επόμενης ημέρας", "2024-05-31T14:00Z",
     "2024-06-01T06:00Z"),
])
def test_an_end_on_the_next_day(text, start, end):
    (r,) = process_batch([Message(0, f"Zona restringida: {text}. UTC")], "rules")[0]
    assert (r.start, r.end) == (_utc(start), _utc(end))


@pytest.mark.parametrize(("written", "start", "end"), [
    # dates in numbers, day first, with points or slashes, clocks after them or none (whole days); Hannover's clock
    # (CEST, UTC+2) where the notice marks no UTC
    ("vom 12.06.2024 08:00 UTC bis 14.06.2024 18:00 UTC", "2024-06-12T08:00Z", "2024-06-14T18:00Z"),
    ("vom 12.06.2024, 08:00 Uhr bis 14.06.2024, 18:00 Uhr", "2024-06-12T06:00Z", "2024-06-14T16:00Z"),
    ("desde el 12/06/2024 a las 08:00 hasta el 14/06/2024 a las 18:00", "2024-06-12T06:00Z", "2024-06-14T16:00Z"),
    ("od 12.06.2024 do 14.06.2024", "2024-06-11T22:00Z", "2024-06-14T21:59Z"),
    ("12.6.24 - 14.6.24", "2024-06-11T22:00Z", "2024-06-14T21:59Z"),
    # one day with its hours after it, and an end alone
    ("am 12.06.2024 von 08:00 bis 18:00 Uhr", "2024-06-12T06:00Z", "2024-06-12T16:00Z"),
    ("bis 14.06.2024", None, "2024-06-14T21:59Z"),
    # English words around a slash date: month first (the US) unless a day cannot be a month
    ("from 06/12/2024 to 06/14/2024", None, None),
    ("from 13/06/2024 to 14/06/2024", "2024-06-12T22:00Z", "2024-06-14T21:59Z"),
])
def test_dates_written_in_numbers(written, start, end):
    # de-hannover-airport:drohnen-1-5km ("… einem Umkreis von 1,5 Kilometern um den Flughafenzaun gilt ein absolutes
    # Flugverbot für Drohnen.") with the period its notices write in numbers
    text = world_text("de-hannover-airport:drohnen-1-5km").replace(
        "gilt ein absolutes Flugverbot für Drohnen.", f"gilt ein absolutes Flugverbot für Drohnen {written}.")
    recs = [r for r in process_batch([Message(0, text)], "rules")[0] if r.geometry is not None]
    assert (recs[0].start, recs[0].end) == ((_utc(start) if start else None), (_utc(end) if end else None))


@pytest.mark.parametrize(("hours", "start", "end"), [
    # one day and its hours after it, in the ways the languages write them (Hannover's clock, CEST, UTC+2)
    ("am 5. Mai 2024 von 8 bis 18 Uhr", "2024-05-05T06:00Z", "2024-05-05T16:00Z"),
    ("am 5. Mai 2024 von 08:00 bis 18:00 Uhr", "2024-05-05T06:00Z", "2024-05-05T16:00Z"),
    ("el 5 de mayo de 2024, de 8:00 a 18:00 horas", "2024-05-05T06:00Z", "2024-05-05T16:00Z"),
    ("no dia 5 de maio de 2024, das 8h às 18h", "2024-05-05T06:00Z", "2024-05-05T16:00Z"),
    ("il 5 maggio 2024 dalle ore 8 alle ore 18", "2024-05-05T06:00Z", "2024-05-05T16:00Z"),
    # a bare number after a day is no clock without its unit ("von 8 bis 18" may count anything): the whole day
    ("am 5. Mai 2024 von 8 bis 18", "2024-05-04T22:00Z", "2024-05-05T21:59Z"),
])
def test_one_day_and_its_hours(hours, start, end):
    text = world_text("de-hannover-airport:drohnen-1-5km").replace(
        "gilt ein absolutes Flugverbot für Drohnen.", f"gilt ein absolutes Flugverbot für Drohnen {hours}.")
    recs = [r for r in process_batch([Message(0, text)], "rules")[0] if r.geometry is not None]
    assert (recs[0].start, recs[0].end) == (_utc(start), _utc(end))


def test_portuguese_from_the_day_is_no_end():
    # Polish and Czech "do" is "until"; Portuguese "a partir do 1 de maio" is "from 1 May": never an end
    from airspace.parser.eudates import NUM_UNTIL, UNTIL

    assert UNTIL.search("Zákaz platí do 25. října 2022.") is not None
    assert UNTIL.search("Restrições de voo a partir do 1 de maio de 2024.") is None
    assert NUM_UNTIL.search("Restrições de voo a partir do 12/06/2024.") is None
