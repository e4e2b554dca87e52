"""The dashboard's server (app/serve.py): which modules it imports ahead of the first page view, and its command
line. The server itself is started by every browser test (``serve_page``), as ``make run`` starts it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from airspace.app.serve import page_imports, preload

REPO = Path(__file__).resolve().parents[1]


def test_the_page_scripts_own_imports_are_the_ones_loaded_ahead(tmp_path):
    script = tmp_path / "page.py"
    script.write_text("import json\nimport streamlit as st\nfrom airspace.geo import zonetime as Z\n"
                      "from airspace.app.safe_text import escaped\nfrom . import nothing\n"
                      "def f():\n    import airspace.model.clover\n", encoding="utf-8")
    # top-level airspace imports only (a function's import is the page's own business, e.g. torch behind a click)
    assert page_imports(script) == ["airspace.geo", "airspace.geo.zonetime", "airspace.app.safe_text",
                                    "airspace.app.safe_text.escaped"]
    preload(script, wait_s=0)  # an attribute taken for a module is skipped, not an error
    assert "airspace.geo.zonetime" in sys.modules and "airspace.app.safe_text" in sys.modules
    dash = page_imports(REPO / "app" / "dashboard.py")
    assert "airspace.app.page_engines" in dash and "airspace.app.map_layers" in dash


def test_the_command_needs_a_script():
    out = subprocess.run([sys.executable, "-m", "airspace.app.serve"], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "usage: python -m airspace.app.serve SCRIPT" in out.stderr
