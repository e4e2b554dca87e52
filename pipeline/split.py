"""Batch splitting: pasted text (or JSONL) -> one ``Message`` per air-traffic message, none ever dropped.

Formats recognised in pasted text:

- ICAO NOTAMs, bare (``A1912/15 NOTAMN``) or wrapped in ``( … )``, one after another separated by blank lines, or
  pasted back to back with no blank line; a new NOTAM starts at each header ``<series><number>/<yy> NOTAM[NRC]``.
  A blank line *inside* a NOTAM (before ``F)``, say) does not split it: a block that starts with an item marker
  (``A)`` … ``G)``) continues the NOTAM before it.
- NOTAMs whose newlines a collector collapsed into runs of spaces (the header rule still applies).
- FAA domestic NOTAMs: every line that starts with ``!`` starts a new message.
- A headerless ICAO NOTAM starting at ``Q)``.
- Chinese notices: a title line containing 通告/公告 starts a notice; following blocks written in Chinese belong
  to it (these notices are written as many short paragraphs separated by blank lines).
- Anything else: one message per blank-line separated block.

Limits (``LIMITS``) protect the process from hostile input: a message over ``MAX_MESSAGE_CHARS`` or looking like
binary data becomes an error message (its text kept); messages after the first ``MAX_MESSAGES`` become error
messages without being parsed; a batch over ``MAX_BATCH_BYTES`` or with more than ``HARD_MAX_MESSAGES`` messages
raises ``BatchTooLarge`` with a readable reason (nothing parsed).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, datetime, timezone

MAX_BATCH_BYTES = 4 * 1024 * 1024  # whole pasted batch / input file(s), UTF-8 bytes
MAX_MESSAGE_CHARS = 20_000  # one message; the longest real NOTAMs/TFR texts are a few thousand characters
MAX_MESSAGES = 10_000  # messages per batch; later ones become error records without being parsed
HARD_MAX_MESSAGES = 2 * MAX_MESSAGES  # beyond this the whole batch is refused (BatchTooLarge), nothing parsed
LIMITS = {
    "max_batch_bytes": MAX_BATCH_BYTES,
    "max_message_chars": MAX_MESSAGE_CHARS,
    "max_messages": MAX_MESSAGES,
    "hard_max_messages": HARD_MAX_MESSAGES,
}


class BatchTooLarge(ValueError):
    """The whole batch is over ``MAX_BATCH_BYTES``; nothing was parsed."""


@dataclass
class Message:
    """One message of a batch: its 0-based index, its verbatim text, an error if it cannot be processed, and the day
    it was received where its feed says (a JSONL line's ``received``): what a date of prose without a year is read
    against."""

    index: int
    text: str
    error: str | None = None
    source_id: str | None = None
    received: date | None = None


# A NOTAM header: series letter(s) + number / year + NOTAMN|R|C. US domestic-style ICAO ids ("10/102 NOTAMN") have
# no series letter. Preceded by the start of the text, whitespace or the '(' that wraps an ICAO message.
_HEADER_RE = re.compile(r"(?:(?<=\s)|^)\(?\s?[A-Z]{0,2}\d{1,5}/\d{2,5}\s+NOTAM[NRC]\b")
_FAA_LINE_RE = re.compile(r"^[ \t]*!", re.M)
_BLANK_RE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_ITEM_START_RE = re.compile(r"^\s*[A-GQ]\)")
# a notice title: a short line that ENDS with 通告/公告/通知 (closing quote or a number "（第3号）" allowed), e.g.
# "深圳市公安局关于无人机临时禁飞的通告"; a body line that only mentions it ("现通告如下：") is not a title
_CN_TITLE_RE = re.compile(
    r"^[^\n]{0,80}(?:通告|公告|通知)\s*[》」』”\"）)]?\s*"
    r"(?:[（(〔\[]\s*(?:第\s*)?[\d一二三四五六七八九十〇零]+\s*号\s*[）)〕\]])?\s*$",
    re.M,
)
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LABEL_RE = re.compile(r"^[ \t]*([A-Z][A-Za-z()/' -]{2,40}?)[ \t]*:(?!\d)", re.M)
_BINARY_RE = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _blocks(text: str) -> list[tuple[int, int]]:
    """Half-open ranges of the blank-line separated blocks (whitespace around them excluded)."""
    out, pos = [], 0
    for m in _BLANK_RE.finditer(text):
        out.append((pos, m.start()))
        pos = m.end()
    out.append((pos, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def _is_cjk_heavy(s: str) -> bool:
    return len(_CJK_RE.findall(s[:400])) >= 5


def _starts_message(block: str) -> bool:
    b = block.lstrip()
    return bool(
        _HEADER_RE.match(b)
        or b.startswith("!")
        or b.startswith("Q)")
        or (_CN_TITLE_RE.match(b.split("\n", 1)[0]) and _is_cjk_heavy(b))
    )


class _Open:
    """The message being merged from blank-line blocks, with what the merge rules ask of it kept up to date block by
    block (so that merging k blocks reads each block once: never the whole message again)."""

    def __init__(self, text: str, s: int, e: int):
        self.start, self.end = s, e
        head = text[s : s + 400]
        self.icao = bool(_HEADER_RE.search(head[:200]) or "Q)" in head)
        lead = head.lstrip()
        self.wrapped = lead.startswith("(")
        self.faa = lead.startswith("!")
        self.opens = self.closes = 0
        self.has_fg = False
        self.labels: set[str] = set()
        self.add(text, s, e)

    def add(self, text: str, s: int, e: int) -> None:
        block = text[s:e]
        self.end = e
        self.opens += block.count("(")
        self.closes += block.count(")")
        self.has_fg = self.has_fg or _FG_RE.search(block) is not None
        self.labels.update(lab.strip().lower() for lab in _LABEL_RE.findall(block))
        self.ends_closed = block.rstrip().endswith(")")

    def cjk_heavy(self, text: str) -> bool:
        return _is_cjk_heavy(text[self.start : min(self.end, self.start + 400)])

    def icao_complete(self) -> bool:
        """An ICAO NOTAM is complete once its wrapping parentheses close or its last item (G, else F) is there.
        Until then a following blank-line block still belongs to it if the NOTAM is wrapped in '(' or the block
        carries the missing F)/G) items (a remark paragraph after a blank line, then ``F) SFC G) FL410``)."""
        if self.wrapped:
            return self.ends_closed and self.opens <= self.closes
        return self.has_fg


_FG_RE = re.compile(r"(?:^|\s)[FG]\)")


def _too_many(n: int) -> BatchTooLarge:
    return BatchTooLarge(
        f"batch has more than {HARD_MAX_MESSAGES} messages ({n}+); split it into batches of at most {MAX_MESSAGES}"
    )


def _merge_blocks(text: str) -> list[tuple[int, int]]:
    """Blank-line blocks merged where a block continues the message before it (linear in the text)."""
    merged: list[_Open] = []
    blocks = _blocks(text)
    if len(blocks) > 4 * HARD_MAX_MESSAGES:  # refuse early: even merged paragraphs cannot get under the limit
        raise _too_many(len(blocks) // 4)
    for s, e in blocks:
        block = text[s:e]
        if merged and not _starts_message(block):
            prev = merged[-1]
            continues = (
                (prev.icao and _ITEM_START_RE.match(block) is not None)
                or (prev.icao and not prev.icao_complete() and (prev.wrapped or _FG_RE.search(block) is not None))
                or (prev.cjk_heavy(text) and (_is_cjk_heavy(block) or (len(block.strip()) <= 20 and _CJK_RE.search(block)))
                    and not _CN_TITLE_RE.match(block.split("\n", 1)[0]))  # a short closing line ("特此通告。") too
            )
            if not continues and not prev.icao and prev.labels and _LABEL_RE.match(block.lstrip()):
                # a web page (FAA TFR) pasted as "Label : value" sections: one document until a label repeats
                mine = {lab.strip().lower() for lab in _LABEL_RE.findall(block)}
                continues = not (prev.labels & mine) and not prev.faa
            if continues:
                prev.add(text, s, e)
                continue
        merged.append(_Open(text, s, e))
    return [(m.start, m.end) for m in merged]


def _split_inside(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """Split one merged block at every NOTAM header / FAA '!' line after its start (back-to-back messages)."""
    cuts = set()
    chunk = text[s:e]
    for m in _HEADER_RE.finditer(chunk):
        if m.start() > 0:
            cuts.add(m.start())
    for m in _FAA_LINE_RE.finditer(chunk):
        if m.start() > 0:
            cuts.add(m.start())
    if len(cuts) > HARD_MAX_MESSAGES:
        raise _too_many(len(cuts))
    # A headerless "Q)" line starts a second message only when the part since the previous cut has its own Q).
    fixed = sorted(cuts)
    last_q = 0
    for m in re.finditer(r"^[ \t]*Q\)", chunk, re.M):
        k = bisect_right(fixed, m.start()) - 1
        last = max(fixed[k] if k >= 0 else 0, last_q)
        if m.start() > 0 and "Q)" in chunk[last : m.start()]:
            cuts.add(m.start())
            last_q = m.start()
            if len(cuts) > HARD_MAX_MESSAGES:
                raise _too_many(len(cuts))
    # A short preamble before the first header (AFTN lines "GG EGGNYNYX / 291200 EGGNYNYX", a title) is not a
    # message of its own: it stays with the NOTAM that follows it.
    if cuts:
        first = min(cuts)
        pre = chunk[:first]
        if len(pre.strip()) <= 200 and not _HEADER_RE.match(pre.lstrip()) and not pre.lstrip().startswith("!") \
                and "Q)" not in pre and not re.search(r"\d{4,6}(?:\.\d+)?\s?[NS]\s?\d{5,7}", pre):
            cuts.discard(first)
    bounds = [0, *sorted(cuts), len(chunk)]
    out = []
    for a, b in zip(bounds, bounds[1:]):
        piece = chunk[a:b]
        lead = len(piece) - len(piece.lstrip())
        piece_s, piece_e = s + a + lead, s + a + len(piece.rstrip())
        if piece_e > piece_s:
            out.append((piece_s, piece_e))
    return out


def _check(msg: Message) -> Message:
    """Per-message limits and unreadable content -> ``error`` (text kept)."""
    if _SURROGATE_RE.search(msg.text):  # (a Python string can hold them; UTF-8 output cannot)
        msg.text = _SURROGATE_RE.sub("\ufffd", msg.text)
        msg.error = msg.error or ("message holds unpaired UTF-16 surrogates, which are not Unicode text (shown as "
                                  "U+FFFD); not parsed")
    if msg.error:
        return msg
    if len(msg.text) > MAX_MESSAGE_CHARS:
        msg.error = f"message is {len(msg.text)} characters, over the limit of {MAX_MESSAGE_CHARS}; not parsed"
    elif len(_BINARY_RE.findall(msg.text)) > max(3, len(msg.text) // 20):
        msg.error = "message looks like binary data (control or undecodable bytes); not parsed"
    return msg


def _apply_count_limit(msgs: list[Message]) -> list[Message]:
    for m in msgs[MAX_MESSAGES:]:
        if not m.error:
            m.error = f"batch has more than {MAX_MESSAGES} messages; message {m.index + 1} not parsed"
    return msgs


def check_batch_size(text: str | bytes, size: int | None = None) -> None:
    """Raise ``BatchTooLarge`` when the batch is over ``MAX_BATCH_BYTES``: ``size`` bytes when the caller measured
    the input as it was given (the CLI: before undecodable bytes became U+FFFD), else the text's UTF-8 length."""
    if size is None:
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BATCH_BYTES:
        raise BatchTooLarge(f"input is {size} bytes, over the limit of {MAX_BATCH_BYTES} bytes; split it into "
                            "smaller batches")


