"""English prose that reports a ban (``parser.rules.news``, ``parser.endates``, ``parser.gazetteer``), each form on
a real row of the world set's train split, cited by id, and beside it a variant that moves what the form must not
depend on."""

from datetime import date

import pytest

from airspace.parser import endates
from airspace.parser.gazetteer import zone_named
from airspace.parser.header import parse_header
from airspace.parser.rules.news import news_places
from airspace.parser.rules.zone import Message
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message as BatchMessage
from tests.world_rows import drawn_records, utc, world_text


def _places(text: str) -> list[dict[str, str]]:
    zones = news_places(Message.of(text, parse_header(text)))
    return [{k: s.text for k, s in z.fields.items()} for z in zones]


def test_a_radius_around_each_place_of_a_list():
    # in-deccanherald:palace-grounds-2024-04-20: "within a 1-km radius at Krishna Vihar, Palace Grounds, and HQTC
    # Helipad": three places, each its own zone with the phrase's radius
    recs = drawn_records(world_text("in-deccanherald:palace-grounds-2024-04-20"))
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [
        ("Krishna Vihar", 1000.0), ("Palace Grounds", 1000.0), ("HQTC Helipad", 1000.0)]
    assert all(r.status == "review" for r in recs)  # a named place is looked up by the operator


def test_a_radius_from_the_centre_of_a_place():
    # ae-eastcoastdaily:dubai-airshow-2019: "within 15 km radius from the center of Al Maktoum International Airport"
    recs = drawn_records(world_text("ae-eastcoastdaily:dubai-airshow-2019"))
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [("Al Maktoum International Airport", 15000.0)]


def test_a_place_ends_with_the_word_saying_what_it_is_and_no_clause():
    # in-deccanherald:kiadb-2024-01-19: "within a five-km radius of the KIADB aerospace park near the airport"
    assert _places(world_text("in-deccanherald:kiadb-2024-01-19")) == [
        {"name": "KIADB aerospace park", "radius": "five-km"}]
    assert _places("Drones are banned within a 2-mile radius of Wembley Stadium and the roads around it today.") == [
        {"name": "Wembley Stadium", "radius": "2-mile"}]


def test_a_place_in_prose_without_a_ban_is_no_zone():
    assert _places("The festival drew crowds within a 2 km radius of Wembley Stadium all weekend.") == []


def test_a_zone_of_a_size_and_a_zone_over_a_place():
    assert _places("Police set up a 5 km no-fly zone around Croke Park for the final.") == [
        {"name": "Croke Park", "radius": "5 km"}]
    assert _places("A temporary flight restriction over Yankee Stadium is in force.") == [{"name": "Yankee Stadium"}]


def test_a_weekday_is_counted_from_the_items_date_in_the_named_citys_time_zone():
    # in-deccanherald:kiadb-2024-01-19: "on Friday", the page "Last Updated 18 January 2024", "Bengaluru Police":
    # Friday 19 January, the whole day in India (UTC+05:30), said on the record and left for review
    (rec,) = drawn_records(world_text("in-deccanherald:kiadb-2024-01-19"))
    assert (rec.start, rec.end) == (utc("2024-01-18T18:30Z"), utc("2024-01-19T18:30Z"))
    said = " ".join(rec.reasons)
    assert "Friday = 2024-01-19" in said and "Asia/Kolkata" in said and "Bengaluru" in said
    assert rec.status == "review"


def test_a_start_and_an_end_written_apart():
    # in-deccanherald:delhi-rday-2023: "prohibited from January 18 …" and "… till February 15", the dateline
    # "Jan 23 2023", "Delhi Police": the whole days in India (the place: test_rules_news_report)
    recs, _ = process_batch([BatchMessage(0, world_text("in-deccanherald:delhi-rday-2023"))], "rules")
    assert [(r.start, r.end) for r in recs] == [(utc("2023-01-17T18:30Z"), utc("2023-02-15T18:30Z"))]
    assert recs[0].status == "review"


def test_a_period_with_its_hours_in_the_places_summer_time():
    text = ("Drones are banned within a 1 km radius of Wembley Stadium in London from June 5 to June 7, 2026, "
            "between 10 am and 8 pm each day.")
    (rec,) = drawn_records(text)
    assert (rec.start, rec.end) == (utc("2026-06-05T09:00Z"), utc("2026-06-07T19:00Z"))  # BST, UTC+1
    assert "Europe/London" in " ".join(rec.reasons)


