"""A notice's identity in the store, and the fingerprint that makes ingest idempotent.

A NOTAM is named by its series, number and year (``A1912/15``) *and* the unit that issued it: the same number is
issued by many FIRs (the real archive holds 392 numbers issued more than once, ``A0235/26`` among them), so the key
is ``<issuer>/<series><number>/<year>`` with the issuer read from the Q-line's FIR, else the first location of
item A). An FAA domestic number already names its location (``BOS 01/502``) and FDC numbers are national. A message
without a number (a Chinese notice, free text) is its own notice, named by its fingerprint: nothing can replace or
cancel it, it leaves the picture at its end.

The fingerprint is SHA-256 of the text with runs of white space made one space: real collectors re-wrap the same
message (newlines collapsed into double spaces), and that is the same message, not a new one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_FIR_RE = re.compile(r"(?:^|[\s(])Q\)\s*([A-Z]{4})\b")
_ITEM_A_RE = re.compile(r"(?:^|[\s(])A\)\s*([A-Z]{4})\b")
_ICAO_NUMBER_RE = re.compile(r"^([A-Z]{0,2})(\d{1,5})/(\d{2,5})$")


def fingerprint(text: str) -> str:
    """SHA-256 (hex) of the message text with white space normalised."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")).hexdigest()


def issuer(text: str) -> str:
    """The issuing FIR/location of an ICAO NOTAM (Q-line FIR, else item A)); '' where the text names none."""
    m = _FIR_RE.search(text) or _ITEM_A_RE.search(text)
    return m.group(1) if m else ""


def normal_number(number: str) -> str:
    """``A0235/26`` and ``A235/26`` are one NOTAM: the number without leading zeros, series and year kept."""
    number = " ".join(number.upper().split())
    m = _ICAO_NUMBER_RE.match(number)
    if m is None:
        return number
    return f"{m.group(1)}{int(m.group(2)):04d}/{m.group(3)}"


def notice_key(number: str | None, text: str, digest: str) -> str:
    """The store key of the notice this message is (see the module doc)."""
    if not number:
        return f"msg:{digest[:24]}"
    if _ICAO_NUMBER_RE.match(number.strip().upper()):
        return f"{issuer(text) or '-'}/{normal_number(number)}"
    return normal_number(number)  # FAA: 'BOS 01/502', 'FDC 4/3473'


def ref_key(ref_number: str | None, text: str) -> str | None:
    """The key of the notice a NOTAMR/NOTAMC names: the same issuer as the message naming it."""
    if not ref_number:
        return None
    return f"{issuer(text) or '-'}/{normal_number(ref_number)}"


@dataclass(frozen=True)
class MessageIdentity:
    key: str
    digest: str
    number: str | None  # the NOTAM number as written, e.g. "A1912/15"
    kind: str  # 'N', 'R', 'C' or '' (a message without a NOTAM type)
    ref: str | None  # the key a NOTAMR/NOTAMC names


def identify(text: str, number: str | None, kind: str | None, ref_number: str | None) -> MessageIdentity:
    digest = fingerprint(text)
    k = kind if kind in ("N", "R", "C") else ""
    return MessageIdentity(key=notice_key(number, text, digest), digest=digest, number=number, kind=k,
                           ref=ref_key(ref_number, text) if k in ("R", "C") else None)
