"""Silver answers for real archive rows: the rules reader's answer where it passes stricter checks.

The models have seen only generated templates; real traffic writes forms no template does. The rules reader is
the most accurate reader of real messages, so its answers are the real supervision — but only where nothing says
it may be wrong. A row is silver when every one of these holds (``silver_reason`` names the first that fails):

1. every record of the message is ``ok``, or ``review`` only for a reason that does not doubt the reading
   (``TRUSTED_REVIEW``: the coarse Q-line circle is the only location given; no zone in a message with no
   coordinates at all or in a route notice; a whole FIR; an estimated end, a point without a radius or an area
   named without its boundary, which is what the message itself says; ...);
2. every coordinate of the message outside its Q-line lies inside a value the reader used (a centre or a
   polygon): nothing that looks like a position was left unread;
3. where the row carries ``silver_polygon`` (an independent tool's reading), the reader drew exactly that polygon
   (for a row named ``<id>_AREA<k>``, one area of a list, as its k-th polygon);

Each row keeps the reader's character spans (``spans``: per zone, field -> [start, end]); training builds the
gold pointers from them (``model.training.encode_row``), so a value written twice in a message (a limit in item E
and in F)) points where the reader read it.

Only ``train`` (and for validation ``val``) rows of ``airspace.data.realsplit`` are ever written; test rows never.

    python -m airspace.data.silver --archive data/real/archive.jsonl --out runs/silver
    python -m airspace.data.silver ... --layout-variants 2 --layout-seed 25   # + train_layout.jsonl
    python -m airspace.data.silver ... --layout-variants 3 --layout-seed 30 --written-frac 0.5   # + other written forms
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

from airspace.core.answer import NO_ZONE, format_answer
from airspace.core.contract import ZoneDraft
from airspace.core.records import ZoneRecord
from airspace.data.layout import squash, variant
from airspace.data.realsplit import read_rows, split_of
from airspace.data.written import written
from airspace.parser.coords import find_coords
from airspace.parser.header import parse_header
from airspace.parser.polygon import HULL_ORDER_NOTE
from airspace.parser.rules import RulesExtractor, rules_drafts
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

# review reasons that do not doubt what the reader read (only what can be drawn from it: a FIR without its
# boundary, a ring redrawn in hull order, a buffer the pipeline adds around a circle, a level item Q rounds)
TRUSTED_REVIEW = (
    "only the coarse Q-line circle locates this zone",
    "no zone found in the message (no coordinates, area or location)",
    "no zone: the Q-code",
    "the zone is the whole FIR",
    "buffer zone: the ring",
    HULL_ORDER_NOTE,
    "lower limit only from the Q-line",
    "upper limit only from the Q-line",
    # what the message itself says, read as written: the doubt is the operator's, not the reading's
    "end time is estimated (EST)",
    "no radius stated: a point",
    "no upper limit stated",
    "schedule excludes public holidays (EXC HOL)",
    "the message excludes the airspace over international waters",
)
# a named area whose boundary is published elsewhere (AIP): the name is all the message gives, and it was read
NAMED_AREA = re.compile(r"named area .*: its boundary is published elsewhere")
POINT_TOL = 1e-6


def _trusted(rec: ZoneRecord) -> bool:
    if rec.status == "ok":
        return True
    if rec.status == "error":
        return False
    return all(r.startswith(("note:", *TRUSTED_REVIEW)) or NAMED_AREA.match(r) for r in rec.reasons)


def _unread_coords(text: str, drafts: list[ZoneDraft]) -> int:
    h = parse_header(text)
    q = h.qline.raw if h.qline is not None else None
    used = [sp for d in drafts for k, sp in d.spans.items() if k in ("center", "polygon")]
    unread = 0
    for c in find_coords(text):
        if q is not None and q.start <= c.start < q.end:
            continue
        if not any(sp.start <= c.start and c.end <= sp.end for sp in used):
            unread += 1
    return unread


_AREA_ROW = re.compile(r"_AREA(\d+)$")


def _polygon_matches(silver: str, records: list[ZoneRecord], row_id: str = "") -> bool:
    """Whether the reader drew exactly ``silver``: its only polygon, or, for a row the other tool named
    ``<id>_AREA<k>`` (it reads one area of a list per row), the k-th of its polygons."""
    want = [(c.lat, c.lon) for c in find_coords(silver)]
    polys = [r.geometry.points for r in records if r.geometry is not None and r.geometry.type == "polygon"]
    m = _AREA_ROW.search(row_id)
    if m is None and len(polys) != 1:
        return False
    i = int(m.group(1)) - 1 if m else 0
    if not want or not 0 <= i < len(polys):
        return False
    got = [tuple(p) for p in polys[i]]
    if len(want) > 1 and want[0] == want[-1]:
        want = want[:-1]
    return len(got) == len(want) and all(abs(a[0] - b[0]) < POINT_TOL and abs(a[1] - b[1]) < POINT_TOL
                                         for a, b in zip(got, want))


def silver_reason(row: dict) -> tuple[str | None, list[ZoneDraft] | None]:
    """(why the row is not silver, or None; the silver drafts, or None)."""
    reason, drafts, _ = _silver_read(row)
    return reason, drafts


def _silver_read(row: dict) -> tuple[str | None, list[ZoneDraft] | None, list[ZoneRecord]]:
    """``silver_reason`` and the rules reader's records it judged."""
    text = row["text"]
    records, _ = process_batch([Message(0, text)], RulesExtractor(), cross_check=False)
    if not all(_trusted(r) for r in records):
        return "a record is in doubt", None, records
    drafts = rules_drafts(text)
    if _unread_coords(text, drafts):
        return "a coordinate was left unread", None, records
    if row.get("silver_polygon") and not _polygon_matches(row["silver_polygon"], records, row.get("id", "")):
        return "silver_polygon differs", None, records
    if any(set(d.spans) != set(d.values) for d in drafts):
        return "a value without its span", None, records
    return None, drafts, records


