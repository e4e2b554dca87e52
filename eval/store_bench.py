"""``make bench`` (zone store): a generated year of world traffic through both store backends; one JSON object out.

The traffic is generated as records directly (no reader, no model): NOTAMs around the 7,884 airports with an IATA
code in the offline ``airportsdata`` table, busy ones far more often (Zipf), each a circle (0.5–10 NM) or a
polygon (4–8 points within ~20 km), 400–5,000 ft, one to a few zones, active from an hour to a month, one in five
with a daily schedule, 3 % with an estimated end; 15 % are later replaced by a NOTAMR (which may be replaced or
cancelled in turn), 8 % cancelled by a NOTAMC; messages arrive in batches of ``--batch`` in arrival order, shuffled
inside the batch, 1 % of NOTAMR/NOTAMC arriving before the notice they name (held, then applied). Numbers are per
issuer (a pseudo FIR per country), series A–Z, year 26.

Measured per backend: ingest rate (records/s over the whole run, planning and index upkeep included; also per
second of this process's processor time, which a busy shared machine does not dilute — for PostGIS the server's own
work is not in it), store size on
disk, p50/p95 of "zones active at T in a 100 km box" (``ZoneStore.picture``) over ``--queries`` random times and
boxes centred on busy airports, and of a 50-waypoint drone route check (``ZoneStore.route_conflicts``: 1–2 km legs,
20 m/s, 120 m AGL) over ``--routes`` random routes, each with its processor-time percentiles and the route check's
time by step (candidates, volumes, the geometry of ``geo.conflicts``). PostGIS runs on a throwaway local server
(``store.pgserver``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import tempfile
import time
from datetime import datetime, timedelta, timezone

import numpy as np

from airspace.core.records import CircleGeometry, Limit, PolygonGeometry, Window, ZoneRecord
from airspace.geo.conflicts import Route, Waypoint
from airspace.store.url import open_store

YEAR0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
YEAR_S = 365 * 86400.0


def _hotspots(rng: random.Random):
    import airportsdata

    ports = sorted((v for v in airportsdata.load().values() if v["iata"]), key=lambda v: v["icao"])
    rng.shuffle(ports)
    w = np.array([1.0 / (i + 1) ** 0.8 for i in range(len(ports))])
    return ports, w / w.sum()


def _fmt(t: datetime) -> str:
    return t.strftime("%y%m%d%H%M")


def plan_traffic(n_records: int, seed: int):
    """The year's messages as light tuples, in arrival order: (arrival, number, kind, ref, fir, zones spec)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    ports, weights = _hotspots(rng)
    counters: dict[str, int] = {}

    def number(fir: str) -> str:
        c = counters.get(fir, 0)
        counters[fir] = c + 1
        return f"{chr(65 + (c // 9999) % 26)}{c % 9999 + 1:04d}/26"

    def zones_for(port, k: int):
        zs = []
        for _ in range(k):
            lat = port["lat"] + nrng.normal(0, 0.15)
            lon = port["lon"] + nrng.normal(0, 0.15) / max(0.2, math.cos(math.radians(port["lat"])))
            lat = max(-85.0, min(85.0, lat))
            lon = (lon + 180.0) % 360.0 - 180.0
            upper = float(rng.choice((400, 500, 1000, 1500, 2000, 3000, 5000)))
            if rng.random() < 0.8:
                zs.append(("c", lat, lon, rng.uniform(0.5, 10) * 1852.0, upper))
            else:
                n = rng.randint(4, 8)
                ang = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
                r = rng.uniform(2, 20) / 111.0
                pts = [(lat + r * math.sin(a), lon + r * math.cos(a) / max(0.2, math.cos(math.radians(lat))))
                       for a in ang]
                zs.append(("p", pts, upper))
        return zs

    msgs = []
    n = 0
    idx = nrng.choice(len(ports), size=n_records, p=weights)
    i = 0
    while n < n_records:
        port = ports[int(idx[i % len(idx)])]
        i += 1
        fir = "".join(c if c.isalpha() else "X" for c in port["icao"][:2]) + "ZZ"
        start = YEAR0 + timedelta(seconds=rng.uniform(0, YEAR_S))
        dur = timedelta(hours=min(24 * 30, max(1.0, nrng.lognormal(math.log(8), 1.2))))
        end = start + dur
        sched = rng.random() < 0.2 and dur <= timedelta(days=14)
        est = rng.random() < 0.03
        zs = zones_for(port, 1 if rng.random() < 0.9 else rng.randint(2, 3))
        arrival = start - timedelta(hours=rng.uniform(0, 72))
        num = number(fir)
        msgs.append((arrival, num, "N", None, fir, zs, start, end, sched, est))
        n += len(zs)
        prev, t_prev = num, arrival
        while n < n_records:
            u = rng.random()
            if u < 0.15:  # replaced, perhaps with a changed zone
                t = t_prev + (end - t_prev) * rng.random()
                new = number(fir)
                zs2 = zs if rng.random() < 0.5 else zones_for(port, len(zs))
                late = rng.random() < 0.01
                msgs.append((t if not late else arrival - timedelta(hours=1), new, "R", prev, fir, zs2, start, end,
                             sched, est))
                n += len(zs2)
                prev, t_prev = new, t
            elif u < 0.23:
                t = t_prev + (end - t_prev) * rng.random()
                late = rng.random() < 0.01
                msgs.append((t if not late else arrival - timedelta(hours=1), number(fir), "C", prev, fir, [],
                             start, end, False, False))
                n += 1  # the cancellation record
                break
            else:
                break
    msgs.sort(key=lambda m: m[0])
    return msgs, ports, weights


