"""The structured parts of a NOTAM: header (id, type, referenced NOTAM), Q-line and items A)–G).

Tolerant by design: items may sit on one line or many, newlines may have been collapsed into runs of spaces, the
message may be wrapped in ``( … )``, Q-line fields may be padded (``BO /AW``), empty (``KZJX//IV/M//000//…``),
``undefined`` or missing. Every value keeps its character span in the message text so engines and the UI can
point at it. FAA domestic NOTAMs (``!BOS 01/502 …``) get their id here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from airspace.core.contract import Span

_ICAO_ID_RE = re.compile(
    r"(?:^|(?<=\s)|(?<=\())\(?\s*(?P<id>[A-Z]{0,2}\d{1,5}/\d{2,5})\s+NOTAM(?P<type>[NRC])\b(?:[ \t]+(?P<ref>[A-Z]{0,2}\d{1,5}/\d{2,5}))?"
)
_FAA_ID_RE = re.compile(r"^\s*!(?P<loc>[A-Z0-9]{2,5})\s+(?P<num>\d{1,2}/\d{1,5})\b")
# FDC NOTAMs copied without the '!' ("FDC 4/3473 ZAB …"), the FIS-B TFR product ("NOTAM-TFR 0/6733 211945Z …",
# an FDC number) and the TFR web page ("NOTAM Number : FDC 7/8363")
_FDC_BARE_RE = re.compile(
    r"^\s*(?P<loc>FDC|NOTAM-TFR)\s+(?P<num>\d{1,2}/\d{1,5})\b(?!\s*NOTAM[NRC])"
    r"|NOTAM\s+(?:Number|No\.?)\s*:\s*(?P<loc2>FDC)\s+(?P<num2>\d{1,2}/\d{1,5})\b",
    re.IGNORECASE,
)
_QLINE_RE = re.compile(r"(?:(?<=\s)|^|(?<=\())Q\)[ \t]*(?P<body>.*?)[ \t]*(?=\n|\s[A-G]\)|$)")
_QCOORD_RE = re.compile(r"(?P<coord>\d{4}[NS]\s?\d{5}[EW])(?P<radius>\d{3})?")
_ITEM_MARK_RE = r"(?:(?<=\s)|^|(?<=\())({letter})\)"
_HEADERLESS_RE = re.compile(r"(?:^|\s|\()A\)\s*[A-Z]{4}\b")
# an AIS feed's own layout: location and number first, then a title line, then items from B) on, with no Q) and
# no A) ("VIDF - A0212/16\nNAV WARNING\nB) 1602150230 C) …"): the location stands for item A)
_LOC_ID_RE = re.compile(
    r"^[ \t(]*(?P<loc>[A-Z]{4})(?:[ \t]*[-–/:][ \t]*|[ \t]+)(?P<id>[A-Z]{1,2}\d{1,5}/\d{2,4})(?![\d/])"
    r"(?:[ \t]+NOTAM(?P<type>[NRC])(?:[ \t]+(?P<ref>[A-Z]{0,2}\d{1,5}/\d{2,5}))?)?",
    re.M,
)
_TAIL_RE = re.compile(r"\s{2,}CREATED:|\s{2,}SOURCE:|\n\s*CREATED:")


@dataclass
class QLine:
    """The Q-line fields (raw strings, stripped; ``None`` when absent) and the coarse circle's spans."""

    raw: Span
    fir: str | None = None
    code: str | None = None
    traffic: str | None = None
    purpose: str | None = None
    scope: str | None = None
    lower: str | None = None  # flight level, 3 digits
    upper: str | None = None
    lower_span: Span | None = None
    upper_span: Span | None = None
    coord: Span | None = None  # e.g. "4809N01610E"
    radius: Span | None = None  # e.g. "001" (NM)

    @property
    def radius_nm(self) -> float | None:
        try:
            return float(self.radius.text) if self.radius else None
        except ValueError:
            return None


