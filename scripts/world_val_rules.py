"""Rules reader on the world set's **val** split: truth zones whose geometry, limits and times the records match.

Each truth zone is matched to the record of its message that agrees with it on the most fields (a record that is
right is used once). A zone is *right* when geometry, lower, upper, start and end all match (``eval.compare``); *right
and ok* when that record is also ``ok``. ``ok_not_right``: ``ok`` records that match no truth zone exactly (silently
wrong, or a zone the truth does not have). Usage: ``python scripts/world_val_rules.py [--split val] [--show]``.
Only ``train``/``val`` are accepted: the test split is scored by the bench, never here.
"""

from __future__ import annotations

import argparse
import json

from airspace.core.records import NM_TO_M, iso_utc
from airspace.data.world import read_world
from airspace.eval.compare import geometry_diff, limit_diff
from airspace.parser.rules import RulesExtractor
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

FIELDS = ("geometry", "lower", "upper", "start", "end")


def gold_zone(z: dict) -> dict:
    g: dict = {}
    if z.get("center") and z.get("radius_nm") is not None:
        g["geometry"] = {"type": "circle", "center": [z["center"]["lat"], z["center"]["lon"]],
                         "radius_m": z["radius_nm"] * NM_TO_M}
    elif z.get("polygon"):
        g["geometry"] = {"type": "polygon", "points": z["polygon"]}
    elif z.get("center_name") or z.get("name"):
        g["geometry"] = {"type": "named", "name": (z.get("center_name") or z.get("name")).split(" (")[0]}
    for f in ("lower", "upper"):
        if f in z:
            lim = z[f]
            g[f] = None if lim is None else {"ref": lim["ref"], "ft": lim.get("value_ft")}
    for f, k in (("start", "start_utc"), ("end", "end_utc")):
        if k in z:
            g[f] = z[k]
    return g


def field_hits(rec, gold: dict) -> dict[str, bool]:
    out = {}
    for f in FIELDS:
        if f not in gold:
            continue
        if f == "geometry":
            out[f] = geometry_diff(rec, gold[f]) is None
        elif f in ("lower", "upper"):
            out[f] = limit_diff(f, getattr(rec, f), gold[f]) is None
        else:
            out[f] = iso_utc(getattr(rec, f)) == gold[f]
    return out


def score(rows: list[dict], show: bool = False) -> dict:
    msgs = [Message(index=i, text=r["text"]) for i, r in enumerate(rows)]
    records, _ = process_batch(msgs, engine=RulesExtractor())
    by_msg: dict[int, list] = {}
    for rec in records:
        if rec.geometry is not None:
            by_msg.setdefault(rec.message, []).append(rec)
    tot = {"zones": 0, "fields": 0, "fields_right": 0, "zones_right": 0, "zones_right_ok": 0,
           "ok_on_no_zone": 0, "ok_not_right": 0}
    for i, r in enumerate(rows):
        golds = [gold_zone(z) for z in r["truth"].get("zones", [])]
        recs = list(by_msg.get(i, []))
        if not golds:
            tot["ok_on_no_zone"] += sum(rec.status == "ok" for rec in recs)
        for g in golds:
            tot["zones"] += 1
            best, best_hits = None, {}
            for rec in recs:
                h = field_hits(rec, g)
                if best is None or sum(h.values()) > sum(best_hits.values()):
                    best, best_hits = rec, h
            n = len([f for f in FIELDS if f in g])
            tot["fields"] += n
            got = sum(best_hits.values()) if best is not None else 0
            tot["fields_right"] += got
            if best is not None and got == n:
                tot["zones_right"] += 1
                tot["zones_right_ok"] += best.status == "ok"
                recs.remove(best)
            elif show:
                miss = [f for f in FIELDS if f in g and not best_hits.get(f)]
                print(f"{r['id']}: missed {miss}"
                      + (f" got {best.geometry.type if best.geometry else None} {best.reasons[:2]}" if best else ""))
        # an ``ok`` record left over: it matched no truth zone exactly (wrong, or a zone the truth does not have)
        if golds:
            tot["ok_not_right"] += sum(rec.status == "ok" for rec in recs)
    return tot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="val", choices=("train", "val"))
    ap.add_argument("--show", action="store_true")
    a = ap.parse_args()
    print(json.dumps(score(read_world(a.split), a.show)))


if __name__ == "__main__":
    main()
