"""ICAO notices about whole FIRs: a closure or prohibition over one or several FIRs, and FIR-wide notices that
define no volume (a trigger NOTAM for an AIP amendment, an area deactivated).

A closure names no boundary: its zones are the FIRs of item A, one zone each (``name``), so the answer points at
each indicator of A). Without F)/G) the limits are the Q-line's lower/upper (``000``/``999``: surface to
unlimited). Real archives carry such notices a few times in a thousand, too few for the models to learn that a
list of indicators in item A is a list of zones; these rows write the form in many phrasings and FIR sets.
"""

from __future__ import annotations

import random
from datetime import timedelta

from . import values as V
from .base import Doc, Example, named, zone

# (country in prose, its FIR indicators, lat, lon): approximate positions, only realism matters
FIR_SETS = [
    ("UKRAINE", ("UKBV", "UKDV", "UKFV", "UKLV", "UKOV"), 49.0, 31.0),
    ("LIBYA", ("HLLL",), 27.0, 17.0),
    ("SUDAN", ("HSSX",), 15.0, 30.0),
    ("SYRIA", ("OSTT",), 35.0, 38.0),
    ("IRAQ", ("ORBB",), 33.0, 44.0),
    ("YEMEN", ("OYSC",), 15.5, 47.5),
    ("SOMALIA", ("HCSM",), 5.0, 46.0),
    ("BELARUS", ("UMMV",), 53.5, 28.0),
    ("IRAN", ("OIIX",), 32.0, 53.0),
    ("LEBANON", ("OLBB",), 33.8, 35.8),
    ("VENEZUELA", ("SVZM",), 7.0, -66.0),
    ("AFGHANISTAN", ("OAKX",), 34.0, 66.0),
    ("ETHIOPIA", ("HAAA",), 9.0, 40.0),
    ("CHAD", ("FTTT",), 15.0, 19.0),
    ("BURKINA FASO", ("DRRR", "DGAC"), 12.3, -1.5),
    ("MYANMAR", ("VYYF",), 20.0, 96.0),
    ("SOUTH SUDAN", ("HSSX", "HKNA"), 7.0, 30.0),
    ("ISRAEL", ("LLLL",), 31.5, 34.9),
    ("MOLDOVA", ("LUUU",), 47.0, 28.8),
    ("NORTH KOREA", ("ZKKP",), 40.0, 127.0),
    # states whose airspace lies in FIRs named for a neighbour: A) lists those FIRs, E) names the state
    ("QATAR", ("OBBB",), 25.3, 51.2),
    ("THE GAMBIA", ("GOOO",), 13.4, -15.5),
    ("TOGO", ("DGAC",), 8.6, 1.0),
    ("BENIN", ("DGAC", "DRRR"), 9.5, 2.3),
    ("MAURITANIA", ("GOOO", "GVSC"), 20.0, -10.5),
    ("KOSOVO", ("LYBA",), 42.6, 20.9),
]
STATES = ("THE RUSSIAN FEDERATION", "BELARUS", "ISRAEL", "IRAN", "THE EUROPEAN UNION", "CANADA", "THE UNITED KINGDOM",
          "MOROCCO", "ALGERIA", "QATAR", "PAKISTAN", "INDIA")
QCODES = ("QAFLT", "QAFXX", "QXXLC", "QARLC", "QRTCA", "QXXXX")


def _other_states(country: str) -> list[str]:
    return [s for s in STATES if country not in s]


def _plural(firs: tuple[str, ...]) -> str:
    return "FIRS" if len(firs) > 1 else "FIR"


