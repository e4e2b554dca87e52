"""Assembling one message's zones: geometry or fallbacks, then each zone's limits, times and schedule.

Per-zone values: when a message has several zones, a limit or a time pair stated on a zone's own line (or, for a
limit, right after its centre: ``PSN c TO 1,500 FT AMSL``) is that zone's own; otherwise F)/G), B)/C), D) (or the
message's free-text statements) are shared by all zones. A TFR page's ``Area X`` blocks state their own times and
altitude; in a Chinese notice with several periods, the last period before a place is that place's own.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right

from airspace.core.contract import FIELDS, Answer, Capabilities, EngineError, ExtractStats, Span, ZoneDraft
from airspace.parser.header import Header, parse_header
from airspace.parser.partial_time import is_warning
from airspace.parser.rules.areas import labelled_sections, section_values
from airspace.parser.rules.blocks import block_of, block_values, blocks
from airspace.parser.rules.chinese import cn_place_radii, cn_whole_area
from airspace.parser.rules.geometry import read_geometry
from airspace.parser.rules.limits import ALT_LINE, limits_in, line_end, message_limits, phrase_limits
from airspace.parser.rules.navwarn import berth_radius, surface_only, zone_periods
from airspace.parser.rules.patterns import (
    ISO_PAIR,
    OBST_AGL,
    OBST_MSL,
    PROSE_DT,
    TIME_PAIR,
    TO_UPPER,
    cn_periods_in,
)
from airspace.parser.rules.readers import WHOLE_AREA_BEFORE, read_fallbacks
from airspace.parser.rules.times import cn_period, read_english, read_local_clock, read_schedule, read_times
from airspace.parser.rules.zone import Message, Zone, body, points_are_hazards, sp

ORDER = ("center", "radius", "polygon", "name", "lower", "upper", "start", "end", "schedule", "date", "tz", "windows")


_AREA_HEAD = re.compile(r"^[ \t]*Area\s+[A-Z0-9]{1,2}[ \t]*$", re.M)
_FROM_TO_PROSE = re.compile(rf"\bFrom\s+(?P<s>{PROSE_DT})\s*\n?\s*To\s+(?P<e>{PROSE_DT})", re.I)


def _area_heads(text: str) -> list[int]:
    return [m.start() for m in _AREA_HEAD.finditer(text)]


def _area_block(text: str, pos: int, heads: list[int]) -> tuple[int, int] | None:
    """The ``Area X`` block of a TFR web page holding offset ``pos`` (each area states its own times and altitude)."""
    if len(heads) < 2:
        return None
    k = bisect_right(heads, pos) - 1
    if k < 0:
        return None
    return heads[k], heads[k + 1] if k + 1 < len(heads) else len(text)


def _block_values(text: str, pos: int, heads: list[int]) -> dict[str, Span]:
    """Times (``From … To …``) and altitude (``Altitude: …``) stated in the TFR area block holding ``pos``."""
    blk = _area_block(text, pos, heads)
    if blk is None:
        return {}
    out: dict[str, Span] = {}
    m = ALT_LINE.search(text, *blk)
    if m:
        out.update(phrase_limits(text, *m.span("v")))
    m = _FROM_TO_PROSE.search(text, *blk)
    if m:
        out["start"], out["end"] = sp(text, *m.span("s")), sp(text, *m.span("e"))
    return out


# what makes a lone position an obstacle in the air, not a hazard to ships: its height or what stands there
_AIR_OBSTACLE = re.compile(r"\b(?:OBST\w*|CRANES?|MASTS?|TOWERS?|TURBINES?|CHIMNEYS?|ANTENNAS?|PYLONS?|HGT|HEIGHT|AGL"
                           r"|AMSL|ELEV\w*|FT|FEET)\b", re.I)


def read_zones(m: Message) -> list[Zone]:
    """The zones of a message: its geometry (``geometry.read_geometry``), else the first fallback reader that
    finds one (``readers.FALLBACKS``), with a whole Chinese administrative area added beside them."""
    text, lo, hi = m.text, m.lo, m.hi
    zones = read_geometry(text, lo, hi)
    if zones and all(z.kind == "point" for z in zones) and not points_are_hazards(m.h):
        zones = []  # coordinates in an aerodrome/facility notice (threshold positions, ARP): not zones
    zones, source = read_fallbacks(m, zones)
    if zones and source < WHOLE_AREA_BEFORE:
        zones = cn_whole_area(text, lo, hi, zones)
    return cn_place_radii(text, lo, hi, zones)


def _point_height(text: str, zones: list[Zone], i: int, lo: int, hi: int) -> dict[str, Span]:
    """An obstacle's height after its position, else before it ("HGT 450FT AGL AT c", "HGT: 4613 FT AMSL, PSN: c")
    but not before the previous point's position."""
    z = zones[i]
    after = (z.anchor_end, min(hi, z.anchor_end + 150))
    before = (max(lo, z.anchor - 100, zones[i - 1].anchor_end if i else lo), z.anchor)
    for rx, a, b in ((OBST_AGL, *after), (OBST_MSL, *after), (OBST_AGL, *before), (OBST_MSL, *before)):
        ms = list(rx.finditer(text, a, b))
        if ms:
            m = ms[0] if a == after[0] else ms[-1]  # the one nearest the position
            g = next(k for k in ("agl", "msl", "msl2") if k in m.re.groupindex and m.group(k))
            return {"upper": sp(text, *m.span(g))}
    return {}