def split_batch(text: str, *, input_bytes: int | None = None) -> list[Message]:
    """Split pasted text into messages (see the module doc). Every non-blank character lands in some message.

    ``input_bytes``: the size of the input as given, when the caller decoded it (the size limit applies to it)."""
    check_batch_size(text, input_bytes)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    ranges: list[tuple[int, int]] = []
    for s, e in _merge_blocks(text):
        ranges.extend(_split_inside(text, s, e))
        if len(ranges) > HARD_MAX_MESSAGES:
            raise _too_many(len(ranges))
    msgs = [_check(Message(index=i, text=text[s:e])) for i, (s, e) in enumerate(ranges)]
    return _apply_count_limit(msgs)


class _BigInteger:
    """A JSON integer too long for Python to convert (over 4,300 digits): kept as its digits, so that a huge number
    in some field costs nothing but its own line's record (it is never a string: ``{"text": 1000…}`` stays refused)."""

    __slots__ = ("digits",)

    def __init__(self, digits: str):
        self.digits = digits

    def __str__(self) -> str:
        return self.digits


def _int_or_digits(digits: str) -> int | _BigInteger:
    return int(digits) if len(digits) <= 4000 else _BigInteger(digits)


class _DuplicateText(ValueError):
    pass


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object's members; a ``text`` key given twice is refused (which one is the message is not known)."""
    if sum(1 for k, _ in pairs if k == "text") > 1:
        raise _DuplicateText
    return dict(pairs)


