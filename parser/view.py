"""A message as a model engine reads it: a feed that names its items instead of lettering them, rewritten as the
lettered ICAO layout, each character knowing where it came from.

The rules reader reads named items wherever a feed writes them (``header._xml_items``, ``header._labelled_items``),
but a model engine learnt the lettered layout (``Q) … A) … B) … E) …``) and points at nothing in an EAD/NATS PIB
export's XML or a NOTAM web page's ``LOWER:`` / ``FROM:`` lines. So those messages are shown to it as the same items
in the layout it knows; the item values are the message's own characters, in the message's own written forms
(``02 Jan 2025 09:00 GMT`` stays as written), and every span the engine names maps back to the message
(``View.to_message``), so a value is still grounded to where the message writes it. Only the letters, the Q-line's
slashes and padding, and line breaks in place of HTML ones are the view's own, and a span made of those alone maps
to nothing. A message already in a lettered (or any other) layout has no view: the engine reads it as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from airspace.core.contract import Span, ZoneDraft
from airspace.parser.header import Header, parse_header, tag_span

# the lines of the lettered layout: items on one line each as the archive's feeds write them
_LINES = ("ABC", "D", "E", "FG")
_QLINE_TAGS = ("FIR", "Code23", "Code45", "Traffic", "Purpose", "Scope", "Lower", "Upper")
_HTML_BREAK_RE = re.compile(r"<br\s*/?>|</?pre>|</?p>", re.I)


@dataclass(frozen=True)
class View:
    """The text an engine reads, and for each of its characters the message's index of it (-1: the view's own)."""

    text: str
    origin: tuple[int, ...]

    def to_message(self, start: int, end: int) -> tuple[int, int] | None:
        """The message's range holding view characters [start, end): from the first of them the message has to the
        last; None when every one is the view's own, or when they run out of the message's order (a span across
        items the view wrote in another order than the message: not one span of the message)."""
        own = [o for o in self.origin[start:end] if o >= 0]
        if not own or any(b < a for a, b in zip(own, own[1:])):
            return None
        return own[0], own[-1] + 1


class _Writer:
    def __init__(self, message: str):
        self.message = message
        self.parts: list[str] = []
        self.origin: list[int] = []

    def own(self, s: str) -> None:
        self.parts.append(s)
        self.origin.extend([-1] * len(s))

    def copy(self, start: int, end: int) -> None:
        """The message's characters [start, end), an HTML line break among them written as a newline."""
        pos = start
        for m in _HTML_BREAK_RE.finditer(self.message, start, end):
            self._copy(pos, m.start())
            if not self.parts or not self.parts[-1].endswith("\n"):
                self.own("\n")
            pos = m.end()
        self._copy(pos, end)

    def _copy(self, start: int, end: int) -> None:
        if end > start:
            self.parts.append(self.message[start:end])
            self.origin.extend(range(start, end))

    def view(self) -> View:
        return View("".join(self.parts), tuple(self.origin))


def _xml_qline(w: _Writer, text: str) -> None:
    """``Q) FIR/QCODE/TRAFFIC/PURPOSE/SCOPE/LLL/UUU/COORDRRR`` from a PIB export's Q-line tags."""
    spans = {t: tag_span(text, t) for t in (*_QLINE_TAGS, "Coordinates", "Radius")}
    if spans["FIR"] is None:
        return
    w.own("Q) ")
    w.copy(spans["FIR"].start, spans["FIR"].end)
    w.own("/Q")
    for i, tag in enumerate(_QLINE_TAGS[1:]):
        sp = spans[tag]
        if i >= 2:
            w.own("/")
        if sp is not None:
            if tag in ("Lower", "Upper") and sp.text.isdigit():
                w.own("0" * max(0, 3 - len(sp.text)))
            w.copy(sp.start, sp.end)
    w.own("/")
    if spans["Coordinates"] is not None:
        w.copy(spans["Coordinates"].start, spans["Coordinates"].end)
        r = spans["Radius"]
        if r is not None and r.text.isdigit():
            w.own("0" * max(0, 3 - len(r.text)))
            w.copy(r.start, r.end)
    w.own("\n")


def reading_view(text: str, header: Header | None = None) -> View | None:
    """The lettered view of a message whose feed names its items; None for any other message."""
    h = header if header is not None else parse_header(text)
    if h.layout == "lettered" or "E" not in h.items:
        return None
    w = _Writer(text)
    if h.id:
        w.own(f"{h.id} NOTAM{h.notam_type or 'N'}\n")
    if h.layout == "pib_xml":
        _xml_qline(w, text)
    elif h.qline is not None:
        w.own("Q) ")
        w.copy(h.qline.raw.start, h.qline.raw.end)
        w.own("\n")
    for line in _LINES:
        letters = [c for c in line if c in h.items]
        for k, letter in enumerate(letters):
            w.own(f"{' ' if k else ''}{letter}) ")
            w.copy(h.items[letter].span.start, h.items[letter].span.end)
        if letters:
            w.own("\n")
    return w.view()


def message_draft(view: View, message: str, draft: ZoneDraft) -> ZoneDraft:
    """A draft read from ``view``, its spans moved to where ``message`` writes them; a value made of the view's own
    characters alone is left out (the message does not write it)."""
    spans = {}
    for key, sp in draft.spans.items():
        at = view.to_message(sp.start, sp.end)
        if at is not None:
            spans[key] = Span(at[0], at[1], message[at[0]:at[1]])
    return ZoneDraft.from_spans(spans)
