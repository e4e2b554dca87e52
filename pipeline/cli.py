"""``airspace-parse``: air-traffic messages in, validated zone records (or GeoJSON / ED-269 / ED-318) out.

Exit status: 0 every message gave ``ok`` records; 1 some records are ``review`` or ``error`` (they are still in the
output); 2 usage or I/O error (bad option, unreadable input, unwritable or closed output, input over the size
limit); 3 an internal failure (a bug: one line on stderr, never a traceback); 130 interrupted (Ctrl-C, SIGINT). A
reader that goes away (``| head``) ends the run quietly with 0. Diagnostics go to stderr; an input without any
message says so there.

Input files are UTF-8 (a byte-order mark is dropped) or UTF-16 with its byte-order mark. In the table every
control character of a message (ESC, BEL, OSC sequences, C1 controls) is shown as its escape (``\x1b``), never
passed to the terminal.

In the table, messages and zones are numbered from 1 (as a person counts them); the JSON fields ``message`` and
``zone`` are 0-based indices.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from dataclasses import replace
from datetime import date, datetime, timezone
from typing import TextIO

from airspace.core.records import ZoneRecord, iso_utc
from airspace.parser.textnorm import shown
from airspace.pipeline.engines import DEFAULT_ENGINE, ENGINES
from airspace.pipeline.split import LIMITS, MAX_BATCH_BYTES, BatchTooLarge, read_jsonl, split_batch

FORMATS = ("table", "jsonl", "geojson", "ed269", "ed318")


EXIT_OK, EXIT_REVIEW, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    pass


class WriteError(Exception):
    """The output could not be written (a full disk, a closed pipe, a read-only file)."""


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="airspace-parse",
        description="Parse NOTAMs / TFRs / notices into validated 3D no-fly zone records.",
        epilog=(
            "limits: "
            + ", ".join(f"{k}={v}" for k, v in LIMITS.items())
            + ". Exit 0 all ok, 1 some review/error records, 2 usage or I/O error (bad option, unreadable input, "
            "unwritable or closed output, input over the size limit), 3 internal failure (a bug; one line on stderr), "
            "130 interrupted (Ctrl-C). "
            "The table numbers messages and zones from 1; the JSON fields 'message' and 'zone' are 0-based indices."
        ),
    )
    ap.add_argument("files", nargs="*", metavar="FILE", help="input files; '-' or nothing reads stdin")
    ap.add_argument("--input", choices=("text", "jsonl"), default="text", help="pasted text (default) or JSONL with a 'text' field (and optionally 'id', "
                         "'received')")
    ap.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                    help="clover (the block-diffusion model, default), ar (its autoregressive baseline) or rules "
                         "(the deterministic reader); a model engine's records are cross-checked against the rules")
    ap.add_argument("--checkpoint", metavar="DIR", help="model checkpoint directory (clover/ar)")
    ap.add_argument("--format", choices=FORMATS, default="table")
    ap.add_argument("--at", metavar="ISO_TIME", help="mark which zones are active at this UTC time")
    ap.add_argument("--received", metavar="DATE",
                    help="the day the messages were received (YYYY-MM-DD): a date of prose that writes no year, in a "
                         "text that dates itself nowhere, takes the year nearest this day, for review (a JSONL "
                         "line's own 'received' comes first)")
    ap.add_argument("--no-cross-check", action="store_true",
                    help="model engines: skip the rules cross-check (and the zones and empty fields only the rules "
                         "reader read, which it adds for review)")
    ap.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="read on a Ray cluster's actor pool (a local one without ADDRESS); same records")
    ap.add_argument("--ray-workers", type=int, default=None, metavar="N",
                    help="with --ray: engine actors (default: the cores this process may use)")
    return ap


def _parse_received(value: str | None) -> date | None:
    """``--received``: a calendar day; ``UsageError`` otherwise."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError as exc:
        raise UsageError(f"--received {value!r} is not a date (YYYY-MM-DD)") from exc


