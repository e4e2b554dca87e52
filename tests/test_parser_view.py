"""A feed's named items shown to the model engines in the lettered layout (``parser.view``), on real rows of the world
set's val split cited by id and synthetic variants of the same layouts; the spans a model names map back to the
message. Test rows of the world set are never read here."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from world_rows import PIB_VARIANT
from world_rows import world_text as _world

from airspace.parser.view import reading_view
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import get_extractor

UTC = timezone.utc

WEB_VARIANT = ("EGTT/QRTCA/IV/BO/W/000/040/5120N00015W003<br><br><pre>RESTRICTED AREA (TEMPORARY) ACTIVE WI 2NM<br>"
               "RADIUS OF 512000N 0001500W (EPSOM).</pre><br>LOWER: Surface<br>UPPER: 4,000 Feet AMSL<br>"
               "FROM: 05 Jun 2025 11:00 GMT   TO: 05 Jun 2025 17:30 GMT<br>")


def _faithful(view, message: str) -> None:
    """Every character the view copied is the message's own character at the index it names."""
    assert len(view.origin) == len(view.text)
    copied = [(c, o) for c, o in zip(view.text, view.origin) if o >= 0]
    assert copied and all(message[o] == c for c, o in copied)


@pytest.mark.parametrize("text", [_world("pce1:H7712/24"), PIB_VARIANT], ids=["pce1-H7712", "variant"])
def test_a_pib_export_is_read_in_the_lettered_layout(text):
    view = reading_view(text)
    assert view is not None
    _faithful(view, text)
    lines = view.text.splitlines()
    assert lines[0] in ("H7712/24 NOTAMN", "Q123/25 NOTAMN")
    # the Q-line's tags joined as the ICAO Q-line, the limits padded to three digits
    assert lines[1] in ("Q) EGTT/QWULW/IV/BO/AW/000/013/5056N00058W002", "Q) EGPX/QRDCA/IV/BO/W/000/025/5551N00412W003")
    assert lines[2].startswith("A) EG") and " B) 2" in lines[2] and " C) 2" in lines[2]
    assert "<" not in view.text and any(line.startswith("F) SFC G) ") for line in lines)
    # a span of the view maps to the same characters of the message; one of the view's own letters to nothing
    b = view.text.index("B) ") + 3
    at = view.to_message(b, b + 10)
    assert at is not None and text[at[0]:at[1]] == view.text[b:b + 10]
    assert view.to_message(b - 3, b - 1) is None


@pytest.mark.parametrize("text", [_world("psylsph:H8965/24"), WEB_VARIANT], ids=["psylsph-H8965", "variant"])
def test_a_web_page_is_read_in_the_lettered_layout(text):
    view = reading_view(text)
    assert view is not None
    _faithful(view, text)
    assert view.text.startswith("Q) EGTT/QWULW/") or view.text.startswith("Q) EGTT/QRTCA/")
    assert "<br>" not in view.text and "<pre>" not in view.text
    assert "\nF) Surface G) " in view.text and "\nB) 0" in view.text
    # a span across an HTML line break maps to the message's characters with the break between them
    e = view.text.index("E) ") + 3
    end = view.text.index("\n", view.text.index("\n", e) + 1)
    lo, hi = view.to_message(e, end)
    assert "<br>" in text[lo:hi] and text[lo:hi].replace("<br>", "\n") == view.text[e:end]
    # the page writes its text before its labels, the view after them: a span across both is no span of the message
    assert view.to_message(view.text.index("B) "), end) is None


@pytest.mark.parametrize("text", [
    "A0123/25 NOTAMN\nQ) EGTT/QRDCA/IV/BO/W/000/025/5551N00412W003\nA) EGPF B) 2503031000 C) 2503071600\n"
    "E) DANGER AREA ACTIVE\nF) SFC G) 2500FT AMSL",  # already lettered
    "!FDC 4/1234 ZNY NY..AIRSPACE NEW YORK, NY. 2NM RADIUS OF 404200N0740000W SFC-3000FT",
    "A drone show over the harbour tonight. FROM: the pier TO: the bridge.",
    "<Notam><ItemA>EGPF</ItemA></Notam>",  # tags without an item E
])
def test_other_messages_are_read_as_they_are(text):
    assert reading_view(text) is None


@pytest.mark.parametrize("text", [_world("pce1:H7712/24"), _world("psylsph:H8965/24"), PIB_VARIANT, WEB_VARIANT],
                         ids=["pce1-H7712", "psylsph-H8965", "pib-variant", "web-variant"])
def test_the_model_engines_read_named_items_where_the_message_writes_them(text):
    """Both model engines read a PIB export and a web page: their times and limits come from spans of the message
    itself (the rules reader's cross-check agrees), never from the view's own characters."""
    rules, _ = process_batch(text, "rules")
    for name in ("clover", "ar"):
        recs, _ = process_batch(text, get_extractor(name))
        r = recs[0]
        assert r.start == rules[0].start and r.end == rules[0].end, (name, r.reasons)
        assert r.start is not None and r.start >= datetime(2024, 1, 1, tzinfo=UTC)
        for key in ("start", "end", "upper"):
            sp = r.spans[key]
            assert r.text[sp.start:sp.end] == sp.text and sp.text in text, (name, key)
        assert r.upper is not None and r.upper.ref == "AMSL"
