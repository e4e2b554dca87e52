"""The place of a ban a report names only in its sentence (``parser.rules.news_report``), the place of a Chinese ban
without an anchor (``chinese.cn_event_place``) and the facilities a Japanese notice lists under the Small Unmanned
Aircraft Act (``parser.rules.japanese``), each on a real row of the world set's train split, cited by id, and beside
it a variant that moves what the form must not depend on."""

from airspace.parser.gazetteer import named_places, zone_named
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message
from tests.world_rows import drawn_records, utc, world_text


def _named(text: str) -> list[tuple[str, float | None]]:
    return [(r.geometry.name, r.geometry.radius_m) for r in drawn_records(text)]


def test_the_place_the_bans_sentence_names_is_the_zone():
    # in-deccanherald:delhi-rday-2023: "Republic Day: Delhi Police bans flying of drones, other aerial platforms";
    # no phrase names where ("over the national capital"): the city the ban's own sentence names, for review,
    # with the period the report states
    recs = drawn_records(world_text("in-deccanherald:delhi-rday-2023"))
    assert [(r.geometry.type, r.geometry.name, r.status) for r in recs] == [("named", "Delhi", "review")]
    assert (recs[0].start, recs[0].end) == (utc("2023-01-17T18:30:00Z"), utc("2023-02-15T18:30:00Z"))


def test_a_country_as_reports_abbreviate_it():
    # ae-gulfnews:gcaa-suspension-2026-03-01: "UAE suspends permits for drones, gliders and recreational aircraft"
    assert _named(world_text("ae-gulfnews:gcaa-suspension-2026-03-01")) == [("UAE", None)]
    # an abbreviation finds a place but never settles a time zone; a country of several zones is a place too
    assert zone_named("UAE") is None
    text = "Drones banned across the United States and UAE"
    assert [text[s:e] for s, e, _ in named_places(text, every_country=True)] == ["United States", "UAE"]
    assert named_places(text) == []
    # in a text all in capitals an abbreviation is a word of it ("US NAVY"), no place
    assert _named("DRONE FLIGHTS PROHIBITED, US NAVY EXERCISE IN PROGRESS.") == []


def test_the_places_after_the_ban_word_are_where_it_holds():
    # a variant of in-deccanherald:delhi-rday-2023 whose sentence also says where: the place after the ban word
    text = world_text("in-deccanherald:delhi-rday-2023").replace("bans flying of drones",
                                                                 "bans flying of drones over Gurugram", 1)
    assert _named(text) == [("Gurugram", None)]


def test_a_venue_the_bans_sentence_names():
    # au-droneit:asean-sydney-2018-rpa-tra: "The TRA … will restrict RPA operations within a 7km x 8km rectangle
    # encompassing the Sydney CBD, Darling Harbour and Kirribilli House": the city and the venue the sentence names
    recs = drawn_records(world_text("au-droneit:asean-sydney-2018-rpa-tra"))
    assert [r.geometry.name for r in recs] == ["Sydney", "Kirribilli House"]
    # a venue is a Title-Case name that ends in a word for one; only in the ban's own sentence
    assert _named("Drone flights are prohibited during the final at Lansdowne Road Stadium.") == [
        ("Lansdowne Road Stadium", None)]
    assert _named("Drone flights are prohibited during the final. It is played at Lansdowne Road Stadium.") == []


def test_a_closure_is_a_ban_too():
    # a variant of in-deccanherald:delhi-rday-2023 whose headline says the airspace is closed, not banned
    text = world_text("in-deccanherald:delhi-rday-2023").replace(
        "Delhi Police bans flying of drones, other aerial platforms", "Airspace over Gurugram closed to drones", 1)
    text = text.replace("has been prohibited", "is not permitted", 1)
    assert _named(text)[0] == ("Gurugram", None)
    # closed in the other languages of Latin letters (Tagalog, Indonesian)
    assert _named("Sarado ang himpapawid sa Manila para sa mga drone.") == [("Manila", None)]
    assert _named("Wilayah udara Jakarta ditutup untuk drone selama KTT.") == [("Jakarta", None)]
    # a closing ceremony closes nothing
    assert _named("The closing ceremony in Paris drew a crowd.") == []


def test_a_venue_named_kind_first_in_spanish():
    # ve-el-carabobeno:inac-prohibicion-nacional: "la prohibición de vuelo en el territorio nacional" names the whole
    # national territory (news_eu.NATIONAL); the same notice over a venue ("Aeropuerto …", its kind first, as
    # Spanish, Portuguese, French, German and Italian name one) is that venue
    text = world_text("ve-el-carabobeno:inac-prohibicion-nacional")
    assert _named(text) == [("territorio nacional", None)]
    assert _named(text.replace("en el territorio nacional", "en el Aeropuerto Arturo Michelena", 1)) == [
        ("Aeropuerto Arturo Michelena", None)]