def _read_inputs(files: list[str]) -> tuple[str, int]:
    """The input text (files joined by a blank line) and its size in bytes as given, before decoding."""
    chunks: list[bytes] = []
    total = 0
    for f in files or ["-"]:
        if f == "-":
            if sys.stdin is None or (not files and sys.stdin.isatty()):
                raise UsageError("no input: give FILE arguments, '-', or pipe text on stdin")
            data = sys.stdin.buffer.read(MAX_BATCH_BYTES + 1)
        else:
            try:
                with open(f, "rb") as fh:
                    data = fh.read(MAX_BATCH_BYTES + 1)
            except OSError as exc:
                raise UsageError(f"cannot read {f}: {exc.strerror or exc}") from exc
        total += len(data)
        if total > MAX_BATCH_BYTES:
            raise BatchTooLarge(f"input is over the limit of {MAX_BATCH_BYTES} bytes; split it into smaller batches")
        chunks.append(data)
    return "\n\n".join(decode_input(c) for c in chunks), total


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode_input(data: bytes) -> str:
    """Bytes of one input -> text: UTF-16 when it starts with a UTF-16 byte-order mark, else UTF-8 with a leading
    byte-order mark dropped (an editor's, which would otherwise be part of the first message or JSONL line);
    undecodable bytes become U+FFFD, which the readers treat as damage."""
    if data.startswith(_UTF16_BOMS) and not data.startswith(b"\xff\xfe\x00\x00"):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def _parse_at(s: str | None) -> datetime | None:
    if s is None:
        return None
    try:
        t = datetime.fromisoformat(s.strip().replace("Z", "+00:00"))
        return t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)
    except ValueError as exc:
        raise UsageError(f"--at: not an ISO time: {s!r} (e.g. 2026-03-07T12:00:00Z)") from exc
    except OverflowError as exc:  # 9999-12-31T23:59:59-23:59 is past the last representable UTC time
        raise UsageError(f"--at: {s!r} is outside the representable range of UTC times") from exc


def is_active(rec: ZoneRecord, t: datetime) -> bool:
    """Same rule as ``geo.volumes.Volume.active_at``: inside a window; else within [start, end); never once a NOTAM
    of the batch replaced or cancelled it."""
    def utc(x: datetime) -> datetime:
        return x.replace(tzinfo=timezone.utc) if x.tzinfo is None else x

    if rec.replaced_by or rec.cancelled_by:
        return False  # a later NOTAM of the batch replaced or cancelled it
    if rec.windows:
        return any(utc(w.start) <= t < utc(w.end) for w in rec.windows)
    if rec.start is not None and t < utc(rec.start):
        return False
    if rec.end is not None and t >= utc(rec.end):
        return False
    return rec.geometry is not None


_LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _dumps(obj) -> str:
    """Compact JSON on one line, UTF-8 kept readable; the Unicode line breaks that JSON allows raw are escaped so
    that every line-splitting reader sees exactly one object per line."""
    s = json.dumps(obj, ensure_ascii=False)
    for ch, esc in _LINE_BREAKS.items():
        if ch in s:
            s = s.replace(ch, esc)
    return s


def _geom_summary(rec: ZoneRecord) -> str:
    g = rec.geometry
    if g is None:
        return "-"
    if g.type == "circle":
        s = f"circle {g.center[0]:.5f},{g.center[1]:.5f} r={g.radius_m:.0f}m"
        return s + (" ~" if g.approximate else "")
    if g.type == "polygon":
        return f"polygon {len(g.points)}pts {g.points[0][0]:.4f},{g.points[0][1]:.4f}.."
    return f"named {g.name!r}"


def _lim(lim) -> str:
    if lim is None:
        return "?"
    if lim.ref == "UNL":
        return "UNL"
    if lim.ref in ("SFC", "GND"):
        return lim.ref
    if lim.ref == "FL":
        return f"FL{lim.ft / 100:03.0f}"
    return f"{lim.ft:.0f}ft {lim.ref}"


def _table(records: list[ZoneRecord], at: datetime | None, out: TextIO) -> None:
    head = ["msg", "zone", "id", "status", "geometry", "lower-upper", "start-end"]
    if at is not None:
        head.append("active")
    head.append("reasons")
    out.write("\t".join(head) + "\n")
    for r in records:
        row = [
            str(r.message + 1),  # people count from 1; the JSON fields stay 0-based indices
            str(r.zone + 1),
            r.id or "-",
            r.status,
            _geom_summary(r),
            f"{_lim(r.lower)}-{_lim(r.upper)}" if (r.lower or r.upper) else "-",
            f"{iso_utc(r.start) or '?'}-{iso_utc(r.end) or ('PERM' if r.permanent else '?')}"
            + ("(EST)" if r.end_estimated else ""),
        ]
        if at is not None:
            row.append("yes" if is_active(r, at) else "no")
        row.append("; ".join(r.reasons) or "-")
        # text from a message is data: its control characters (ESC, OSC, BEL, C1) are shown escaped, never sent to the
        # terminal; a tab or line break would break the row
        out.write("\t".join(shown(x) for x in row) + "\n")


def _export(fmt: str, records: list[ZoneRecord], at: datetime | None) -> dict:
    try:
        from airspace.geo import export
    except ImportError as exc:
        raise UsageError(f"--format {fmt} needs airspace.geo.export, which is not available ({exc})") from exc
    if fmt == "geojson":
        return export.to_geojson(records, at=at)
    if fmt == "ed269":
        return export.to_ed269(records)
    return export.to_ed318(records)


