"""The world-form generator families (issue 44): ``worldforms`` and ``zhforms``.

Every template's rows are verbatim spans that the normalisers read back to the gold computed by construction; each
form does what its reading requires (one zone per area / ring / venue, its own limits or window, the place itself as
the name, a VOR/DME alternate never a zone); held-out variants reach the test split only; pending templates join
the corpus exactly when the normalisers read them; the real rows each form is modelled on exist outside the world
test split; and no generated text carries 40 characters of a real message."""

from __future__ import annotations

import json
import random
import re
from datetime import date, datetime, timedelta, timezone

import pytest

from airspace.core.answer import ground, parse_answer
from airspace.data import corpus, gen
from airspace.data.gen import readiness, worldforms, zhforms
from airspace.data.paths import REAL
from airspace.eval.compare import record_diffs
from airspace.pipeline.normalize import normalize

FAMILIES = {"worldforms": worldforms, "zhforms": zhforms}

# The real rows that show each form (world ``train``/``val`` split or the archive; never the world test split).
REAL_ROWS = {
    # 1. location and number first, a title line, items without Q)/A)
    "locfirst": [("val", "anac-pib:A2187/2026"), ("archive", "A0258/10")],
    # 2. several areas, each with its own limits or window
    "areas_limits": [("archive", "A0549/22_AREA1"), ("val", "ie-iaa:galway-2018-10-13")],
    "launch_areas": [("val", "marlin-nga:NAVAREA IV 418/23")],
    "venues_days": [("train", "hk-bau:kaitak-stadium-july"), ("val", "cn-shantou-gaokao-2023")],
    # 3. days without a year or month, the date from the heading or the publication line
    "heading_days": [("val", "cn-shantou-gaokao-2023")],
    "publine_days": [("train", "hk-bau:kaitak-stadium-july")],
    # 4. the place itself: a road-bounded area, a designator
    "road_bounded": [("train", "cn-yichang-concert-2023-07-08")],
    "designator": [("archive", "A0599/26"), ("train", "ro-lrbb-sample:920")],
    # 5. local clock times without an offset
    "local_notz": [("train", "hk-bau:kaitak-stadium-july")],
    # 6. FAA TFR points with VOR/DME (FRD) alternates beside them
    "vip_rings": [("archive", "FDC 6/7491")],
    # 7. radii with words around them
    "radius_words": [("train", "in-deccanherald:kiadb-2024-01-19"), ("val", "uk-antidrone24:coronation-2023")],
    "radius_spelled": [("train", "hk-bau:kaitak-stadium-july")],
    # 3. a weekday name for the day ("Sat 13th")
    "weekday_date": [("val", "ie-iaa:galway-2018-10-13")],
}
FORM_OF = {  # every template (held-out variants included) and the form it writes
    "locfirst": "locfirst", "locfirst_oneline": "locfirst", "areas_limits": "areas_limits",
    "launch_areas": "launch_areas", "launch_areas_named": "launch_areas", "designator": "designator",
    "vip_rings": "vip_rings", "vip_rings_core": "vip_rings", "radius_words": "radius_words",
    "radius_spelled": "radius_spelled", "local_notz": "local_notz", "venues_days": "venues_days",
    "venues_table": "venues_days", "heading_days": "heading_days", "road_bounded": "road_bounded",
    "road_bounded_zhi": "road_bounded", "publine_days": "publine_days", "weekday_date": "weekday_date",
}
ROWS = 40


def _all(mod) -> list[str]:
    return list(mod.BASE) + list(mod.PENDING)


def _examples(mod, template: str, n: int = ROWS):
    return [mod.generate(random.Random(k), template) for k in range(n)]


@pytest.mark.parametrize("fam", sorted(FAMILIES))
def test_every_template_cites_a_real_row_and_offers_a_held_out_variant(fam):
    mod = FAMILIES[fam]
    assert set(_all(mod)) <= set(FORM_OF)
    assert all(FORM_OF[t] in REAL_ROWS for t in _all(mod))
    held = {t for t in mod.BASE if f"{fam}.{t}" in gen.HELD_OUT}
    assert held and held < set(mod.BASE)
    assert not any(f"{fam}.{t}" in gen.HELD_OUT for t in mod.PENDING)


