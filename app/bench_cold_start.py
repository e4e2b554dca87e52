"""Cold start to a usable page, in a real headless Chromium: a fresh ``streamlit run`` of a page script is started,
the browser opens it as soon as the server answers, and the clock stops when the page can be used (its Run button
and the map's canvas are on the screen). Median of N runs per script, the scripts alternated in one run so both see
the same machine. A benchmark (writes JSON), not a test.

    python -m airspace.app.bench_cold_start --runs 5 --old-rev fe69c28 --out bench-results/cold-start.json

``--old-rev``: the page of that commit (``git show REV:app/dashboard.py``) is measured beside the current one,
from a temporary folder (its ``static`` linked to this checkout's ``app/static``).
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


def cold_start(script: Path, browser, viewport=(1400, 900)) -> dict:
    """Seconds from starting the server to the server's health answer, and to a usable page."""
    port = _port()
    url = f"http://127.0.0.1:{port}/"
    t0 = time.perf_counter()
    with serve_page(script, port, poll_s=0.05, timeout_s=600):
        health = time.perf_counter() - t0
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        page.goto(url)
        page.get_by_role("button", name="Run", exact=True).wait_for(state="visible", timeout=180_000)
        page.wait_for_selector("[data-testid=stDeckGlJsonChart] canvas", state="visible", timeout=180_000)
        usable = time.perf_counter() - t0
        page.close()
        return {"health_s": round(health, 3), "usable_s": round(usable, 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--old-rev", default=None, help="also measure app/dashboard.py of this commit")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    scripts = {"current": REPO / "app" / "dashboard.py"}
    tmp = None
    if args.old_rev:
        tmp = tempfile.TemporaryDirectory()
        old = Path(tmp.name) / "dashboard.py"
        old.write_text(subprocess.run(["git", "show", f"{args.old_rev}:app/dashboard.py"], cwd=REPO, check=True,
                                      capture_output=True, text=True).stdout, encoding="utf-8")
        os.symlink(REPO / "app" / "static", Path(tmp.name) / "static")
        scripts[f"old ({args.old_rev})"] = old
    results: dict[str, list[dict]] = {k: [] for k in scripts}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for i in range(args.runs):
            for name, script in scripts.items():
                r = cold_start(script, browser)
                results[name].append(r)
                print(f"run {i + 1} {name}: {r}", flush=True)
        browser.close()
    summary = {name: {"usable_s_median": statistics.median(r["usable_s"] for r in rs),
                      "health_s_median": statistics.median(r["health_s"] for r in rs), "runs": rs}
               for name, rs in results.items()}
    out = {"what": "seconds from `streamlit run` to the page's Run button and map canvas visible in headless "
                   "Chromium (1400x900)", "cpus": os.cpu_count(), "load_avg": os.getloadavg(), "results": summary,
           "command": "python -m airspace.app.bench_cold_start " + " ".join(argv or sys.argv[1:])}
    print(json.dumps({k: v["usable_s_median"] for k, v in summary.items()}))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
