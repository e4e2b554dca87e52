"""Which UAS restriction class and reasons a zone's own message states: the ED-269 ``restriction``/``reason`` and
the ED-318 ``type``/``reason`` of an exported zone, with a short sentence saying why.

The rule is conservative, because a downstream system lets a drone fly by it:

* every signal is read: the ICAO Q-code of the message (``Q) ZGZU/QRTCA/...``: letters 2-3 the subject, 4-5 the
  condition) and the words of its text (English, FAA and Chinese, simplified and traditional);
* each signal names one class: PROHIBITED (prohibited area, ``PROHIBITED``/``FORBIDDEN``/``NO DRONE``/area closed, an FAA TFR,
  ``禁飞``/``禁止``), REQ_AUTHORISATION (restricted area or airspace reservation, ``PERMISSION REQUIRED``/
  ``PRIOR APPROVAL``, ``管控``/``限制``/``需审批``), CONDITIONAL (danger area, navigation warnings such as UAS
  activity, firing, parachuting; ``报备``: fly after notifying), NO_RESTRICTION (``FOR INFORMATION ONLY``);
* the strictest class named wins: signals that disagree keep the stricter one;
* no signal at all keeps PROHIBITED: a volume read from a NOTAM is a no-fly volume unless its message says less.

Reasons are the values both standards share (ED-269 also has ``FOREIGN_TERRITORY``, ED-318 ``DAR``; neither is
derivable from a NOTAM): ``AIR_TRAFFIC`` for airspace organisation and navigation warnings (Q subjects R*, W*, FAA
space operations), ``EMERGENCY``, ``SENSITIVE``, ``POPULATION``, ``NATURE`` from words and FAA sections, ``OTHER``
when nothing names one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from airspace.core.records import ZoneRecord

PROHIBITED, REQ_AUTHORISATION, CONDITIONAL, NO_RESTRICTION = (
    "PROHIBITED", "REQ_AUTHORISATION", "CONDITIONAL", "NO_RESTRICTION")
ORDER = (PROHIBITED, REQ_AUTHORISATION, CONDITIONAL, NO_RESTRICTION)  # strictest first
# ED-318 CodeZoneType spells the authorisation class with a z (Schema_GeoZoneDataTypes.json#/definitions/zoneType)
ED318_TYPE = {PROHIBITED: "PROHIBITED", REQ_AUTHORISATION: "REQ_AUTHORIZATION", CONDITIONAL: "CONDITIONAL",
              NO_RESTRICTION: "NO_RESTRICTION"}
# the reason values ED-269 and ED-318 share, in the standards' order
REASONS = ("AIR_TRAFFIC", "SENSITIVE", "PRIVACY", "POPULATION", "NATURE", "NOISE", "EMERGENCY", "OTHER")

# ICAO Doc 8126 NOTAM code subjects: the zone kinds that set a class (others name no class)
SUBJECTS: dict[str, tuple[str, str]] = {
    "RP": ("prohibited area", PROHIBITED),
    "RR": ("restricted area", REQ_AUTHORISATION),
    "RT": ("temporary restricted area", REQ_AUTHORISATION),
    "RA": ("airspace reservation", REQ_AUTHORISATION),
    "RD": ("danger area", CONDITIONAL),
    "WA": ("air display", CONDITIONAL),
    "WB": ("aerobatics", CONDITIONAL),
    "WC": ("captive balloon or kite", CONDITIONAL),
    "WD": ("demolition of explosives", CONDITIONAL),
    "WE": ("exercises", CONDITIONAL),
    "WF": ("air refuelling", CONDITIONAL),
    "WG": ("glider flying", CONDITIONAL),
    "WH": ("blasting", CONDITIONAL),
    "WJ": ("banner or target towing", CONDITIONAL),
    "WL": ("ascent of free balloon", CONDITIONAL),
    "WM": ("missile, gun or rocket firing", CONDITIONAL),
    "WP": ("parachute jumping", CONDITIONAL),
    "WR": ("radioactive materials or toxic chemicals", CONDITIONAL),
    "WS": ("burning or blowing gas", CONDITIONAL),
    "WT": ("mass movement of aircraft", CONDITIONAL),
    "WU": ("unmanned aircraft activity", CONDITIONAL),
    "WV": ("formation flight", CONDITIONAL),
    "WW": ("significant volcanic activity", CONDITIONAL),
    "WY": ("aerial survey", CONDITIONAL),
    "WZ": ("model flying", CONDITIONAL),
}
CONDITIONS: dict[str, tuple[str, str | None]] = {
    "CA": ("activated", None),
    "CS": ("established", None),
    "CH": ("changed", None),
    "LW": ("will take place", None),
    "LA": ("operating", None),
    "XX": ("plain language", None),
    "AP": ("available, prior permission required", REQ_AUTHORISATION),
    "LP": ("prohibited", PROHIBITED),
    "LC": ("closed", PROHIBITED),
}

_Q_CODE = re.compile(r"Q\)\s*[A-Z]{4}\s*/\s*Q([A-Z]{2})([A-Z]{2})")

# (pattern, class, what it says); the first match of each class is the one quoted
_WORDS: tuple[tuple[re.Pattern, str, str], ...] = tuple((re.compile(p, re.IGNORECASE), c, s) for p, c, s in (
    (r"\bPROHIBITED\b", PROHIBITED, "'PROHIBITED'"),
    (r"\bFORBIDDEN\b", PROHIBITED, "'FORBIDDEN'"),
    (r"\bNO[- ](DRONES?|UAS|FLY)\b", PROHIBITED, "'NO DRONE / NO FLY'"),
    (r"\b(CLOSED|CLSD) TO (ALL )?(FLIGHTS?|TRAFFIC|ACFT|AIRCRAFT|UAS|DRONES?)\b"
     r"|\b(AREA|AIRSPACE)\b(?:[^.\n]|\.(?=\d)){0,60}\b(CLOSED|CLSD)\b", PROHIBITED, "'AREA CLOSED'"),
    (r"\bTFR\b|TEMPORARY\s+FLIGHT\s+RESTRICTIONS?", PROHIBITED, "FAA temporary flight restriction"),
    (r"\b(91\.1(37|38|39|41|43|45)|99\.7)\b", PROHIBITED, "FAA flight restriction (14 CFR 91.137-91.145 / 99.7)"),
    (r"禁飞|禁飛|禁止", PROHIBITED, "'禁飞/禁止' (prohibited)"),
    (r"\bRESTRICTED\s+(AREA|AIRSPACE)\b", REQ_AUTHORISATION, "'RESTRICTED AREA'"),
    (r"\b(PERMISSION|AUTHORI[SZ]ATION|APPROVAL|CLEARANCE)\s+(IS\s+)?REQUIRED\b", REQ_AUTHORISATION,
     "'PERMISSION/AUTHORIZATION REQUIRED'"),
    (r"\bPRIOR\s+(APPROVAL|PERMISSION|AUTHORI[SZ]ATION)\b|\bPPR\b", REQ_AUTHORISATION, "'PRIOR APPROVAL'"),
    (r"需审批|需審批|审批|審批", REQ_AUTHORISATION, "'需审批' (approval required)"),
    (r"管控|限制", REQ_AUTHORISATION, "'管控/限制' (controlled, restricted)"),
    (r"\bDANGER\s+(AREA|ZONE)\b", CONDITIONAL, "'DANGER AREA'"),
    (r"报备|報備", CONDITIONAL, "'报备' (fly after notifying)"),
    (r"\bFOR\s+INFORMATION\s+ONLY\b|\bNO\s+RESTRICTIONS?\s+(FOR|ON)\s+(UAS|UA|DRONES?)\b", NO_RESTRICTION,
     "'FOR INFORMATION ONLY'"),
))

_REASON_WORDS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.IGNORECASE), r) for p, r in (
    (r"\b91\.13[789]\b|\b(FIRE\s*FIGHTING|WILDFIRE|FOREST FIRE|DISASTER|SEARCH AND RESCUE|RESCUE|EMERGENCY RESPONSE)\b"
     r"|救援|抢险|搶險|火灾|火災", "EMERGENCY"),
    (r"\b(91\.141|99\.7)\b|\b(VIP|PRESIDENTIAL|NATIONAL DEFEN[SC]E|SECURITY|MILITARY|PRISON)\b|安保|安全保卫|军事|軍事",
     "SENSITIVE"),
    (r"\b91\.145\b|\b(SPORTS? EVENTS?|SPORTS CENTRE|STADIUM|MARATHON|CONCERT|PARADE|FESTIVAL|CROWDS?)\b"
     r"|马拉松|馬拉松|赛事|賽事|体育|體育|足球", "POPULATION"),
    (r"\b(NATURE RESERVE|WILDLIFE|NATIONAL PARK|BIRD SANCTUARY)\b|自然保护区|自然保護區", "NATURE"),
    (r"\b91\.143\b|\bSPACE\s+(FLIGHT\s+)?OP(ERATION)?S\b", "AIR_TRAFFIC"),
))


@dataclass(frozen=True)
class Restriction:
    """The class a zone's message states: ``ed269`` the ED-269 restriction, ``ed318`` the ED-318 CodeZoneType,
    ``reasons`` values of both standards' reason enums, ``why`` one sentence an operator reads."""

    ed269: str
    reasons: tuple[str, ...]
    why: str

    @property
    def ed318(self) -> str:
        return ED318_TYPE[self.ed269]