def records_of(msg, index: int) -> list[ZoneRecord]:
    arrival, num, kind, ref, fir, zs, start, end, sched, est = msg
    head = f"{num} NOTAM{kind}" + (f" {ref}" if ref else "")
    text = (f"{head}\nQ) {fir}/QRTCA/IV/BO/W/000/050/\nA) {fir} B) {_fmt(start)} C) {_fmt(end)}"
            + ("EST" if est else "") + f"\nE) GENERATED TRAFFIC {num} {fir}")
    if kind == "C":
        return [ZoneRecord(message=index, id=num, notam_type="C", ref_id=ref, text=text, start=arrival)]
    windows = []
    if sched:
        d = start
        while d < end:
            windows.append(Window(start=d, end=min(end, d + timedelta(hours=4))))
            d += timedelta(days=1)
    out = []
    for z, spec in enumerate(zs):
        if spec[0] == "c":
            geom = CircleGeometry(center=(spec[1], spec[2]), radius_m=spec[3])
        else:
            geom = PolygonGeometry(points=spec[1])
        up = spec[-1]
        out.append(ZoneRecord(
            message=index, zone=z, id=num, notam_type=kind, ref_id=ref, status="review" if est else "ok",
            geometry=geom, lower=Limit(ref="SFC", ft=0.0, m=0.0, raw="SFC"),
            upper=Limit(ref="AMSL", ft=up, m=up * 0.3048, raw=f"{up:g}FT AMSL"), start=start, end=end,
            end_estimated=est, windows=windows, text=text))
    return out


def _pct(xs: list[float], cpu: list[float] | None = None) -> dict:
    a = np.array(xs) * 1000.0
    out = {"p50_ms": round(float(np.percentile(a, 50)), 2), "p95_ms": round(float(np.percentile(a, 95)), 2),
           "mean_ms": round(float(a.mean()), 2), "n": len(xs)}
    if cpu is not None:  # this process's processor time: what the query costs, whatever else the machine runs
        c = np.array(cpu) * 1000.0
        out.update(cpu_p50_ms=round(float(np.percentile(c, 50)), 2), cpu_p95_ms=round(float(np.percentile(c, 95)), 2))
    return out


