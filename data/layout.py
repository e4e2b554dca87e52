"""Layout variants of a real message: the same notice as another feed would lay it out.

Most of the archive's ICAO rows come from one feed that collapses each line break to blanks and appends a
``CREATED: … SOURCE: …`` tail; a quarter keep one item per line. Other feeds put every item on its own line, wrap
item E at 60-80 columns, write ``B)2605250150`` without a blank, or carry no tail. The words and the values are
the same, so a model should read them the same; it only does if it has seen them. ``variant`` lays a silver row
out anew by whitespace edits alone (and by dropping the feed's tail, which holds no value) and carries its spans
through the edits; ``airspace.data.silver`` keeps a variant only where the rules reader reads it to the same spans.

Pure functions: nothing here reads a file or a model.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

# an ICAO item letter where it opens an item: after a blank or at the start (never inside 'ADS B)' words, nor a
# designator's suffix 'VOD175(A)': the letter stands alone)
ITEM = re.compile(r"(?:(?<=\s)|^)([QA-G])\)")
BLANKS = re.compile(r"[ \t]*\r?\n[ \t\r\n]*|[ \t]{2,}")
TAIL = re.compile(r"\s+CREATED:\s.*$", re.S)
_LINE_BLANKS = re.compile(r"[ \t]+")


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new``."""

    start: int
    end: int
    new: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    out, pos = [], 0
    for e in edits:
        out.append(text[pos:e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def move(offset: int, edits: list[Edit], *, is_end: bool) -> int:
    """Where ``offset`` of the old text lands in the new one. An insertion exactly at a span's start moves the
    span right; at a span's end it stays outside the span."""
    shift = 0
    for e in edits:
        if e.end < offset or (e.end == offset and not (is_end and e.start == e.end)):
            shift += len(e.new) - (e.end - e.start)
    return offset + shift


def _protected(spans: list[dict]) -> list[tuple[int, int]]:
    """Span interiors no edit may touch: every field's but a polygon's (a vertex list wraps and is read across
    lines; a time, a limit or a schedule is kept as written)."""
    return [(s, e) for z in spans for k, (s, e) in z.items() if k != "polygon"]


def _free(start: int, end: int, protected: list[tuple[int, int]]) -> bool:
    return not any(start < pe and end > ps for ps, pe in protected)


def _clean(edits: list[Edit], protected: list[tuple[int, int]]) -> list[Edit]:
    """Sorted, non-overlapping edits outside the protected interiors (the earlier of two overlapping ones wins)."""
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if not _free(e.start, e.end, protected):  # (an insertion inside a span too: ps < start == end < pe)
            continue
        if out and (e.start < out[-1].end or e.start == out[-1].start):
            continue
        out.append(e)
    return out


def one_line(text: str, rng: random.Random) -> list[Edit]:
    """Every line break (with the blanks around it) becomes two blanks, or one, as collecting feeds store it."""
    rep = rng.choice(("  ", "  ", " "))
    return [Edit(m.start(), m.end(), rep) for m in BLANKS.finditer(text) if "\n" in m.group()]


def item_lines(text: str, rng: random.Random) -> list[Edit]:
    """Each item from Q) on begins a line (B) and C) share one now and then, as many feeds write them)."""
    edits = []
    share_bc = rng.random() < 0.4
    q = text.find("Q)")
    for m in ITEM.finditer(text):
        if m.group(1) == "A" and not 0 <= q < m.start():
            continue  # an A) before any Q): not the ICAO item block
        if share_bc and m.group(1) == "C":
            continue
        ws = len(text[:m.start()].rstrip(" \t\r\n"))  # where the blanks before the item begin
        if 0 < ws < m.start():
            edits.append(Edit(ws, m.start(), "\n"))
    tail = re.search(r"[ \t]+(?=CREATED:\s)", text)
    if tail is not None:
        edits.append(Edit(tail.start(), tail.end(), "\n"))
    return edits


def wrap(text: str, rng: random.Random) -> list[Edit]:
    """Break lines at the first blank past a width of 60-80 columns, the way item E is wrapped on the wire."""
    width = rng.choice((60, 64, 69, 72, 80))
    edits, col = [], 0
    for i, ch in enumerate(text):
        if ch == "\n":
            col = 0
            continue
        col += 1
        if ch == " " and col > width and (i + 1 < len(text) and text[i + 1] not in " \n"):
            edits.append(Edit(i, i + 1, "\n"))
            col = 0
    return edits


def tight_items(text: str, rng: random.Random) -> list[Edit]:
    """``B) 2605250150`` written ``B)2605250150``: the blanks after each item letter dropped."""
    out = []
    for m in ITEM.finditer(text):
        ws = _LINE_BLANKS.match(text, m.end())
        if ws is not None:
            out.append(Edit(ws.start(), ws.end(), ""))
    return out


def spaced_items(text: str, rng: random.Random) -> list[Edit]:
    """``B)2605250150`` written ``B) 2605250150``: one blank after each item letter that has none."""
    return [Edit(m.end(), m.end(), " ") for m in ITEM.finditer(text)
            if m.end() < len(text) and not text[m.end()].isspace()]


def single_blanks(text: str, rng: random.Random) -> list[Edit]:
    """Runs of blanks on one line written as one blank."""
    return [Edit(m.start(), m.end(), " ") for m in BLANKS.finditer(text) if "\n" not in m.group()]


def no_tail(text: str, rng: random.Random) -> list[Edit]:
    """The collecting feed's ``CREATED: … SOURCE: …`` tail left off."""
    m = TAIL.search(text)
    return [Edit(m.start(), m.end(), "")] if m else []


_OP_FN = {"one_line": one_line, "item_lines": item_lines, "wrap": wrap, "tight_items": tight_items,
          "spaced_items": spaced_items, "single_blanks": single_blanks, "no_tail": no_tail}


def relayout(text: str, spans: list[dict], op: str, rng: random.Random) -> tuple[str, list[dict]]:
    """One layout op over ``text``: the new text and the spans carried through it."""
    edits = _clean(_OP_FN[op](text, rng), _protected(spans))
    if not edits:
        return text, spans
    new = apply_edits(text, edits)
    moved = [{k: [move(s, edits, is_end=False), move(e, edits, is_end=True)] for k, (s, e) in z.items()}
             for z in spans]
    return new, moved


def choose_ops(text: str, rng: random.Random) -> list[str]:
    """A feed's layout, drawn: a message stored on one line gets one item per line (and its item E wrapped, half
    the time); one laid out in lines gets collapsed; besides, now and then, item letters tight or spaced, single
    blanks, no tail."""
    ops = []
    if "\n" in text.strip():
        ops.append("one_line")
    else:
        ops.append("item_lines")
        if rng.random() < 0.5:
            ops.append("wrap")
    if rng.random() < 0.3:
        ops.append(rng.choice(("tight_items", "spaced_items")))
    if rng.random() < 0.3 and "one_line" in ops:
        ops.append("single_blanks")
    if TAIL.search(text) and rng.random() < 0.6:
        ops.append("no_tail")
    return ops


def variant(text: str, spans: list[dict], rng: random.Random) -> tuple[str, list[dict], list[str]]:
    """A layout variant of a message with its spans: (text, spans, the ops applied, in order)."""
    done = []
    for op in choose_ops(text, rng):
        new, spans2 = relayout(text, spans, op, rng)
        if new != text:
            text, spans = new, spans2
            done.append(op)
    return text, spans, done


def squash(s: str) -> str:
    """A span's text with its blank runs as one blank: how two layouts of one value compare."""
    return " ".join(s.split())