def test_a_word_capitalised_for_where_it_stands_is_no_place():
    # mx-a21:dgac-rpas-distancias defines no zone: "¿Cuáles son las zonas restringidas?: Una zona restringida de
    # vuelo es …" ("Una", Spanish "a", opens the clause; the town of Una is not meant)
    assert drawn_records(world_text("mx-a21:dgac-rpas-distancias")) == []
    # the same word inside a sentence is the town
    assert _named("Las autoridades prohibieron los drones en Una durante la visita.") == [("Una", None)]


def test_a_place_that_ends_a_longer_name_is_no_place():
    # id-tempo:istana-negara-kkop-jakarta: "Istana Negara" is the palace, not the town of Negara
    assert all(r.geometry.name != "Negara" for r in drawn_records(world_text("id-tempo:istana-negara-kkop-jakarta")))
    # after an article or a word for a part of it, the place is itself
    assert _named("The Greater Mumbai police has banned drones until further notice.") == [("Mumbai", None)]
    assert _named("In Manila, drones are banned during the summit.") == [("Manila", None)]


def test_a_town_whose_name_spells_an_aerodrome_code_stays_a_town():
    # "Lima" in mixed case is the city, not the ICAO identifier LIMA; an identifier is written in capitals
    recs = drawn_records("Drones are prohibited over Lima during the summit.")
    assert [(r.geometry.type, r.geometry.name) for r in recs] == [("named", "Lima")]
    recs = drawn_records("DRONES ARE PROHIBITED WITHIN 5NM RADIUS OF LIMA.")
    assert [(r.geometry.type, r.geometry.approximate) for r in recs] == [("circle", True)]


def test_no_ban_no_zone():
    # a city named in prose that states no ban is no zone
    recs, _ = process_batch([Message(0, "The mayor of Mumbai opened a drone fair on Sunday.")], "rules")
    assert all(r.geometry is None for r in recs)


def test_each_facility_a_notice_under_the_act_lists():
    # jp-nagasaki-police:sasebo-omura-facilities: the act's ban, "周辺おおむね300メートル", then the facilities in a
    # table beside their police stations: each its own zone with the 300 m around it, no period (designation)
    recs = drawn_records(world_text("jp-nagasaki-police:sasebo-omura-facilities"))
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [
        ("海上自衛隊佐世保地方総監部", 300.0), ("在日米軍佐世保海軍施設", 300.0), ("在日米軍立神港区", 300.0),
        ("海上自衛隊大村航空基地", 300.0)]
    assert all(r.status == "review" and r.start is None and r.end is None for r in recs)


def test_a_facility_in_a_tab_separated_table_and_no_category_of_the_act():
    # a variant of the same notice with its table written with tabs, and a heading line of the act's category
    # ("対象防衛関係施設") above it: the category and the police stations are no facilities
    text = world_text("jp-nagasaki-police:sasebo-omura-facilities").replace("  ", "\t")
    text = text.replace("対象施設\n管轄警察署", "対象防衛関係施設\n対象施設\n管轄警察署")
    assert _named(text) == [("海上自衛隊佐世保地方総監部", 300.0), ("在日米軍佐世保海軍施設", 300.0),
                            ("在日米軍立神港区", 300.0), ("海上自衛隊大村航空基地", 300.0)]
    # without the act's ban, lines that end in a kind of facility are no zones
    lines = "\n".join(r.geometry.name for r in drawn_records(world_text("jp-nagasaki-police:sasebo-omura-facilities")))
    assert _named("施設一覧\n" + lines) == []


def test_a_chinese_ban_put_in_force_over_a_whole_area():
    # sirenji:sirenji-20th-2019: "…于全澳门实施无人机禁飞" (no 为中心 / 周边 / 上空 anchor): the whole area
    recs = drawn_records(world_text("sirenji:sirenji-20th-2019"))
    assert [(r.geometry.name, r.status) for r in recs] == [("全澳门", "review")]
    assert _named("经批准，将于全市范围内实行无人机禁飞管控。") == [("全市", None)]


def test_the_venue_of_an_event_a_chinese_notice_announces_beside_a_ban():
    # zhongli:zhongli-xinchang-droneshow-2026: "…,绍兴新昌县康乐广场将举行无人机灯光表演活动。… 表演现场禁止无人机飞行活动"
    recs = drawn_records(world_text("zhongli:zhongli-xinchang-droneshow-2026"))
    assert [r.geometry.name for r in recs] == ["绍兴新昌县康乐广场"]
    assert recs[0].status == "review"
    # an event without a ban on flying is no zone; a clause is never the place
    assert _named("5月1日，市体育中心将举行马拉松比赛。") == []
    assert _named("禁止无人机飞行。任何单位和个人在活动期间举行") == []
