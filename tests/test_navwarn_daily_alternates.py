"""Navigational warnings whose alternates end in a daily window, on train rows of the vendored archive cited by id
(``data/real/archive.jsonl``)."""

from __future__ import annotations

from datetime import datetime, timezone

from world_rows import archive_text as _archive

from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

UTC = timezone.utc


def _drawn(text: str):
    recs, _ = process_batch([Message(0, text)], "rules")
    return [r for r in recs if r.geometry is not None]


def test_alternates_ending_in_a_daily_window_on_the_same_hours():
    """train ``NAVAREA XII 185/26(18)``: ``A. 242303Z TO 250327Z MAR, ALTERNATE 2303Z TO 0327Z DAILY 25 THRU 30 MAR``:
    from the first group (24 March 23:03Z, not the daily window's first day) to the last window's end (31 March
    03:27Z), the daily window the schedule. The warning states no ceiling, its one doubt."""
    a, b = _drawn(_archive("NAVAREA XII 185/26(18)"))
    assert (a.start, a.end, a.schedule) == (datetime(2026, 3, 24, 23, 3, tzinfo=UTC),
                                            datetime(2026, 3, 31, 3, 27, tzinfo=UTC), "2303Z TO 0327Z")
    assert (b.start, b.end) == (datetime(2026, 3, 24, 23, 3, tzinfo=UTC), datetime(2026, 3, 31, 3, 46, tzinfo=UTC))
    for r in (a, b):
        assert [why for why in r.reasons if not why.startswith("note:")] == ["no upper limit stated"], r.reasons


def test_alternates_at_other_hours_than_the_daily_window_are_review():
    """train ``NAVAREA XII 178/26(18)``: ``A. 202148Z TO 210212Z MAR, ALTERNATE 212148Z TO 220212Z AND 0219Z TO 0643Z
    DAILY 23 THRU 27 MAR``: the first windows are at other hours than the daily one, so no schedule describes them
    all: the envelope from the first group to the last day, for review (never the daily window's first day)."""
    recs = _drawn(_archive("NAVAREA XII 178/26(18)"))
    assert len(recs) == 2
    for r in recs:
        assert r.start == datetime(2026, 3, 20, 21, 48, tzinfo=UTC) and r.schedule is None
        assert r.end is not None and r.end >= datetime(2026, 3, 27, 6, 43, tzinfo=UTC)
        assert r.status == "review"
        assert any("not all at the daily window's hours" in why for why in r.reasons), r.reasons


def test_the_envelope_marker_is_grounding_only_never_a_field_of_the_answer():
    """The ``windows`` span that sends the envelope to review is no field of the answer format: the rules reader's
    drafts of the warning still format as an answer (the silver builder and the model targets read them so)."""
    from airspace.core.answer import format_answer
    from airspace.parser.rules import rules_drafts

    drafts = rules_drafts(_archive("NAVAREA XII 178/26(18)"))
    assert all("windows" in d.spans and "windows" not in d.values for d in drafts)
    assert format_answer([d.values for d in drafts]).count("polygon=") == 2