def _write(args, records: list[ZoneRecord], at: datetime | None, out: TextIO) -> int | None:
    """Write the output; -> how many zones an export wrote (None for the table and JSONL: every record)."""
    if args.format == "table":
        _table(records, at, out)
    elif args.format == "jsonl":
        for r in records:
            obj = r.to_json()
            if at is not None:
                obj["active"] = is_active(r, at)
            out.write(_dumps(obj) + "\n")
    else:
        doc = _export(args.format, records, at)
        out.write(_dumps(doc) + "\n")
        feats = doc.get("features") or []
        if args.format == "geojson":
            return sum(1 for f in feats if f.get("geometry") is not None)
        return len(feats)
    return None


def _open_output(path: str | None) -> TextIO:
    """The output stream: UTF-8 always (whatever the locale); a character UTF-8 cannot hold (an unpaired surrogate,
    which the readers never let into a record) is written as its ``\\uXXXX`` escape, still valid JSON."""
    if path is None:
        if sys.stdout is None:  # started with its standard output closed (">&-")
            raise WriteError("standard output is closed; give -o FILE or an open standard output")
        return io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="backslashreplace", newline="\n",
                                write_through=False) if hasattr(sys.stdout, "buffer") else sys.stdout
    try:
        return open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n")
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from exc


def run(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)  # exits 2 on usage errors
    err = sys.stderr
    try:
        at = _parse_at(args.at)
        received = _parse_received(args.received)
        text, size = _read_inputs(args.files)
        reader = read_jsonl if args.input == "jsonl" else split_batch
        messages = reader(text, input_bytes=size)
        if received is not None:  # (on the messages themselves, so that a Ray pool's shards carry it too)
            messages = [m if m.received else replace(m, received=received) for m in messages]
    except (BatchTooLarge, UsageError) as exc:
        print(f"airspace-parse: error: {exc}", file=err)
        return EXIT_USAGE

    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.engines import EngineUnavailable, get_extractor

    try:
        extractor = get_extractor(args.engine, args.checkpoint)
    except (EngineUnavailable, ValueError) as exc:
        print(f"airspace-parse: error: {exc}", file=err)
        return EXIT_USAGE
    if args.ray is None:
        records, stats = process_batch(messages, extractor, cross_check=not args.no_cross_check)
    else:
        from airspace.pipeline.ray_batch import RayUnavailable, read_with_ray

        try:
            records, stats = read_with_ray(messages, args.engine, checkpoint=args.checkpoint,
                                           cross_check=not args.no_cross_check, address=args.ray or None,
                                           workers=args.ray_workers)
        except RayUnavailable as exc:
            print(f"airspace-parse: error: {exc}", file=err)
            return EXIT_USAGE

    name = args.output or "standard output"
    try:
        out = _open_output(args.output)
        try:
            written = _write(args, records, at, out)
            out.flush()
        finally:
            try:
                if args.output:
                    out.close()
                elif out is not sys.stdout:
                    out.detach()  # (sys.stdout's own buffer stays open)
            except (OSError, ValueError):
                pass
    except UsageError as exc:
        print(f"airspace-parse: error: {exc}", file=err)
        return EXIT_USAGE
    except WriteError as exc:
        print(f"airspace-parse: error: {exc}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:
        raise
    except OSError as exc:
        print(f"airspace-parse: error: cannot write {name}: {exc.strerror or exc}", file=err)
        if not args.output:
            _quiet_stdout()  # what is still buffered for stdout must not fail again at exit
        return EXIT_USAGE

    n_msg = len({r.message for r in records})
    if not messages:
        print("airspace-parse: no messages: the input is empty or blank", file=err)
    counts = {s: sum(r.status == s for r in records) for s in ("ok", "review", "error")}
    shapes = "" if written is None else f"; {written} zone{'s' if written != 1 else ''} written as {args.format}"
    print(
        f"airspace-parse: {n_msg} messages -> {len(records)} records "
        f"({counts['ok']} ok, {counts['review']} review, {counts['error']} error){shapes}; engine {stats.engine}, "
        f"{stats.wall_s:.3f}s",
        file=err,
    )
    return EXIT_OK if counts["review"] == 0 and counts["error"] == 0 else EXIT_REVIEW


def _quiet_stdout() -> None:
    """After a failed write to stdout, point it at /dev/null so that the interpreter's own flush at exit cannot
    fail again (and print a traceback of its own)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> None:
    try:
        code = run(argv)
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # the reader went away (| head): not an error of ours
        _quiet_stdout()
        code = EXIT_OK
    except Exception as exc:  # noqa: BLE001 - last resort: a one-line diagnostic, never a traceback
        print(f"airspace-parse: internal error (a bug, please report it): {type(exc).__name__}: {exc}"[:500],
              file=sys.stderr)
        code = EXIT_INTERNAL
    sys.exit(code)


if __name__ == "__main__":
    main()