def test_without_a_place_whose_time_zone_is_known_the_day_is_read_as_utc_for_review():
    text = "Published 3 March 2026. Drones are banned within a 1 km radius of Tolka Park from March 5 to March 6."
    (rec,) = drawn_records(text)
    assert (rec.start, rec.end) == (utc("2026-03-05T00:00Z"), utc("2026-03-07T00:00Z"))
    assert "read as UTC: the message states no time zone" in " ".join(rec.reasons)
    assert rec.status == "review"


def test_designated_areas_listed_one_to_a_line():
    # at-dronespace:test-areas: "- LO R 9 „Steinalpl“" … four areas, each its own named zone
    recs = drawn_records(world_text("at-dronespace:test-areas"))
    assert [r.geometry.name for r in recs] == ["LO R 9 „Steinalpl“", "LO R 10 „Reichersberg“",
                                               "LO R 11 „Frauschereck“", "LO R 12 „Hochkar“"]
    assert [r.geometry.name for r in drawn_records("Areas:\n- ED-R 146 (Frankfurt)\n- EGD323A\n")] == [
        "ED-R 146 (Frankfurt)", "EGD323A"]


@pytest.mark.parametrize(("value", "text", "day", "taken"), [
    ("January 18", "Jan 23 2023, 20:11 ist", date(2023, 1, 18), "year 2023 from the item's date 2023-01-23"),
    ("January 3", "Posted December 28, 2025", date(2026, 1, 3), "year 2026 from the item's date 2025-12-28"),
    ("the 5th of May", "2024-04-30", date(2024, 5, 5), "year 2024 from the item's date 2024-04-30"),
    ("Thursday, November 21", "Published 2019-11-10", date(2019, 11, 21), "year 2019"),
    ("Saturday", "Updated 18 January 2024", date(2024, 1, 20), "Saturday = 2024-01-20"),
    ("Thursday", "Updated 18 January 2024", date(2024, 1, 18), "Thursday = 2024-01-18"),
])
def test_a_date_takes_the_year_nearest_the_items_own(value, text, day, taken):
    t = endates.read_en_time(value, text)
    assert t.day == day and t.minutes is None
    assert any(taken in x for x in t.taken)


def test_dates_that_cannot_be_known_are_refused():
    with pytest.raises(ValueError):
        endates.read_en_time("Saturday", "No date anywhere.")
    with pytest.raises(ValueError):
        endates.read_en_time("March 5", "No date anywhere.")
    # "may" written small is the verb, never the month
    assert endates.PERIOD.search("from may 5 to may 6") is None


def test_hours_on_either_dial_and_never_years():
    def hours(s):
        m = endates.HOURS.search(s)
        return m and endates.hours_minutes(m)
    assert hours("between 10 am and 8 pm") == (600, 1200)
    assert hours("from 6:30 p.m. to 9 p.m.") == (1110, 1260)
    assert hours("from 09:00 to 17:00 hrs") == (540, 1020)
    assert hours("between 2017 and 2019") is None


def test_the_time_zone_of_the_places_a_text_names():
    assert zone_named("Bengaluru City Police Commissioner B Dayananda")[0].key == "Asia/Kolkata"
    assert zone_named("The Civil Aviation Authority in Dubai")[0].key == "Asia/Dubai"
    assert zone_named("Abu Dhabi: The General Civil Aviation Authority")[0].key == "Asia/Dubai"
    assert zone_named("San Diego Police") == (zone_named("Los Angeles")[0], "San Diego")
    # a place after a capitalised word that is none ("Greater", "Officials Said") is still found
    assert zone_named("Greater Mumbai Police")[0].key == "Asia/Kolkata"
    assert zone_named("Officials Said Dubai Airshow")[0].key == "Asia/Dubai"
    assert zone_named("Dubai and Mumbai") is None  # two zones: no answer
    assert zone_named("Manchester") is None  # two cities of the name in different zones
    assert zone_named("Reading the notice, Mobile users") is None  # city names that are English words
    # dronebelow:super-bowl-liii-2019: "Mercedes-Benz Stadium in Atlanta": "Mercedes" (a city of two zones) is cut
    # out of a hyphenated name, no place; Atlanta settles the zone ("Dubai-based" still names Dubai)
    assert zone_named("Mercedes-Benz Stadium in Atlanta")[0].key == "America/New_York"
    assert zone_named("a Dubai-based operator")[0].key == "Asia/Dubai"


