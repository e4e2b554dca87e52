"""``airspace-store``: the live airspace picture from the command line.

    airspace-store [--store URL] ingest FILE... [--engine E] [--operator NAME]
    airspace-store [--store URL] active --at T [--until T2] [--bbox W,S,E,N] [--format jsonl|geojson|ed269|ed318|kml]
    airspace-store [--store URL] history ID
    airspace-store [--store URL] watch FOLDER [--interval S] [--once]

The store is ``--store`` (``sqlite:///path`` or ``postgresql://…``), else ``$AIRSPACE_STORE``, else
``$XDG_DATA_HOME/clover-airspace/zones.sqlite``. Files may be text, JSONL (a ``text`` field), FAA NOTAM API
responses (GeoJSON) or AIXM 5.1 Digital NOTAM event files. Exit status: 0 done; 1 some input could not be read or
some records are ``review``/``error`` (stored all the same); 2 usage error (bad option, bad URL, unknown ID).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone

from airspace.pipeline.engines import DEFAULT_ENGINE, ENGINES
from airspace.store.url import ENV, default_url, open_store

FORMATS = ("jsonl", "geojson", "ed269", "ed318", "kml")


class UsageError(Exception):
    pass


def _time(s: str, flag: str) -> datetime:
    try:
        t = datetime.fromisoformat(s.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise UsageError(f"{flag}: not an ISO time: {s!r} (e.g. 2026-11-30T01:00:00Z)") from exc
    return t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)


def _bbox(s: str) -> tuple[float, float, float, float]:
    try:
        w, so, e, n = (float(x) for x in s.split(","))
    except ValueError as exc:
        raise UsageError(f"--bbox: four numbers W,S,E,N expected, got {s!r}") from exc
    if not (-180 <= w <= 180 and -180 <= e <= 180 and -90 <= so <= n <= 90):
        raise UsageError(f"--bbox: out of range or south above north: {s!r}")
    return w, so, e, n


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="airspace-store", description="The live airspace picture: every zone kept "
                                 "until it is cancelled, replaced or ends.",
                                 epilog=f"store: --store URL, else ${ENV}, else {default_url()}")
    ap.add_argument("--store", metavar="URL", help=f"sqlite:///path or postgresql://… (default ${ENV} or a file "
                                                   "under the user's data directory)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ing = sub.add_parser("ingest", help="read files and apply them to the store")
    ing.add_argument("files", nargs="+", metavar="FILE")
    ing.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE)
    ing.add_argument("--operator", help="who is ingesting (kept in the history)")
    act = sub.add_parser("active", help="the zones in force at a time")
    act.add_argument("--at", required=True, metavar="ISO_TIME")
    act.add_argument("--until", metavar="ISO_TIME", help="zones in force at some time in [at, until)")
    act.add_argument("--bbox", metavar="W,S,E,N")
    act.add_argument("--format", choices=FORMATS, default="jsonl")
    his = sub.add_parser("history", help="every change of a notice, with its cause")
    his.add_argument("id", metavar="ID", help="a NOTAM number (A1234/26, any issuer) or a store key")
    wat = sub.add_parser("watch", help="ingest every new or changed file of a folder (polling)")
    wat.add_argument("folder")
    wat.add_argument("--interval", type=float, default=5.0)
    wat.add_argument("--once", action="store_true", help="two polls (a file is taken once it stops changing)")
    wat.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE)
    wat.add_argument("--operator")
    return ap


def _export(fmt: str, zones, at: datetime) -> str:
    records = [z.record for z in zones]
    if fmt == "jsonl":
        return "".join(json.dumps(z.to_json(), ensure_ascii=False) + "\n" for z in zones)
    if fmt == "kml":
        from airspace.geo.kml import to_kml

        return to_kml(records)
    from airspace.geo.export import to_ed269, to_ed318, to_geojson

    doc = {"geojson": lambda: to_geojson(records, at=at), "ed269": lambda: to_ed269(records),
           "ed318": lambda: to_ed318(records)}[fmt]()
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def run(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        store = open_store(args.store)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - a server that is down, a path that is a folder: one line, no traceback
        raise UsageError(f"cannot open the store {args.store or default_url()}: "
                         f"{' '.join(str(exc).split())[:300]}") from exc
    try:
        if args.cmd == "ingest":
            from airspace.store.ingest import ingest_files

            applied, records, problems = ingest_files(store, args.files, engine=args.engine, operator=args.operator)
            store.expire()
            for p in problems:
                print(f"airspace-store: {p}", file=sys.stderr)
            ev = {}
            for e in applied.events:
                ev[e.event] = ev.get(e.event, 0) + 1
            print(json.dumps({"store": store.url, "messages": applied.messages, "written": applied.written,
                              "duplicates": applied.duplicates, "ignored": applied.ignored, "events": ev,
                              "review": sum(r.status == "review" for r in records),
                              "error": sum(r.status == "error" for r in records)}), file=out)
            return 1 if problems or any(r.status != "ok" for r in records) else 0
        if args.cmd == "active":
            at = _time(args.at, "--at")
            until = _time(args.until, "--until") if args.until else None
            zones = store.picture(at, until=until, bbox=_bbox(args.bbox) if args.bbox else None)
            out.write(_export(args.format, zones, at))
            return 0
        if args.cmd == "history":
            rows = store.history(args.id)
            if not rows:
                raise UsageError(f"no notice {args.id!r} in the store")
            for r in rows:
                print(json.dumps(r, ensure_ascii=False), file=out)
            return 0
        if args.cmd == "watch":
            from airspace.store.ingest import Watcher

            w = Watcher(store, args.folder, engine=args.engine, operator=args.operator)
            if args.once:
                w.poll()
                for name, applied, problems in w.poll():
                    print(json.dumps({"file": name, "written": applied.written, "duplicates": applied.duplicates,
                                      "problems": problems}), file=out)
                return 0
            w.run(args.interval)
        return 0
    finally:
        store.close()


def main(argv: list[str] | None = None) -> None:
    try:
        code = run(argv)
    except UsageError as exc:
        print(f"airspace-store: {exc}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
