"""Offline aerodrome lookup (``airspace``'s only geocoder): location identifiers -> reference point.

Identifiers only — ICAO indicators (``SPJC``), FAA location identifiers and IATA codes (``ATL``) — through the
``airportsdata`` package, offline. Used for a zone whose only location is such an identifier (``A) SPJC`` with
nothing else, FAA ``.5NM RADIUS OF ATL``): the zone becomes an approximate circle around the aerodrome reference
point, marked ``approximate`` and sent to review. Place names in free text (``大连梭鱼湾足球场``) are never
geocoded: the design forbids inventing a location.
"""

from __future__ import annotations

import re
from functools import lru_cache

from airspace.core.records import NM_TO_M
from airspace.parser.header import location_codes, parse_header

# Radius of the approximate circle around an aerodrome reference point when the message states none: 5 NM, the
# usual Q-line radius for aerodrome-scope NOTAMs (scope 'A') and wider than a typical ATZ (2–2.5 NM).
AERODROME_RADIUS_M = 5 * NM_TO_M
_IDENT_RE = re.compile(r"^[A-Z]{3,4}$")


@lru_cache(maxsize=4)
def _db(code_type: str) -> dict:
    import airportsdata

    return airportsdata.load(code_type)


def _row(code: str) -> dict | None:
    code = (code or "").strip().upper()
    if not _IDENT_RE.match(code):
        return None
    if len(code) == 4:
        return _db("ICAO").get(code)
    return _db("LID").get(code) or _db("IATA").get(code)  # FAA identifiers first, then IATA


def resolve_icao(code: str) -> tuple[float, float] | None:
    """(lat, lon) of the aerodrome with this identifier (4-letter ICAO, 3-letter FAA LID / IATA), or ``None``
    (unknown code, FIR code such as ``LOVV``, anything that is not 3–4 letters)."""
    row = _row(code)
    return (float(row["lat"]), float(row["lon"])) if row else None


def aerodrome_name(code: str) -> str | None:
    row = _row(code)
    return row.get("name") if row else None


# a published area's designator: ICAO nationality letters + D/R/P/TRA…, a number, an optional suffix ("R5206",
# "VAD 8", "VOD 179A", "UHD418", "VID-165", "GOR 34", "EGD323A")
_DESIGNATOR = re.compile(r"^[A-Z]{1,5}[- ]?\d{1,4}[A-Z]?(?:\s?\([A-Z0-9]\))?$")
_FIR_WORD = re.compile(r"\b(?:FIR|UIR|FIRS|FLIGHT\s+INFORMATION\s+REGIONS?)\b")
_NAME_AND_CODE = re.compile(r"^[A-Z][A-Z .'/-]{1,40}\(\s*[A-Z]{4}\s*\)$")


_OPENERS = {")": "(", "]": "[", "）": "（", "」": "「", "』": "『"}


def place_name(value: str) -> str:
    """A named place's span as its name: blanks collapsed, and a closing bracket that opens nowhere in the span dropped
    (``FIR TEHRAN (OIIX))``: the span ran on to the bracket that closes the sentence around the name, ``(FIR TEHRAN
    (OIIX))``). Pure; the span itself is kept as written."""
    out: list[str] = []
    depth: dict[str, int] = {}
    for ch in " ".join(value.split()):
        opener = _OPENERS.get(ch)
        if opener is not None:
            if depth.get(opener, 0) == 0:
                continue
            depth[opener] -= 1
        elif ch in _OPENERS.values():
            depth[ch] = depth.get(ch, 0) + 1
        out.append(ch)
    return "".join(out).strip()


def named_kind(name: str, text: str) -> str:
    """What a name that locates a zone is: ``"fir"``, ``"area"`` or ``"place"``.

    A FIR: the name says so (``FIR TRIPOLI (HLLL)``, ``KABUL FIR (OAKX)``), it is a ``NAME (CODE)`` item of a
    message about FIRs (``DNIPRO (UKDV)``), or it is a location indicator that the NOTAM's own header makes a
    FIR: A) lists several indicators (a NOTAM for several FIRs), or it is the Q-line's FIR, or the Q-line scope is
    en-route/warning only (no ``A``)."""
    n = " ".join(name.split()).upper()
    if _FIR_WORD.search(n) or (_NAME_AND_CODE.match(n) and _FIR_WORD.search(text.upper())):
        return "fir"
    if re.fullmatch(r"[A-Z]{4}", n):
        h = parse_header(text)
        a = h.item("A")
        codes = [c.text for c in location_codes(a)] if a else []
        q = h.qline
        fir = (q.fir or "").strip().upper() if q else ""
        scope = (q.scope or "").strip().upper() if q else ""
        if n in codes and (len(codes) >= 2 or n == fir or (scope and "A" not in scope)):
            return "fir"
    if _DESIGNATOR.match(n):
        return "area"
    return "place"