def _json_line(i: int, line: str) -> Message:
    try:
        obj = json.loads(line, parse_int=_int_or_digits, object_pairs_hook=_pairs)
    except _DuplicateText:
        return Message(index=i, text=line, error=f"line {i + 1}: the object has the key 'text' more than once; which "
                                                 "one is the message is not known, so the line is not parsed")
    except json.JSONDecodeError as exc:
        return Message(index=i, text=line, error=f"line {i + 1}: not valid JSON ({exc.msg} at character {exc.pos + 1})")
    except RecursionError:
        return Message(index=i, text=line, error=f"line {i + 1}: not valid JSON here (nested too deeply)")
    except ValueError:  # any other number or string the decoder refuses
        return Message(index=i, text=line, error=f"line {i + 1}: not valid JSON here (a value cannot be read)")
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        return Message(index=i, text=line, error=f"line {i + 1}: expected an object with a string 'text' field")
    if _SURROGATE_RE.search(obj["text"]):  # "\ud800" escaped in the JSON: valid JSON, not Unicode text
        return Message(index=i, text=line, error=f"line {i + 1}: the 'text' holds an unpaired UTF-16 surrogate "
                                                 "escape (\\ud800-\\udfff), which is not Unicode text; not parsed")
    sid = obj.get("id")
    sid = None if sid is None else _SURROGATE_RE.sub("\ufffd", str(sid))[:200]
    received = None
    if obj.get("received") is not None:
        try:  # "2022-11-10", or the ISO instant a feed stamps ("2022-11-10T08:00:00Z"): its UTC day
            received = _received_day(obj["received"])
        except ValueError:
            return Message(index=i, text=line, error=f"line {i + 1}: 'received' is not an ISO date "
                                                     f"({str(obj['received'])[:40]!r}); the line is not parsed")
    return _check(Message(index=i, text=obj["text"], source_id=sid, received=received))