def silver_rows(rows: list[dict], split: str) -> tuple[list[dict], Counter]:
    out, why = [], Counter()
    for r in rows:
        if split_of(r["id"]) != split:
            continue
        reason, drafts = silver_reason(r)
        why[reason or "silver"] += 1
        if drafts is not None:
            zones = [dict(d.values) for d in drafts]
            out.append({"text": r["text"], "answer": format_answer(zones) if zones else NO_ZONE,
                        "spans": [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts],
                        "id": r["id"], "source": "silver:" + r["source"]})
    return out, why


def _values(recs: list[ZoneRecord]) -> list[dict]:
    """What a message's records state, their spans and raw texts aside: how two written forms of one notice
    compare."""
    out = []
    for r in recs:
        d = r.model_dump(exclude={"spans", "text", "reasons", "status"})
        for k in ("lower", "upper", "lower_also", "upper_also"):
            if d.get(k):
                d[k].pop("raw", None)
        out.append(d)
    return out


def layout_rows(silver: list[dict], k: int, seed: int, written_frac: float = 0.0) -> tuple[list[dict], Counter]:
    """Up to ``k`` layout variants of each silver row (``airspace.data.layout``), each kept only where the rules
    reader reads the new text as silver again, to the same fields at the carried spans (their blank runs aside);
    the row then takes the reader's own spans. A variant that reads otherwise is dropped, never relabelled.

    With ``written_frac``, that share of the variants also writes its values in another feed's form
    (``airspace.data.written``); such a variant is kept only where the reader's spans are exactly the carried ones
    and its records state the same values as the row's."""
    out, why = [], Counter()
    for i, r in enumerate(silver):
        rng = random.Random(f"{seed}:{r['id']}:{i}")
        seen = {r["text"]}
        values = None
        for _ in range(k):
            text, spans, ops = variant(r["text"], r["spans"], rng)
            forms: list[str] = []
            if written_frac > 0 and rng.random() < written_frac:
                text, spans, forms = written(text, spans, rng)
            if text in seen:
                why["no new layout"] += 1
                continue
            seen.add(text)
            reason, drafts, records = _silver_read({"id": r["id"], "text": text})
            new = [{f: [sp.start, sp.end] for f, sp in d.spans.items()} for d in drafts or []]
            same = reason is None and len(new) == len(spans) and all(
                set(a) == set(b) and all(squash(text[a[f][0]:a[f][1]]) == squash(text[b[f][0]:b[f][1]]) for f in a)
                for a, b in zip(new, spans))
            if same and forms:
                if values is None:  # the row's own reading, once, for its written variants
                    values = _values(process_batch([Message(0, r["text"])], RulesExtractor(), cross_check=False)[0])
                same = new == spans and _values(records) == values
            if not same:
                why[(reason or "read otherwise") + (" (written)" if forms else "")] += 1
                continue
            why["kept written" if forms else "kept"] += 1
            zones = [dict(d.values) for d in drafts]
            row = {"text": text, "answer": format_answer(zones) if zones else NO_ZONE, "spans": new,
                   "id": r["id"], "source": r["source"], "layout": ops}
            if forms:
                row["written"] = forms
            out.append(row)
    return out, why


def _write_rows(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--archive", required=True)
    ap.add_argument("--out", required=True, help="directory: writes train.jsonl, val.jsonl, silver.json")
    ap.add_argument("--layout-variants", type=int, default=0,
                    help="also write train_layout.jsonl: up to K layout variants of each train row (data.layout)")
    ap.add_argument("--layout-seed", type=int, default=0)
    ap.add_argument("--written-frac", type=float, default=0.0,
                    help="share of the layout variants that also write their values in another feed's form "
                         "(data.written: 451200N / 0013000E, 3,000 FT AMSL, FL 120)")
    args = ap.parse_args(argv)
    rows = read_rows(args.archive)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    info = {}
    for split in ("train", "val"):
        kept, why = silver_rows(rows, split)
        _write_rows(out / f"{split}.jsonl", kept)
        info[split] = {"rows": len(kept), "why": dict(why.most_common()),
                       "no_zone": sum(r["answer"] == NO_ZONE for r in kept)}
        print(split, info[split])
        if split == "train" and args.layout_variants:
            variants, vwhy = layout_rows(kept, args.layout_variants, args.layout_seed, args.written_frac)
            _write_rows(out / "train_layout.jsonl", variants)
            info["train_layout"] = {"rows": len(variants), "why": dict(vwhy.most_common()),
                                    "seed": args.layout_seed, "written_frac": args.written_frac or None}
            print("train_layout", info["train_layout"])
    (out / "silver.json").write_text(json.dumps(info, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
