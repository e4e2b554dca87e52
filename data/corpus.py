"""The seeded training corpus: realistic airspace messages with gold answers (verbatim spans) and gold records.

Python API::

    from airspace.data.corpus import generate
    for row in generate(1000, seed=0, split="train"): ...

CLI::

    python -m airspace.data.corpus --n 200000 --seed 0 --out runs/corpus [--stats] [--workers 2]

writes ``train.jsonl`` (N rows), ``val.jsonl`` (same template families, other rows), ``test.jsonl`` (family-held-out:
template variants never used in train/val) and ``stats.json``. Each row::

    {"id", "family", "template", "lang", "split", "text", "answer", "zones", "noise", "long"}

``answer`` is ``airspace.core.answer.format_answer`` of the zone field values, each a verbatim substring of
``text``; ``zones`` are the gold normalised zone dicts computed from the sampled values (never by parsing):
``{"geometry": circle|polygon|named, "lower"/"upper": {"ref","ft"}|null, "start"/"end": ISO UTC|null,
"schedule": str|null, "end_estimated": bool, "permanent": bool}``. ``noise`` lists the noise applied
(``collapsed``, ``trailing_blanks``, ``traditional``); ``long`` marks texts over ``LONG_CHARS``.

Conventions of the gold (shared with the normalisers, checked by ``tests/test_data_corpus.py``):

- which span is the answer: item-E geometry over the Q-line circle (the Q-line circle only when E has none);
  F)/G) limits over limits restated in E; one zone per PSN/area of a composite message, shared values (a common
  radius, B/C times) repeated in every zone; a named venue without coordinates -> ``name`` (+ ``radius``);
  NOTAMC and aerodrome/procedure notices -> ``NONE``.
- a bare ``3000FT`` (FAA ``SFC-3000FT``) is AMSL; ``真高`` is AGL; metres are converted with 0.3048 m/ft; a
  Chinese time is Beijing time (UTC+8), a bare end hour (``18时``, ``24时``) takes the start's date.
- a polygon is an open ring (a repeated first point or ``BACK TO START`` closes it); arcs are densified in equal
  azimuth steps of at most 3 degrees at the stated radius (``values.arc_vertices``).

Splits are by template: ``airspace.data.gen.HELD_OUT`` names the template variants only the test split uses. Rows
whose text shares a 40-character window with a real message (``data/real/dev.jsonl``, or
``AIRSPACE_CORPUS_EXCLUDE``) are re-drawn, so no split carries real text.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from airspace.core.answer import FIELD_SEP, ZONE_SEP, format_answer
from airspace.data import gen
from airspace.data.gen import noise
from airspace.data.paths import dev_set_path

SPLITS = ("train", "val", "test")
_SPLIT_CODE = {"train": 1, "val": 2, "test": 3}
LONG_CHARS = 600


class CorpusError(RuntimeError):
    """A generated row broke the contract (a value not verbatim in its text); a bug in a family module."""


EXCLUDE_WINDOW = 40
_EXCLUDE: tuple[frozenset, frozenset] | None = None


def _squash(t: str) -> str:
    return re.sub(r"\s+", " ", t)


def _windows(t: str, k: int = EXCLUDE_WINDOW) -> set[str]:
    return {t[i:i + k] for i in range(0, max(0, len(t) - k + 1))}


def find_real_messages() -> Path | None:
    """The real development messages (``data/real/dev.jsonl``).

    ``AIRSPACE_CORPUS_EXCLUDE`` names another JSONL file (``text`` field), or ``none`` to disable."""
    env = os.environ.get("AIRSPACE_CORPUS_EXCLUDE")
    if env:
        return None if env.lower() == "none" else Path(env)
    return dev_set_path()


_HALF = EXCLUDE_WINDOW // 2


def exclusion_sets() -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """Every 40-character window of the real messages, verbatim and whitespace-squashed (and every 20-character
    window, a cheap pre-filter). A generated row that contains one is re-drawn, so no split can carry text of a
    real message even where templates are formulaic."""
    global _EXCLUDE
    if _EXCLUDE is None:
        exact, squashed, h_exact, h_squashed = set(), set(), set(), set()
        path = find_real_messages()
        if path is not None and path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    t = json.loads(line).get("text", "")
                    exact |= _windows(t)
                    squashed |= _windows(_squash(t))
                    h_exact |= _windows(t, _HALF)
                    h_squashed |= _windows(_squash(t), _HALF)
        _EXCLUDE = (frozenset(exact), frozenset(squashed), frozenset(h_exact), frozenset(h_squashed))
    return _EXCLUDE


def _may_contain(text: str, halves: frozenset) -> bool:
    """A 40-window of ``text`` can only be a real window if the 20-gram at the multiple of 20 inside it is a
    20-gram of a real message (every 40-window contains one aligned 20-gram): a necessary condition, cheap."""
    return any(text[p:p + _HALF] in halves for p in range(0, len(text) - _HALF + 1, _HALF))


def leaks_real_text(text: str) -> bool:
    exact, squashed, h_exact, h_squashed = exclusion_sets()
    if not exact:
        return False
    if _may_contain(text, h_exact) and not _windows(text).isdisjoint(exact):
        return True
    sq = _squash(text)
    return _may_contain(sq, h_squashed) and not _windows(sq).isdisjoint(squashed)


def _row_rng(seed: int, split: str, i: int) -> random.Random:
    return random.Random((seed * 10 + _SPLIT_CODE[split]) * 1_000_000_007 + i)


_POOLS: dict[str, tuple[list, list[float]]] = {}


def _pool(split: str):
    if split not in _POOLS:
        p = gen.pool(split)
        cum, acc = [], 0.0
        for _, _, w in p:
            acc += w
            cum.append(acc)
        _POOLS[split] = (p, cum)
    return _POOLS[split]


def make_row(seed: int, split: str, i: int) -> dict:
    """Row ``i`` of ``split`` for ``seed`` (independent of every other row: streaming and parallel safe)."""
    if split not in _SPLIT_CODE:
        raise ValueError(f"split must be one of {SPLITS}")
    rng = _row_rng(seed, split, i)
    p, cum = _pool(split)
    last_err = None
    for _attempt in range(16):
        fam, template, _ = p[bisect.bisect(cum, rng.random() * cum[-1])]
        ex = gen.MODULES[fam].generate(rng, template)
        doc, applied = noise.apply(ex.doc, rng, ex.lang, fam)
        text = doc.text()
        zones_v = doc.values(len(ex.gold))
        err = _check(text, zones_v) or _check_gold(ex.gold)
        if not err and leaks_real_text(text):
            err = "shares a 40-character window with a real message"
        if err:
            last_err = f"{fam}.{template}: {err}"
            continue
        gold = [dict(z) for z in ex.gold]
        for zv, g in zip(zones_v, gold):
            geo = g.get("geometry")
            if geo and geo.get("type") == "named":  # traditional-character noise renames the place verbatim
                g["geometry"] = dict(geo, name=zv["name"])
            if "traditional" in applied and g.get("schedule") is not None and "schedule" in zv:
                g["schedule"] = " ".join(zv["schedule"].split())  # a Chinese daily window converts too (每日8時至18時)
        return {
            "id": f"{split}-{seed}-{i:07d}",
            "family": fam,
            "template": f"{fam}.{template}",
            "lang": ex.lang,
            "split": split,
            "text": text,
            "answer": format_answer(zones_v),
            "zones": gold,
            "noise": applied,
            "long": len(text) > LONG_CHARS,
        }
    raise CorpusError(last_err)


def _check(text: str, zones_v: list[dict[str, str]]) -> str | None:
    if ZONE_SEP in text or FIELD_SEP in text:
        return "separator character in text"
    for z in zones_v:
        for k, v in z.items():
            if not v or v != v.strip() or v not in text:
                return f"field {k}={v!r} not a clean verbatim span"
    return None


def _check_gold(gold: list[dict]) -> str | None:
    for z in gold:
        g = z["geometry"]
        if g["type"] == "polygon":
            pts = [tuple(p) for p in g["points"]]
            if len(pts) < 3 or len(set(pts)) != len(pts):
                return "polygon vertices not distinct at the printed precision"
        if g["type"] == "circle" and not g["radius_m"] > 0:
            return "radius not positive"
    return None


def generate(n: int, seed: int = 0, split: str = "train", start: int = 0) -> Iterator[dict]:
    """Stream ``n`` rows of ``split`` (rows ``start`` .. ``start+n-1``; the same seed gives the same rows)."""
    for i in range(start, start + n):
        yield make_row(seed, split, i)


def _slim(row: dict) -> tuple:
    """What the statistics need of a row (so workers do not ship whole rows back beside their JSON)."""
    return (row["family"], row["template"], row["lang"], tuple(z["geometry"]["type"] for z in row["zones"]),
            tuple(row["noise"]), row["long"], len(row["answer"]), len(row["text"]))


def _chunk(args) -> tuple[str, list[tuple]]:
    """Rows a..b-1 as one JSONL string (cheap to ship back from a worker) and their slim statistics."""
    seed, split, a, b = args
    lines, slims = [], []
    for i in range(a, b):
        row = make_row(seed, split, i)
        lines.append(json.dumps(row, ensure_ascii=False))
        slims.append(_slim(row))
    return "\n".join(lines) + "\n", slims


def _stats_add(st: dict, slim: tuple) -> None:
    family, template, lang, geoms, noise_names, long_, la, lt = slim
    st["rows"] += 1
    st["family"][family] += 1
    st["template"][template] += 1
    st["lang"][lang] += 1
    st["lang_by_family"][f"{family}/{lang}"] += 1
    st["zones_per_message"][str(len(geoms))] += 1
    for name in noise_names:
        st["noise"][name] += 1
    st["long"] += int(long_)
    for g in geoms:
        st["geometry"][g] += 1
    st["answer_chars"].append(la)
    st["text_chars"].append(lt)


def _summ(xs: list[int]) -> dict:
    if not xs:
        return {}
    s = sorted(xs)
    return {"mean": round(sum(s) / len(s), 1), "p50": s[len(s) // 2], "p95": s[int(len(s) * 0.95)], "max": s[-1]}


def write_corpus(out: str, n: int, seed: int, val_n: int | None = None, test_n: int | None = None,
                 workers: int = 2, chunk: int = 2000) -> dict:
    """Write the three splits and ``stats.json`` under ``out``; return the stats."""
    os.makedirs(out, exist_ok=True)
    sizes = {"train": n, "val": val_n if val_n is not None else max(1, n // 20),
             "test": test_n if test_n is not None else max(1, n // 20)}
    stats: dict = {"seed": seed, "sizes": sizes, "splits": {}}
    t0 = time.time()
    pool = None
    if workers > 1:
        import multiprocessing as mp

        pool = mp.get_context("fork").Pool(workers)
    try:
        for split in SPLITS:
            st = {"rows": 0, "family": Counter(), "template": Counter(), "lang": Counter(), "lang_by_family": Counter(),
                  "zones_per_message": Counter(), "noise": Counter(), "geometry": Counter(), "long": 0,
                  "answer_chars": [], "text_chars": []}
            jobs = [(seed, split, a, min(a + chunk, sizes[split])) for a in range(0, sizes[split], chunk)]
            it = pool.imap(_chunk, jobs) if pool else map(_chunk, jobs)
            with open(os.path.join(out, f"{split}.jsonl"), "w", encoding="utf-8") as fh:
                for block, slims in it:
                    fh.write(block)
                    for slim in slims:
                        _stats_add(st, slim)
            st["answer_chars"] = _summ(st["answer_chars"])
            st["text_chars"] = _summ(st["text_chars"])
            stats["splits"][split] = {k: (dict(v) if isinstance(v, Counter) else v) for k, v in st.items()}
    finally:
        if pool:
            pool.close()
            pool.join()
    stats["seconds"] = round(time.time() - t0, 1)
    stats["held_out_templates"] = sorted(gen.HELD_OUT)
    with open(os.path.join(out, "stats.json"), "w", encoding="utf-8") as fh:
        json.dump(stats, fh, ensure_ascii=False, indent=1)
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m airspace.data.corpus", description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, required=True, help="training rows")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--val-n", type=int, default=None, help="validation rows (default n/20)")
    ap.add_argument("--test-n", type=int, default=None, help="family-held-out test rows (default n/20)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--stats", action="store_true", help="print the statistics")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be >= 1")
    if (a.val_n is not None and a.val_n < 0) or (a.test_n is not None and a.test_n < 0) or a.workers < 1:
        ap.error("--val-n/--test-n must be >= 0 and --workers >= 1")
    try:
        stats = write_corpus(a.out, a.n, a.seed, a.val_n, a.test_n, a.workers)
    except OSError as exc:
        print(f"corpus: error: cannot write {a.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if a.stats:
        try:
            json.dump(stats, sys.stdout, ensure_ascii=False, indent=1)
            print()
        except BrokenPipeError:  # `--stats | head`
            pass
    print(f"wrote {sum(stats['sizes'].values())} rows to {a.out} in {stats['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