def _received_day(value: object) -> date:
    """A feed's ``received`` stamp -> its day (an instant with an offset: its UTC day). ``ValueError`` otherwise."""
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        raise ValueError("not an ISO date")
    if len(value) == 10:
        return date.fromisoformat(value)
    t = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return (t.astimezone(timezone.utc) if t.tzinfo is not None else t).date()


def read_jsonl(text: str, *, input_bytes: int | None = None) -> list[Message]:
    """One JSON object per line with a ``text`` field; the message index is the line index (blank lines skipped).

    A line that is not such an object (or whose text is not Unicode text) becomes a ``Message`` with an ``error``
    (its raw line as text). ``input_bytes`` as for ``split_batch``.
    """
    check_batch_size(text, input_bytes)
    text = text.removeprefix("\ufeff")  # a byte-order mark an editor put before the first line
    lines = text.split("\n")
    if sum(1 for line in lines if line.strip()) > HARD_MAX_MESSAGES:
        raise _too_many(HARD_MAX_MESSAGES)
    msgs = [_json_line(i, line) for i, line in enumerate(lines) if line.strip()]
    for m in msgs:
        if _SURROGATE_RE.search(m.text):  # a raw line handed over as a Python string with surrogates in it
            _check(m)
    return _apply_count_limit(msgs)