def run_backend(url: str, msgs, ports, weights, *, batch: int, queries: int, routes: int, seed: int) -> dict:
    store = open_store(url)
    rng = random.Random(seed + 1)
    n_rec = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for b in range(0, len(msgs), batch):
        part = list(msgs[b : b + batch])
        rng.shuffle(part)
        recs = []
        for i, m in enumerate(part):
            recs.extend(records_of(m, i))
        n_rec += len(recs)
        store.ingest_records(recs, source="store_bench")
    ingest_s, ingest_cpu = time.perf_counter() - t0, time.process_time() - c0
    counts = store.counts()
    size = store.size_bytes()
    qrng = np.random.default_rng(seed + 2)
    box_t, box_c, box_hits = [], [], []
    for _ in range(queries):
        p = ports[int(qrng.choice(len(ports), p=weights))]
        at = YEAR0 + timedelta(seconds=float(qrng.uniform(0, YEAR_S)))
        dlat = 50.0 / 111.2
        dlon = dlat / max(0.05, math.cos(math.radians(p["lat"])))
        bb = (p["lon"] - dlon, max(-90.0, p["lat"] - dlat), p["lon"] + dlon, min(90.0, p["lat"] + dlat))
        if bb[0] < -180:
            bb = (bb[0] + 360, *bb[1:])
        if bb[2] > 180:
            bb = (bb[0], bb[1], bb[2] - 360, bb[3])
        t, c = time.perf_counter(), time.process_time()
        hits = store.picture(at, bbox=bb)
        box_t.append(time.perf_counter() - t)
        box_c.append(time.process_time() - c)
        box_hits.append(len(hits))
    route_t, route_c, route_hits, split = [], [], [], []
    for _ in range(routes):
        p = ports[int(qrng.choice(len(ports), p=weights))]
        lat, lon = p["lat"], p["lon"]
        wps = []
        heading = float(qrng.uniform(0, 2 * math.pi))
        for _ in range(50):
            wps.append(Waypoint(lat=lat, lon=lon, alt_m=120.0))
            heading += float(qrng.normal(0, 0.5))
            step = float(qrng.uniform(1000, 2000))
            lat += step * math.cos(heading) / 111_200.0
            lon += step * math.sin(heading) / (111_200.0 * max(0.05, math.cos(math.radians(lat))))
        dep = YEAR0 + timedelta(seconds=float(qrng.uniform(0, YEAR_S)))
        route = Route(waypoints=wps, departure=dep, speed_mps=20.0, alt_ref="AGL")
        t, c = time.perf_counter(), time.process_time()
        found = store.route_conflicts(route)
        route_t.append(time.perf_counter() - t)
        route_c.append(time.process_time() - c)
        split.append(store.last_route_timing)
        route_hits.append(len(found))
    store.close()
    share = {k[:-2] + "_ms": round(float(np.mean([d[k] for d in split])) * 1000.0, 2)
             for k in split[0] if k.endswith("_s")} if split else {}
    return {"records": n_rec, "messages": len(msgs), "ingest_s": round(ingest_s, 1),
            "ingest_records_per_s": round(n_rec / ingest_s, 1), "ingest_cpu_s": round(ingest_cpu, 1),
            "ingest_records_per_cpu_s": round(n_rec / max(ingest_cpu, 1e-9), 1),
            "size_bytes": size, "size_mib": round(size / 2**20, 1), "counts": counts,
            "box_100km_active_at_T": {**_pct(box_t, box_c), "zones_found_mean": round(float(np.mean(box_hits)), 2)},
            "route_50_waypoints": {**_pct(route_t, route_c), "conflicts_mean": round(float(np.mean(route_hits)), 2),
                                   "candidates_mean": round(float(np.mean([d["candidates"] for d in split])), 1),
                                   "mean_by_step": share}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.store_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--batch", type=int, default=2000, help="messages per ingested batch")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--routes", type=int, default=100)
    ap.add_argument("--backends", default="sqlite,postgis")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the JSON here (and print it)")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    msgs, ports, weights = plan_traffic(args.records, args.seed)
    out = {"bench": "store", "records_target": args.records, "messages": len(msgs),
           "generate_s": round(time.perf_counter() - t, 1),
           "kinds": {k: sum(1 for m in msgs if m[2] == k) for k in "NRC"},
           "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                       "load_average_at_start": list(os.getloadavg())}, "backends": {}}
    for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
        if name == "sqlite":
            with tempfile.TemporaryDirectory(prefix="store-bench-") as d:
                out["backends"]["sqlite"] = run_backend(f"sqlite:///{d}/zones.sqlite", msgs, ports, weights,
                                                        batch=args.batch, queries=args.queries, routes=args.routes,
                                                        seed=args.seed)
        elif name == "postgis":
            from airspace.store.pgserver import NoPostgis, PostgisServer

            try:
                with PostgisServer() as url:
                    out["backends"]["postgis"] = run_backend(url, msgs, ports, weights, batch=args.batch,
                                                             queries=args.queries, routes=args.routes, seed=args.seed)
            except NoPostgis as exc:
                out["backends"]["postgis"] = {"skipped": str(exc)}
        else:
            raise SystemExit(f"unknown backend {name!r} (sqlite, postgis)")
        print(json.dumps({name: out["backends"][name]}), flush=True)
    out["machine"]["load_average_at_end"] = list(os.getloadavg())  # a shared machine: what ran beside it
    text = json.dumps(out, indent=2)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as fh:
            fh.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