def test_the_cited_real_rows_exist_outside_the_world_test_split():
    from airspace.data.world import read_world

    ids = {"train": {r["id"] for r in read_world("train")}, "val": {r["id"] for r in read_world("val")}}
    archive = {json.loads(line)["id"] for line in (REAL / "archive.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()}
    for form, rows in REAL_ROWS.items():
        for where, rid in rows:
            assert rid in (archive if where == "archive" else ids[where]), (form, where, rid)


@pytest.mark.parametrize("fam,template", [(f, t) for f, m in sorted(FAMILIES.items()) for t in _all(m)])
def test_rows_are_verbatim_spans_at_the_right_characters(fam, template):
    for ex in _examples(FAMILIES[fam], template):
        text = ex.text()
        zones = parse_answer(ex.answer())
        assert len(zones) == len(ex.gold) >= 1
        for z, draft in zip(zones, ground(text, zones)):
            for key, value in z.items():
                sp = draft.spans[key]
                assert text[sp.start:sp.end] == value == value.strip()
            assert {"center", "polygon", "name"} & set(z), z  # every zone says where it is
        for g in ex.gold:
            if g["geometry"]["type"] == "named":
                assert g["geometry"]["name"] in text


@pytest.mark.parametrize("fam,template", [(f, t) for f, m in sorted(FAMILIES.items()) for t in m.BASE])
def test_the_normalisers_read_every_zone_to_its_gold(fam, template):
    problems = []
    for k, ex in enumerate(_examples(FAMILIES[fam], template)):
        text = ex.text()
        for zi, (draft, g) in enumerate(zip(ground(text, parse_answer(ex.answer())), ex.gold)):
            problems += [f"#{k} zone {zi}: {d}" for d in record_diffs(normalize(draft, text=text, message=0, zone=zi), g)]
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("fam", sorted(FAMILIES))
def test_pending_templates_join_the_corpus_exactly_when_the_normalisers_read_them(fam):
    mod = FAMILIES[fam]
    assert set(mod.BASE) <= set(mod.TEMPLATES) <= set(mod.BASE) | set(mod.PENDING)
    for t in mod.PENDING:
        assert (t in mod.TEMPLATES) == readiness.reads(mod.generate, t), t
    # the probe is a real check: a template whose gold the normalisers contradict is refused
    broken = lambda rng, t: _shifted(mod.generate(rng, next(iter(mod.BASE))))  # noqa: E731
    assert readiness.reads(mod.generate, next(iter(mod.BASE))) and not readiness.reads(broken, "x")


def _shifted(ex):
    for g in ex.gold:
        g["start"] = "2000-01-01T00:00:00Z"
    return ex


def test_held_out_variants_reach_the_test_split_only():
    held = {f"{f}.{t}" for f, m in FAMILIES.items() for t in m.BASE if f"{f}.{t}" in gen.HELD_OUT}
    test_t = {r["template"] for r in corpus.generate(400, seed=4, split="test")}
    train_t = {r["template"] for s in ("train", "val") for r in corpus.generate(600, seed=4, split=s)}
    assert held <= test_t
    assert not (held & train_t)
    new_train = {t for t in train_t if t.split(".")[0] in FAMILIES}
    assert new_train == {f"{f}.{t}" for f, m in FAMILIES.items() for t in m.TEMPLATES} - held


# ------------------------------------------------------------------------------------------- form by form
def _spans(ex) -> dict[tuple[int, str], tuple[int, int]]:
    """Where the generator wrote each (zone, field): from the first to the last part tagged with it."""
    out, pos = {}, 0
    for p in ex.doc.parts:
        for t in p.targets:
            a, b = out.get(t, (pos, pos + len(p.text)))
            out[t] = (min(a, pos), max(b, pos + len(p.text)))
        pos += len(p.text)
    return out


def test_form1_location_first_layout_has_no_q_or_a_item_and_reads_b_c():
    for k in range(60):
        ex = worldforms.generate(random.Random(k), "locfirst")
        text, z = ex.text(), ex.answer_zones()[0]
        assert re.match(r"^[A-Z]{4} ?-? ?[A-Z]\d{4}/\d\d\n[A-Z ]+\n", text), text[:40]
        assert not re.search(r"(?:^|\s)[QA]\)", text)
        assert re.search(r"B\) " + re.escape(z["start"]), text) and re.search(r"C\) " + re.escape(z["end"]), text)
        one = worldforms.generate(random.Random(k), "locfirst_oneline").text()
        assert "\n" not in one and re.match(r"^[A-Z]\d{4}/\d\d . [A-Z]{4} - ", one)


def test_form2_each_area_keeps_its_own_limits_and_each_hazard_area_its_own_window():
    own_limits = own_windows = 0
    for k in range(60):
        ex = worldforms.generate(random.Random(k), "areas_limits")
        text, zones, at = ex.text(), ex.answer_zones(), _spans(ex)
        assert len(zones) >= 2
        geo = [min(a for (z, key), (a, _) in at.items() if z == i and key in ("center", "polygon", "radius"))
               for i in range(len(zones))]
        for i in range(len(zones)):  # an area's limits lie after its geometry and before the next area's
            nxt = geo[i + 1] if i + 1 < len(zones) else len(text)
            assert geo[i] < at[(i, "lower")][0] < at[(i, "upper")][0] < nxt
        own_limits += len({(g["lower"]["ft"], g["upper"]["ft"]) for g in ex.gold}) > 1
        for t in ("launch_areas", "launch_areas_named"):
            ex = worldforms.generate(random.Random(k), t)
            labels = re.findall(r"^(?:HAZARD )?AREA (?:[A-D]|ALPHA|BRAVO|CHARLIE|DELTA):", ex.text(), re.M)
            assert len(labels) == len(ex.gold) >= 2
            assert all(g["lower"]["ref"] == "SFC" and g["upper"]["ref"] == "UNL" for g in ex.gold)
            own_windows += len({(g["start"], g["end"]) for g in ex.gold}) > 1
    assert own_limits > 45 and own_windows > 90


def test_form2_form3_chinese_venues_each_keep_their_day_range_and_daily_window():
    multi = 0
    for k in range(60):
        for t in ("venues_days", "venues_table"):
            ex = zhforms.generate(random.Random(k), t)
            text, zones = ex.text(), ex.answer_zones()
            year = int(re.match(r"关于(\d{4})年", text).group(1))
            assert len(zones) == len(ex.gold) >= 2
            for z, g in zip(zones, ex.gold):
                assert re.fullmatch(r"\d{1,2}月\d{1,2}日", z["start"]) and re.fullmatch(r"(?:\d{1,2}月)?\d{1,2}日", z["end"])
                assert re.fullmatch(r"每[日天]\d{1,2}(?:时|:00|时00分)[至—]\d{1,2}(?:时|:00|时00分)", z["schedule"])
                s = datetime.fromisoformat(g["start"].replace("Z", "+00:00"))
                e = datetime.fromisoformat(g["end"].replace("Z", "+00:00"))
                assert (s.hour, e.hour) == (16, 16) and e > s  # whole Beijing days: 00:00 to the last day's 24:00
                assert (s + timedelta(hours=8)).year == year
            multi += len({(g["start"], g["end"], g["schedule"]) for g in ex.gold}) == len(ex.gold)
    assert multi > 100


def test_form3_heading_days_take_the_heading_date_and_the_bodys_daily_window():
    for k in range(60):
        ex = zhforms.generate(random.Random(k), "heading_days")
        text, z = ex.text(), ex.answer_zones()[0]
        head, body = text.split("\n", 1)
        assert re.fullmatch(r"\d{4}年\d{1,2}月\d{1,2}日", z["start"]) and z["start"] in head and z["end"] in head
        assert z["schedule"] in body and f"{z['end']}的" in body  # the body restates the days without the month


def test_form3_publication_line_days_gold_takes_year_and_month_from_that_line():
    for k in range(60):
        ex = zhforms.generate(random.Random(k), "publine_days")
        text, z, g = ex.text(), ex.answer_zones()[0], ex.gold[0]
        y, m, p = map(int, re.search(r"发布时间：(\d{4})年(\d{1,2})月(\d{1,2})日", text).groups())
        a, b = int(z["start"][:-1]), int(z["end"][:-1])
        assert p < a < b
        bj_start = datetime.fromisoformat(g["start"].replace("Z", "+00:00")).astimezone(zhforms.BJT)
        bj_end = datetime.fromisoformat(g["end"].replace("Z", "+00:00")).astimezone(zhforms.BJT)
        assert (bj_start.year, bj_start.month, bj_start.day, bj_start.hour) == (y, m, a, 0)
        assert (bj_end - bj_start).days == b - a + 1 and bj_end.hour == 0


def test_form3_a_weekday_name_is_the_first_such_day_after_the_issue_line():
    for k in range(60):
        ex = worldforms.generate(random.Random(k), "weekday_date")
        text, z, g = ex.text(), ex.answer_zones()[0], ex.gold[0]
        m = re.search(r"(\w+day) (\d{1,2}) (\w+) (\d{4})\.", text)
        issued = datetime.strptime(" ".join(m.groups()[1:]), "%d %B %Y")
        assert m.group(1) == issued.strftime("%A")
        start = datetime.fromisoformat(g["start"].replace("Z", "+00:00"))
        assert 1 <= (start.date() - issued.date()).days <= 6
        assert start.strftime("%A")[:3].upper() == z["date"][:3].upper()
        assert f"{start:%H%M}" == z["start"] and z["tz"] in ("UTC", "Z")


NOT_A_PLACE = re.compile(r"至\d{1,2}月\d{1,2}日|，具有|以内|范围|区域|管控|通告|时间|[。；：\n]")


def test_form4_the_name_is_the_place_itself_never_a_clause():
    kinds = set()
    for k in range(120):
        for t in ("road_bounded", "road_bounded_zhi", "venues_days", "heading_days"):
            ex = zhforms.generate(random.Random(k), t)
            for z in ex.answer_zones():
                name = z["name"]
                assert not NOT_A_PLACE.search(name), (t, name)
                bounds = re.findall(r"[东西南北][起至]", name)
                if bounds:
                    assert len(bounds) == 4 and {b[0] for b in bounds} == set("东西南北") and name[:2] in bounds
                    kinds.add("roads")
                else:
                    assert re.search(r"(?:区|县|新区|" + "|".join(zhforms.VENUE_KINDS) + r")$", name), name
                    kinds.add("district" if name[-1] in "区县" else "venue")
        ex = worldforms.generate(random.Random(k), "designator")
        name = ex.answer_zones()[0]["name"]
        assert re.fullmatch(r"VAD \d{3}|R-\d{4}|TRA\d{3}\([A-D]\)|EP[RDT]\d{3}|(?:EG|LF|ED)D\d{3}|TSA \d{1,2}[AB]?|"
                            r"LR(?:TRA|D|R)\d{2,3}[A-G]|ED-R \d{3}|VAR \d{3}", name), name
    assert kinds == {"roads", "district", "venue"}
    clauses = sum("，具有" in zhforms.generate(random.Random(k), "road_bounded").text() or
                  re.search(r"有效期至\d", zhforms.generate(random.Random(k), "road_bounded").text()) is not None
                  for k in range(60))
    assert clauses > 20  # the fragments that must not be taken are there to be declined


def test_form5_local_clock_times_become_utc_by_the_zones_own_time_zone_dst_exact():
    # the same wall clock, summer and winter: Denver is UTC-6 in July and UTC-7 in January; Santiago the other way
    assert worldforms.local_to_utc(date(2026, 7, 4), 9 * 60, "America/Denver") == datetime(2026, 7, 4, 15, tzinfo=timezone.utc)
    assert worldforms.local_to_utc(date(2026, 1, 4), 9 * 60, "America/Denver") == datetime(2026, 1, 4, 16, tzinfo=timezone.utc)
    assert worldforms.local_to_utc(date(2026, 1, 4), 9 * 60, "America/Santiago") == datetime(2026, 1, 4, 12, tzinfo=timezone.utc)
    assert worldforms.local_to_utc(date(2026, 7, 4), 9 * 60, "America/Phoenix") == datetime(2026, 7, 4, 16, tzinfo=timezone.utc)
    assert not worldforms._unambiguous(date(2026, 3, 8), 2 * 60 + 30, "America/Denver")  # the spring-forward gap
    assert not worldforms._unambiguous(date(2026, 11, 1), 60 + 30, "America/Denver")  # the repeated hour
    from zoneinfo import ZoneInfo

    for k in range(80):
        ex = worldforms.generate(random.Random(k), "local_notz")
        z, g = ex.answer_zones()[0], ex.gold[0]
        assert "tz" not in z and not re.search(r"UTC|GMT|[+-]\d\d:?\d\d", ex.text())
        lat, lon = g["geometry"]["center"]
        name, plat, plon, tz = min(worldforms.LOCAL_PLACES, key=lambda p: (p[1] - lat) ** 2 + (p[2] - lon) ** 2)
        start = datetime.fromisoformat(g["start"].replace("Z", "+00:00")).astimezone(ZoneInfo(tz))
        assert f"{start:%H%M}" == z["start"].replace(":", "")


def test_form6_vip_rings_share_the_centre_and_the_vor_dme_alternate_is_never_a_zone():
    lower_inner = 0
    for k in range(60):
        for t in ("vip_rings", "vip_rings_core"):
            ex = worldforms.generate(random.Random(k), t)
            text, zones = ex.text(), ex.answer_zones()
            assert "91.141" in text
            alts = set(re.findall(r"OR THE ([A-Z]{3}\d{6}\.\d)", text))
            assert len(alts) == 1 and len(re.findall(r"OR THE [A-Z]{3}\d{6}\.\d", text)) == len(zones) >= 2
            assert not any(a in v for a in alts for z in zones for v in z.values())
            assert len({tuple(g["geometry"]["center"]) for g in ex.gold}) == 1
            radii = [g["geometry"]["radius_m"] for g in ex.gold]
            assert radii == sorted(radii) and len(set(radii)) == len(radii)
            uppers = [g["upper"]["ft"] for g in ex.gold]
            assert uppers == sorted(uppers)
            lower_inner += uppers[0] < uppers[-1]
    assert lower_inner > 20


def test_form7_radii_with_words_around_them_answer_the_number_and_unit_only():
    units = set()
    for k in range(80):
        ex = worldforms.generate(random.Random(k), "radius_words")
        r = ex.answer_zones()[0]["radius"]
        assert re.fullmatch(r"\d*\.?\d+ ?(?:KM|km|NM|nm|kilomet(?:re|er)s|nautical miles?)", r), r
        units.add(re.sub(r"[\d. ]", "", r).lower()[:2])
        sp = re.search(r"(?i)radius", ex.text())
        assert sp and "radius" not in r.lower()
        spelled = worldforms.generate(random.Random(k), "radius_spelled")
        w = spelled.answer_zones()[0]["radius"]
        n = {v: k_ for k_, v in worldforms.WORD_NUMS.items()}[w.split()[0]]
        unit = 1852.0 if w.split()[1].startswith("N") else 1000.0
        assert spelled.gold[0]["geometry"]["radius_m"] == pytest.approx(n * unit)
    assert units == {"km", "nm", "ki", "na"}
    for k in range(40):
        r = zhforms.generate(random.Random(k), "venues_days").answer_zones()
        assert all(re.fullmatch(r"\d+(?:\.\d)?(?:公里|千米|米)", z["radius"]) for z in r if "radius" in z)


def _real_texts() -> list[str]:
    from airspace.data.world import read_world

    texts = [json.loads(line)["text"] for name in ("archive.jsonl", "dev.jsonl")
             for line in (REAL / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return texts + [r["text"] for s in ("train", "val") for r in read_world(s)]


def test_no_generated_text_carries_forty_characters_of_a_real_message():
    """Against the archive, the dev set and the world train/val rows (every 40-character window of a real text holds
    one of its 20-grams at a multiple of 20, so those aligned 20-grams are a complete pre-filter)."""
    def squash(t: str) -> str:
        return re.sub(r"\s+", " ", t)

    real = [squash(t) for t in _real_texts()]
    aligned = {t[i:i + 20] for t in real for i in range(0, len(t) - 19, 20)}
    hits = []
    for fam, mod in FAMILIES.items():
        for t in _all(mod):
            for ex in _examples(mod, t, 25):
                s = squash(ex.text())
                cand = {s[i:i + 20] for i in range(len(s) - 19)} & aligned
                if cand and any(w in r for r in real if any(c in r for c in cand)
                                for w in (s[i:i + 40] for i in range(len(s) - 39))):
                    hits.append(f"{fam}.{t}")
    assert not hits, hits