# What a place name is not: a piece of the sentence around it. Chinese notices put the place inside a clause
# ("2月1日0时至2月11日24时，在X上空", "南至G6高速以内的区域", "，具有航拍功能的"); a name that starts with a connective or a
# punctuation mark, or holds a date or a clock time, is such a piece.
_CN_NUM = "[0-9０-９零〇一二两兩三四五六七八九十]"
_FRAGMENT = re.compile(
    rf"^[\s，,、。；;：:（(）)]|{_CN_NUM}+\s*(?:月|日|号|號|时|時|点|點)(?!\S*?(?:路|街|道|桥|橋|站|广场|廣場|中学|小学|学校|大学))"
    # (or a purpose a clause opens with: "保障遊客及周邊羣衆安全" is "to keep visitors … safe", never a place)
    r"|^(?:至|到|起|止|及|和|或|并|並|且|具有|具备|具備|禁止|严禁|嚴禁|以内|以內|的|保障|确保|確保|维护|維護|为了|為了|保证|保證"
    r"|根据|根據)"
)
_SIDE = re.compile(r"[东西南北東][\s]*(?:起|至|到|临|臨|邻|鄰|抵)")
# an area bounded by roads or landmarks on its sides: "东起人民路，西至解放路，北起滨河大道，南至G6高速以内的区域" (three or
# four sides, each a short clause): the whole description is the place's name
_BOUND_SIDE = r"[东西南北東]\s*(?:起|至|到|临|臨|邻|鄰|抵)\s*[^，,。；;、\n]{1,30}?"
# (or each side's road first: "人民路以东、建设路以西、解放路以南、中山路以北围合区域")
_SIDE_AFTER = r"[^，,。；;、：:\n\d]{1,30}?以[东西南北東]"
CN_BOUNDED = re.compile(
    rf"(?:{_BOUND_SIDE}(?:\s*[，,、；;]\s*{_BOUND_SIDE}){{2,3}}|{_SIDE_AFTER}(?:\s*[，,、；;]\s*{_SIDE_AFTER}){{2,3}})"
    r"(?=\s*(?:以内|以內|范围内|範圍內|之间|之間|围合|圍合|的|区域|區域|范围|範圍|[，,。；;、\n]|$))"
    r"(?:\s*(?:以内|以內|范围内|範圍內|之间|之間|围合|圍合))?(?:的)?(?:区域|區域|范围|範圍|空域)?"
)
# an area enclosed by the roads (or landmarks) listed along it: "奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域",
# "由人民路、解放路、滨河大道围合的区域": the whole description is the place's name. The list holds no digits, so a
# boundary of coordinates ("由c1、c2、c3围成的范围") is never read as one.
CN_ALONG = re.compile(
    r"[^\s，,。；;：:、\n]{0,20}?(?:沿|由)[^，,。；;：:\n\d０-９°]{2,80}?"
    r"(?:形成|围成|圍成|围合|圍合|合围|合圍|构成|構成)的?(?:合围|合圍|围合|圍合|封闭|封閉)?(?:地域|区域|區域|范围|範圍)"
)
_FUNCTION_WORDS = {"THE", "OF", "AND", "WITHIN", "AROUND", "FROM", "TO", "IN", "AT", "NEAR"}
_TAIL_CLAUSE = re.compile(r"(?:以内|以內|范围内|範圍內|之内|之內)?的?[\s，,。；;：:]*$")
_SENTENCE_END = re.compile(r"[.!?。！？]\s+(?=\S)")


def clause_fragment(name: str) -> str | None:
    """Why ``name`` is a fragment of a sentence rather than a place (``None`` when it reads as a place)."""
    n = " ".join(name.split())
    if not n:
        return "it is empty"
    if _SENTENCE_END.search(n):
        return "it runs across the end of a sentence"
    if _SIDE.match(n) and len(_SIDE.findall(n)) < 3:
        return "it is one side of a bounded area (东起…西至…北起…南至…), not the area"
    if _FRAGMENT.search(n) or n.upper().rstrip(".") in _FUNCTION_WORDS:
        return "it holds a date, a time or a connective of the sentence around it"
    return None


def trim_place(text: str, start: int, end: int) -> tuple[int, int]:
    """A place span without what the clause adds around it: a sentence after it (``Cork Airport. The GAA``) and a
    trailing ``以内的`` / ``的`` / punctuation (``…南至G6高速以内的``)."""
    if (m := _SENTENCE_END.search(text, start, end)) is not None:
        end = m.start()
    seg = text[start:end]
    cut = _TAIL_CLAUSE.search(seg)
    if cut is not None and cut.start() > 0:
        end = start + cut.start()
    while end > start and text[end - 1] in " \t\n.,;:":
        end -= 1
    return start, end


# what ends a run of capitalised words without belonging to the place: punctuation and the small words a name runs
# on with ("Wembley Stadium and", "Palace Grounds, and", "Ciudad de")
_TAIL_WORDS = re.compile(r"(?:[\s.,'’]+|\s+(?:of|de|del|du|al|la|the|and|&))$")


def drop_tail_words(name: str) -> str:
    """``name`` without the punctuation and small words it ends with, however many."""
    while (cut := _TAIL_WORDS.sub("", name)) != name:
        name = cut
    return name