def _ban_text(rng: random.Random, country: str, firs: tuple[str, ...], fir_list: str) -> str:
    """A closure to some aircraft only (those of one or two other states, or flying to or from them), in a long
    sentence built from parts: still a closure of the whole airspace, so still one zone per FIR of A) (``fir_list``:
    A)'s FIRs as E) writes them)."""
    others = rng.sample(_other_states(country), rng.choice((1, 1, 2)))
    plural = _plural(firs)
    state = rng.choice(("", "", "THE REPUBLIC OF ", "THE STATE OF ")) + country
    subject = rng.choice((f"THE AIRSPACE OVER THE TERRITORY OF {state}", f"THE AIRSPACE OF {state}",
                          f"{country} AIRSPACE", f"THE {fir_list} {plural}", f"THE NATIONAL AIRSPACE OF {state}"))
    verb = rng.choice(("IS CLOSED", "IS CLOSED", "REMAINS CLOSED", "IS HEREBY CLOSED", "SHALL BE CLOSED"))
    acft = rng.choice(("AIRCRAFT", "AIRCRAFTS", "ACFT"))
    whom = [rng.choice((f"ALL CIVIL AND MILITARY {acft} REGISTERED IN {o}", f"{acft} REGISTERED IN {o}",
                        f"ALL {acft} OPERATED BY AIR CARRIERS OF {o}", f"STATE {acft} OF {o}",
                        f"FOREIGN {acft} DEPARTING FROM OR LANDING AT AN AERODROME IN {o}",
                        f"{acft} ENTERING FROM OR LEAVING FOR THE AIRSPACE OF {o}",
                        f"ALL FLIGHTS TO OR FROM {o}")) for o in others]
    if rng.random() < 0.5:
        whom.append(rng.choice((f"{acft} COMING FROM OR GOING TO THESE STATES", "THEIR CHARTER FLIGHTS",
                                f"CIVIL {acft} OF ANY STATE OPERATING ON THEIR BEHALF")))
    joined = whom[0]
    for w in whom[1:]:
        joined += rng.choice((", ", " AND ", ", AS WELL AS ", " ,  "))
        joined += w
    tail = rng.choice(("", "", " UNTIL FURTHER NOTICE", ", EXCEPT FLIGHTS WITH A SPECIAL AUTHORIZATION OF THE CIVIL "
                       "AVIATION AUTHORITY", ". OVERFLIGHT REQUESTS SHALL BE SENT THROUGH DIPLOMATIC CHANNELS"))
    return f"{subject} {verb} {rng.choice(('TO', 'FOR'))} {joined}{tail}."


def _closure_text(rng: random.Random, country: str, firs: tuple[str, ...]) -> str:
    fir_list = " ".join(firs) if rng.random() < 0.5 else ", ".join(firs)
    plural = _plural(firs)
    other = rng.choice(_other_states(country))
    if rng.random() < 0.35:
        return _ban_text(rng, country, firs, fir_list)
    return rng.choice((
        f"{fir_list} {plural} CLOSED FOR ALL CIVIL ACFT.",
        f"AIRSPACE OF {country} CLOSED TO ALL CIVIL FLIGHTS EXC STATE ACFT WITH DIPLOMATIC CLEARANCE.",
        f"ALL FLIGHTS OF CIVIL ACFT IN {fir_list} {plural} ARE PROHIBITED.",
        f"DUE TO MIL OPS THE AIRSPACE WI {fir_list} {plural} IS NOT AVBL FOR CIVIL OPS.",
        f"UNMANNED ACFT FLIGHTS ARE PROHIBITED IN THE WHOLE AIRSPACE OF {country}.",
        f"{country} AIRSPACE CLOSED TO ACFT OPERATED BY CARRIERS OF {other}, AND TO FLIGHTS TO OR FROM {other}.",
        f"OVERFLIGHT OF THE TERRITORY OF {country} BY CIVIL ACFT IS PROHIBITED UNTIL FURTHER NOTICE.",
        f"AIRSPACE RESTRICTION: ENTRY INTO {fir_list} {plural} PROHIBITED FOR ACFT REGISTERED IN {other}.",
        f"CIVIL AVIATION AUTHORITY OF {country} ANNOUNCES THE CLOSURE OF ITS AIRSPACE TO ALL TRAFFIC.",
    ))


def _info_text(rng: random.Random, fir: str) -> str:
    n, yy = rng.randint(1, 13), rng.randint(23, 28)
    t = V.sample_start(rng)
    wef = f"{t.day:02d} {V.MONTHS[t.month - 1]} {t.year}"
    area = rng.choice((f"{fir[:2]}R{rng.randint(10, 399)}", f"{fir[:2]}D{rng.randint(10, 399)}",
                       f"TRA {rng.randint(1, 40)}", f"TSA {rng.randint(1, 30)}{rng.choice('ABC ').strip()}"))
    return rng.choice((
        f"TRIGGER NOTAM - PERM AIRAC AIP AMDT {n}/{yy} WEF {wef}. "
        + rng.choice(("NEW AND CHANGED RESTRICTED AREAS.", "REVISED DANGER AREAS.", "CHANGES TO ATS ROUTES.",
                      "AMENDED PROCEDURES FOR FLIGHT PLANNING.")),
        f"TRIGGER NOTAM - AIRAC AIP SUP {n}/{yy} WEF {wef}. TEMPORARY SEGREGATED AREAS, SEE SUP.",
        f"RESTRICTED AREA {area} DEACTIVATED.",
        f"{area} NOT ACTIVE.",
        f"DANGER AREA {area} DEACTIVATED FOR THE PERIOD.",
    ))


