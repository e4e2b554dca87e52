"""Form 2 in prose: places each in a paragraph of their own, each paragraph writing its own period or limits, get
what their paragraph states (``drafts._paragraph_values``). On the world train row dronebelow:super-bowl-liii-2019,
cited by id, and a variant in the layout of a news item with two zones."""

from __future__ import annotations

from world_rows import drawn_records, utc, world_text

TWO = ("Manila, July 19, 2019: From July 20 at 9:00am to July 21 at 11:00am, drones are banned up to 700ft AGL within "
       "10km radius of Batasan Pambansa.\nA No Fly Zone will be enforced from 2:00pm until 9:00pm on July 22 within 4 "
       "nautical miles of the House of Representatives, from the surface to 10,000 feet AMSL.")


def test_each_place_takes_its_own_paragraphs_period_and_limits():
    a, b = drawn_records(TWO)
    assert (a.geometry.name, a.start, a.end) == ("Batasan Pambansa", utc("2019-07-20T01:00Z"), utc("2019-07-21T03:00Z"))
    assert (b.geometry.name, b.start, b.end) == ("House of Representatives", utc("2019-07-22T06:00Z"),
                                                 utc("2019-07-22T13:00Z"))
    # the first paragraph writes a ceiling only: its floor is unstated (the surface assumed), not the second's
    assert (a.upper.raw, a.lower.raw) == ("700ft AGL", "")
    assert (b.lower.raw, b.upper.raw) == ("surface", "10,000 feet AMSL")


def test_two_places_in_one_paragraph_share_the_messages_values():
    a, b = drawn_records(TWO.replace(".\nA No Fly Zone", "; a No Fly Zone"))
    assert a.start == b.start


def test_the_stadiums_ring_starts_on_its_own_paragraphs_first_day():
    # dronebelow:super-bowl-liii-2019: the game-day 30 NM TFR in one paragraph, the 1 NM ring "on January 31,
    # February 1 and 2 from 10 a.m. to 11:59 p.m. Eastern Time" in the next: the ring starts on 31 January
    recs = drawn_records(world_text("dronebelow:super-bowl-liii-2019"))
    assert [r.geometry.radius_m for r in recs] == [55560.0, 1852.0]
    assert recs[1].start == utc("2019-01-31T15:00Z")
    assert all(r.status == "review" for r in recs)
