"""``parser.fieldcheck.reads_as``: every gold value of the corpus reads as its field (so the decoder's span repair
never moves a right answer), and the spans the models got wrong on held-out templates do not."""

from __future__ import annotations

import pytest

from airspace.core.answer import parse_answer
from airspace.data.corpus import generate
from airspace.parser.fieldcheck import reads_as


@pytest.mark.parametrize("split", ["train", "test"])
def test_every_gold_value_reads_as_its_field(split):
    seen, refused = 0, []
    for row in generate(600, 31, split=split):
        for zone in parse_answer(row["answer"]):
            for field, value in zone.items():
                seen += 1
                if not reads_as(field, value):
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
    ("upper", "真高300米以下空域。禁飞区内"),
    ("start", "B) 2306152015 C)"),
])
def test_run_on_spans_do_not_read(field, value):
    assert not reads_as(field, value)


@pytest.mark.parametrize("field, value", [
    ("center", "490134N 0022706E"), ("radius", "0.7 NM"), ("name", "济南奥体中心"), ("name", "MetLife Stadium"),
    ("upper", "真高300米"), ("start", "2306152015"), ("end", "8时"), ("schedule", "anything at all"),
    ("polygon", "1NM EITHER SIDE OF LINE 355540N1292941E-360539N1293055E"),
    ("polygon", "N4807 E01610 - N4815 E01622 - N4802 E01635"),
])
def test_values_read(field, value):
    assert reads_as(field, value)