# a state advising its own operators about another state's airspace: A) lists the publisher's FIRs (where the
# notice is published), the zones are the FIRs item E) names with their indicators, never A)'s
PUBLISHERS = [
    ("FRENCH", ("LFBB", "LFFF", "LFRR", "LFEE", "LFMM"), "LFXX", 44.2, 0.7),
    ("UK", ("EGTT", "EGPX"), "EGXX", 54.0, -2.0),
    ("GERMAN", ("EDGG", "EDWW", "EDMM"), "EDXX", 51.0, 10.0),
    ("CANADIAN", ("CZEG", "CZWG", "CZUL", "CZYZ"), "CZXX", 55.0, -95.0),
    ("DUTCH", ("EHAA",), "EHAA", 52.3, 5.0),
    ("ITALIAN", ("LIMM", "LIRR", "LIBB"), "LIXX", 42.0, 12.5),
    ("PORTUGUESE", ("LPPC", "LPPO"), "LPXX", 39.5, -8.0),
    ("US", ("KICZ",), "KICZ", 38.9, -77.0),
    ("AUSTRIAN", ("LOVV",), "LOVV", 47.5, 14.5),
]
# (FIR name, indicator, the state whose airspace it is)
NAMED_FIRS = [
    ("TRIPOLI", "HLLL", "LIBYA"), ("DAMASCUS", "OSTT", "SYRIA"), ("BAGHDAD", "ORBB", "IRAQ"),
    ("SANAA", "OYSC", "YEMEN"), ("KABUL", "OAKX", "AFGHANISTAN"), ("TEHRAN", "OIIX", "IRAN"),
    ("MUSCAT", "OOMM", "OMAN"), ("KHARTOUM", "HSSX", "SUDAN"), ("MOGADISHU", "HCSM", "SOMALIA"),
    ("PYONGYANG", "ZKKP", "NORTH KOREA"), ("BEIRUT", "OLBB", "LEBANON"), ("TEL AVIV", "LLLL", "ISRAEL"),
    ("MINSK", "UMMV", "BELARUS"), ("KYIV", "UKBV", "UKRAINE"), ("LVIV", "UKLV", "UKRAINE"),
    ("CHISINAU", "LUUU", "MOLDOVA"), ("MAIQUETIA", "SVZM", "VENEZUELA"), ("AMMAN", "OJAC", "JORDAN"),
    ("BAHRAIN", "OBBB", "BAHRAIN"), ("EMIRATES", "OMAE", "THE UNITED ARAB EMIRATES"), ("JEDDAH", "OEJD", "SAUDI ARABIA"),
    ("NIAMEY", "DRRR", "NIGER"), ("ADDIS ABABA", "HAAA", "ETHIOPIA"), ("KINSHASA", "FZAA", "THE DR CONGO"),
]


# a Q-line's 000/999 read as limits: the surface to unlimited
Q_LOWER, Q_UPPER = {"ref": "SFC", "ft": 0.0}, {"ref": "UNL", "ft": None}


def _head(rng: random.Random, letters: str, weights: tuple[int, int]):
    """-> (start, end, header line): a whole-FIR notice's period and its ``Xnnnn/yy NOTAMN`` (or ``R`` and the id it
    replaces, ``weights`` N:R)."""
    start = V.sample_start(rng, rng.choice((1, 5, 60)))
    end = start + V.sample_duration(rng, rng.choice(("days", "long")))
    nid = f"{rng.choice(letters)}{rng.randint(1, 9999):04d}/{start.year % 100:02d}"
    ntype = rng.choices(("N", "R"), weights=weights)[0]
    header = f"{nid} NOTAM{ntype}" + (f" {nid[0]}{rng.randint(1, 9999):04d}/{start.year % 100:02d}" if ntype == "R" else "")
    return start, end, header