def q_code(text: str) -> tuple[str, str] | None:
    """(subject, condition) of the message's Q-line (``QRTCA`` -> ``("RT", "CA")``), or None."""
    m = _Q_CODE.search(text or "")
    return (m.group(1), m.group(2)) if m else None


def restriction_of_text(text: str) -> Restriction:
    """The restriction class, reasons and why of a message's text (module doc: the strictest signal; none ->
    PROHIBITED)."""
    text = text or ""
    signals: list[tuple[str, str]] = []  # (class, what said it)
    reasons: set[str] = set()
    q = q_code(text)
    if q is not None:
        subject, condition = q
        s_name, s_cls = SUBJECTS.get(subject, (None, None))
        c_name, c_cls = CONDITIONS.get(condition, (None, None))
        said = f"Q-code {subject}{condition}: " + (s_name or f"subject {subject}") + (
            f" {c_name}" if c_name else "")
        if s_cls is not None:
            signals.append((s_cls, said))
        if c_cls is not None:
            signals.append((c_cls, said))
        if subject[0] in "RW":
            reasons.add("AIR_TRAFFIC")
    seen: set[str] = set()
    for pat, cls, said in _WORDS:
        if cls not in seen and pat.search(text):
            seen.add(cls)
            signals.append((cls, f"text {said}"))
    for pat, reason in _REASON_WORDS:
        if pat.search(text):
            reasons.add(reason)
    reason_list = tuple(r for r in REASONS if r in reasons) or ("OTHER",)
    if not signals:
        return Restriction(PROHIBITED, reason_list,
                           "no Q-code or wording names a class: a NOTAM no-fly volume is kept PROHIBITED")
    cls = min((c for c, _ in signals), key=ORDER.index)
    decisive = list(dict.fromkeys(s for c, s in signals if c == cls))
    weaker = list(dict.fromkeys(f"{s} ({c})" for c, s in signals if c != cls and s not in decisive))
    why = "; ".join(decisive)
    if weaker:
        why += " (stricter than " + "; ".join(weaker) + ")"
    return Restriction(cls, reason_list, why)


def restriction_of(rec: ZoneRecord) -> Restriction:
    """The restriction class of a record, read from its message text (``restriction_of_text``)."""
    return restriction_of_text(rec.text)