def test_an_english_date_is_never_ok_even_where_the_zone_gives_its_time_zone():
    # the position settles the clock, but a year from the period, a whole day, hours written once are readings
    recs = drawn_records("Drones are banned within 2 km of 515520N0001646W from June 5 to June 7, 2026, SFC to "
                         "400 ft AGL.")
    assert [(r.start, r.end, r.status) for r in recs] == [
        (utc("2026-06-04T23:00Z"), utc("2026-06-07T23:00Z"), "review")]
    assert "taken from the zone's position (inferred)" in " ".join(recs[0].reasons)


def test_a_radius_centred_on_each_place_and_no_document_read_as_a_place():
    # ph-pna:asean-2017-b4588-b4593: "40 nautical miles radius centered on Luneta Park and NOTAM (B4593/17), 40
    # nautical miles radius centered on Clark DVOR": two places; the NOTAM the list runs on into is none
    recs = drawn_records(world_text("ph-pna:asean-2017-b4588-b4593"))
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [("Luneta Park", 74080.0), ("Clark DVOR", 74080.0)]
    assert _places("Drones are banned within a 5 km radius centred on Croke Park and TFR 2/1234 today.") == [
        {"name": "Croke Park", "radius": "5 km"}]


def test_a_period_whose_ends_each_carry_their_clock():
    # aurora-nats:aic-m126-2019-stonehenge, a UK Restriction of Flying circular: "between 2100 hours on 21 December
    # 2019 and 1100 hours on 22 December 2019 no aircraft is to fly below 3,000 FT AMSL within … 3 NM centred at …"
    (rec,) = drawn_records(world_text("aurora-nats:aic-m126-2019-stonehenge"))
    assert (rec.start, rec.end) == (utc("2019-12-21T21:00Z"), utc("2019-12-22T11:00Z"))
    assert rec.status == "review"  # an English prose time is read for review
    # ph-mb:batasan-sona-2019: "From July 20 at 9:00am to July 21 at 11:00am, drones and aircraft will be limited …
    # within 10km radius of Batasan Pambansa": Manila time (the Philippines named), for review
    rec = drawn_records(world_text("ph-mb:batasan-sona-2019"))[0]
    assert (rec.start, rec.end) == (utc("2019-07-20T01:00Z"), utc("2019-07-21T03:00Z")) and rec.status == "review"
    t = "The zone will remain in effect from 12:30 UTC on December 6 to 15:30 UTC on December 8. (November 25, 2025)"
    m = endates.CLOCKED_PERIOD.search(t)
    s, e = endates.read_en_time(m.group("v_s"), t), endates.read_en_time(m.group("v_e"), t)
    assert (s.day, s.minutes, s.utc, e.day, e.minutes) == (date(2025, 12, 6), 750, True, date(2025, 12, 8), 930)


def test_places_listed_one_to_a_line_after_the_ban():
    # travellerconnect:usp-thomson-uas: "… restriction on drone flights up to 400 feet within the lateral boundaries
    # of the following federal facility:\n• Administrative United States Penitentiary Thomson near Clinton, IL":
    # the line is the place, as written
    text = world_text("travellerconnect:usp-thomson-uas")
    assert [p["name"] for p in _places(text)] == ["Administrative United States Penitentiary Thomson near Clinton, IL"]
    (rec,) = drawn_records(text)
    assert rec.upper.ft == 400.0 and rec.status == "review"
    # a list of several facilities: one zone each; the list ends where the lines stop being items
    more = text + "\n• Federal Correctional Institution Oxford, WI\n\nThe restrictions are in effect until further notice."
    assert [p["name"] for p in _places(more)] == [
        "Administrative United States Penitentiary Thomson near Clinton, IL", "Federal Correctional Institution Oxford, WI"]
    # without the ban, a list of facilities is no zone
    assert _places(text.replace("restriction on drone flights", "note on drone flights")
                   .replace("restrictions", "notes")) == []


def test_drones_banned_over_a_country_on_its_own_day():
    # lk-adaderana:gazette-2019-english: "to prohibit the navigation of any unmanned aircraft (UAV) or any drone over
    # Sri Lanka from 13th May 2019": the country is the zone; its day starts at its own midnight (Asia/Colombo)
    text = world_text("lk-adaderana:gazette-2019-english")
    assert [p["name"] for p in _places(text)] == ["Sri Lanka"]
    (rec,) = drawn_records(text)
    assert rec.start == utc("2019-05-12T18:30Z")
    assert any("Asia/Colombo" in w and "Sri Lanka" in w for w in rec.inferred)
    assert rec.status == "review"