def _named_fir(rng: random.Random, name: str, ind: str, bracketed: bool) -> str:
    """A FIR named with its indicator, as the rules reader's ``fir_named`` reads it (``NAME FIR (XXXX)`` only where a
    bracket opens before it: after a verb the reader would take the verb for a word of the name)."""
    forms = [f"FIR {name} ({ind})", f"FIR {name} ({ind})", f"FIR {name}({ind})"]
    return rng.choice(forms + [f"{name} FIR ({ind})"] * bracketed)


def fir_advisory(rng: random.Random) -> Example:
    """``fir_advisory``: a state tells its own operators to keep out of one or two FIRs of another; the zones are
    the FIRs named in item E) (each its own), item A) only says where the notice is published."""
    who, a_firs, q_fir, lat, lon = rng.choice(PUBLISHERS)
    targets = rng.sample(NAMED_FIRS, rng.choice((1, 1, 1, 2)))
    start, end, header = _head(rng, "ABFGV", (60, 40))
    zs = list(range(len(targets)))
    q = Doc().add(f"Q) {q_fir}/{rng.choice(('QXXXX', 'QAFXX', 'QRTCA', 'QXXLC'))}/I /{rng.choice(('BO ', 'NBO'))}/E /")
    q.field("000", zs, "lower").add("/").field("999", zs, "upper").add("/")
    q.add(V.qline_coord(lat, lon, rng.randint(200, 600))[0])
    a = Doc().add("A) " + " ".join(a_firs))
    b = Doc().add("B) ").field(V.fmt_icao_time(start), zs, "start")
    perm = rng.random() < 0.2
    c = Doc().add("C) ").field("PERM" if perm else V.fmt_icao_time(end), zs, "end")
    e = Doc().add("E) ")
    e.add(rng.choice((f"{who} AIR CARRIERS AND OPERATORS OF AIRCRAFT REGISTERED IN THE STATE ARE REQUESTED NOT TO "
                      "PENETRATE INTO THE AIRSPACE OF ",
                      f"{who} CIVIL AIR OPERATORS SHALL NOT OPERATE WITHIN ",
                      f"ALL {who} OPERATORS ARE ADVISED TO AVOID ",
                      f"FLIGHTS BY {who} AIR OPERATORS ARE PROHIBITED IN ")))
    gold = []
    for i, (name, ind, state) in enumerate(targets):
        if i:
            e.add(rng.choice((" AND ", ", ", " AND THE AIRSPACE OF ")))
        bracketed = rng.random() < 0.5
        fir_t = _named_fir(rng, name, ind, bracketed)
        if bracketed:
            e.add(f"{state} (").field(fir_t, i, "name").add(")")
        else:
            e.field(fir_t, i, "name")
        gold.append(zone(named(fir_t), Q_LOWER, Q_UPPER, V.iso(start), None if perm else V.iso(end), None,
                         permanent=perm))
    if rng.random() < 0.5:  # an exception along route points: positions that bound no zone
        pts = [V.fmt_coord(rng, *V.near(rng, lat, lon, 400), "dms")[0] for _ in range(rng.randint(2, 3))]
        e.add(rng.choice((", EXCEPT :  - MAINTAINING AT ALL TIMES A FLIGHT LEVEL ABOVE OR EQUAL TO FL320 ON ROUTES "
                          "SOUTH OF THE SEGMENTS DEFINED BY THE FLW REPORTING POINTS : ",
                          ", EXCEPT OVERFLIGHTS ON ATS ROUTES JOINING : ")))
        e.add("  ".join(f"{''.join(rng.choice('ABCDEFGKLMNOPRSTUVZ') for _ in range(5))} {p}" for p in pts))
    e.add(".")
    if rng.random() < 0.5:
        e.add(rng.choice(("  THE AIR OPERATOR MUST CARRY OUT A ROBUST RISK ASSESSMENT BEFORE ENTERING THIS AREA.",
                          "  THIS NOTAM IS ISSUED DUE TO THE MILITARY ACTIVITY IN THE REGION.",
                          "  REF: CONFLICT ZONE INFORMATION BULLETIN.")))
    sep = rng.choice(("\n", "  ", " "))
    out = Doc().add(header).add(sep)
    for part in (q, a, b, c, e):
        out.parts.extend(part.parts)
        out.add(sep)
    return Example(out, gold, "en")


