"""What the layers under the zones cost the server per page render: ``build_deck`` on a batch's volumes (the demo20
sample by default, read by the rules engine) with the tile basemap off and on, the deck's JSON size, and the time
of the roads/urban clip (``context_layers.context_for``) where this checkout has those files. Median of N builds,
caches warm (as on a rerun), the first (cold) build reported apart. A benchmark (writes JSON), not a test.

    python -m airspace.app.bench_map_context --runs 20 --out docs/results/map-context-cpu-DATE.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _time(fn, runs: int) -> dict:
    t0 = time.perf_counter()
    out = fn()
    cold = time.perf_counter() - t0
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return {"cold_ms": round(cold * 1000, 2), "median_ms": round(statistics.median(times) * 1000, 2),
            "max_ms": round(max(times) * 1000, 2), "json_bytes": len(out.to_json()) if hasattr(out, "to_json") else None}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", default=str(REPO / "data" / "samples" / "demo20.txt"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    from airspace.app import basemap as B
    from airspace.app import context_layers as C
    from airspace.app import map_layers as L
    from airspace.app import map_view as V
    from airspace.app import tile_basemap as TB
    from airspace.geo.volumes import volumes_from_records
    from airspace.pipeline.batch import process_batch

    recs, _ = process_batch(Path(args.batch).read_text(encoding="utf-8"), "rules")
    vols = volumes_from_records(recs)
    bounds = V.bounds_of(vols)
    basemap = B.basemap_for(bounds)
    view = V.fit_view(bounds)
    result = {"what": "server-side cost of the map's layers under the zones per page render (build_deck, warm caches)",
              "batch": Path(args.batch).name, "volumes": len(vols), "view_zoom": view.zoom, "runs": args.runs,
              "machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
              "context_files": {n: (B.BASEMAP_DIR / n).is_file() for n in (C.ROADS_FILE, C.URBAN_FILE)}}
    saved = os.environ.pop(TB.TILE_URL_ENV, None)
    try:
        result["build_deck_tiles_off"] = _time(lambda: L.build_deck(vols, None, basemap=basemap, view=view), args.runs)
        os.environ[TB.TILE_URL_ENV] = "http://127.0.0.1:8080/{z}/{x}/{y}.png"
        result["build_deck_tiles_on"] = _time(lambda: L.build_deck(vols, None, basemap=basemap, view=view), args.runs)
        coarse, sharp = TB.tiles_for_view(view.longitude, view.latitude, view.zoom, view.pitch)
        result["tiles_on_layers"] = len(coarse) + len(sharp)
    finally:
        os.environ.pop(TB.TILE_URL_ENV, None)
        if saved is not None:
            os.environ[TB.TILE_URL_ENV] = saved
    ctx = C.context_for(basemap, float(view.zoom))
    result["context_layers"] = {k: len(v["features"]) for k, v in ctx.items()}
    print(json.dumps(result, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps({**result, "date": date.today().isoformat()}, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
