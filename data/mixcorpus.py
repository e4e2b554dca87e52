"""A frozen training corpus that mixes silver real rows (``airspace.data.silver``) with generated rows.

Real rows teach the forms real traffic writes; generated rows keep the families real traffic lacks (Chinese
notices, dispatcher free text, TFR pages) and the held-out generalisation. Silver rows are cycled (each pass in a
new seeded order) to make up ``--real-frac`` of the train rows; the order of all rows is shuffled with the seed.

    python -m airspace.data.mixcorpus --silver runs/silver --n-train 24000 --real-frac 0.37 --seed 7 --out runs/corpus8
    python -m airspace.data.mixcorpus ... --form-weight name=4,point=3,multi=3   # rare real forms more often
    python -m airspace.data.mixcorpus ... --layout-frac 0.5   # half the silver rows as another feed lays them out
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path

from airspace.data.corpus import generate


def _read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


FORMS = ("polygon", "circle", "point", "name", "none", "multi", "qline")


def _q_item(text: str) -> tuple[int, int] | None:
    """Where the Q) item runs in an ICAO NOTAM (up to its A) item), or None."""
    q = text.find("Q)")
    if q < 0:
        return None
    a = text.find("A)", q)
    return q, a if a > 0 else len(text)


def zone_forms(row: dict) -> set[str]:
    """The forms of a silver row's zones, from its spans: ``polygon``, ``circle`` (a centre and a radius),
    ``point`` (a centre without one), ``name`` (a named place or FIR, no coordinates); ``none`` for no zone; and
    ``multi`` besides when the row has two or more zones (numbered areas, one polygon a day, a list of FIRs: 8 % of
    the silver rows, and where the model engines stop a zone early); ``qline`` besides when a limit is read from the
    Q-line (a notice without F)/G), 2 % of the silver rows, whose ``000``/``999`` the model engines leave out)."""
    zones = row.get("spans") or []
    forms = {"multi"} if len(zones) >= 2 else set()
    q = _q_item(row.get("text") or "")
    for z in zones:
        if q and any(k in z and q[0] <= z[k][0] < q[1] for k in ("lower", "upper")):
            forms.add("qline")
        if "polygon" in z:
            forms.add("polygon")
        elif "center" in z:
            forms.add("circle" if "radius" in z else "point")
        elif "name" in z:
            forms.add("name")
    return forms or {"none"}


def row_weight(row: dict, form_weight: dict[str, int]) -> int:
    """How many times a pass a silver row comes: the largest weight of its zones' forms."""
    return max([form_weight.get(f, 1) for f in zone_forms(row)])


def mix(silver: list[dict], n: int, real_frac: float, seed: int, split: str,
        form_weight: dict[str, int] | None = None, layouts: dict[str, list[dict]] | None = None,
        layout_frac: float = 0.0) -> list[dict]:
    """``n`` rows: ``real_frac`` of them silver rows, cycled (each pass in a new seeded order; a row whose zones have
    a form in ``form_weight`` comes that many times a pass: the rare forms of real traffic, a whole FIR or a point,
    are a few percent of the silver rows), the rest generated.
    Each silver row drawn is, with probability ``layout_frac``, one of its layout variants from ``layouts`` (by id;
    ``airspace.data.layout``) instead: the same notice as another feed lays it out."""
    rng = random.Random(seed)
    n_real = round(n * real_frac) if silver else 0
    weight = form_weight or {}
    one_pass = [r for r in silver for _ in range(row_weight(r, weight))]
    real: list[dict] = []
    while len(real) < n_real:
        batch = list(one_pass)
        rng.shuffle(batch)
        real.extend(batch[: n_real - len(real)])
    if layouts and layout_frac > 0:
        real = [rng.choice(layouts[r["id"]]) if r.get("id") in layouts and rng.random() < layout_frac else r
                for r in real]
    gen = list(generate(n - n_real, seed=seed, split=split))
    rows = real + gen
    rng.shuffle(rows)
    return rows


def _weights(text: str) -> dict[str, int]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        form, _, k = part.partition("=")
        if form not in FORMS or not k.isdigit() or int(k) < 1:
            raise argparse.ArgumentTypeError(f"not a form weight: {part!r} (e.g. name=4)")
        out[form] = int(k)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--silver", required=True, help="directory with train.jsonl / val.jsonl of silver rows")
    ap.add_argument("--n-train", type=int, default=24000)
    ap.add_argument("--n-val", type=int, default=400)
    ap.add_argument("--real-frac", type=float, default=0.37)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--form-weight", default="", type=_weights,
                    help="train silver rows with a zone of these forms come k times a pass: 'name=4,point=3' "
                         f"(forms: {', '.join(FORMS)})")
    ap.add_argument("--layout-frac", type=float, default=0.0,
                    help="share of train silver rows drawn as a layout variant (the silver dir's train_layout.jsonl, "
                         "airspace.data.silver --layout-variants)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    layouts: dict[str, list[dict]] = {}
    if args.layout_frac > 0:
        for r in _read(Path(args.silver) / "train_layout.jsonl"):
            layouts.setdefault(r["id"], []).append(r)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    info = {"seed": args.seed, "real_frac": args.real_frac, "silver": args.silver, "form_weight": args.form_weight,
            "layout_frac": args.layout_frac or None, "layout_rows": sum(map(len, layouts.values())) or None,
            "generator_commit": subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                               cwd=Path(__file__).resolve().parents[1]).stdout.strip()}
    for split, n in (("train", args.n_train), ("val", args.n_val)):
        silver = _read(Path(args.silver) / f"{split}.jsonl")
        rows = mix(silver, n, args.real_frac if split == "train" else 0.5, args.seed + (split == "val"), split,
                   args.form_weight if split == "train" else None, layouts if split == "train" else None,
                   args.layout_frac)
        with open(out / f"{split}.jsonl", "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        info[split] = {"rows": len(rows), "silver_rows": sum(str(r.get("source", "")).startswith("silver:") for r in rows),
                       "distinct_silver": len(silver)}
    (out / "snapshot.json").write_text(json.dumps(info, indent=1) + "\n")
    print(info)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
