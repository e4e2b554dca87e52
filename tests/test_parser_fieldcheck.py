"""``parser.fieldcheck.reads_as``: every gold value of the corpus reads as its field (so the decoder's span repair
never moves a right answer), and the spans the models got wrong on held-out templates do not."""

from __future__ import annotations

import re

import pytest

from airspace.core.answer import ground, parse_answer
from airspace.data.corpus import generate
from airspace.parser.fieldcheck import qline_limit_field, reads_as, span_reads_as, starts_inside_coordinate
from airspace.parser.partial_time import is_partial


@pytest.mark.parametrize("split", ["train", "test"])
def test_every_gold_value_reads_as_its_field(split):
    """Out of place and where it stands (``span_reads_as``: no number cut, no vertex list stopped short, an area
    beginning at its boundary), so the span repair never moves a right answer. A Q-line's own limit field (``000`` of
    ``/000/999/``, a notice without F)/G)) reads as a limit only where it stands, and so does a warning's time without
    its month or year (``191218Z``, completed from the notice)."""
    seen, refused = 0, []
    for row in generate(600, 31, split=split):
        zones = parse_answer(row["answer"])
        for zone, draft in zip(zones, ground(row["text"], zones)):
            for field, value in zone.items():
                seen += 1
                sp = draft.spans[field]
                in_q = field in ("lower", "upper") and qline_limit_field(row["text"], sp.start, sp.end) == field
                partial = field in ("start", "end") and is_partial(value)
                here = span_reads_as(field, row["text"], sp.start, sp.end) or partial and any(
                    # (a bare day, "16", is grounded at its first occurrence, which may be a coordinate's degrees)
                    span_reads_as(field, row["text"], m.start(), m.end()) for m in re.finditer(re.escape(value), row["text"]))
                if not (reads_as(field, value) or in_q or partial) or not here:
                    refused.append((row["template"], field, value))
    assert seen > 2000 and refused == []


@pytest.mark.parametrize("field, value", [
    ("center", "4902N00227E001\nA) LFPG\nB) 2610290445\nE) FIREWORKS WI A CIRCLE OF 0.7 NM RADIUS AROUND "
               "490134N 0022706E"),
    ("center", "N361945 E1033357 AND RADIUS .2NM AD ARP 362604N1033656E"),
    ("center", "34.451836ºN 118.186798ºW to 34.48° N, 118.25° W to 34.45123°N / 118.30669°W"),
    ("radius", "动期间，重庆奥体中心周边实施临时禁飞"),
    ("name", "龙兴足球场上空实施临时禁飞，时间"),
    ("name", "济南奥体中心及"),
    ("name", "2021/908"),
    ("name", "GCCC B) 2605131004 C) 2608162359EST  E) IN ACCORDANCE WITH COUNCIL DECISION (CFSP)"),  # B4293/26
    ("upper", "真高300米以下空域。禁飞区内"),
    ("start", "B) 2306152015 C)"),
])
def test_run_on_spans_do_not_read(field, value):
    assert not reads_as(field, value)


@pytest.mark.parametrize("field, value", [
    ("center", "490134N 0022706E"), ("radius", "0.7 NM"), ("name", "济南奥体中心"), ("name", "MetLife Stadium"),
    ("name", "DANGER AREA (A)"), ("name", "GCCC"),
    ("upper", "真高300米"), ("start", "2306152015"), ("end", "8时"), ("schedule", "anything at all"),
    ("polygon", "1NM EITHER SIDE OF LINE 355540N1292941E-360539N1293055E"),
    ("polygon", "N4807 E01610 - N4815 E01622 - N4802 E01635"),
])
def test_values_read(field, value):
    assert reads_as(field, value)


def test_a_q_line_limit_reads_where_it_stands_and_nowhere_else():
    """A notice without F)/G) has its limits only in the Q-line (``/000/999/``): the normaliser reads them there
    (000 the surface, 999 unlimited), so the span repair must not take them for run-on spans and drop them."""
    text = ("A0105/26 NOTAMR A0104/26 Q) OSTT/QAFXX/IV/NBO/E/000/999/3502N03858E999 A) OSTT B) 2603201830 "
            "C) 2603222100 EST E) DAMASCUS FIR CLOSED EXCEPT FOR FLIGHT ARR/DEP ALEPPO AERODROME")
    lo = text.index("/000/") + 1
    up = lo + 4
    assert not reads_as("lower", "000") and not reads_as("upper", "999")  # without where they stand
    assert span_reads_as("lower", text, lo, lo + 3) and span_reads_as("upper", text, up, up + 3)
    assert not span_reads_as("upper", text, lo, lo + 3)  # the floor's field is not the ceiling
    assert not span_reads_as("lower", text, up - 1, up + 3)  # "/999" is not the field
    radius = text.index("999 A)")  # the Q-line's radius 999 is not a limit
    assert not span_reads_as("upper", text, radius, radius + 3)
    e = text.index("DAMASCUS")
    assert span_reads_as("name", text, e, e + 12) == reads_as("name", "DAMASCUS FIR")