@pytest.mark.parametrize("when", ["St Patrick's Day", "the Easter Weekend", "Christmas", "Sunday", "New Year"])
def test_over_a_time_is_no_place(when: str):
    # "over" is a time as often as a place: "any drone over Christmas" names no zone
    text = world_text("lk-adaderana:gazette-2019-english").replace("any drone over Sri Lanka", f"any drone over {when}")
    assert _places(text) == []


def test_a_place_declared_a_no_drone_zone():
    # dronebelow:super-bowl-liii-2019, its lead alone: "the airspace around Mercedes-Benz Stadium in Atlanta has been
    # declared a “No Drone Zone”": the place declared, with its town, and no radius
    lead = world_text("dronebelow:super-bowl-liii-2019").split("\n")[0]
    assert _places(lead) == [{"name": "Mercedes-Benz Stadium in Atlanta"}]
    # the same form as other reports write it: declared before the place, or "will be" one
    assert _places("The district administration declared Kalaburagi a no-drone zone on Friday.") == [
        {"name": "Kalaburagi"}]
    assert _places("Wembley Stadium will be a drone-free zone during the final.") == [{"name": "Wembley Stadium"}]
    assert _places("Srinagar and its surroundings have been declared a no-fly zone for drones.") == [
        {"name": "Srinagar"}]
    # a place that is merely near a zone, or a declaration of something else, is no zone
    assert _places("Wembley Stadium will be a venue for the final; a no-fly zone is in force.") == []


def test_a_radius_around_a_place_without_within():
    # the lead of cartizzle:super-bowl-lvi with its radius written as "a … radius around": the TFR's ring
    text = world_text("cartizzle:super-bowl-lvi").replace(
        "not allowed to fly within a 30-nautical-mile radius of the stadium",
        "not allowed to fly in the TFR, a 30-nautical-mile radius around the stadium")
    rings = {p["radius"]: p["name"] for p in _places(text)}
    assert rings["30-nautical-mile"] == "SoFi Stadium in Inglewood California"


@pytest.mark.parametrize(("phrase", "place"), [
    ("drones have been banned in Sri Lanka", "Sri Lanka"),
    ("drones are prohibited from flying over Colombo Port City", "Colombo Port City"),
    ("a ban on the use of drones near Bandaranaike International Airport", "Bandaranaike International Airport"),
    ("a no-fly zone for drones over Galle Face Green", "Galle Face Green"),
])
def test_the_flights_banned_where_they_are(phrase: str, place: str):
    # lk-adaderana:gazette-2019-english with its ban written in the other ways reports write it
    text = world_text("lk-adaderana:gazette-2019-english").replace(
        "to prohibit the navigation of any unmanned aircraft (UAV) or any drone over Sri Lanka", phrase)
    assert [p["name"] for p in _places(text)] == [place]


def test_the_time_zone_a_text_names_by_its_name():
    # dronebelow:super-bowl-liii-2019 without its city ("Mercedes-Benz Stadium in Atlanta"): "… from 5:30 p.m. to
    # 11:59 p.m. Eastern Time" names the clock; the day is read in it (New York), said to be inferred
    text = world_text("dronebelow:super-bowl-liii-2019").replace(" in Atlanta", "").replace("on Atlanta", "on the city")
    # (the game-day ring's day; the 1 NM ring's own paragraph writes its own days, test_parser_paragraphs)
    recs = drawn_records(text)
    assert (recs[0].start, recs[0].end) == (utc("2019-02-03T05:00Z"), utc("2019-02-04T05:00Z"))
    assert recs[1].start == utc("2019-01-31T15:00Z")  # 10 a.m. Eastern Time
    assert all(any("the time zone the message names (Eastern Time)" in x for x in r.reasons) for r in recs)
    # another zone's name gives its clock
    recs = drawn_records(text.replace("Eastern Time", "Pacific Time"))
    assert (recs[0].start, recs[0].end) == (utc("2019-02-03T08:00Z"), utc("2019-02-04T08:00Z"))
    assert recs[1].start == utc("2019-01-31T18:00Z")


