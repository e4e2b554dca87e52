"""The zone store on the page: the picture the page opens on, what a new batch would add, replace and cancel in it
before the operator commits it, the commit, and the operator's review decisions kept with the stored records.

The store is the one ``AIRSPACE_STORE`` names, else the default file under the user's data directory
(``store.url``), so ``make run`` opens the embedded SQLite store. Every page run reads the picture again, so two
sessions on one store (two operators on one desk) see the same zones, and a commit in one is on the other's next
run. The picture is the zones in force at the map's time or starting within ``PICTURE_AHEAD`` of it.

A stored picture holds records of many batches, whose ``message`` numbers were each batch's own: the page numbers
them again (one per stored notice, in key order) and keeps which notice and zone each page key stands for
(``store_keys`` in the session), so that a review resolved on the page is kept with that notice's zone.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

import streamlit as st

from airspace.app import resolve as R
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app.feed import apply_feed
from airspace.app.page_engines import volumes_of_records
from airspace.app.run_result import RunResult
from airspace.app.safe_text import md_literal
from airspace.core.records import ZoneRecord
from airspace.store import api
from airspace.store.semantics import incoming
from airspace.store.url import default_url, open_store

STORE = "store"  # the RunResult engine name of the stored picture
RESOLVED = "resolved"  # the decision word of a review resolved on the page; its note is the resolved record's JSON
PICTURE_AHEAD = timedelta(days=7)
ss = st.session_state


@st.cache_resource(show_spinner=False)
def _open(url: str):
    return open_store(url)


def the_store():
    """(store, None), or (None, why it cannot be opened): a store that is down must not take the page down."""
    url = default_url()
    try:
        return _open(url), None
    except Exception as exc:  # noqa: BLE001 - a bad URL, a server that is down, a file that cannot be written
        return None, f"The zone store {url} cannot be opened: {type(exc).__name__}: {exc}"


def _resolved(z) -> ZoneRecord | None:
    """The record an operator resolved on the page, from the zone's stored decision, or None."""
    d = z.decision or {}
    if d.get("decision") != RESOLVED:
        return None
    try:
        return R.ResolvedRecord.model_validate(json.loads(d.get("note") or ""))
    except ValueError:
        return None


def page_records(zones) -> tuple[list[ZoneRecord], dict[str, tuple[str, int]]]:
    """The picture's records numbered for the page (one message number per stored notice), each with its
    decision applied, and page key -> (notice key, zone)."""
    numbers: dict[str, int] = {}
    records, keys = [], {}
    for z in zones:
        m = numbers.setdefault(z.key, len(numbers))
        rec = _resolved(z) or z.record
        rec = rec.model_copy(update={"message": m, "zone": z.record.zone})
        records.append(rec)
        keys[T.record_key(rec)] = (z.key, z.record.zone)
    return records, keys


def picture_result(where) -> RunResult | None:
    """The store's picture at the map's time as the page draws a Run (no zone at that time: an empty one, so that
    the time controls are there to look at another), or None for a store with nothing in it (the page then opens as
    without a batch)."""
    s, why = the_store()
    if s is None:
        where.warning(md_literal(why))
        return None
    t = ss.get("map_t") or TL.now_minute()
    t0 = time.perf_counter()
    try:
        zones = api.current_picture(s, t, until=t + PICTURE_AHEAD)
        live = bool(zones) or s.has_live()
    except Exception as exc:  # noqa: BLE001 - a store that fails to answer leaves the page usable
        where.warning(md_literal(f"The zone store did not answer: {type(exc).__name__}: {exc}"))
        return None
    records, keys = page_records(zones)
    ss["store_keys"] = keys
    if not live:
        return None  # an empty store: the page as with nothing read yet
    feed = apply_feed(records)
    return RunResult(text="", engine=STORE, records=records, wall_s=time.perf_counter() - t0,
                     volumes=volumes_of_records(feed.live), feed=feed)


def keep_decision(page_key: str, rec_json: dict) -> bool:
    """A review resolved on the stored picture: kept in the store with the notice's zone (decision ``resolved``,
    the resolved record as its note, the operator's name). False when the page key is not a stored zone."""
    where = (ss.get("store_keys") or {}).get(page_key)
    if where is None:
        return False
    operator = (ss.get("operator") or "").strip()
    if not operator:
        ss["resolve_error"] = "Type your name as the operator (sidebar, Zone store) to keep a decision in the store."
        return True
    s, why = the_store()
    if s is None:
        ss["resolve_error"] = why
        return True
    api.store_decision(s, where[0], where[1], RESOLVED, operator=operator, note=json.dumps(rec_json))
    ss["resolve_error"] = None
    return True