@dataclass
class Item:
    """One item ``X)``: its letter, the span of its text (marker excluded, surrounding whitespace trimmed)."""

    letter: str
    span: Span

    @property
    def text(self) -> str:
        return self.span.text


@dataclass
class Header:
    """What the structured parts of a message say. ``kind`` is 'icao', 'faa' or 'other'."""

    kind: str = "other"
    id: str | None = None
    id_span: Span | None = None
    notam_type: str | None = None  # 'N', 'R', 'C'
    ref_id: str | None = None
    qline: QLine | None = None
    items: dict[str, Item] = field(default_factory=dict)
    # how the items are written: 'lettered' (``B) …``), or named by the feed: 'pib_xml' (``<ItemE>``), 'labelled'
    # (a web page's ``LOWER:`` lines)
    layout: str = "lettered"

    def item(self, letter: str) -> Item | None:
        return self.items.get(letter)


def location_codes(item: Item) -> list[Span]:
    """The 4-letter location indicators item A) lists (``A) GOOO DRRR``), before any ``PART n OF m``."""
    head = item.text.split("PART")[0]
    base = item.span.start
    return [Span(base + m.start(), base + m.end(), m.group()) for m in re.finditer(r"\b[A-Z]{4}\b", head)]


def _span(text: str, start: int, end: int) -> Span:
    return Span(start, end, text[start:end])


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim whitespace (and a wrapping ')' at the very end of the message) from a range."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _parse_qline(text: str) -> QLine | None:
    m = _QLINE_RE.search(text)
    if not m:
        return None
    b0, b1 = m.span("body")
    body = text[b0:b1]
    q = QLine(raw=_span(text, b0, b1))
    parts = body.split("/")
    offs, pos = [], b0
    for p in parts:
        offs.append(pos)
        pos += len(p) + 1
    stripped = [p.strip() or None for p in parts]
    q.fir = stripped[0] if parts else None
    if len(parts) > 1:
        q.code = stripped[1]
    # the coordinate field is the last one that looks like one; the others are anchored from it
    ci = None
    for i in range(len(parts) - 1, 0, -1):
        cm = _QCOORD_RE.match(parts[i].strip())
        if cm:
            ci = i
            lead = len(parts[i]) - len(parts[i].lstrip())
            base = offs[i] + lead
            q.coord = _span(text, base + cm.start("coord"), base + cm.end("coord"))
            if cm.group("radius"):
                q.radius = _span(text, base + cm.start("radius"), base + cm.end("radius"))
            break
    if ci is None:
        # coordinate missing or empty: the field after the two 3-digit limits
        lim = [i for i, p in enumerate(stripped) if p and re.fullmatch(r"\d{3}", p)]
        ci = lim[-1] + 1 if len(lim) >= 2 else len(parts)
    tail = stripped[:ci]
    if len(tail) >= 3:
        q.lower, q.upper = tail[-2], tail[-1]
        for attr, i in (("lower_span", ci - 2), ("upper_span", ci - 1)):
            if stripped[i]:
                a = offs[i] + len(parts[i]) - len(parts[i].lstrip())
                setattr(q, attr, _span(text, a, a + len(stripped[i])))
    if len(tail) >= 4:
        q.scope = tail[-3]
    if len(tail) >= 5:
        q.purpose = tail[-4]
    if len(tail) >= 7:
        q.traffic = tail[2]
    return q


