"""The dashboard's server, and a page served on 127.0.0.1 as ``make run`` serves it (for the browser tests and the
cold-start benchmark, which both need a real server and the moment it answers).

``python -m airspace.app.serve SCRIPT [streamlit options]`` is ``streamlit run SCRIPT [options]`` that also imports
the modules the page script imports in a thread as the server starts. The first page view then no longer waits for
them (~0.9 s on a 2-core machine): they load while the browser is still fetching Streamlit's own scripts.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def serve_page(script: Path | str, port: int, *, log: Path | None = None, env: dict | None = None,
               poll_s: float = 0.3, timeout_s: float = 400, cwd: Path = REPO) -> Iterator[str]:
    """``script`` served as ``make run`` serves the dashboard (``python -m airspace.app.serve``) on 127.0.0.1:``port`` (``env``: its environment, default this process's; ``log``:
    where its output goes, else nowhere; ``cwd``: the folder it runs in, whose ``airspace`` package ``python -m``
    imports first); yields the page's URL once the server answers its health check, and stops
    the server afterwards. Raises ``RuntimeError`` if the server exits or does not answer within ``timeout_s``."""
    cmd = [sys.executable, "-m", "airspace.app.serve", str(script), "--server.address", "127.0.0.1",
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


def page_imports(script: Path | str) -> list[str]:
    """The ``airspace`` modules a page script imports at its top level, in order."""
    tree = ast.parse(Path(script).read_text(encoding="utf-8"))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]  # ``from airspace.app import tables``
    return [n for n in dict.fromkeys(names) if n.split(".")[0] == "airspace"]


def preload(script: Path | str, wait_s: float = 10.0) -> None:
    """Import what ``script`` imports (a name that is an attribute, not a module, is skipped), once Streamlit's
    runtime exists (the pages' cache decorators check their settings against its cache storage as they are
    applied) or after ``wait_s``."""
    from streamlit import runtime

    deadline = time.monotonic() + wait_s
    while not runtime.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    for name in page_imports(script):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].startswith("-"):
        raise SystemExit("usage: python -m airspace.app.serve SCRIPT [streamlit run options]")
    threading.Thread(target=preload, args=(args[0],), name="page-preload", daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", *args]
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
