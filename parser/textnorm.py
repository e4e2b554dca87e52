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

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _map_char(ch: str) -> str:
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:
        return chr(code - 0xFEE0)
    if code in (0x3000, 0x00A0, 0x2007, 0x202F):
        return " "
    if 0x2010 <= code <= 0x2015 or code == 0x2212:
        return "-"
    return ch


def clean_with_map(text: str) -> tuple[str, list[int], list[int]]:
    """Return ``(clean, starts, ends)``: clean[i] came from ``text[starts[i]:ends[i]]``."""
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
                    out.append(_map_char(dec))
                    starts.append(i)
                    ends.append(m.end())
                    i = m.end()
                    continue
        out.append(_map_char(ch))
        starts.append(i)
        ends.append(i + 1)
        i += 1
    return "".join(out), starts, ends


def clean(text: str) -> str:
    """The cleaned text alone (entities decoded, full-width ASCII folded)."""
    return clean_with_map(text)[0]