def _find_items(text: str, after: int) -> dict[str, Item]:
    """Items A)–G) in order; each marker is searched after the previous one (F/G: the last one after E)."""
    marks: list[tuple[str, int, int]] = []  # letter, marker start, text start
    pos = after
    # A)–D) come before E): an enumerator "(D)" or "B)" inside item E's free text is not an item
    e_first = re.compile(_ITEM_MARK_RE.format(letter="E")).search(text, after)
    for letter in "ABCDEFG":
        rx = re.compile(_ITEM_MARK_RE.format(letter=letter))
        stop = e_first.start() if e_first is not None and letter in "ABCD" else len(text)
        found = list(rx.finditer(text, pos, stop))
        if not found:
            continue
        m = found[-1] if letter in "FG" and "E" in [x[0] for x in marks] else found[0]
        marks.append((letter, m.start(), m.end()))
        pos = m.end()
    items: dict[str, Item] = {}
    end_of_text = len(text)
    wrapped = text.lstrip().startswith("(")
    for i, (letter, _ms, ts) in enumerate(marks):
        end = marks[i + 1][1] if i + 1 < len(marks) else end_of_text
        if i + 1 == len(marks):
            tail = _TAIL_RE.search(text, ts, end)
            if tail:
                end = tail.start()
            s_, e_ = _trim(text, ts, end)
            if wrapped and e_ > s_ and text[e_ - 1] == ")" and text[s_:e_].count("(") < text[s_:e_].count(")"):
                e_ -= 1
            ts, end = s_, e_
        s_, e_ = _trim(text, ts, end)
        items[letter] = Item(letter, _span(text, s_, e_))
    return items


# Feeds that name the items instead of lettering them.
# An EAD/NATS PIB export (XML): one <Notam> element, items as <ItemA>…<ItemG> with B)/C) as <StartValidity> and
# <EndValidity>, the number as <Series>/<Number>/<Year>, the Q-line's fields as tags of <QLine>.
_XML_ITEM_TAGS = (("A", "ItemA"), ("B", "StartValidity"), ("C", "EndValidity"), ("D", "ItemD"), ("E", "ItemE"),
                  ("F", "ItemF"), ("G", "ItemG"))
_XML_TAG_RE = r"<{tag}>(?P<v>[^<]*)</{tag}>"
# A NOTAM web page: the Q-line fields without "Q)" ("EGTT/QWULW/IV/BO/W/000/008/5308N00042W002"), the text (often in
# <pre>), then labelled lines "LOWER: Surface", "UPPER: 800 Feet AMSL", "FROM: 02 Jan 2025 09:00 GMT   TO: …",
# "SCHEDULE: …", a line ending at a newline or an HTML line break.
_LABEL_ITEMS = {"FROM": "B", "TO": "C", "SCHEDULE": "D", "LOWER": "F", "UPPER": "G"}
# (a blank run before a label is matched from its first blank only: linear in a long run of blanks)
_LABEL_RE = re.compile(r"(?:(?:^|\n|<br\s*/?>)[ \t]*|(?<![ \t])[ \t]{2,})(?P<label>FROM|TO|SCHEDULE|LOWER|UPPER)"
                       r"[ \t]*:[ \t]*", re.I)
_LINE_END_RE = re.compile(r"\n|<br\s*/?>|(?<![ \t])[ \t]{2,}(?:FROM|TO|SCHEDULE|LOWER|UPPER)[ \t]*:", re.I)
_BARE_QLINE_RE = re.compile(r"^[ \t]*(?P<body>[A-Z]{4}/Q[A-Z]{4}/[A-Z ]*/[A-Z ]*/[A-Z ]*/\d{3}/\d{3}/"
                            r"\d{4}[NS]\d{5}[EW]\d{3})(?![\w/])")


def _pre_text(text: str, end: int) -> tuple[int, int] | None:
    """The span inside the first <pre>…</pre> that opens before ``end``."""
    m = re.compile(r"<pre>", re.I).search(text, 0, end)
    close = re.compile(r"</pre>", re.I).search(text, m.end()) if m else None
    return (m.end(), close.start()) if close else None


def _tag(text: str, tag: str) -> re.Match | None:
    """The first ``<tag>value</tag>`` of ``text`` (its value in group ``v``)."""
    return re.search(_XML_TAG_RE.format(tag=tag), text)


