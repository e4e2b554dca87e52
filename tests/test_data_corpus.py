"""The synthetic corpus: verbatim gold spans, family-held-out split, determinism, no leak of real messages."""

from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest

from airspace.core.answer import ground, parse_answer
from airspace.data import corpus, gen
from airspace.data.corpus import generate, make_row, write_corpus

N = 400  # rows per split sampled by the tests (the generator is exercised in full by `make corpus`)


@pytest.fixture(scope="module")
def rows() -> dict[str, list[dict]]:
    return {split: list(generate(N, seed=3, split=split)) for split in corpus.SPLITS}


def test_every_answer_value_is_a_verbatim_span(rows):
    for rs in rows.values():
        for r in rs:
            zones = parse_answer(r["answer"])
            assert len(zones) == len(r["zones"]), r["id"]
            for draft in ground(r["text"], zones):
                for key, value in draft.values.items():
                    assert key in draft.spans, f"{r['id']} {key}={value!r} not in text"
                    sp = draft.spans[key]
                    assert r["text"][sp.start:sp.end] == value


def test_row_schema(rows):
    keys = {"id", "family", "template", "lang", "split", "text", "answer", "zones"}
    for split, rs in rows.items():
        for r in rs:
            assert keys <= set(r)
            assert r["split"] == split
            assert r["template"].startswith(r["family"] + ".")
            assert r["lang"] in ("en", "zh")
            json.dumps(r, ensure_ascii=False)


def test_gold_zones_are_sane(rows):
    iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$")
    for rs in rows.values():
        for r in rs:
            for z in r["zones"]:
                g = z["geometry"]
                assert g["type"] in ("circle", "polygon", "named")
                pts = [g["center"]] if g["type"] == "circle" else g.get("points", [])
                for lat, lon in pts:
                    assert -90 <= lat <= 90 and -180 <= lon <= 180
                if g["type"] == "circle":
                    assert 0.1 * 1852 * 0.45 <= g["radius_m"] <= 250.5 * 1852
                if g["type"] == "polygon":
                    assert len(g["points"]) >= 3
                    assert g["points"][0] != g["points"][-1], "open ring expected"
                if g["type"] == "named":
                    assert g["name"] in r["text"]
                for key in ("lower", "upper"):
                    lim = z[key]
                    if lim is not None:
                        assert lim["ref"] in ("SFC", "GND", "AGL", "AMSL", "FL", "UNL")
                        assert (lim["ft"] is None) == (lim["ref"] == "UNL")
                if z["lower"] and z["upper"] and z["upper"]["ft"] is not None and z["lower"]["ref"] != "AGL":
                    assert z["lower"]["ft"] < z["upper"]["ft"], r["id"]
                for key in ("start", "end"):
                    assert z[key] is None or iso.match(z[key])
                if z["start"] and z["end"]:
                    assert z["start"] < z["end"], r["id"]
                assert z["permanent"] == (z["end"] is None and "PERM" in r["answer"])


def test_no_zone_messages_answer_none(rows):
    nones = [r for rs in rows.values() for r in rs if not r["zones"]]
    assert nones, "the corpus must teach NONE (NOTAMC, aerodrome notices)"
    assert all(r["answer"] == "NONE" for r in nones)
    assert any("NOTAMC" in r["text"] for r in nones)


def test_test_split_templates_never_in_train(rows):
    train_t = {r["template"] for r in rows["train"]} | {r["template"] for r in rows["val"]}
    test_t = {r["template"] for r in rows["test"]}
    assert test_t and not (test_t & train_t)
    assert test_t <= gen.HELD_OUT
    # the pools themselves are disjoint and cover every template
    tr = {f"{f}.{t}" for f, t, _ in gen.pool("train")}
    te = {f"{f}.{t}" for f, t, _ in gen.pool("test")}
    assert not (tr & te)
    assert tr | te == {f"{f}.{t}" for f, t in gen.all_templates()}
    assert te == set(gen.HELD_OUT)


