"""Offset-preserving text clean-up shared by the normalisers.

Real feeds carry HTML entities (``&apos;``), full-width digits and letters in Chinese text (``２公里``) and an
ideographic space. The normalisers match on a cleaned copy, but coordinates found in free text must point back
into the *original* message, so ``clean_with_map`` also returns, for every cleaned character, the original
``[start, end)`` range it came from.

Only safe, local rewrites are done: full-width ASCII (U+FF01..U+FF5E) to ASCII, U+3000 and no-break spaces to a
space, the Unicode hyphens, dashes and minus sign (U+2010..U+2015, U+2212: ``2−nautical−mile``, ``−33.86``,
``2500FT–4500FT``) to ``-``, and HTML character references that decode to one character. No general NFKC: it would turn ``º`` into ``o`` and ``½``
into three characters.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


# The rewrites, each one character for one (so they keep every offset): full-width ASCII to ASCII, the wide and
# no-break spaces to a space, the Unicode hyphens, dashes and minus to "-". A ``str.translate`` table.
_ONE_FOR_ONE = {**{c: chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)},
                **dict.fromkeys((0x3000, 0x00A0, 0x2007, 0x202F), " "),
                **dict.fromkeys((*range(0x2010, 0x2016), 0x2212), "-")}


def clean_with_map(text: str) -> tuple[str, list[int], list[int]]:
    """Return ``(clean, starts, ends)``: clean[i] came from ``text[starts[i]:ends[i]]``."""
    if "&" not in text:
        # Without an entity the map is the identity: the per-character loop below was the rules reader's costliest
        # function on the archive (called ~14 times a message).
        return text.translate(_ONE_FOR_ONE), list(range(len(text))), list(range(1, len(text) + 1))
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "&":
            m = _ENTITY.match(text, i)
            if m:
                dec = html.unescape(m.group(0))
                if len(dec) == 1:
                    out.append(dec)
                    starts.append(i)
                    ends.append(m.end())
                    i = m.end()
                    continue
        out.append(ch)
        starts.append(i)
        ends.append(i + 1)
        i += 1
    return "".join(out).translate(_ONE_FOR_ONE), starts, ends


def clean(text: str) -> str:
    """The cleaned text alone (entities decoded, full-width ASCII folded)."""
    return clean_with_map(text)[0]


# A character that is not text: a C0/C1 control other than the line breaks and tab, DEL, the replacement character
# U+FFFD an undecodable byte became, and the invisible format characters (zero-width, bidirectional overrides, a
# stray byte-order mark). Inside a number it stands for a digit, a sign or a separator that was lost in transit.
DAMAGE_CHARS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff"
_DAMAGE_RUN = re.compile(f"[{DAMAGE_CHARS}]+")
# the characters a number, a coordinate or a limit is written with (ASCII letters for units and hemispheres)
_NUMBERISH = frozenset("0123456789.,:°º′″'\"") | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_TOKEN_CHARS = _NUMBERISH | frozenset("/")


def _is_damage(ch: str) -> bool:
    return _DAMAGE_RUN.fullmatch(ch) is not None


@lru_cache(maxsize=256)
def damaged_numbers(text: str) -> tuple[tuple[int, int], ...]:
    """``[start, end)`` of every number-like token of ``text`` with a damaged character inside it: a run of
    ``DAMAGE_CHARS`` with a digit on one side and a digit, letter or number sign on the other (``42\\x002100N``,
    ``1\\ufffd5NM``, ``2.\\x005NM``, ``FL\\x00100``). The token runs over the number characters on both sides, so
    that a reader that found a value next to the damage (``2100N``, ``5NM``) finds its span inside the token. A
    control character between words, or at the end of the message, is not inside a number."""
    out: list[tuple[int, int]] = []
    n = len(text)
    for m in _DAMAGE_RUN.finditer(text):
        a, b = m.start(), m.end()
        left = text[a - 1] if a > 0 else ""
        right = text[b] if b < n else ""
        if not (left and right and left in _NUMBERISH and right in _NUMBERISH):
            continue
        if not (left.isdigit() or right.isdigit() or left == "." or right == "."):
            continue
        s = a
        while s > 0 and (text[s - 1] in _TOKEN_CHARS or _is_damage(text[s - 1])):
            s -= 1
        e = b
        while e < n and (text[e] in _TOKEN_CHARS or _is_damage(text[e])):
            e += 1
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return tuple(out)


def damaged_number_at(text: str, start: int, end: int) -> str | None:
    """The damaged number token (``damaged_numbers``) that overlaps or touches ``text[start:end]``, or None."""
    for s, e in damaged_numbers(text):
        if s <= end and start <= e:
            return text[s:e]
    return None


def shown(s: str) -> str:
    """``s`` with every control, format and replacement character written as its escape (``\\x00``, ``\\ufffd``),
    so that a reason or a table cell names a damaged character without passing it on."""
    return _SHOW.sub(lambda m: "".join(_escape(c) for c in m.group()), s)


_SHOW = re.compile(f"[{DAMAGE_CHARS}\t\n\r\u0085\u2028\u2029]+")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