def tag_span(text: str, tag: str) -> Span | None:
    """The trimmed value of the first ``<tag>value</tag>`` of ``text``; None when there is none or it is blank."""
    m = _tag(text, tag)
    if m is None:
        return None
    s_, e_ = _trim(text, *m.span("v"))
    return _span(text, s_, e_) if e_ > s_ else None


def _xml_items(text: str, h: Header) -> bool:
    """Fill ``h`` from a PIB export's tags; False (``h`` untouched) when ``text`` is not one."""
    if "<ItemE>" not in text:  # (every message without a lettered item E comes here: no tag search for those)
        return False
    found = {}
    for letter, tag in _XML_ITEM_TAGS:
        if (v := tag_span(text, tag)) is not None:
            found[letter] = Item(letter, v)
    if "E" not in found:
        return False
    h.kind, h.items, h.layout = "icao", found, "pib_xml"
    tags = {t: _tag(text, t) for t in ("Series", "Number", "Year", "Type")}
    if tags["Number"] and tags["Year"]:
        series = tags["Series"].group("v").strip() if tags["Series"] else ""
        h.id = f"{series}{tags['Number'].group('v').strip()}/{tags['Year'].group('v').strip()}"
        h.id_span = _span(text, *tags["Number"].span("v"))
    t = tags["Type"].group("v").strip() if tags["Type"] else "N"
    h.notam_type = t if t in ("N", "R", "C") else "N"
    q = re.search(r"<QLine>(?P<v>.*?)</QLine>", text, re.S)
    if q is not None:
        ql = QLine(raw=_span(text, *q.span("v")))
        part = {t: _tag(text, t) for t in ("FIR", "Code23", "Code45", "Traffic", "Purpose", "Scope")}
        v = {k: (m.group("v").strip() or None) if m else None for k, m in part.items()}
        ql.fir, ql.traffic, ql.purpose, ql.scope = v["FIR"], v["Traffic"], v["Purpose"], v["Scope"]
        if v["Code23"] and v["Code45"]:
            ql.code = f"Q{v['Code23']}{v['Code45']}"
        c = _tag(text, "Coordinates")
        if c is not None and _QCOORD_RE.fullmatch(c.group("v").strip()):
            ql.coord = _span(text, *_trim(text, *c.span("v")))
            r = _tag(text, "Radius")
            if r is not None and r.group("v").strip().isdigit():
                ql.radius = _span(text, *_trim(text, *r.span("v")))
        h.qline = ql
    return True


def _labelled_items(text: str, h: Header) -> bool:
    """Fill ``h``'s items from a web page's labelled lines (a limit and a time at least, each label once, at the
    start of a line); item E is the page's <pre> text, else the text before the first label."""
    marks = list(_LABEL_RE.finditer(text))
    labels = [m.group("label").upper() for m in marks]
    if (len(set(labels)) != len(labels) or not {"LOWER", "UPPER"} & set(labels)
            or not {"FROM", "TO"} & set(labels)):
        return False
    items: dict[str, Item] = {}
    for m in marks:
        end = _LINE_END_RE.search(text, m.end())
        s_, e_ = _trim(text, m.end(), end.start() if end else len(text))
        if e_ > s_:
            letter = _LABEL_ITEMS[m.group("label").upper()]
            items[letter] = Item(letter, _span(text, s_, e_))
    pre = _pre_text(text, marks[0].start() + 1)
    if pre is not None:
        s_, e_ = _trim(text, *pre)
    else:
        s_, e_ = _trim(text, h.qline.raw.end if h.qline else 0, marks[0].start())
    if e_ <= s_:
        return False
    items["E"] = Item("E", _span(text, s_, e_))
    h.kind, h.items, h.layout = "icao", dict(sorted(items.items())), "labelled"
    return True