def test_a_time_zone_abbreviation_only_after_a_clock_and_one_zone_only():
    from airspace.parser.tzwords import zone_stated

    assert zone_stated("from 10 a.m. EST until noon")[0].key == "America/New_York"
    assert zone_stated("ending at 8:30 PM PST")[0].key == "America/Los_Angeles"
    assert zone_stated("C) 2602201338 EST") is None  # a notice's date-time group: "estimated"
    assert zone_stated("EST DURATION 3 HOURS") is None
    assert zone_stated("entre 10:00 et 12:00") is None  # (an abbreviation in capitals only: French "et")
    assert zone_stated("from 9 a.m. Eastern Time to 9 a.m. Pacific Time") is None  # two zones: none
    assert zone_stated("10 a.m. Australian Eastern Time") is None  # not the US zone


def test_a_sea_area_a_missile_test_or_a_no_fly_zone_is_declared_in():
    # in-thetatva:bay-of-bengal-dec-6-8: "a notification about a possible missile test in the Bay of Bengal … a no-fly
    # zone will be active": the named body of water; its days name no year and the text dates itself nowhere
    (rec,) = drawn_records(world_text("in-thetatva:bay-of-bengal-dec-6-8"))
    assert (rec.geometry.name, rec.geometry.radius_m, rec.status, rec.start) == ("Bay of Bengal", None, "review", None)
    for text, name in [
        ("China declared a no-fly zone over the South China Sea for live-fire drills on 3 March 2024.", "South China Sea"),
        ("Pyongyang warned ships and aircraft of rocket launches off the Sea of Japan; flights are restricted.",
         "Sea of Japan"),
    ]:
        assert [r.geometry.name for r in drawn_records(text)] == [name]
    # water named without a ban, or a ban on something else than an area of water, is no zone
    assert drawn_records("The missile test in the Bay of Bengal went ahead on Tuesday.") == []


def test_a_sized_zone_said_to_be_in_place_around_a_place():
    # ae-eastcoastdaily:dubai-airshow-2019: "A 15 km no-fly zone has been announced around Dubai World Central …";
    # news also write the zone "will be in place" / "has been established" before its place
    text = world_text("ae-eastcoastdaily:dubai-airshow-2019")
    text = text[:text.index("“All drone")]  # (without the radius sentence that names the airport)
    for said in ("will be in place", "has been established", "is in effect"):
        got = _places(text.replace("has been announced", said))
        assert [(p["name"], p.get("radius")) for p in got] == [("Dubai World Central", "15 km")]
    assert _places(text.replace("has been announced", "was discussed")) == []


def test_a_clock_and_its_day_side_by_side():
    # ph-mb:batasan-sona-2019 writes "From July 20 at 9:00am to July 21 at 11:00am"; the clock before the day or
    # after it without "at" ("from 9:00am July 20 to 11:00am July 21", "from July 20 9:00am …") reads the same
    text = world_text("ph-mb:batasan-sona-2019")
    for period in ("From 9:00am July 20 to 11:00am July 21", "From July 20 9:00am to July 21 11:00am",
                   "From 9:00am, July 20 to 11:00am, July 21"):
        recs = drawn_records(text.replace("From July 20 at 9:00am to July 21 at 11:00am", period))
        assert (recs[0].start, recs[0].end) == (utc("2019-07-20T01:00Z"), utc("2019-07-21T03:00Z")), period


def test_a_building_is_not_the_city_one_of_its_other_spellings_translates():
    # GeoNames lists "White House" among Casablanca's spellings: in English prose it is the building, whose city
    # the text does not settle (no time zone from it)
    assert zone_named("Drones are banned within 15 miles of the White House.") is None
    assert zone_named("Drones are banned within 15 miles of the White House in Casablanca.") is not None


def test_a_tfr_over_a_place_is_a_zone_word_and_a_ban():
    # cartizzle:super-bowl-lvi: "a Temporary Flight Restriction (TFR) over the SoFi Stadium in Inglewood California";
    # dispatch notes write the acronym alone ("VIP TFR over Palm Beach"): the TFR is the restriction, over its place
    text = world_text("cartizzle:super-bowl-lvi")
    first = text[:text.index(" The TFR means")]
    bare = first.replace("a “No Drone Zone” and announced that there is a Temporary Flight Restriction (TFR)",
                         "a big event and announced a VIP TFR")
    assert [p["name"] for p in _places(bare)] == ["SoFi Stadium in Inglewood California"]
    # "tfr" in lower case is no acronym
    assert _places(bare.replace("VIP TFR", "vip tfr")) == []