def _decide_resolved(s, records: list[ZoneRecord], operator: str) -> int:
    """The batch's reviews resolved on the page before the commit, kept as decisions with their stored zones."""
    n = 0
    for inc in incoming(records):
        for rec in inc.records:
            if getattr(rec, "provenance", None):
                api.store_decision(s, inc.ident.key, rec.zone, RESOLVED, operator=operator,
                                   note=json.dumps(rec.model_dump(mode="json")))
                n += 1
    return n


def _commit(records: list[ZoneRecord]) -> None:
    operator = (ss.get("operator") or "").strip()
    if not operator:
        ss["store_note"] = "Type your name as the operator to commit."
        return
    s, why = the_store()
    if s is None:
        ss["store_note"] = why
        return
    applied = api.commit_batch(s, records, operator=operator)
    decided = _decide_resolved(s, records, operator)
    ss["store_note"] = (f"Committed by {operator}: {applied.messages} message(s), {applied.written} written, "
                        f"{applied.duplicates} already stored, {applied.ignored} ignored"
                        + (f", {decided} resolved review(s) kept" if decided else "") + ". The map shows the "
                        "store's picture.")
    _show_picture()


def _show_picture() -> None:
    """Leave the batch: the page draws the store's picture again (read anew)."""
    ss.pop("run", None)
    for k in ("focus", "focus_src", "route_result", "resolved"):
        ss.pop(k, None)
    ss["list_gen"] = ss.get("list_gen", 0) + 1


def preview_rows(p) -> list[dict]:
    """What committing a batch does, one row per change (plain strings: message text is never markup here)."""
    rows = []
    by_id: dict[str, int] = {}
    for r in p.adds:
        by_id[r.id or "(no id)"] = by_id.get(r.id or "(no id)", 0) + 1
    rows += [{"change": "adds", "notice": k, "detail": f"{n} zone{'s' if n != 1 else ''}"} for k, n in by_id.items()]
    rows += [{"change": "replaces", "notice": k, "detail": f"by {by}"} for k, by in p.replaces]
    rows += [{"change": "cancels", "notice": k, "detail": f"by {by}"} for k, by in p.cancels]
    rows += [{"change": "held", "notice": k, "detail": f"named by {by}; applied when it arrives"} for k, by in p.held]
    rows += [{"change": "revises", "notice": k, "detail": "a new text of a stored notice"} for k in p.revisions]
    rows += [{"change": "flagged", "notice": k, "detail": why} for k, why in p.kept_flagged]
    rows += [{"change": "already stored", "notice": k, "detail": "changes nothing"} for k in p.duplicates]
    rows += [{"change": "ignored", "notice": k, "detail": why} for k, why in p.ignored]
    return rows


def sidebar(res: RunResult | None) -> None:
    """The sidebar's store section: which store, the operator, and either what the shown batch would change in the
    store (with Commit) or what the map shows of the store."""
    st.markdown("**Zone store**")
    st.text_input("Operator", key="operator", placeholder="your name: kept with commits and decisions")
    s, why = the_store()
    if s is None:
        st.warning(md_literal(why))
        return
    st.caption(md_literal(f"Store: {default_url()}"))
    if ss.get("store_note"):
        st.caption(md_literal(ss["store_note"]))
    if res is None or res.engine == STORE:
        shown = len(res.records) if res else 0
        st.caption(f"The map shows the store's picture: {shown} zone{'s' if shown != 1 else ''} in force at the map's "
                   f"time or starting within {PICTURE_AHEAD.days} days. Run a batch to see what it would change.")
        return
    try:
        p = api.preview_records(s, res.records)
    except Exception as exc:  # noqa: BLE001
        st.warning(md_literal(f"The zone store did not answer: {type(exc).__name__}: {exc}"))
        return
    st.caption("Committing this batch to the store:")
    rows = preview_rows(p)
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.caption("nothing: the batch holds no notice the store would keep.")
    st.button("Commit to the store", key="commit_button", type="primary", on_click=_commit, args=(res.records,),
              disabled=not rows, width="stretch")
    st.button("Back to the stored picture", key="picture_button", on_click=_show_picture, width="stretch",
              help="leave this batch uncommitted; the map shows the store again")