_BREAK_RUN = re.compile(r"\s+")


def _own_limits(text: str, zones: list[Zone], i: int, hi: int) -> dict[str, Span]:
    """Limits stated on a zone's own line first; else up to the next zone (the last zone: its next line only)."""
    z = zones[i]
    last = i + 1 == len(zones)
    nxt = hi if last else zones[i + 1].anchor
    end = line_end(text, z.anchor_end, hi)
    # the next line starts after the whole break: "\n", a run of blanks, or both ("…033026E    \nGND-50M AGL":
    # blanks left at a line's end, as many feeds leave them)
    brk = _BREAK_RUN.match(text, end)
    nxt_line = min(brk.end() if brk is not None else end + 1, hi)
    first: dict[str, Span] = {}
    for seg_end in (min(nxt, end), min(nxt, line_end(text, nxt_line, hi)) if last else nxt):
        m = TO_UPPER.match(text[z.anchor_end : seg_end])
        if m:
            local = {"upper": sp(text, z.anchor_end + m.start("hi"), z.anchor_end + m.end("hi"))}
        else:
            local = limits_in(text, z.anchor_end, seg_end)
        if "lower" in local and "upper" in local:
            return local
        first = first or local
    # (a range cut by a line break, "FM SFC TO\nFL100", reads whole from the longer segment; one side alone is the
    # own line's)
    return first


def _area_values(text: str, blk: tuple[int, int], own: list[Span], h: Header, labelled: bool) -> dict[str, Span]:
    """What an area's block states for its zone: an ``AREA 1`` / ``（一）`` block's limits, period and daily
    window; a labelled section's (``areas``) also in the message readers' other forms."""
    return section_values(text, blk, own, h) if labelled else block_values(text, blk, own)


_PARAGRAPH = re.compile(r"[^\n]+")


def _paragraph_values(text: str, zones: list[Zone], lo: int, hi: int
                      ) -> tuple[list[dict[str, Span]], list[tuple[int, int] | None]]:
    """Places of prose each in a paragraph of its own, each paragraph writing its own period or limits ("From July 20
    at 9:00am to July 21 at 11:00am, drones … 700ft AGL within 10km radius of A." / "A No Fly Zone … from 2:00pm
    until 9:00pm of July 22 … B."): what a place's paragraph states is that place's own. Also, for each place, its
    paragraph where that paragraph writes a limit (a paragraph that writes one limit leaves the other unstated, not
    another paragraph's), else None. ``{}`` and None each where the places are not so written (two in one paragraph,
    or fewer than two)."""
    none: tuple[list[dict[str, Span]], list[tuple[int, int] | None]] = ([{} for _ in zones], [None for _ in zones])
    if len(zones) < 2 or any(z.kind != "named" for z in zones):
        return none
    paras = [p.span() for p in _PARAGRAPH.finditer(text, lo, hi)]
    starts = [a for a, _ in paras]
    idx = [bisect_right(starts, z.anchor) - 1 for z in zones]
    if len(set(idx)) != len(zones) or min(idx) < 0:
        return none
    values, limited = [], []
    for k in idx:
        limits = limits_in(text, *paras[k])
        values.append({**limits, **_paragraph_times(text, *paras[k])})
        limited.append(paras[k] if limits else None)
    return values, limited


