"""Cold start to a usable page, in a real headless Chromium: a fresh ``streamlit run`` of a page script is started,
the browser opens it as soon as the server answers, and the clock stops when the page can be used (its Run button
and the map's canvas are on the screen). Median of N runs per script, the scripts alternated in one run so both see
the same machine. ``settled_s`` is later: the first moment after that from which the page's main thread has run no
long task (over 50 ms) for ``QUIET_MS`` (the map's first frames, whose WebGL shaders software rendering compiles on
the CPU, freeze the page for seconds; until then a click waits). A benchmark (writes JSON), not a test.

    python -m airspace.app.bench_cold_start --runs 5 --old-rev fe69c28 --out bench-results/cold-start.json

``--floor``: a page of nothing but a title, a Run button and a one-point deck.gl map is measured beside them: what
Streamlit and the browser cost before any page of ours, on this machine (the bar a page cannot go under).

``--old-rev``: the page of that commit is measured beside the current one, on that commit's own code: its code
folders are exported (``git archive``) to a temporary folder, and its server runs in a folder holding an
``airspace`` package made of them, which ``python -m`` puts first on the import path (``data/`` is this checkout's:
data, not code).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from airspace.app.serve import serve_page

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: the page's long tasks (their end, in ms of the page's clock), recorded from its first script on
LONG_TASKS_JS = ("window.__longTaskEnds = []; new PerformanceObserver(l => { for (const e of l.getEntries()) "
                 "window.__longTaskEnds.push(e.startTime + e.duration); }).observe({type: 'longtask', buffered: true});")
QUIET_MS = 1000


def settled(page, t0: float, usable: float, limit_s: float = 120.0) -> float:
    """Seconds (from ``t0``) at which the page's last long task before ``QUIET_MS`` of quiet ended."""
    while True:
        now_ms = page.evaluate("performance.now()")
        now = time.perf_counter() - t0
        last = max(page.evaluate("window.__longTaskEnds || []"), default=None)
        if last is None:
            return usable
        if now_ms - last >= QUIET_MS or now - usable > limit_s:
            return max(usable, round(now - (now_ms - last) / 1000, 3))
        time.sleep(0.2)


CODE_FOLDERS = ("airspace", "app", "core", "eval", "geo", "kernels", "model", "parser", "pipeline", "store")


def export_rev(rev: str, dest: Path) -> tuple[Path, Path]:
    """The page script of ``rev`` and the folder to run it from, where ``airspace`` is that commit's."""
    names = subprocess.run(["git", "ls-tree", "--name-only", rev], cwd=REPO, check=True, capture_output=True,
                           text=True).stdout.split()
    folders = [f for f in CODE_FOLDERS if f in names]
    tree, pkg = dest / "tree", dest / "pkg"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", rev, *folders], cwd=REPO, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    (tree / "data").symlink_to(REPO / "data")
    (pkg / "airspace").mkdir(parents=True)
    (pkg / "airspace" / "__init__.py").write_bytes((tree / "airspace" / "__init__.py").read_bytes())
    for f in folders:
        if f != "airspace":
            (pkg / "airspace" / f).symlink_to(tree / f)
    (pkg / "airspace" / "data").symlink_to(REPO / "data")
    return tree / "app" / "dashboard.py", pkg


def cold_start(script: Path, browser, viewport=(1400, 900), cwd: Path = REPO) -> dict:
    """Seconds from starting the server to the server's health answer, to a usable page, and to a settled one."""
    port = _port()
    t0 = time.perf_counter()
    with serve_page(script, port, poll_s=0.05, timeout_s=600, cwd=cwd) as url:
        health = time.perf_counter() - t0
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        page.add_init_script(LONG_TASKS_JS)
        page.goto(url)
        page.get_by_role("button", name="Run", exact=True).wait_for(state="visible", timeout=180_000)
        page.wait_for_selector("[data-testid=stDeckGlJsonChart] canvas", state="visible", timeout=180_000)
        usable = time.perf_counter() - t0
        quiet = settled(page, t0, usable)
        page.close()
        return {"health_s": round(health, 3), "usable_s": round(usable, 3), "settled_s": round(quiet, 3)}


#: the framework's floor: Streamlit's page, one button and a one-layer deck.gl map (no basemap, no data of ours)
FLOOR_PAGE = """import pydeck as pdk
import streamlit as st

st.title("Floor")
st.button("Run")
st.pydeck_chart(pdk.Deck(layers=[pdk.Layer("ScatterplotLayer", data=[{"p": [0, 0]}], get_position="p",
                                           get_radius=1000)], map_provider=None,
                         initial_view_state=pdk.ViewState(latitude=0, longitude=0, zoom=1)))
"""


def _scripts(args, tmp: Path) -> dict[str, tuple[Path, Path]]:
    """Name -> (page script, folder to serve it from): the current page, and those ``--old-rev``/``--floor`` ask."""
    scripts = {"current": (REPO / "app" / "dashboard.py", REPO)}
    if args.old_rev:
        (tmp / "old").mkdir()
        scripts[f"old ({args.old_rev})"] = export_rev(args.old_rev, tmp / "old")
    if args.floor:
        floor = tmp / "floor_page.py"
        floor.write_text(FLOOR_PAGE, encoding="utf-8")
        scripts["floor (one button, one-layer map)"] = (floor, REPO)
    return scripts


def _measure(scripts: dict[str, tuple[Path, Path]], runs: int) -> tuple[dict[str, list[dict]], tuple]:
    """``runs`` cold starts of each page, the pages alternated in one browser; and the load average before."""
    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict]] = {k: [] for k in scripts}
    load_before = os.getloadavg()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for i in range(runs):
            for name, (script, cwd) in scripts.items():
                r = cold_start(script, browser, cwd=cwd)
                results[name].append(r)
                print(f"run {i + 1} {name}: {r}", flush=True)
        browser.close()
    return results, load_before


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--old-rev", default=None, help="also measure app/dashboard.py of this commit")
    ap.add_argument("--floor", action="store_true", help="also measure a one-button, one-layer page (the floor)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:  # the old commit's code and the floor page, gone however this ends
        results, load_before = _measure(_scripts(args, Path(tmp)), args.runs)
    summary = {name: {"usable_s_median": statistics.median(r["usable_s"] for r in rs),
                      "settled_s_median": statistics.median(r["settled_s"] for r in rs),
                      "health_s_median": statistics.median(r["health_s"] for r in rs), "runs": rs}
               for name, rs in results.items()}
    out = {"what": "seconds from `streamlit run` to the page's Run button and map canvas visible in headless "
                   f"Chromium (1400x900) (usable_s), and to its main thread free of long tasks for {QUIET_MS} ms "
                   "(settled_s)", "cpus": os.cpu_count(), "load_avg_before": load_before, "load_avg": os.getloadavg(),
           "results": summary,
           "command": "python -m airspace.app.bench_cold_start " + " ".join(argv or sys.argv[1:])}
    print(json.dumps({k: {"usable": v["usable_s_median"], "settled": v["settled_s_median"]} for k, v in summary.items()}))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
