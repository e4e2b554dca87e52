"""``make fuzz``: hostile inputs through the whole service, counting what must never happen.

Each input is one message, generated from a seed: real and shipped messages mutated (numbers made negative, huge,
tiny or 400 digits long, dates in year 1, floor and ceiling swapped, polygons repeated into long or self-crossing
rings, runs of digits, blanks, parentheses, control and odd Unicode characters spliced in, text cut short), NOTAMs
assembled from a grammar of the formats (ICAO circles, polygons and composites, FAA lines, Chinese notices) with
coordinates anywhere on the globe (poles and the antimeridian included), and pure junk. Inputs are read in batches,
alternately as pasted text and as JSONL (whose lines add broken JSON, lone surrogate escapes, huge integers, deep
nesting and objects without text), through ``process_batch`` and every export (GeoJSON, ED-269, ED-318).

Counted (the first four must be 0):

- ``internal_errors``: an exception out of the readers, the pipeline or an export, or a record that says an
  internal failure happened;
- ``lost_messages``: a JSONL line or a split message without a record, or a non-blank character of pasted text in
  no message;
- ``invalid_geometries``: an exported geometry that is not valid, not right-hand-rule (RFC 7946) or degenerate, an
  ED-269/ED-318 volume whose floor is not below its ceiling, an ED-318 document that fails the published schema
  (``data/standards/ED-318``; every ``SCHEMA_EVERY``-th batch), or output that is not valid UTF-8 JSON;
- ``budget_overruns``: messages whose work or output ran over the per-message budget and became ``error`` records
  (allowed: that is what the budget is for; reported so that a regression shows);
- and, for scale: messages, records by status, exported features, seconds.

The semantic oracle (``--semantic N`` through the rules reader, ``--semantic-clover N`` through Clover; every
``--cli-every``-th batch through ``airspace-parse`` as a subprocess, the rest in-process) checks what the counts above
cannot: whether an ``ok`` record is right. Each case is a message generated from known values (``data/gen`` through
``airspace.data.corpus.make_row``, the corpus's validation split), then left clean, given a damaged character inside
one of its numbers (``DAMAGE_CHARS``), or, for a one-zone message, made to contradict itself (a later ``RADIUS
INCREASED TO``, ``-2NM``, an AGL floor over an AMSL ceiling, ``FL999``, item E) against G), the Q-line against G),
hours marked ``LOCAL`` the record would not apply). Counted, each to be 0: ``semantic_wrong_ok`` (an ok record whose
geometry, limits or times are not those of any generated zone of its message; split into ``_clean`` and
``_altered``), ``semantic_ok_on_contradiction``, ``semantic_lost``, ``semantic_internal_errors``.

    python -m airspace.eval.fuzz --n 100000 --workers 16
    python -m airspace.eval.fuzz --n 0 --semantic 100000 --semantic-clover 5000 --workers 16
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from airspace.data.paths import ED318_SCHEMA, dev_set_path

REPO = Path(__file__).resolve().parents[1]
SCHEMA_DIR = ED318_SCHEMA

# pieces of the formats, spliced into messages or assembled into new ones
FRAGMENTS = (
    "PSN", "RADIUS", "RADIUS OF", " 1NM", "0.5NM", "5KM", "2500NM", "0.0000001NM", "WI", "AREA", "CENTRED ON",
    " - ", " TO ", "BACK TO START", "F) ", "G) ", "SFC", "GND", "UNL", "FL130", "FL999", "-500FT AMSL", "400FT AGL",
    "999999999999999999999999999999M AMSL", "D) ", "DAILY 0800-1700", "SR-SS", "MON-FRI", "E) ", "B) ", "C) ",
    "PERM", "EST", "UFN", "NOTAMN", "NOTAMC", "NOTAMR", "(A1912/15 NOTAMN", "Q) LOVV/QRTCA/IV/BO/W/000/130/4809N01610E001",
    "A) LOVV", "!BOS 01/502 BOS", "2601190001-2607312359", "480930N0161028E", "N480930 E0161028", "4809N01610E",
    "900000N1800000E", "900000S1800000W", "000000N1795959E", "000000N1795959W", "EXC", "SECTOR", "SEMICIRCLE",
    "INCMPL", "EITHER SIDE OF", "以", "为中心", "半径2公里", "北纬22°38′", "东经113°49′", "真高120米", "关于临时禁飞的通告",
    "2024年9月10日12时至2024年9月10日24时", "Label: value", "Beginning Date and Time :", "\n\n", "\n", "(", ")",
    "0001-01-01T00:00Z", "9999-12-31T23:59Z", "0001010000", "\u2028", "\u200b", "\u202e", "\ufffd", "\x00", "\t",
)

_TAIL_FIELDS = ("F) {lo} G) {hi}", "F) {hi} G) {lo}")  # the second: floor above ceiling
_LIMITS = ("SFC", "GND", "400FT AGL", "1000FT AMSL", "FL050", "FL130", "FL999", "UNL", "-500FT AMSL", "0FT AMSL",
           "5700M AMSL", "9" * 40 + "FT AMSL", "120M AGL", "-500FT AGL", "200000M AMSL")
_DISTS = ("1NM", "0.5NM", ".5NM", "5KM", "500M", "2NM", "10NM", "2500NM", "0NM", "0.0000001NM", "0.001NM", "99999NM",
          "9" * 30 + "NM", "3 NM", "1.5 KM")
_TIMES = ("2601010000", "2612312359", "1509261100", "0001010000", "9912312359", "PERM", "2601312359 EST", "UFN",
          "2602300000", "2613010000")
_SCHED = ("DAILY 0800-1700", "MON-FRI 0700-1100", "SR-SS", "H24", "JAN 01-31 0000-2359", "DAILY 0000-0001 0002-0003",
          "EVERY DAY 2400-0000", "MON WED FRI 1000-1200")
_STYLES = ("dm", "dms", "dms_space", "hemi_first", "hemi_first_space", "spaced", "dms_symbols", "dms_dec", "cn",
           "decimal_hemi")
_JUNK = "0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ()-/.,:;\n\t北纬东经半径为中心公里米\u00a0\u2028\ufffd\x01\x7fÿ✈🚀"


def _coord(rnd: random.Random, near: tuple[float, float] | None = None) -> str:
    from airspace.parser.coords import format_coord

    if near is not None and rnd.random() < 0.8:
        lat = max(-90.0, min(90.0, near[0] + rnd.uniform(-0.5, 0.5)))
        lon = near[1] + rnd.uniform(-0.5, 0.5)
        lon = (lon + 180.0) % 360.0 - 180.0
    else:
        lat = rnd.choice([rnd.uniform(-90, 90), 90.0, -90.0, 0.0, rnd.uniform(85, 90)])
        lon = rnd.choice([rnd.uniform(-180, 180), 180.0, -180.0, 179.99, -179.99, 0.0])
    try:
        return format_coord(lat, lon, rnd.choice(_STYLES))
    except ValueError:
        return format_coord(0.0, 0.0, "dms")


def _ring(rnd: random.Random, n: int, crossing: bool) -> str:
    lat0, lon0 = rnd.uniform(-80, 80), rnd.uniform(-179, 179)
    r = rnd.choice([0.01, 0.2, 1.0, 5.0, 1e-7])
    pts = []
    for i in range(n):
        k = (i * (n // 2 - 1)) % n if crossing and n > 4 else i
        a = 2 * math.pi * k / n
        pts.append((max(-90.0, min(90.0, lat0 + r * math.sin(a))), ((lon0 + r * math.cos(a)) + 180) % 360 - 180))
    from airspace.parser.coords import format_coord

    style = rnd.choice(("dms", "dm", "hemi_first"))
    return " - ".join(format_coord(la, lo, style) for la, lo in pts)


def grammar_message(rnd: random.Random) -> str:
    """A message assembled from the formats the readers know."""
    kind = rnd.random()
    if kind < 0.12:  # FAA domestic line
        return (f"!{rnd.choice(['BOS', 'ATL', 'ZNY'])} {rnd.randint(1, 12):02d}/{rnd.randint(1, 999):03d} BOS AIRSPACE "
                f"UAS WI AN AREA DEFINED AS {rnd.choice(_DISTS)} RADIUS OF {_coord(rnd)} "
                f"{rnd.choice(_LIMITS)}-{rnd.choice(_LIMITS)} {rnd.choice(_TIMES)}-{rnd.choice(_TIMES)}")
    if kind < 0.2:  # Chinese notice
        return ("关于临时禁飞的通告\n以" + _coord(rnd) + "为中心，半径" + str(rnd.choice([1, 2, 0, 99999])) + "公里范围内，"
                + f"真高{rnd.choice([0, 120, -5, 10**9])}米以下。\n时间：2024年9月{rnd.randint(1, 31)}日12时至2024年9月10日24时。")
    series = rnd.choice("ABCDJ")
    typ = rnd.choice("NNNNRC")
    head = f"({series}{rnd.randint(1, 9999):04d}/{rnd.randint(0, 99):02d} NOTAM{typ}"
    if typ != "N":
        head += f" {series}{rnd.randint(1, 9999):04d}/{rnd.randint(0, 99):02d}"
    q = f"Q) LOVV/Q{rnd.choice(['RTCA', 'WPLW', 'RDCA', 'MRLC', 'RTTT'])}/IV/BO/W/000/{rnd.randint(0, 999):03d}/{_coord(rnd).replace(' ', '')[:11]}{rnd.randint(1, 999):03d}"
    items = [head, q, f"A) LOVV B) {rnd.choice(_TIMES)} C) {rnd.choice(_TIMES)}"]
    if rnd.random() < 0.3:
        items.append("D) " + rnd.choice(_SCHED))
    g = rnd.random()
    if g < 0.4:
        geo = f"PSN {_coord(rnd)} RADIUS {rnd.choice(_DISTS)}"
    elif g < 0.7:
        geo = "AREA " + _ring(rnd, rnd.choice([3, 4, 5, 8, 20, 70, 300]), rnd.random() < 0.3)
    elif g < 0.85:
        geo = " ".join(f"{i + 1}. PSN {_coord(rnd)} RADIUS {rnd.choice(_DISTS)} {rnd.choice(_LIMITS)}."
                       for i in range(rnd.randint(2, 40)))
    else:
        geo = rnd.choice(["RWY 09/27 CLSD", "R5206 ACT", "WI 0.4NM OF Wembley Stadium", "NOT TO ENTER FIR TRIPOLI (HLLL)"])
    items.append("E) " + geo)
    items.append(rnd.choice(_TAIL_FIELDS).format(lo=rnd.choice(_LIMITS), hi=rnd.choice(_LIMITS)) + ")")
    return "\n".join(items)


def _seeds() -> list[str]:
    """Real and shipped messages to mutate (whatever of them this checkout has)."""
    out: list[str] = []
    dev = dev_set_path()
    out += [json.loads(line)["text"] for line in dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    demo = REPO / "data" / "samples" / "demo20.txt"
    if demo.exists():
        from airspace.pipeline.split import split_batch

        out += [m.text for m in split_batch(demo.read_text(encoding="utf-8"))]
    return out


_NUMBER_SWAPS = ("-{n}", "9" * 400, "0.0000001", "0", "{n}{n}{n}{n}", "1e308", "0001", "99999999")


def mutate(text: str, rnd: random.Random) -> str:
    """One to four hostile edits of a message."""
    import re

    for _ in range(rnd.randint(1, 4)):
        op = rnd.random()
        pos = rnd.randint(0, len(text))
        if op < 0.25:  # a number made negative, huge, tiny, long …
            nums = list(re.finditer(r"\d+(?:\.\d+)?", text))
            if nums:
                m = rnd.choice(nums)
                text = text[: m.start()] + rnd.choice(_NUMBER_SWAPS).format(n=m.group()) + text[m.end():]
        elif op < 0.45:
            text = text[:pos] + rnd.choice(FRAGMENTS) + text[pos:]
        elif op < 0.55:  # a run: the shapes that make backtracking regular expressions quadratic
            run = rnd.choice(["9", " ", "\n", "(", ")", "-", "9 ", "A ", "北", ". ", "9.", "RADIUS "]) * rnd.randint(50, 3000)
            text = text[:pos] + run + text[pos:]
        elif op < 0.65:  # a coordinate list repeated into a long ring
            coords = list(re.finditer(r"\d{4,6}[NS]\s?\d{5,7}[EW]", text))
            if coords:
                m = rnd.choice(coords)
                text = text[: m.end()] + (" - " + m.group()) * rnd.randint(2, 400) + text[m.end():]
        elif op < 0.72:
            text = text[:pos]  # cut short
        elif op < 0.8:
            text = text[:pos] + "".join(rnd.choice(_JUNK) for _ in range(rnd.randint(1, 40))) + text[pos:]
        elif op < 0.86:  # floor and ceiling swapped
            text = re.sub(r"F\)\s*(\S+)\s+G\)\s*(\S+)", r"F) \2 G) \1", text)
        elif op < 0.92:
            text = text.replace("\n", rnd.choice([" ", "  ", "\r\n", "\n\n", ""]))
        else:
            a, b = sorted((rnd.randint(0, len(text)), rnd.randint(0, len(text))))
            text = text[:a] + text[a:b] * rnd.randint(2, 5) + text[b:]
    return text


def hostile_message(rnd: random.Random, seeds: list[str]) -> str:
    r = rnd.random()
    if r < 0.4 and seeds:
        return mutate(rnd.choice(seeds), rnd)
    if r < 0.8:
        msg = grammar_message(rnd)
        return mutate(msg, rnd) if rnd.random() < 0.5 else msg
    if r < 0.9:
        return "".join(rnd.choice(_JUNK) for _ in range(rnd.randint(1, 400)))
    return "".join(rnd.choice(FRAGMENTS) for _ in range(rnd.randint(1, 60)))


def hostile_line(rnd: random.Random, msg: str) -> str:
    """A JSONL line for a message: mostly well formed, sometimes the hostile forms the reader must survive."""
    r = rnd.random()
    if r < 0.75:
        return json.dumps({"text": msg, "id": rnd.randint(0, 10**6)}, ensure_ascii=rnd.random() < 0.5)
    return rnd.choice([
        '{"text":"\\ud800"}', '{"text":"ok \\udfff"}', '{"text":"x","id":' + "9" * 5000 + "}",
        '{"text": 1' + "0" * 4500 + "}", "[" * 3000, "{" * 100 + "}", '{"text": null}', "[1,2,3]", "not json",
        json.dumps({"txt": msg}), json.dumps({"text": msg})[:-3], '{"text":"' + msg[:50].replace('"', "") + '\\',
        json.dumps({"text": msg, "id": {"a": [1e308, -1e308, 1e-400]}}),
    ])


# --------------------------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------------------------


def _schema_validator():
    """The published ED-318 schema (vendored in ``data/standards/ED-318``), its ``$ref``s resolved beside it."""
    import jsonschema
    import referencing
    import referencing.jsonschema

    reg = referencing.Registry()
    for p in SCHEMA_DIR.glob("*.json"):
        reg = reg.with_resource(p.as_uri(), referencing.Resource.from_contents(
            json.loads(p.read_text()), default_specification=referencing.jsonschema.DRAFT7))
    root = json.loads((SCHEMA_DIR / "Schema_GeoZones.json").read_text())
    return jsonschema.Draft7Validator({**root, "$id": (SCHEMA_DIR / "Schema_GeoZones.json").as_uri()}, registry=reg)


def geometry_problems(g: dict | None) -> list[str]:
    """What is wrong with one exported GeoJSON (Multi)Polygon: validity, orientation, degenerate rings."""
    if g is None:
        return []
    from shapely.geometry import LinearRing, shape

    out = []
    polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
    for rings in polys:
        for k, ring in enumerate(rings):
            if len(ring) < 4 or ring[0] != ring[-1] or len({tuple(p) for p in ring[:-1]}) < 3:
                out.append("degenerate ring")
            elif LinearRing(ring).is_ccw != (k == 0):
                out.append("exterior not counter-clockwise" if k == 0 else "hole not clockwise")
    s = shape(g)
    if not s.is_valid or s.area == 0:
        out.append("invalid geometry")
    return out


def export_problems(records, validator=None) -> list[str]:
    """Every broken promise of the three exports for these records (an exception is one too)."""
    from airspace.geo.export import to_ed269, to_ed318, to_geojson

    out: list[str] = []
    gj, e269, e318 = to_geojson(records), to_ed269(records), to_ed318(records)
    if len(gj["features"]) != len(records):
        out.append("geojson lost a record")
    for f in gj["features"]:
        out += geometry_problems(f["geometry"])
        p = f["properties"]
        if f["geometry"] is not None and p.get("ceil_m") is not None and p["floor_m"] >= p["ceil_m"]:
            out.append("geojson floor not below ceiling")
    for f in e269["features"]:
        for g in f["geometry"]:
            if g["lowerLimit"] >= g["upperLimit"]:
                out.append("ed269 floor not below ceiling")
            if g["horizontalProjection"]["type"] != "Circle":
                out += geometry_problems(g["horizontalProjection"])
    for f in e318["features"]:
        g = f["geometry"]
        if g["layer"]["lower"] >= g["layer"]["upper"]:
            out.append("ed318 floor not below ceiling")
        if g["type"] != "Point":
            out += geometry_problems({"type": g["type"], "coordinates": g["coordinates"]})
        elif not (g["extent"]["radius"] > 0):
            out.append("ed318 circle without radius")
    if validator is not None:
        out += [f"ed318 schema: {e.message[:80]}" for e in validator.iter_errors(e318)]
    for doc in (gj, e269, e318):
        try:
            json.dumps(doc, ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError):
            out.append("export is not UTF-8 JSON")
    return out


_INTERNAL = ("internal failure",)
SCHEMA_EVERY = 10  # the ED-318 schema check costs more than the export itself: every tenth batch
_BUDGET = ("per-message time budget", "per-message output budget")


def run_batch(seed: int, size: int) -> dict:
    """One batch of ``size`` hostile messages (text or JSONL by the seed's parity): the counts of this module."""
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.split import BatchTooLarge, read_jsonl, split_batch

    rnd = random.Random(seed)
    seeds = _SEEDS or _seeds()
    msgs = [hostile_message(rnd, seeds) for _ in range(size)]
    mode = "jsonl" if seed % 2 else "text"
    c = {"batches": 1, "messages": 0, "records": 0, "ok": 0, "review": 0, "error": 0, "features": 0,
         "internal_errors": 0, "lost_messages": 0, "invalid_geometries": 0, "budget_overruns": 0, "problems": []}
    t0 = time.perf_counter()
    try:
        if mode == "jsonl":
            lines = [hostile_line(rnd, m) for m in msgs]
            text = "\n".join(lines)
            parsed = read_jsonl(text)
            expected = {i for i, line in enumerate(text.split("\n")) if line.strip()}
        else:
            text = "\n\n".join(msgs)
            parsed = split_batch(text)
            expected = {m.index for m in parsed}
            # every non-blank character of the input lands in some message
            covered = sum(len("".join(m.text.split())) for m in parsed)
            if covered != len("".join(text.replace("\r\n", "\n").replace("\r", "\n").split())):
                c["lost_messages"] += 1
                c["problems"].append(f"seed {seed}: pasted characters outside every message")
        c["messages"] = len(expected)
        records, _ = process_batch(parsed, "rules")  # 10^5 hostile messages: the rules reader (a model would take hours)
        seen = {r.message for r in records}
        if expected - seen:
            c["lost_messages"] += len(expected - seen)
            c["problems"].append(f"seed {seed}: messages without a record {sorted(expected - seen)[:5]}")
        for r in records:
            c["records"] += 1
            c[r.status] += 1
            why = " ".join(r.reasons)
            if any(k in why for k in _INTERNAL):
                c["internal_errors"] += 1
                c["problems"].append(f"seed {seed}: internal failure recorded: {why[:120]}")
            if any(k in why for k in _BUDGET):
                c["budget_overruns"] += 1
        try:
            json.dumps([r.to_json() for r in records], ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError) as exc:
            c["invalid_geometries"] += 1
            c["problems"].append(f"seed {seed}: records are not UTF-8 JSON ({type(exc).__name__})")
        probs = export_problems(records, _VALIDATOR if seed % SCHEMA_EVERY == 0 else None)
        c["features"] = sum(r.geometry is not None for r in records)
        if probs:
            c["invalid_geometries"] += len(probs)
            c["problems"] += [f"seed {seed}: {p}" for p in probs[:5]]
    except BatchTooLarge:
        pass  # a batch over the size limit is refused with a clear error: allowed
    except Exception as exc:  # noqa: BLE001 - exactly what this counts
        c["internal_errors"] += 1
        c["problems"].append(f"seed {seed} ({mode}): {type(exc).__name__}: {str(exc)[:160]}")
    c["seconds"] = time.perf_counter() - t0
    return c


# --------------------------------------------------------------------------------------------------------------
# the semantic oracle: messages generated from known values, damaged or contradicted in known ways
# --------------------------------------------------------------------------------------------------------------

DAMAGE_CHARS = ("\x00", "\ufffd", "\x07", "\x1b", "\x85", "\x7f", "\u200b")
SEMANTIC_SPLIT = "val"  # the corpus's validation split: rows the model did not train on, never the test split
SEMANTIC_SEED = 45
_NUM_RUN = r"\d{2,}"


def _damage_number(text: str, rnd: random.Random) -> str | None:
    """A damaged character put between two digits of a number of the message (any number: a coordinate, a
    radius, a limit, a time, an id): the values it belonged to can only become unreadable, never other values."""
    import re

    runs = list(re.finditer(_NUM_RUN, text))
    if not runs:
        return None
    m = rnd.choice(runs)
    k = rnd.randint(m.start() + 1, m.end() - 1)
    return text[:k] + rnd.choice(DAMAGE_CHARS) * rnd.choice((1, 1, 2)) + text[k:]


def _contradictions(text: str, gold: list[dict], rnd: random.Random) -> list[tuple[str, str]]:
    """(name, contradicted text) for every contradiction this one-zone message admits; after any of them the message
    no longer has one reading, so no record of it may be ``ok``."""
    import re

    out: list[tuple[str, str]] = []
    z = gold[0]
    g = z.get("geometry") or {}
    if g.get("type") == "circle":
        r_nm = g["radius_m"] / 1852
        other = next(x for x in (5, 7, 9, 12) if abs(x - r_nm) > 0.01)
        out.append(("radius_amended", text.rstrip(" )") + f" RADIUS INCREASED TO {other}NM." + (
            ")" if text.rstrip().endswith(")") else "")))
        m = re.search(r"(?<=\s)((?:\d+(?:\.\d+)?|\.\d+)\s?(?:NM|KM))(?=\s+RADIUS)", text)
        if m:
            out.append(("negative_radius", text[: m.start()] + "-" + text[m.start():]))
    f, gg = re.search(r"(?:^|\s)F\)\s*", text), re.search(r"(?:^|\s)G\)\s*(\S+(?:\s?FT|\s?M)?(?:\s(?:AMSL|MSL|AGL))?)", text)
    up = z.get("upper") or {}
    if gg and f:
        out.append(("agl_amsl", text[: f.end()] + "5000FT AGL G) 1000FT AMSL" + text[gg.end():]))
        if up.get("ref") in ("AMSL", "FL") and (up.get("ft") or 0) >= 3000:
            out.append(("fl999_or_e", text[: gg.start(1)] + "FL999" + text[gg.end(1):]))
        e = re.search(r"(?:^|\s)E\)\s*", text)
        if e and up.get("ref") in ("AMSL", "FL") and up.get("ft"):
            x = int(up["ft"]) + 2000
            out.append(("e_vs_g", text[: e.end()] + f"ACTIVE SFC-{x}FT AMSL. " + text[e.end():]))
    q = re.search(r"Q\)\s*[^\n]*?/(\d{3})/(\d{3})/", text)
    if q and up.get("ref") in ("AMSL", "FL") and (up.get("ft") or 0) >= 5000:
        out.append(("qline_vs_g", text[: q.start(2)] + "001" + text[q.end(2):]))
    if text.lstrip().startswith("!") and z.get("start"):
        lim = re.search(r"\d+\s?FT(?:\s(?:AGL|AMSL|MSL))?(?=\s)", text)
        if lim:
            out.append(("local_times", text[: lim.end()] + " 1800-2200 LOCAL" + text[lim.end():]))
    return out


def semantic_case(seed: int, i: int) -> dict:
    """Generated row ``i`` of ``seed`` (``data/gen`` through ``airspace.data.corpus.make_row``) and what is done to
    it: ``clean``, ``damaged`` (a damaged character inside a number) or a named contradiction. ``expect`` is
    ``values`` (every ``ok`` record must carry one generated zone's values exactly), ``no_ok`` (the message
    contradicts itself: no zone of it may be ``ok``) or ``placed_local`` (daily hours marked local: ``ok`` only where
    the record placed them with the zone's time zone, its other values the generated ones)."""
    from airspace.data.corpus import CorpusError, make_row

    try:
        row = make_row(seed, SEMANTIC_SPLIT, i)
    except CorpusError:
        return {"text": "", "zones": [], "op": "none", "expect": "values", "template": "none"}
    rnd = random.Random(seed * 7_919 + i)
    text, zones = row["text"], row["zones"]
    op, expect = "clean", "values"
    r = rnd.random()
    if r < 0.45:
        damaged = _damage_number(text, rnd)
        if damaged is not None:
            text, op = damaged, "damaged"
    elif r < 0.85 and len(zones) == 1:
        options = _contradictions(text, zones, rnd)
        if options:
            op, text = rnd.choice(options)
            # daily hours marked local do not contradict the message when a reader places them with the zone's
            # time zone (a schedule read from them, the note saying so); taken as UTC, or ignored, they would
            expect = "placed_local" if op == "local_times" else "no_ok"
    return {"text": text, "zones": zones, "op": op, "expect": expect, "template": row["template"]}


def semantic_check(records, cases: list[dict], *, through: str = "") -> dict:
    """The oracle over one batch: ``records`` as read from ``cases`` (message ``i`` is case ``i``)."""
    from airspace.eval.compare import record_diffs

    c = {"semantic_messages": len(cases), "semantic_ok": 0, "semantic_wrong_ok": 0, "semantic_ok_on_contradiction": 0,
         "semantic_lost": 0, "semantic_problems": []}
    by_msg: dict[int, list] = {}
    for r in records:
        by_msg.setdefault(r.message, []).append(r)
    for i, case in enumerate(cases):
        recs = by_msg.get(i)
        if not recs:
            c["semantic_lost"] += 1
            c["semantic_problems"].append(f"{through}{case['template']}/{case['op']}: no record")
            continue
        for r in recs:
            if r.status != "ok" or r.geometry is None:
                continue
            c["semantic_ok"] += 1
            if case["expect"] == "placed_local" and _placed_local(r):
                case = {**case, "expect": "values"}
            if case["expect"] in ("no_ok", "placed_local"):
                c["semantic_ok_on_contradiction"] += 1
                c["semantic_problems"].append(f"{through}{case['template']}/{case['op']}: ok record of a message that "
                                              f"contradicts itself: {case['text'][:160]!r}")
                continue
            golds = [{k: v for k, v in z.items() if k in ("geometry", "lower", "upper", "start", "end")}
                     for z in case["zones"]]
            if not any(not record_diffs(r, g) for g in golds):
                c["semantic_wrong_ok"] += 1
                key = f"semantic_wrong_ok_{'clean' if case['op'] == 'clean' else 'altered'}"
                c[key] = c.get(key, 0) + 1
                diffs = record_diffs(r, golds[min(r.zone, len(golds) - 1)]) if golds else ["no generated zone"]
                c["semantic_problems"].append(f"{through}{case['template']}/{case['op']} zone {r.zone}: "
                                              f"{'; '.join(diffs)[:200]} in {case['text'][:160]!r}")
    return c


def _placed_local(rec) -> bool:
    """The record read the message's local daily hours as its schedule and placed them in UTC with the zone's time
    zone (``parser.localtime``; its note names the zone)."""
    from airspace.parser.localtime import LOCAL_MARK

    sp = rec.spans.get("schedule")
    return (sp is not None and any(sp.start <= m.start("times") and m.end("times") <= sp.end
                                   for m in LOCAL_MARK.finditer(rec.text))
            and any("in local time: placed in UTC" in r for r in rec.reasons))


def _cli_records(cases: list[dict], engine: str) -> list:
    """The cases through ``airspace-parse --input jsonl --format jsonl`` (a subprocess: the real entry point)."""
    import subprocess

    from airspace.core.records import ZoneRecord

    lines = "\n".join(json.dumps({"text": c["text"]}) for c in cases) + "\n"
    p = subprocess.run([sys.executable, "-m", "airspace.pipeline.cli", "--engine", engine, "--input", "jsonl",
                        "--format", "jsonl", "-"], input=lines.encode("utf-8"), capture_output=True, timeout=3600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"airspace-parse exited {p.returncode}: {p.stderr.decode('utf-8', 'replace')[-200:]}")
    return [ZoneRecord.model_validate(json.loads(x)) for x in p.stdout.decode("utf-8").splitlines() if x.strip()]


def _messages_of(cases: list[dict]):
    from airspace.pipeline.split import Message, _check

    return [_check(Message(index=i, text=c["text"])) for i, c in enumerate(cases)]


_EXTRACTORS: dict = {}


def run_semantic(start: int, size: int, engine: str = "rules", cli: bool = False, seed: int = SEMANTIC_SEED) -> dict:
    """One batch of the oracle: generated cases ``start .. start+size-1``, read in-process (``process_batch``) or
    through the CLI; the counts of ``semantic_check``, by operation."""
    from airspace.pipeline.batch import process_batch

    cases = [semantic_case(seed, i) for i in range(start, start + size)]
    cases = [c for c in cases if c["text"].strip()]
    through = f"[{engine}{' cli' if cli else ''}] "
    t0 = time.perf_counter()
    try:
        if cli:
            records = _cli_records(cases, engine)
        else:
            if engine not in _EXTRACTORS:
                from airspace.pipeline.engines import get_extractor

                _EXTRACTORS[engine] = get_extractor(engine)
            records, _ = process_batch(_messages_of(cases), _EXTRACTORS[engine])
        c = semantic_check(records, cases, through=through)
        c["semantic_internal_errors"] = sum(any(k in " ".join(r.reasons) for k in _INTERNAL) for r in records)
    except Exception as exc:  # noqa: BLE001 - exactly what this counts
        c = {"semantic_messages": len(cases), "semantic_internal_errors": 1,
             "semantic_problems": [f"{through}batch {start}: {type(exc).__name__}: {str(exc)[:160]}"]}
    c["semantic_seconds"] = time.perf_counter() - t0
    ops: dict[str, int] = {}
    for case in cases:
        ops[case["op"]] = ops.get(case["op"], 0) + 1
    c["semantic_ops"] = ops
    return c


def _merge_semantic(total: dict, c: dict) -> None:
    for k, v in c.items():
        if k == "semantic_problems":
            total.setdefault(k, []).extend(v[: max(0, 50 - len(total.get(k, [])))])
        elif k == "semantic_ops":
            for op, n in v.items():
                total.setdefault(k, {})[op] = total.get(k, {}).get(op, 0) + n
        else:
            total[k] = total.get(k, 0) + v


def semantic(n: int, engine: str, *, batch: int = 50, cli_every: int = 10, workers: int = 1,
             seed: int = SEMANTIC_SEED) -> dict:
    """``n`` generated cases through ``engine``: every ``cli_every``-th batch through the CLI, the rest in-process."""
    starts = list(range(0, n, batch))
    sizes = [min(batch, n - s) for s in starts]
    clis = [cli_every > 0 and k % cli_every == 0 for k in range(len(starts))]
    total: dict = {"engine": engine}
    t0 = time.perf_counter()
    args = (starts, sizes, [engine] * len(starts), clis, [seed] * len(starts))
    if workers <= 1:
        for c in map(run_semantic, *args):
            _merge_semantic(total, c)
    else:
        with ProcessPoolExecutor(workers, initializer=_one_thread) as pool:
            for c in pool.map(run_semantic, *args):
                _merge_semantic(total, c)
    total["semantic_cli_messages"] = sum(sz for sz, cl in zip(sizes, clis) if cl)
    total["semantic_wall_s"] = round(time.perf_counter() - t0, 1)
    total["semantic_seconds"] = round(total.get("semantic_seconds", 0.0), 1)
    return total


def _one_thread() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def semantic_bad(total: dict) -> int:
    """What must be 0: internal errors, lost messages, ok records with other values or of a contradiction."""
    return sum(total.get(k, 0) for k in ("semantic_internal_errors", "semantic_lost", "semantic_wrong_ok",
                                         "semantic_ok_on_contradiction"))


_SEEDS: list[str] = []
_VALIDATOR = None


def _init() -> None:
    global _SEEDS, _VALIDATOR
    _SEEDS = _seeds()
    _VALIDATOR = _schema_validator()


def _merge(total: dict, c: dict) -> None:
    for k, v in c.items():
        if k == "problems":
            total.setdefault("problems", []).extend(v[: max(0, 50 - len(total.get("problems", [])))])
        else:
            total[k] = total.get(k, 0) + v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="hostile inputs through the pipeline and the exports; prints the counts")
    ap.add_argument("--n", type=int, default=100_000, help="hostile messages in all (0: none)")
    ap.add_argument("--batch", type=int, default=50, help="messages per batch")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", help="also write the counts here as JSON")
    ap.add_argument("--semantic", type=int, default=0, metavar="N",
                    help="also N generated messages, damaged or contradicted in known ways, through the rules reader "
                         "(the semantic oracle)")
    ap.add_argument("--semantic-clover", type=int, default=0, metavar="N", help="the same for N through Clover")
    ap.add_argument("--cli-every", type=int, default=10, help="every k-th semantic batch goes through the CLI")
    args = ap.parse_args(argv)
    n_batches = max(0, math.ceil(args.n / args.batch))
    seeds = [args.seed * 1_000_003 + i for i in range(n_batches)]
    total: dict = {}
    t0 = time.perf_counter()
    if args.workers <= 1:
        _init()
        for s in seeds:
            _merge(total, run_batch(s, args.batch))
    else:
        with ProcessPoolExecutor(args.workers, initializer=_init) as pool:
            for c in pool.map(run_batch, seeds, [args.batch] * len(seeds), chunksize=4):
                _merge(total, c)
    total["wall_s"] = round(time.perf_counter() - t0, 1)
    total["seconds"] = round(total.get("seconds", 0.0), 1)
    problems = total.pop("problems", [])
    sem = {}
    for engine, n in (("rules", args.semantic), ("clover", args.semantic_clover)):
        if n > 0:
            sem[engine] = semantic(n, engine, batch=args.batch, cli_every=args.cli_every, seed=SEMANTIC_SEED + args.seed,
                                   workers=args.workers)
            problems += sem[engine].get("semantic_problems", [])[:20]
    if sem:
        total["semantic"] = {e: {k: v for k, v in t.items() if k != "semantic_problems"} for e, t in sem.items()}
    print(json.dumps(total, indent=1))
    for p in problems[:40]:
        print("  ", p)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({**total, "problems": problems}, indent=1) + "\n")
    bad = total.get("internal_errors", 0) + total.get("lost_messages", 0) + total.get("invalid_geometries", 0)
    bad += sum(semantic_bad(t) for t in sem.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
