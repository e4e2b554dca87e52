"""The dashboard on a zone store in a real headless Chromium: ``streamlit run app/dashboard.py`` with
``AIRSPACE_STORE`` naming a SQLite store that ``airspace-store ingest`` filled from the shipped demo batch
(data/samples/demo20.txt). Two sessions open on the stored picture at today's time: the zones still in force then
(A2101/26 is permanent, A2243/26's estimated end keeps it in force until a NOTAMR or NOTAMC), drawn in the ok red and
the review amber. Skips as ``test_app_browser`` does where there is no Chromium or playwright."""

from __future__ import annotations

import io
import json
import os

import pytest
from browser_page import _counts, _map_array, serve_dashboard  # the page helpers beside this file
from test_app_browser import (  # the browser and page set-up of the main walk-through
    ARTIFACTS,
    REPO,
    WALK_S,
    _free_port,
    _open,
    _until,
    browser_context,  # noqa: F401 - a fixture, used by name
)

from airspace.store.cli import run as store_cli

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def desk_server(tmp_path_factory):
    """The page served on a free 127.0.0.1 port, as ``make run`` starts it, on a store holding demo20."""
    url = f"sqlite:///{tmp_path_factory.mktemp('desk')}/desk.sqlite"
    out = io.StringIO()
    code = store_cli(["--store", url, "ingest", "--engine", "rules", str(REPO / "data/samples/demo20.txt")], out=out)
    assert code == 1 and json.loads(out.getvalue())["written"] == 20
    env = {**os.environ, "AIRSPACE_STORE": url}
    with serve_dashboard(_free_port(), ARTIFACTS / "browser_store_streamlit.log", REPO, env) as page_url:
        yield page_url


def _colours(chart) -> dict[str, int]:
    from PIL import Image

    return _counts(Image.fromarray(_map_array(chart).astype("uint8")))


@pytest.mark.timeout(4 * WALK_S, func_only=True)
def test_two_sessions_open_on_the_stored_picture(desk_server, browser_context):  # noqa: F811
    from playwright.sync_api import expect

    pages = []
    for n in range(2):
        page, chart = _open(browser_context, desk_server)
        page.get_by_role("button", name="Run", exact=True).wait_for(timeout=400_000)  # the first loads the engines
        head = page.get_by_test_id("head-line")
        expect(head).to_contain_text("the stored picture")
        expect(head).to_contain_text("2 notices")
        expect(head).to_contain_text("1 ok")
        expect(head).to_contain_text("1 review")
        seen = _until(lambda chart=chart: (lambda c: c if c["red"] > 50 and c["amber"] > 50 else None)(
            _colours(chart)))
        assert seen, _colours(chart)  # the permanent zone in red, the one past its estimated end in amber
        page.screenshot(path=str(ARTIFACTS / f"store_picture_session{n + 1}.png"))
        pages.append(page)
    for page in pages:
        page.close()
