"""Message text is data: how text from a message (ids, reasons, names, the message itself, a denoising step) reaches
the page without ever becoming markup, a link, an image or a deck.gl expression.

Three ways out of Python, three guards:

* HTML we write ourselves (``st.html``): every piece of message text through ``html.escape`` (``escaped``,
  ``highlight_html``, ``trace_html``).
* Streamlit elements that render Markdown (``st.error``, ``st.caption``, widget labels): ``md_literal`` escapes every
  ASCII punctuation character with a backslash (CommonMark renders an escaped character as itself), so no image,
  link, autolink, HTML tag, emoji/colour directive or ``$`` maths can form.
* Map data (``pydeck``): deck.gl's JSON converter turns any string that starts with ``@@=`` into an evaluated
  expression and ``@@#`` into a constant lookup, anywhere in the layer JSON, data rows included; ``deck_text``
  prefixes such a string with a zero-width space, and ``deck_safe`` applies it to every string of a layer's rows.
  Tooltips use the ``text`` key, which the browser sets as ``innerText`` (never parsed as HTML).
"""

from __future__ import annotations

import html
import string
from typing import Any

_MD_SPECIAL = set(string.punctuation)
ZERO_WIDTH_SPACE = "\u200b"


def escaped(text: str) -> str:
    """``text`` as HTML text (quotes too, so it is also safe inside an attribute); line breaks kept as ``<br/>``."""
    return html.escape(str(text), quote=True).replace("\r\n", "\n").replace("\n", "<br/>")


def md_literal(text: str) -> str:
    """``text`` for a Markdown-rendering element, shown exactly as written: every ASCII punctuation character
    backslash-escaped, line breaks as hard breaks."""
    out = []
    for ch in str(text):
        if ch in _MD_SPECIAL:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("  \n")
        elif ch == "\r":
            continue
        else:
            out.append(ch)
    return "".join(out)


def deck_text(text: str) -> str:
    """A string for deck.gl's JSON that the converter leaves a string (see the module docstring)."""
    s = str(text)
    return ZERO_WIDTH_SPACE + s if s.startswith("@@") else s


def deck_safe(value: Any) -> Any:
    """``value`` with ``deck_text`` applied to every string in it (dicts and lists walked; keys are ours)."""
    if isinstance(value, str):
        return deck_text(value)
    if isinstance(value, dict):
        return {k: deck_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [deck_safe(v) for v in value]
    return value


def highlight_html(text: str, spans: dict) -> str:
    """The message as HTML with every field's source span wrapped in ``<mark title="field">``.

    Spans are ``SpanModel``/``Span``-like (``start``, ``end``); out-of-range or overlapping ones are clipped so the
    output is always well formed and every character of the message appears exactly once, escaped."""
    marks = []
    for field, sp in spans.items():
        s, e = max(0, int(sp.start)), min(len(text), int(sp.end))
        if e > s:
            marks.append((s, e, field))
    marks.sort()
    out, pos = [], 0
    for s, e, field in marks:
        s = max(s, pos)
        if e <= s:
            continue
        out.append(html.escape(text[pos:s]))
        f = html.escape(field, quote=True)
        out.append(f'<mark title="{f}" data-field="{f}">{html.escape(text[s:e])}</mark>')
        pos = e
    out.append(html.escape(text[pos:]))
    body = "".join(out).replace("\r\n", "\n").replace("\n", "<br/>")
    return '<pre class="msg" style="white-space: pre-wrap">' + body + "</pre>"


MASK_GLYPH = "\u2591"  # what the model's trace shows for a still-masked slot (airspace.model.pointers)


def trace_html(step: str) -> str:
    """One denoising step as HTML: masked positions greyed, field separators shown, one zone per line; every other
    character escaped."""
    from airspace.core.answer import FIELD_SEP, ZONE_SEP

    out = []
    i = 0
    while i < len(step):
        ch = step[i]
        if ch == MASK_GLYPH:
            j = i
            while j < len(step) and step[j] == MASK_GLYPH:
                j += 1
            out.append(f'<span class="mask" style="color:#777">{ch * (j - i)}</span>')
            i = j
            continue
        if ch == FIELD_SEP:
            out.append('<span style="color:#6af"> ␟ </span>')
        elif ch == ZONE_SEP:
            out.append('<br/><span style="color:#6af">␞ next zone</span><br/>')
        else:
            out.append(html.escape(ch))
        i += 1
    return '<pre class="trace" style="white-space: pre-wrap">' + "".join(out) + "</pre>"