def test_every_family_and_language_present(rows):
    fams = {r["family"] for r in rows["train"]}
    assert fams == set(gen.MODULES)
    assert {r["lang"] for r in rows["train"]} == {"en", "zh"}
    assert max(len(r["zones"]) for r in rows["train"]) >= 6  # composites
    assert any(r["long"] for r in rows["train"])


def test_every_template_generates_valid_rows():
    import random

    for fam, t in gen.all_templates():
        for k in range(25):
            rng = random.Random(k)
            ex = gen.MODULES[fam].generate(rng, t)
            vals = ex.answer_zones()
            assert len(vals) == len(ex.gold)
            for z in vals:
                for v in z.values():
                    assert v in ex.text()


def test_boundaries_one_after_another_are_one_zone_each_and_their_headings_no_boundary():
    """``icao.multi_ring``: rings listed back to back, each under a day, a number, a letter or a part; each is its
    own zone, the heading stays outside every polygon span and the limits of F)/G) are every zone's."""
    import random

    from airspace.parser.coords import find_coords

    for k in range(60):
        ex = gen.icao.generate(random.Random(k), "multi_ring")
        zones = ex.answer_zones()
        assert len(zones) == len(ex.gold) >= 2
        text = ex.text()
        body = text[text.index("E)"):]
        heads = re.findall(r"(?:\b[A-Z]{3} \d\d|\b\d\d [A-Z]{3}|\bAREA \d:|\bPART \d:|\s\d[.)]|\s[A-H]\.)(?=:?\s)", body)
        assert len(heads) >= len(zones)
        for z in zones:
            assert not any(h in z["polygon"] for h in heads)
            assert z["lower"] == zones[0]["lower"] and z["upper"] == zones[0]["upper"]
        assert [len(g["geometry"]["points"]) for g in ex.gold] == [
            len({(round(c.lat, 6), round(c.lon, 6)) for c in find_coords(z["polygon"])}) for z in zones]


def test_an_advisory_about_another_states_firs_answers_the_firs_item_e_names_never_item_a():
    """``icao.fir_advisory``: A) lists the publishing state's FIRs; the zones are the FIRs E) names with their
    indicators, each read back by the normaliser as a whole FIR."""
    import random

    from airspace.pipeline.normalize import normalize

    for k in range(40):
        ex = gen.icao.generate(random.Random(k), "fir_advisory")
        text = ex.text()
        a_item = text[text.index("A) "):text.index("B) ")]
        e_item = text[text.index("E) "):]
        zones = ex.answer_zones()
        assert 1 <= len(zones) == len(ex.gold) <= 2
        drafts = ground(text, parse_answer(ex.answer()))
        for z, d in zip(zones, drafts):
            assert z["name"] in e_item and z["name"][-5:-1] not in a_item
            rec = normalize(d, text=text, message=0)
            assert rec.geometry.type == "named" and rec.geometry.kind == "fir"
            assert rec.lower.ref == "SFC" and rec.upper.ref == "UNL"


def test_deterministic_for_a_seed():
    a = [r["text"] + r["answer"] for r in generate(60, seed=11, split="train")]
    b = [r["text"] + r["answer"] for r in generate(60, seed=11, split="train")]
    c = [r["text"] + r["answer"] for r in generate(60, seed=12, split="train")]
    assert a == b
    assert a != c
    # a row does not depend on the rows before it (streaming / parallel generation)
    assert make_row(11, "train", 42)["text"] == list(generate(1, seed=11, split="train", start=42))[0]["text"]


def _windows(text: str, k: int = 40) -> set[str]:
    return {text[i:i + k] for i in range(0, max(0, len(text) - k + 1))}


def test_no_dev_text_in_any_split(dev_rows, rows):
    exact, squashed = set(), set()
    for d in dev_rows:
        exact |= _windows(d["text"])
        squashed |= _windows(re.sub(r"\s+", " ", d["text"]))
    extra = list(generate(1500, seed=0, split="train")) + list(generate(300, seed=0, split="test"))
    for r in [r for rs in rows.values() for r in rs] + extra:
        t = r["text"]
        assert not (_windows(t) & exact), r["id"]
        assert not (_windows(re.sub(r"\s+", " ", t)) & squashed), r["id"]


