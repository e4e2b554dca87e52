"""A Streamlit page served on 127.0.0.1 as ``make run`` serves the dashboard: for the browser tests and the
cold-start benchmark, which both need a real server and the moment it answers."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def serve_page(script: Path | str, port: int, *, log: Path | None = None, env: dict | None = None,
               poll_s: float = 0.3, timeout_s: float = 400, cwd: Path = REPO) -> Iterator[str]:
    """``streamlit run script`` on 127.0.0.1:``port`` (``env``: its environment, default this process's; ``log``:
    where its output goes, else nowhere; ``cwd``: the folder it runs in, whose ``airspace`` package ``python -m``
    imports first); yields the page's URL once the server answers its health check, and stops
    the server afterwards. Raises ``RuntimeError`` if the server exits or does not answer within ``timeout_s``."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), "--server.address", "127.0.0.1",
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    out = open(log, "w") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + timeout_s
        while True:
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"streamlit did not come up on {url}" + (f" (see {log.name})" if log else ""))
            time.sleep(poll_s)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log is not None:
            out.close()