def _paragraph_times(text: str, a: int, b: int) -> dict[str, Span]:
    """The period one paragraph writes, read as the message's is (``read_times``, else English prose) from that
    paragraph alone; its spans are the message's."""
    sub = text[a:b]
    h = parse_header(sub)
    found = read_times(sub, h, 0, len(sub)) or read_english(sub, 0, len(sub), within=True)
    return {k: Span(v.start + a, v.end + a, v.text) for k, v in found.items()}


def rules_drafts(text: str, header: Header | None = None) -> list[ZoneDraft]:
    """Zones of one message with their exact spans. ``[]`` for a cancellation or a message with nothing to read."""
    h = header or parse_header(text)
    if h.notam_type == "C":
        return []
    msg = Message.of(text, h)
    lo, hi = msg.lo, msg.hi
    zones = read_zones(msg)
    if not zones:
        return []
    msg_limits = message_limits(text, h, lo, hi)
    times = read_times(text, h, lo, hi)
    sched = read_schedule(text, h, lo, hi)
    if not times and h.kind == "other" and (clock := read_local_clock(text, lo, hi)):
        times = clock  # clock-only times of a note whose day and time zone are stated apart
        if sched is not None and sched.start <= clock["start"].start < sched.end:
            sched = None  # (the same "0930-1600 local" is the period, not a daily schedule)
    if not times and h.kind == "other":
        times = read_english(text, lo, hi)
    cn_spans = cn_periods_in(text) if any(z.kind == "named" for z in zones) else []
    # (one end of a range written in the text is not a zone's that states the other end itself: "- between GND
    # and 3000ft AGL; … - 3.7 nautical miles ring around c 600 m AGL and below" leaves the last ring's floor
    # unstated, not another area's "GND"; F) and G) speak for every zone)
    pair = msg_limits.get("lower"), msg_limits.get("upper")
    in_text = (None not in pair and lo <= pair[0].start and pair[1].start < hi
               and 0 <= pair[1].start - pair[0].end <= 12)  # (written as one range: "between GND and 3000ft AGL")
    drafts: list[ZoneDraft] = []
    heads = _area_heads(text)
    # a navigational warning states each item's (or each lettered area's) period before its areas
    navwarn = h.kind == "other" and is_warning(text)
    # (lone positions in free text without a warning's series line are surface hazards alike, "SHOAL IN 12-34N …",
    # where nothing says they stand in the air: an obstacle's height, a crane, a mast)
    if navwarn or (h.kind == "other" and zones and all(z.kind == "point" for z in zones)
                   and _AIR_OBSTACLE.search(text, lo, hi) is None):
        zones = [z for z, ships in zip(zones, surface_only(text, lo, hi, [z.anchor for z in zones])) if not ships]
        if not zones:
            return []
    periods = zone_periods(text, lo, hi, [z.anchor for z in zones]) if navwarn else [{} for _ in zones]
    # a notice listing its areas in blocks ("1. AREA 1 … 2. AREA 2 …", "（一）…；（二）…"), a zone in each: what a
    # block states is its zone's own
    # (or numbered by any label of a hand-written list, ``areas``: "第3处：…", "B区：…", "(2) …", "AREA B: …")
    bl = [] if navwarn else blocks(text, lo, hi)
    labelled, named = not bl and not navwarn, False
    if labelled:
        bl, named = labelled_sections(text, lo, hi)
    in_block = [block_of(bl, z.anchor) for z in zones]
    # (every block one zone: several zones in a block, or zones outside any, leave the block's values unclear; a
    # zone alone in a list of areas labelled as areas, "区域一：… 区域二：…", is its own area's all the same)
    own = None not in in_block and len(set(in_block)) == len(zones) >= (1 if named else 2)
    own_blocks = [
        _area_values(text, bl[k], [s for f, s in z.fields.items() if f in ("polygon", "center", "name", "radius")],
                     h, labelled)
        if own and k is not None else {}
        for z, k in zip(zones, in_block)
    ]
    limited: list[tuple[int, int] | None] = [None for _ in zones]
    if h.kind == "other" and not navwarn and not own:
        own_blocks, limited = _paragraph_values(text, zones, lo, hi)
    for i, z in enumerate(zones):
        fields = dict(z.fields)
        local: dict[str, Span] = {}
        if z.kind == "point":
            local = _point_height(text, zones, i, lo, hi)
            if navwarn and len(zones) == 1 and (berth := berth_radius(text, z.anchor_end, hi)) is not None:
                fields["radius"] = berth
        elif z.local_limits:
            local = _own_limits(text, zones, i, hi)
        for k in ("lower", "upper"):
            if k in local:
                fields[k] = local[k]
            elif k in msg_limits and not (in_text and local):
                fields[k] = msg_limits[k]
        fields.update(times)
        if z.local_limits and not h.item("B"):  # a list of zones each with its own times ("…, 2311300800-2311301800")
            nxt = zones[i + 1].anchor if i + 1 < len(zones) else hi
            # (FAA text wraps its lines anywhere: a ring's sentence runs to the next ring, "… OR THE\nRIS136016.7 …
            # EFFECTIVE … UNTIL …")
            seg_end = nxt if h.kind == "faa" else min(nxt, line_end(text, z.anchor_end, hi))
            m = TIME_PAIR.search(text, z.anchor_end, seg_end) or ISO_PAIR.search(text, z.anchor_end, seg_end)
            if m:
                fields["start"], fields["end"] = sp(text, *m.span("s")), sp(text, *m.span("e"))
        if periods[i]:
            for k in ("start", "end", "schedule"):
                fields.pop(k, None)
            fields.update(periods[i])
        if (para := limited[i]) is not None:  # (a paragraph's own limits: the side it leaves out is unstated)
            for k in ("lower", "upper"):
                if k not in own_blocks[i] and k in fields and not para[0] <= fields[k].start < para[1]:
                    del fields[k]
        fields.update(own_blocks[i])
        for k, v in _block_values(text, z.anchor, heads).items():  # a TFR page's own values per area
            fields[k] = v
        if z.kind == "named" and not h.item("B") and len(cn_spans) > 1:
            # a notice with several periods, each followed by its area ("8月8日0时至9月1日0时，A。9月1日0时至…，B"):
            # the last period written before the place is the place's own
            before = [r for r in cn_spans if r.end() <= z.anchor]
            if before:
                fields.update(cn_period(text, before[-1]))
        if sched is not None and not periods[i] and "schedule" not in own_blocks[i]:
            fields["schedule"] = sched
        ordered = {k: fields[k] for k in ORDER if k in fields}
        # (a span no field of the answer holds, a warning's ``windows``, is grounding for the validator only)
        values = {k: s.text for k, s in ordered.items() if k in FIELDS}
        if any(d.values == values for d in drafts):
            continue  # the same zone written again ("… - 185727N1052018E - …" in several route lines): one zone
        drafts.append(ZoneDraft(values=values, spans=ordered))
    return drafts