def parse_header(text: str) -> Header:
    """Read the header, Q-line and items of one message. Never raises; absent parts stay ``None``/empty."""
    h = Header()
    f = _FAA_ID_RE.match(text)
    if f:
        h.kind = "faa"
        h.id = f"{f.group('loc')} {f.group('num')}"
        h.id_span = _span(text, f.start("loc"), f.end("num"))
        h.notam_type = "N"  # FAA domestic NOTAMs carry no N/R/C marker
        return h
    f = _FDC_BARE_RE.search(text, 0, 600)
    if f and (f.group("loc") or f.start() < 300):
        g = "" if f.group("loc") else "2"
        h.kind = "faa"
        h.id = f"FDC {f.group('num' + g)}"  # NOTAM-TFR numbers are FDC numbers
        h.id_span = _span(text, f.start("loc" + g), f.end("num" + g))
        h.notam_type = "N"
        return h
    m = _ICAO_ID_RE.search(text, 0, 300)  # at the start, or after an AFTN preamble
    body_from = 0
    if m:
        h.kind = "icao"
        h.id, h.notam_type = m.group("id"), m.group("type")
        h.id_span = _span(text, *m.span("id"))
        if m.group("ref") and h.notam_type in "RC":
            h.ref_id = m.group("ref")
        body_from = m.end()
    lead = _LOC_ID_RE.search(text, 0, 200)
    if lead is not None and m is not None and lead.start("id") != m.start("id"):
        lead = None  # a location-like word before some other number: not this layout
    if lead is not None and m is None:
        h.kind = "icao"
        h.id, h.notam_type = lead.group("id"), lead.group("type") or "N"
        h.id_span = _span(text, *lead.span("id"))
        if lead.group("ref") and h.notam_type in "RC":
            h.ref_id = lead.group("ref")
        body_from = lead.end()
    h.qline = _parse_qline(text)
    if h.qline:
        h.kind = "icao"
        body_from = max(body_from, h.qline.raw.end)
    if h.kind == "icao":
        h.items = _find_items(text, body_from)
        if lead is not None and "A" not in h.items:
            h.items["A"] = Item("A", _span(text, *lead.span("loc")))  # the location written before the number
    elif _HEADERLESS_RE.search(text, 0, 400) and re.search(r"(?:^|\s)E\)", text):
        h.kind = "icao"  # items without header or Q-line ("A) LFML B) 2707142030 C) … E) …")
        h.items = _find_items(text, 0)
    if h.kind != "faa" and "E" not in h.items and not _xml_items(text, h):
        had = h.qline
        if h.qline is None and (bare := _BARE_QLINE_RE.match(text)) is not None:
            q = _parse_qline(f"Q) {bare.group('body')}")  # the same fields, read where the page writes them
            h.qline = _shift_qline(q, text, bare.start("body") - 3) if q is not None else None
        if not _labelled_items(text, h):
            h.qline = had
    return h


def _shift_qline(q: QLine, text: str, by: int) -> QLine:
    """``q`` read from a copy of the Q-line with "Q) " in front, its spans moved to where ``text`` has them."""
    def mv(s: Span | None) -> Span | None:
        return None if s is None else _span(text, s.start + by, s.end + by)

    q.raw, q.lower_span, q.upper_span, q.coord, q.radius = (mv(q.raw), mv(q.lower_span), mv(q.upper_span),
                                                             mv(q.coord), mv(q.radius))
    return q


def qline_limit_field(text: str, start: int, end: int) -> str | None:
    """'lower' or 'upper' when ``text[start:end]`` is exactly that 3-digit limit field of the message's Q-line."""
    if not (end - start == 3 and text[start - 1 : start] == "/" and text[start:end].isdigit()):
        return None  # (asked for every limit of every zone: the Q-line is parsed only for a "/ddd" span)
    q = _parse_qline(text)
    for key in ("lower", "upper"):
        s = getattr(q, f"{key}_span", None) if q else None
        if s is not None and (s.start, s.end) == (start, end) and re.fullmatch(r"\d{3}", s.text):
            return key
    return None