def test_cli_writes_splits_and_stats(tmp_path):
    rc = corpus.main(["--n", "120", "--seed", "5", "--out", str(tmp_path), "--workers", "1"])
    assert rc == 0
    stats = json.loads((tmp_path / "stats.json").read_text())
    for split in corpus.SPLITS:
        lines = (tmp_path / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == stats["sizes"][split] == stats["splits"][split]["rows"]
        assert sum(stats["splits"][split]["family"].values()) == len(lines)
    assert stats["sizes"]["train"] == 120
    assert set(stats["splits"]["train"]["lang"]) <= {"en", "zh"}
    assert "zones_per_message" in stats["splits"]["train"] and "answer_chars" in stats["splits"]["train"]


def test_parallel_output_equals_serial(tmp_path):
    write_corpus(str(tmp_path / "a"), 300, 9, 10, 10, workers=1, chunk=70)
    write_corpus(str(tmp_path / "b"), 300, 9, 10, 10, workers=2, chunk=70)
    for split in corpus.SPLITS:
        assert (tmp_path / "a" / f"{split}.jsonl").read_bytes() == (tmp_path / "b" / f"{split}.jsonl").read_bytes()


def test_coordinate_gold_matches_printed_components():
    """Spot-check the by-construction arithmetic of a few printed forms."""
    import random

    from airspace.data.gen.values import fmt_coord

    rng = random.Random(0)
    t, (lat, lon) = fmt_coord(rng, 48.158333, 16.174444, "hemi_first_space")
    assert t == "N480930 E0161028" and math.isclose(lat, 48 + 9 / 60 + 30 / 3600, abs_tol=1e-7) and math.isclose(lon, 16 + 10 / 60 + 28 / 3600, abs_tol=1e-7)
    t, (lat, lon) = fmt_coord(rng, -6.7, 89.2667, "spaced_dm")
    assert t == "S06 42 E089 16" and math.isclose(lat, -6.7, abs_tol=1e-7) and math.isclose(lon, 89 + 16 / 60, abs_tol=1e-7)
    t, (lat, lon) = fmt_coord(rng, 51.352, -0.6022, "dms_space")
    assert t == "512107N 0003608W" and math.isclose(lon, -(36 / 60 + 8 / 3600), abs_tol=1e-7)
    t, (lat, lon) = fmt_coord(rng, -21.960833, -47.483333, "dms_slash")
    assert t == "215739S/0472900W" and math.isclose(lat, -(21 + 57 / 60 + 39 / 3600), abs_tol=1e-7)


def test_gold_equals_what_the_normalisers_compute_from_the_gold_spans():
    """The gold record (by construction) and the normalisers (by parsing the gold spans) agree on every zone."""
    import random

    from airspace.eval.compare import record_diffs
    from airspace.pipeline.normalize import normalize

    problems = []
    checked = 0
    rows_ = [r for split in corpus.SPLITS for r in generate(350, seed=21, split=split)]
    # and every template, a few rows each, whatever its weight
    for fam, t in gen.all_templates():
        for k in range(8):
            ex = gen.MODULES[fam].generate(random.Random(1000 + k), t)
            rows_.append({"id": f"{fam}.{t}#{k}", "template": f"{fam}.{t}", "text": ex.text(),
                          "answer": ex.answer(), "zones": ex.gold})
    for r in rows_:
        drafts = ground(r["text"], parse_answer(r["answer"]))
        for zi, (draft, gold) in enumerate(zip(drafts, r["zones"])):
            rec = normalize(draft, text=r["text"], message=0, zone=zi)
            checked += 1
            for d in record_diffs(rec, gold):
                problems.append(f"{r['id']} {r['template']} zone {zi}: {d}")
            if rec.end_estimated != gold["end_estimated"] or rec.permanent != gold["permanent"]:
                problems.append(f"{r['id']} EST/PERM flags differ")
    assert checked > 1200
    assert not problems, "\n".join(problems[:20])


def test_every_coordinate_style_reads_back_exactly():
    """Each printed coordinate form is read by the normaliser to the gold value computed from its components."""
    import random

    from airspace.data.gen.values import COORD_STYLES, fmt_coord
    from airspace.parser.coords import parse_coord

    rng = random.Random(5)
    for style in COORD_STYLES:
        for _ in range(60):
            lat, lon = rng.uniform(-89, 89), rng.uniform(-179.9, 179.9)
            text, (glat, glon) = fmt_coord(rng, lat, lon, style)
            plat, plon = parse_coord(text)
            assert math.isclose(plat, glat, abs_tol=1e-7) and math.isclose(plon, glon, abs_tol=1e-7), (style, text)
            assert abs(glat - lat) < 0.01 and abs(glon - lon) < 0.01 * max(1, 1 / max(0.05, math.cos(math.radians(lat))))


def test_every_distance_and_limit_form_reads_back_exactly():
    import random

    from airspace.data.gen.values import fmt_distance, fmt_limit
    from airspace.parser.units import parse_distance_m, parse_limit

    rng = random.Random(6)
    grouped = set()
    for unit in ("nm", "km", "m", "ft", "nm_words", "km_words", "cn_km", "cn_qianmi", "cn_m"):
        for _ in range(40):
            text, metres = fmt_distance(rng, math.exp(rng.uniform(math.log(0.1), math.log(250))), unit)
            assert math.isclose(parse_distance_m(text), metres, abs_tol=0.01), (unit, text)
            if re.match(r"\d,\d{3}", text):
                grouped.add(unit)
    assert grouped == {"m", "ft"}  # 1,330M and 5,000FT: thousands grouped by a comma, never in Chinese
    for kind, v in (("ft_amsl", 1500), ("ft_msl", 12500), ("ft_agl", 400), ("ft_bare", 3000), ("fl", 95),
                    ("m_amsl", 12200), ("m_agl", 120), ("cn_agl", 120), ("unl", 0), ("ft_words_msl", 18000),
                    ("ft_words_agl", 1000), ("m_words_agl", 90)):
        for th in ("none", "comma", "space"):
            text, gold = fmt_limit(rng, kind, v, thousands=th)
            lim = parse_limit(text)
            assert lim.ref == gold["ref"], (kind, text, lim.ref)
            assert (lim.ft is None and gold["ft"] is None) or math.isclose(lim.ft, gold["ft"], abs_tol=0.01), (kind, text)


def test_leak_filter_catches_any_real_window(dev_rows):
    """The re-draw filter flags a text that embeds any 40 characters of a real message, at any offset."""
    import random

    from airspace.data.corpus import find_real_messages, leaks_real_text

    assert find_real_messages() is not None, "the filter must see the real messages in this checkout"
    rng = random.Random(0)
    for d in dev_rows:
        t = d["text"]
        for _ in range(20):
            a = rng.randrange(0, len(t) - 40)
            assert leaks_real_text("x" * rng.randrange(0, 30) + t[a:a + 40] + "y"), (d["id"], a)
            squashed = re.sub(r"\s+", " ", t)
            b = rng.randrange(0, len(squashed) - 40)
            assert leaks_real_text("q " + squashed[b:b + 40].replace(" ", "  ") + " z"), (d["id"], b)
    assert not leaks_real_text("A1234/26 NOTAMN\nE) UAS OPS WI 1NM RADIUS OF 5130N00007W")


def test_mix_family_avoids_the_held_out_templates_cues():
    """The compositional family is train/val only and never writes a phrase that only held-out templates use."""
    import random

    from airspace.data.gen import mix

    assert not any(f"mix.{t}" in gen.HELD_OUT for t in mix.TEMPLATES)
    held = [r["text"] for r in generate(150, seed=3, split="test")]
    used = [c for c in mix.HELD_OUT_CUES if any(c in t for t in held)]
    assert len(used) >= 6  # the cues are real: the held-out texts do use them
    for t in mix.TEMPLATES:
        for k in range(300):
            text = mix.generate(random.Random(k), t).text()
            assert not [c for c in mix.HELD_OUT_CUES if c in text], (t, k, text)


def test_a_fir_closure_is_one_zone_per_indicator_of_item_a_and_a_fir_notice_without_volume_none():
    import random

    from airspace.data.gen.icao import generate as icao_generate
    from airspace.parser.rules import rules_drafts

    multi = q_limits = bans = info_bans = 0
    for k in range(200):
        ex = icao_generate(random.Random(k), "fir_closure")
        text, zones = ex.text(), ex.answer_zones()
        # a closure to some aircraft only (those of another state) is still a closure of every FIR of A)
        bans += bool(re.search(r"\b(?:IS|REMAINS|IS HEREBY|SHALL BE) CLOSED (?:TO|FOR) ", text))
        a_item = re.search(r"A\) ((?:[A-Z]{4} ?)+)", text).group(1).split()
        assert [z["name"] for z in zones] == a_item == [g["geometry"]["name"] for g in ex.gold]
        multi += len(zones) > 1
        if "F)" not in text:
            # no F)/G): the limits are the Q-line's, surface to its upper level
            assert {z["lower"] for z in zones} == {"000"} and ex.gold[0]["lower"] == {"ref": "SFC", "ft": 0.0}
            q_limits += 1
        none = icao_generate(random.Random(k), "fir_info")
        assert none.gold == [] and none.answer() == "NONE"
        if re.search(r"/QO[A-Z]{3}/", none.text()):
            # the same ban filed as other information (Q-code subject O) is no area, as the rules reader reads it
            info_bans += 1
            assert rules_drafts(none.text()) == []
    assert multi > 20 and q_limits > 60 and bans > 25 and info_bans > 40


def test_a_navigational_warning_is_its_lettered_areas_as_the_rules_reader_reads_them():
    """NAVAREA / HYDROPAC warnings: each lettered area (a boundary or a circle) is a zone whose period is its item's
    or its own (start, end, a daily window's schedule); a cancellation and a hazard to ships alone (a wreck, a buoy,
    a station off air) have no zone. The rules reader reads every generated warning to the same spans, so the silver
    teaches the same."""
    import random

    from airspace.data.gen.navwarn import generate as navwarn_generate
    from airspace.parser.rules import rules_drafts

    lettered = cancels = closed = surface = 0
    forms, units, precisions = Counter(), Counter(), Counter()
    point = r"\d\d-\d\d(?:\.\d{1,2})?[NS] \d{3}-\d\d(?:\.\d{1,2})?[EW]"
    for template in ("warning", "warning_circle", "warning_surface"):
        for k in range(120):
            ex = navwarn_generate(random.Random(k), template)
            text, zones = ex.text(), ex.answer_zones()
            assert re.search(r"^(?:NAVAREA (?:IV|XII)|HYDROPAC|HYDROLANT) \d+/\d\d", text, re.M)
            assert [{f: s.text for f, s in d.spans.items()} for d in rules_drafts(text)] == zones
            assert all("lower" not in z and "upper" not in z for z in zones)  # no limit is stated
            forms.update(tuple(sorted(z)) for z in zones)
            for z, g in zip(zones, ex.gold):
                if "polygon" in z:
                    pts = re.findall(point, z["polygon"])
                    closed += pts[0] == pts[-1]
                    assert len(g["geometry"]["points"]) == len(pts) - (pts[0] == pts[-1])
                    precisions[len(pts[0].split()[0])] += 1
                else:
                    assert re.fullmatch(point, z["center"]) and g["geometry"]["type"] == "circle"
                    units[z["radius"].lstrip("0123456789. ")] += 1
            lettered += len(zones) > 1 and bool(re.search(r"^ +B\. ", text, re.M))
            cancels += not zones and template != "warning_surface"
            surface += template == "warning_surface" and not zones
    assert lettered > 15 and cancels > 10 and closed > 15 and surface == 120
    # every form of period: groups (start, end), a daily window (and its schedule), under way (an end only)
    assert {("end", "polygon", "start"), ("end", "polygon", "schedule", "start"), ("end", "polygon")} <= set(forms)
    assert {("center", "end", "radius", "start"), ("center", "end", "radius", "schedule", "start")} <= set(forms)
    # positions to whole minutes and with one or two decimals; a warning's bare miles and nautical miles
    assert {6, 8, 9} <= set(precisions) and {"MILES", "NAUTICAL MILES", "NM"} <= set(units)