def message_times(text: str, header: Header | None = None) -> ZoneDraft:
    """Only the start/end of a message (for a record of a message that defines no zone)."""
    h = header or parse_header(text)
    lo, hi = body(text, h)
    times = read_times(text, h, lo, hi)
    if not times and h.kind == "other":
        times = read_english(text, lo, hi)
    return ZoneDraft(values={k: s.text for k, s in times.items()}, spans=dict(times))


def rules_zones(text: str) -> list[dict[str, str]]:
    """Zones of one message as field -> verbatim value (the drafts without their spans)."""
    return [dict(d.values) for d in rules_drafts(text)]


class RulesExtractor:
    """The deterministic engine, under the same contract as the model engines: drafts with exact spans."""

    name = "rules"
    # one message at a time (each read counts in its own message's time budget); the reading model engines are
    # cross-checked against, so not checked itself; a message it finds nothing in that has no header, Q-line,
    # coordinates or times is one it did not understand; no checkpoint, no model statistics
    capabilities = Capabilities(per_message=True, cross_checked=False, says_not_understood=True, model=False)

    def extract(self, messages: list[str]) -> tuple[list[Answer], ExtractStats]:
        t0 = time.perf_counter()
        answers: list[Answer] = []
        for text in messages:
            try:
                answers.append(rules_drafts(text))
            except Exception:  # noqa: BLE001 - one unreadable message must not take the batch down
                answers.append(EngineError("the engine could not produce an answer for this message"))
        return answers, ExtractStats(engine=self.name, messages=len(messages), wall_s=time.perf_counter() - t0)