def fir_notice(rng: random.Random, template: str) -> Example:
    """``fir_closure``: one zone per FIR of item A; ``fir_info``: the same header, no zone; ``fir_advisory``: the
    FIRs item E) names."""
    if template == "fir_advisory":
        return fir_advisory(rng)
    country, firs, lat, lon = rng.choice(FIR_SETS)
    if template == "fir_closure" and len(firs) > 2 and rng.random() < 0.4:
        firs = tuple(rng.sample(firs, rng.randint(2, len(firs))))
    # a ban filed as other information (Q-code subject O: QOEXX, QOAXX) is information, not an area, however its E)
    # reads: the rules reader, and so the silver, answers no zone for it (Russian reciprocal bans, the EU's ban on
    # Russian carriers), so the models must tell it from the same prose under an airspace subject (X, A, R)
    info_ban = template == "fir_info" and rng.random() < 0.4
    if template == "fir_info" and not info_ban:
        firs = firs[:1]
    nz = len(firs) if template == "fir_closure" else 0
    zs = list(range(nz))
    start, end, header = _head(rng, "ABCGV", (70, 30))

    has_fg = rng.random() < 0.45
    q_hi = 999 if not has_fg or rng.random() < 0.7 else rng.choice((460, 660))
    qfir = firs[0] if len(firs) == 1 or rng.random() < 0.5 else firs[0][:2] + "XX"
    q = Doc().add(f"Q) {qfir}/{rng.choice(('QOEXX', 'QOAXX') if info_ban else QCODES)}/IV/{rng.choice(('BO', 'NBO', 'BO '))}/{rng.choice(('E', 'W', 'AE'))}/")
    lo_t, lo_g = "000", Q_LOWER
    hi_t = f"{q_hi:03d}"
    hi_g = Q_UPPER if q_hi == 999 else {"ref": "FL", "ft": float(q_hi * 100)}
    if has_fg or not nz:
        q.add(f"{lo_t}/{hi_t}/")
    else:
        q.field(lo_t, zs, "lower").add("/").field(hi_t, zs, "upper").add("/")
    if rng.random() < 0.85:
        # a 999 NM radius only where the limits are F)/G): grounding by value would take it for the shared upper 999
        q.add(V.qline_coord(lat, lon, 999 if has_fg and rng.random() < 0.6 else rng.randint(150, 600))[0])

    a = Doc().add("A) ")
    for i, f in enumerate(firs):
        # an untagged indicator where the notice has no zone (a field of no zone is plain text)
        a.add(" " if i else "").field(f, [i] if nz else [], "name")
    b = Doc().add(rng.choice(("B) ", "B)"))).field(V.fmt_icao_time(start), zs, "start")
    perm = rng.random() < 0.25
    c = Doc().add(rng.choice(("C) ", "C)")))
    if perm:
        c.field("PERM", zs, "end")
    else:
        c.field(V.fmt_icao_time(end), zs, "end")
    if info_ban:
        e_text = _ban_text(rng, country, firs, " ".join(firs))
    else:
        e_text = _closure_text(rng, country, firs) if nz else _info_text(rng, firs[0])
    e = Doc().add("E) ").add(e_text)
    fg = Doc()
    if has_fg:
        if nz:
            lo_t, lo_g = V.limit_sfc(rng)
            hi_t, hi_g = (("UNL", {"ref": "UNL", "ft": None}) if rng.random() < 0.7
                          else V.fmt_limit(rng, "fl", rng.choice((195, 245, 460, 660))))
            fg.add("F) ").field(lo_t, zs, "lower").add(rng.choice((" G) ", "  G) ", "\nG) "))).field(hi_t, zs, "upper")
        else:
            fg.add("F) SFC G) UNL")

    sep = rng.choice(("\n", "  ", " "))
    out = Doc().add(header).add(sep)
    for part in (q, a, b, c, e, fg):
        if part.parts:
            out.parts.extend(part.parts)
            out.add(rng.choice((" ", sep)) if part is a or part is b else sep)
    if rng.random() < 0.4:
        t = start - timedelta(days=rng.randint(0, 5), minutes=rng.randint(0, 1440))
        out.add(f"CREATED: {t.day:02d} {V.MONTHS[t.month - 1]} {t.year} {t:%H:%M}  SOURCE: {rng.choice(('EUECYIYN', 'LSSNYNYX', 'UUUUYNYX'))}")
    gold = [zone(named(f), lo_g, hi_g, V.iso(start), None if perm else V.iso(end), None, permanent=perm)
            for f in firs] if nz else []
    return Example(out, gold, "en")
