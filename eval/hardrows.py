"""The silver train rows an engine reads otherwise than the rules reader: where the next fine-tune should look.

Uniform passes over the silver rows (stages 16-18, 20-21) moved the archive splits but not the real-message errors,
which sit in forms that are a few rows of 3 000 (a list of FIRs in item A, one area a day, a radius written
``1,330M``). A row the model already reads as the rules reader does teaches it little more; one it reads otherwise is
where its reading of that form is wrong. This lists those rows of the **train** split, for each engine given, with
the kinds of disagreement (``airspace.eval.realtest.disagreement``), so ``airspace.eval.mixcorpus --hard`` can give
them more weight. Only train rows are read: the val and test splits stay unseen.

    python -m airspace.eval.hardrows --silver runs/silver6/train.jsonl --engines clover,ar --out runs/silver6/hard.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from airspace.core.records import ZoneRecord
from airspace.eval.realsplit import split_of
from airspace.eval.realtest import disagreements
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message


def read_records(rows: list[dict], extractor, batch: int = 16) -> list[ZoneRecord]:
    """The rows' records from ``extractor`` (an engine name or an extractor), without the cross-check; each
    record's ``message`` is its row's index."""
    msgs = [Message(i, r["text"]) for i, r in enumerate(rows)]
    return [rec for lo in range(0, len(msgs), batch)
            for rec in process_batch(msgs[lo:lo + batch], extractor, cross_check=False)[0]]


def hard_rows(rows: list[dict], extractors: dict[str, object], batch: int = 16) -> dict:
    """``{"rows": {id: {engine: [kinds]}}, "by_engine": {engine: {"rows": n, "kinds": {...}}}}`` over the train
    rows of ``rows`` that some engine reads otherwise than the rules reader. Rows of other splits raise: a list
    built from them would carry the val or test split into training."""
    for r in rows:
        if split_of(r["id"]) != "train":
            raise ValueError(f"{r['id']} is not a train row: hard rows come from the train split only")
    rules = read_records(rows, "rules", batch)
    out: dict[str, dict[str, list[str]]] = {}
    summary = {}
    for name, ex in extractors.items():
        kinds: Counter = Counter()
        n = 0
        for r, d in zip(rows, disagreements(read_records(rows, ex, batch), rules, len(rows))):
            if d:
                out.setdefault(r["id"], {})[name] = d
                kinds.update(d)
                n += 1
        summary[name] = {"rows": n, "kinds": dict(kinds.most_common())}
    return {"rows": out, "by_engine": summary, "read": len(rows)}


def main(argv: list[str] | None = None) -> int:
    from airspace.pipeline.engines import get_extractor

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--silver", required=True, help="silver train.jsonl (airspace.eval.silver)")
    ap.add_argument("--engines", default="clover,ar", help="comma-separated model engines")
    ap.add_argument("--checkpoint", action="append", default=[],
                    help="ENGINE=DIR to read with another checkpoint than the shipped one")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    with open(args.silver, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    ckpt = dict(c.split("=", 1) for c in args.checkpoint)
    t = time.time()
    exs = {e: get_extractor(e, ckpt.get(e)) for e in args.engines.split(",") if e}
    res = hard_rows(rows, exs)
    res["silver"] = args.silver
    res["checkpoints"] = {e: ckpt.get(e, "shipped") for e in exs}
    Path(args.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print({"read": len(rows), "hard": len(res["rows"]), "by_engine": res["by_engine"], "s": round(time.time() - t)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