def test_a_period_written_as_its_length_after_its_start():
    # in-oneindia:mumbai-2022-11: "… in the city for 30 days, effective from November 13 to December 12." With its
    # year written and the end left to the length ("for 30 days, effective from November 13, 2022"): the end is 30
    # days after the start (13 December 00:00 IST, as the truth row reads the written end inclusive), for review
    text = world_text("in-oneindia:mumbai-2022-11").replace(
        "effective from November 13 to December 12", "effective from November 13, 2022")
    (rec,) = drawn_records(text)
    assert (rec.start, rec.end) == (utc("2022-11-12T18:30Z"), utc("2022-12-12T18:30Z"))
    assert any("30 days after the start" in r for r in rec.reasons) and rec.status == "review"
    # weeks and calendar months; a length far from the start is not its length
    assert endates.after_duration(utc("2024-01-31T00:00Z"), "for one month")[0] == utc("2024-02-29T00:00Z")
    assert endates.after_duration(utc("2024-06-01T00:00Z"), "for a period of two weeks")[0] == utc("2024-06-15T00:00Z")
    assert endates.after_duration(utc("2024-06-01T00:00Z"), "June 15") is None  # (no length: the end is read as a date)
    far = text.replace("for 30 days, effective", "for 30 days, as the notification of the commissioner of police of the "
                                                  "city says in its order, effective")
    (rec,) = drawn_records(far)
    assert rec.start == utc("2022-11-12T18:30Z") and rec.end is None


@pytest.mark.parametrize(("sentence", "place"), [
    ("The airspace over Dublin Port was closed to recreational and commercial drone operations", "Dublin Port"),
    ("The Irish Aviation Authority closed the airspace above Dublin Port to recreational and commercial drone operations",
     "Dublin Port"),
])
def test_airspace_said_closed_over_a_place(sentence, place):
    # visahq:dublin-t3-2025 says its ban as "A blanket prohibition on recreational and commercial drone operations
    # across Dublin’s Control Zone"; airspace said closed over a place is a ban of its own, read in those words only
    text = world_text("visahq:dublin-t3-2025").replace(
        "A blanket prohibition on recreational and commercial drone operations across Dublin’s Control Zone", sentence)
    assert [p["name"] for p in _places(text)] == [place]
    assert _places(text.replace("closed", "opened")) == []


@pytest.mark.parametrize(("hours", "start", "end"), [
    # four bare digits are a clock where a time zone, UTC or "local" follows them or the span they open
    ("from 0900 to 1100 UTC", "2019-11-13T09:00Z", "2019-11-13T11:00Z"),
    ("from 0900 to 1100 GST", "2019-11-13T05:00Z", "2019-11-13T07:00Z"),
    # without one they may be years or numbers: the day alone
    ("from 0900 to 1100", "2019-11-12T20:00Z", "2019-11-13T20:00Z"),
])
def test_bare_four_digit_clocks_with_their_zone(hours, start, end):
    # ae-eastcoastdaily:dubai-airshow-2019's zone ("between Wednesday, November 13 to Thursday, November 21") on one
    # day with its hours written the 24-hour way notices write them; Dubai's clock (UTC+4) for a zone's abbreviation
    text = world_text("ae-eastcoastdaily:dubai-airshow-2019").replace(
        "between Wednesday, November 13 to Thursday, November 21", f"on November 13, 2019 {hours}")
    recs = drawn_records(text)
    assert (recs[0].start, recs[0].end) == (utc(start), utc(end))


def test_an_end_written_as_a_weekday_alone():
    # ph-mb:batasan-sona-2019 is dated "Published July 20, 2019"; its period written as an end alone ("until
    # Tuesday"): the first Tuesday on or after the item's date, the whole day, for review
    text = world_text("ph-mb:batasan-sona-2019").replace(
        "from July 20-23, 2019", "until Tuesday").replace("From July 20 at 9:00am to July 21 at 11:00am, ", "")
    rec = drawn_records(text)[0]
    assert rec.end == utc("2019-07-23T16:00Z") and rec.status == "review"
    assert any("the first Tuesday on or after the item's date 2019-07-20" in r for r in rec.reasons)
    # a weekday that a date follows is that date's ("until Tuesday, July 23, 2019" is read as the date)
    assert endates.TILL_WEEKDAY.search("until Tuesday, July 23, 2019") is None