def test_a_span_cut_inside_a_number_or_a_vertex_list_does_not_read_where_it_stands():
    """What the validator flags in a record (a value that cuts a number of the message) the span repair must not
    choose, and a polygon that stops where its vertex list goes on (A0050/26: the model's end fell after the 8th of
    16 vertices, at a line wrap ``…E-  1420…``) is a part of the area, not the area."""
    text = "AREA 2: PSN 223235N 1140335E RADIUS 0.5NM. SFC-500FT AMSL."
    r = text.index("0.5NM")
    assert span_reads_as("radius", text, r, r + 5)
    assert reads_as("radius", "5NM") and not span_reads_as("radius", text, r + 2, r + 5)
    u = text.index("500FT")
    assert span_reads_as("upper", text, u, u + 10) and not span_reads_as("upper", text, u + 1, u + 10)
    text = ("E) DANGER ACTIVATION WI AREA  135142N1024559E-135005N1040114E-135623N1051516E-140942N1051736E-  "
            "142053N1051207E-141206N1050442E-141219N1025717E-135142N1024559E-  RMK: EASTBOUND FLIGHTS F) GND  G) UNL")
    p = text.index("135142N")
    cut = text.index("-  142053N")
    whole = text.index("-  RMK")
    assert reads_as("polygon", text[p:cut])  # four vertices read as a polygon out of place
    assert not span_reads_as("polygon", text, p, cut)
    assert not span_reads_as("polygon", text, p, text.index("-141219N"))  # the dash-joined list goes on too
    assert span_reads_as("polygon", text, p, whole)
    text = "TRAINING AT SHOOTING RANGE 423814N0201640E 423813N0201640E 423738N0201458E 423759N0201442E F) SFC"
    p = text.index("4238")
    assert not span_reads_as("polygon", text, p, text.index(" 423759N"))  # a blank-separated list as well
    assert span_reads_as("polygon", text, p, text.index(" F) SFC"))
    text = "175300N1075000E - 185031N1072459E - 182028N1074053E\n (ASSAD) - 181017N1075242E\nFIVE-POINT CONNECTION RANGE."
    assert not span_reads_as("polygon", text, 0, text.index("\n (ASSAD)"))  # past a vertex's name, the list goes on
    assert span_reads_as("polygon", text, 0, text.index("\nFIVE"))


def test_an_area_span_begins_where_its_boundary_does():
    """NAVAREA IV 236/26: the model's polygon began at the message's first line and took the coordinates after it;
    every polygon span of the silver and generated corpora begins at a coordinate or a corridor's width."""
    text = ("NAVAREA IV 236/26(11,26).\nNORTH ATLANTIC.\nFLORIDA.\n1. HAZARDOUS OPERATIONS 221443Z TO 221925Z MAR IN "
            "AREAS BOUND BY\n   31-57.00N 077-01.00W, 32-23.00N 076-52.00W,\n   31-30.00N 076-10.00W.\n")
    a = text.index("31-57.00N")
    end = text.index(".\n", a)
    assert reads_as("polygon", text[:end])  # the parser takes the coordinates out of anything
    assert not span_reads_as("polygon", text, 0, end)
    assert not span_reads_as("polygon", text, text.index("221443Z"), end)
    assert span_reads_as("polygon", text, a, end)
    corridor = "AREA: 1KM EITHER SIDE OF LINE JOINING POINTS:  595255N0322408E-600000N0323000E. F) SFC"
    s = corridor.index("1KM")
    assert span_reads_as("polygon", corridor, s, corridor.index(". F)"))
    sector = "E) SECTOR AZM 020-160DEG RADIUS 6KM, CENTRE 561100N0385100E. F) SFC"
    s = sector.index("SECTOR")
    assert span_reads_as("polygon", sector, s, sector.index(". F)"))


def test_a_place_span_that_starts_inside_a_coordinate_does_not_read_where_it_stands():
    """Degrees, minutes and seconds parted by blanks: a span that drops the first group of the first vertex still
    reads as a polygon (``51 00 S 167 44 00 W`` is a point), so only where it stands shows it is cut."""
    text = ("E) ALL THAT AIRSPACE BOUNDED BY  12 30 00 S 150 10 00 W  14 45 00 S 148 00 00 W  "
            "13 10 30 S 146 20 00 W  12 30 00 S 150 10 00 W  F) SFC G) UNL")
    whole, end = text.index("12 30"), text.index("  F)")
    cut = text.index("30 00 S")
    assert reads_as("polygon", text[cut:end]) and reads_as("center", text[cut:text.index("  14 45")])
    assert not span_reads_as("polygon", text, cut, end) and not span_reads_as("center", text, cut, whole + 22)
    assert starts_inside_coordinate(text, cut) and not starts_inside_coordinate(text, whole)
    assert span_reads_as("polygon", text, whole, end) and span_reads_as("center", text, whole, whole + 22)
    second = text.index("14 45")  # a span may start at any vertex of the list, just not inside one
    assert not starts_inside_coordinate(text, second)


def test_a_warnings_time_without_month_or_year_reads_where_the_notice_states_them():
    """A navigational warning's "191218Z" and "25 APR" read as a start and an end where its stamp gives the year and
    the phrase the month (the decoder's span repair kept dropping them: Clover's generated warnings lost their
    periods); the same values in a notice that states no year anywhere do not read."""
    text = ("NAVAREA IV 418/23\n1. HAZARDOUS OPERATIONS, ROCKET LAUNCHING\n   191218Z TO 191647Z APR\n"
            "   IN AREA BOUND BY 28-38.47N 080-37.31W, 28-38.00N 080-32.00W, 28-37.00N 080-23.00W.\n"
            "2. CANCEL THIS MSG 251516Z APR 23.\n")
    s = text.index("191218Z")
    assert span_reads_as("start", text, s, s + 7)
    e = text.index("191647Z APR")
    assert span_reads_as("end", text, e, e + 11)
    bare = text.replace("2. CANCEL THIS MSG 251516Z APR 23.\n", "")
    assert not span_reads_as("start", bare, s, s + 7)
