"""Sampled values and their surface forms, with the gold value computed from what the text says.

Every ``fmt_*`` function returns ``(text, gold)``: the verbatim string that goes into a message and the exact value
that string denotes (decimal degrees, metres, ``{"ref","ft"}``, ISO UTC). Gold is computed from the quantised
components that were printed, never by parsing the text back, so the corpus is correct by construction.

Styles are chosen by the families; each family decides which forms are realistic for it.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta, timezone

FT_PER_M = 1 / 0.3048
NM_M = 1852.0

# --------------------------------------------------------------------------------------------------- places
# (FIR, aerodrome, lat, lon, country tag, place names near it). Approximate real positions; realistic, worldwide.
AERODROMES: list[tuple[str, str, float, float, str, tuple[str, ...]]] = [
    ("EGTT", "EGLL", 51.47, -0.45, "uk", ("STAINES", "WINDSOR", "RICHMOND", "HOUNSLOW", "EGHAM")),
    ("EGTT", "EGKK", 51.15, -0.19, "uk", ("CRAWLEY", "HORLEY", "REIGATE", "EAST GRINSTEAD")),
    ("EGPX", "EGPH", 55.95, -3.37, "uk", ("LIVINGSTON", "DALKEITH", "MUSSELBURGH")),
    ("EDWW", "EDDH", 53.63, 9.99, "de", ("PINNEBERG", "NORDERSTEDT", "AHRENSBURG")),
    ("EDMM", "EDDM", 48.35, 11.79, "de", ("FREISING", "ERDING", "MOOSBURG")),
    ("EDGG", "EDDF", 50.03, 8.57, "de", ("RUESSELSHEIM", "HANAU", "OFFENBACH")),
    ("LFFF", "LFPG", 49.01, 2.55, "fr", ("MEAUX", "SENLIS", "CHANTILLY")),
    ("LFMM", "LFML", 43.44, 5.22, "fr", ("ISTRES", "AUBAGNE", "LA CIOTAT")),
    ("LOVV", "LOWW", 48.11, 16.57, "at", ("BADEN", "MOEDLING", "TULLN")),
    ("LSAS", "LSZH", 47.46, 8.55, "ch", ("WINTERTHUR", "BUELACH", "USTER")),
    ("EISN", "EIDW", 53.42, -6.27, "ie", ("NAAS", "DROGHEDA", "BRAY")),
    ("LIMM", "LIMC", 45.63, 8.72, "it", ("VARESE", "NOVARA", "LEGNANO")),
    ("LECM", "LEMD", 40.47, -3.56, "es", ("ALCALA", "GETAFE", "TORREJON")),
    ("ESAA", "ESSA", 59.65, 17.92, "se", ("SIGTUNA", "UPPSALA", "NORRTALJE")),
    ("ENOR", "ENGM", 60.19, 11.10, "no", ("EIDSVOLL", "JESSHEIM", "HAMAR")),
    ("EPWW", "EPWA", 52.17, 20.97, "pl", ("PIASECZNO", "PRUSZKOW", "LEGIONOWO")),
    ("UUWV", "UUEE", 55.97, 37.41, "ru", ("KHIMKI", "DOLGOPRUDNY", "LOBNYA")),
    ("UHHH", "UHHH", 48.53, 135.19, "ru", ("BIKIN", "VYAZEMSKY", "AMURSK")),
    ("LLLL", "LLBG", 32.01, 34.89, "il", ("LOD", "RAMLA", "YAVNE")),
    ("OMAE", "OMDB", 25.25, 55.36, "ae", ("SHARJAH", "AJMAN", "HATTA")),
    ("VABF", "VABB", 19.09, 72.87, "in", ("THANE", "PANVEL", "VASAI")),
    ("VTBB", "VTBS", 13.69, 100.75, "th", ("SAMUT PRAKAN", "CHACHOENGSAO", "PATTAYA")),
    ("VVHM", "VVTS", 10.82, 106.65, "vn", ("BIEN HOA", "THU DAU MOT", "VUNG TAU")),
    ("WIIF", "WIII", -6.13, 106.66, "id", ("TANGERANG", "BEKASI", "DEPOK")),
    ("WSJC", "WSSS", 1.36, 103.99, "sg", ("TAMPINES", "CHANGI", "PUNGGOL")),
    ("RJJJ", "RJTT", 35.55, 139.78, "jp", ("KAWASAKI", "CHIBA", "YOKOHAMA")),
    ("RKRR", "RKSI", 37.46, 126.44, "kr", ("INCHEON", "BUCHEON", "GIMPO")),
    ("ZGZU", "ZGSZ", 22.64, 113.81, "cn", ("BAOAN", "NANSHAN", "DONGGUAN")),
    ("ZBPE", "ZBAA", 40.08, 116.58, "cn", ("SHUNYI", "TONGZHOU", "HUAIROU")),
    ("ZSHA", "ZSPD", 31.14, 121.81, "cn", ("PUDONG", "NANHUI", "JIADING")),
    ("ZLHW", "ZLLL", 36.52, 103.62, "cn", ("YONGDENG", "GAOLAN", "BAIYIN")),
    ("YMMM", "YMML", -37.67, 144.84, "au", ("GEELONG", "BALLARAT", "SUNBURY")),
    ("YBBB", "YBBN", -27.38, 153.12, "au", ("IPSWICH", "CABOOLTURE", "REDCLIFFE")),
    ("NZZC", "NZAA", -37.01, 174.79, "nz", ("MANUKAU", "PAPAKURA", "HENDERSON")),
    ("FAJA", "FAOR", -26.14, 28.25, "za", ("BENONI", "KEMPTON PARK", "SPRINGS")),
    ("HKNA", "HKJK", -1.32, 36.93, "ke", ("ATHI RIVER", "THIKA", "MACHAKOS")),
    ("DNKK", "DNMM", 6.58, 3.32, "ng", ("IKEJA", "ABEOKUTA", "EPE")),
    ("GMMM", "GMMN", 33.37, -7.59, "ma", ("BERRECHID", "MOHAMMEDIA", "SETTAT")),
    ("SBRE", "SBRF", -8.13, -34.92, "br", ("OLINDA", "JABOATAO", "PAULISTA")),
    ("SBBS", "SBBR", -15.87, -47.92, "br", ("GAMA", "TAGUATINGA", "SOBRADINHO")),
    ("SCEZ", "SCEL", -33.39, -70.79, "cl", ("MAIPU", "COLINA", "TALAGANTE")),
    ("SPIM", "SPJC", -12.02, -77.11, "pe", ("CALLAO", "ANCON", "CHOSICA")),
    ("SAEF", "SAEZ", -34.82, -58.54, "ar", ("CANUELAS", "LOBOS", "ESCOBAR")),
    ("MMFR", "MMMX", 19.44, -99.07, "mx", ("TEXCOCO", "CHALCO", "ECATEPEC")),
    ("CZYZ", "CYYZ", 43.68, -79.63, "ca", ("BRAMPTON", "OAKVILLE", "VAUGHAN")),
    ("CZVR", "CYVR", 49.19, -123.18, "ca", ("RICHMOND", "SURREY", "DELTA")),
    ("KZNY", "KJFK", 40.64, -73.78, "us", ("JAMAICA", "VALLEY STREAM", "FREEPORT")),
    ("KZBW", "KBOS", 42.36, -71.01, "us", ("QUINCY", "WALTHAM", "LYNN")),
    ("KZJX", "KMCO", 28.43, -81.31, "us", ("KISSIMMEE", "SANFORD", "CLERMONT")),
    ("KZLA", "KLAX", 33.94, -118.41, "us", ("INGLEWOOD", "TORRANCE", "CARSON")),
    ("KZTL", "KATL", 33.64, -84.43, "us", ("COLLEGE PARK", "MORROW", "MARIETTA")),
    ("KZAU", "KORD", 41.98, -87.90, "us", ("ELMHURST", "SCHAUMBURG", "EVANSTON")),
    ("KZDV", "KDEN", 39.86, -104.67, "us", ("AURORA", "BRIGHTON", "LONGMONT")),
    ("PHZH", "PHNL", 21.32, -157.92, "us", ("PEARL CITY", "KANEOHE", "WAIPAHU")),
    ("PAZA", "PANC", 61.17, -150.00, "us", ("EAGLE RIVER", "PALMER", "WASILLA")),
    ("NTTT", "NTAA", -17.55, -149.61, "pf", ("PAPEETE", "PUNAAUIA", "MAHINA")),
]

US_AERODROMES = [a for a in AERODROMES if a[4] == "us"]
CN_AERODROMES = [a for a in AERODROMES if a[4] == "cn"]


def pick_aerodrome(rng: random.Random, country: str | None = None):
    pool = AERODROMES
    if country == "us":
        pool = US_AERODROMES
    elif country == "cn":
        pool = CN_AERODROMES
    elif country == "non_us":
        pool = [a for a in AERODROMES if a[4] != "us"]
    return rng.choice(pool)


def near(rng: random.Random, lat: float, lon: float, max_km: float) -> tuple[float, float]:
    """A point within about ``max_km`` of (lat, lon) (flat approximation: only realism matters here)."""
    d = max_km * math.sqrt(rng.random())
    a = rng.random() * 2 * math.pi
    dlat = d * math.cos(a) / 111.0
    dlon = d * math.sin(a) / (111.0 * max(0.2, math.cos(math.radians(lat))))
    return clamp_lat(lat + dlat), wrap_lon(lon + dlon)


def clamp_lat(lat: float) -> float:
    return max(-89.5, min(89.5, lat))


def wrap_lon(lon: float) -> float:
    while lon > 180:
        lon -= 360
    while lon < -180:
        lon += 360
    return lon


def world_point(rng: random.Random) -> tuple[float, float]:
    """Anywhere on earth short of the poles (aerospace drop zones, oceanic areas)."""
    return rng.uniform(-70, 75), rng.uniform(-180, 180)


# ---------------------------------------------------------------------------------------------- coordinates
COORD_STYLES = (
    "dm", "dm_space", "dms", "dms_space", "dms_dec", "hemi_first", "hemi_first_space", "hemi_first_dm",
    "spaced", "spaced_dm", "decimal_deg", "decimal_hemi", "hemi_decimal", "decimal_signed", "dms_symbols",
    "cn", "cn_dms", "cn_decimal", "cn_dufen", "dm_dec", "dms_slash", "dm_hyphen",
)


# latitude-first DDMMSS[.ss] pairs differ only in what joins latitude and longitude (Brazilian and Chilean feeds: a
# slash, 215739S/0472900W)
_DMS_JOINS = {"dms": ("",), "dms_space": (" ",), "dms_dec": ("", "", " "), "dms_slash": ("/", "/", " / ")}


def _split_sec(value: float, step: float) -> tuple[int, int, float, float]:
    """Quantise |value| degrees to a multiple of ``step`` seconds; return (deg, min, sec, gold |degrees|)."""
    total = round(abs(value) * 3600 / step) * step
    total = round(total, 4)
    deg = int(total // 3600)
    rem = total - deg * 3600
    mins = int(rem // 60)
    sec = round(rem - mins * 60, 4)
    if sec >= 60:  # float safety
        sec -= 60
        mins += 1
    if mins >= 60:
        mins -= 60
        deg += 1
    return deg, mins, sec, total / 3600


def _limit(lat: float, lon: float) -> tuple[float, float]:
    """Keep values strictly inside the printable ranges (a 180° longitude prints as 180, which is fine)."""
    return max(-89.99, min(89.99, lat)), max(-179.99, min(179.99, lon))


# Signed decimal pairs without hemisphere letters ("22.5431, 114.0579", as copied from a map app): always with a
# comma between latitude and longitude (a bare blank between two signed numbers is ambiguous in free text).
SIGNED_DECIMAL_ENABLED = True


def fmt_coord(rng: random.Random, lat: float, lon: float, style: str) -> tuple[str, tuple[float, float]]:
    """Print (lat, lon) in ``style``; return the text and the exact (lat, lon) the text denotes."""
    if style == "decimal_signed" and not SIGNED_DECIMAL_ENABLED:
        style = "decimal_hemi"
    lat, lon = _limit(lat, lon)
    ns = "N" if lat >= 0 else "S"
    ew = "E" if lon >= 0 else "W"

    def sign(h: str) -> int:
        return -1 if h in "SW" else 1

    if style in ("dm", "dm_space", "hemi_first_dm", "spaced_dm", "cn", "cn_dufen"):
        step = 60.0
    elif style == "dm_dec":
        step = rng.choice((0.6, 6.0))  # DDMM.mm or DDMM.m (decimal minutes)
    elif style == "dm_hyphen":
        step = rng.choice((60.0, 60.0, 0.6))  # DD-MM.mm, mostly whole minutes (.00)
    elif style == "dms_dec" or (style in ("hemi_first", "hemi_first_space") and rng.random() < 0.3):
        step = rng.choice((0.01, 0.1))  # hemisphere first with decimal seconds too: N305356.10E1215608.82
    elif style in ("decimal_deg", "decimal_hemi", "hemi_decimal", "decimal_signed", "cn_decimal"):
        step = None
    else:
        step = 1.0

    if step is None:
        k = rng.choice((2, 3, 4, 4, 5, 6)) if style != "cn_decimal" else rng.choice((2, 3, 4))
        if style == "decimal_signed":
            k = max(k, 2)
        alat, alon = round(abs(lat), k), round(abs(lon), k)
        glat, glon = sign(ns) * alat, sign(ew) * alon
        la, lo = f"{alat:.{k}f}", f"{alon:.{k}f}"
        if style == "decimal_deg":
            sp = rng.choice(("", " "))
            sep = rng.choice((" ", ", ", " / ", "  "))
            deg = rng.choice(("°", "°", "º"))
            text = f"{la}{deg}{sp}{ns}{sep}{lo}{deg}{sp}{ew}"
        elif style == "decimal_hemi":
            text = f"{la}{ns}{rng.choice((' ', ' ', ', ', '/'))}{lo}{ew}"
        elif style == "hemi_decimal":
            text = f"{ns}{la}{rng.choice((' ', ' ', ', '))}{ew}{lo}"
        elif style == "decimal_signed":
            sla = f"-{la}" if ns == "S" else la
            slo = f"-{lo}" if ew == "W" else lo
            text = f"{sla}{rng.choice((', ', ',', ', '))}{slo}"
        else:  # cn_decimal
            u = rng.choice(("°", "度"))
            hn = "北纬" if ns == "N" else "南纬"
            he = "东经" if ew == "E" else "西经"
            text = f"{hn}{la}{u}{rng.choice(('，', '、', ' ', ''))}{he}{lo}{u}"
        return text, (round(glat, 8), round(glon, 8))

    d1, m1, s1, a1 = _split_sec(lat, step)
    d2, m2, s2, a2 = _split_sec(lon, step)
    glat, glon = sign(ns) * a1, sign(ew) * a2

    def sec_txt(s: float) -> str:
        if step < 1.0:
            return f"{s:05.2f}" if step == 0.01 else f"{s:04.1f}"
        return f"{int(round(s)):02d}"

    if style == "dm_dec":
        k = 2 if step == 0.6 else 1
        mm1 = m1 + s1 / 60
        mm2 = m2 + s2 / 60
        w = 3 + k
        text = f"{d1:02d}{mm1:0{w}.{k}f}{ns}{rng.choice(('', ' '))}{d2:03d}{mm2:0{w}.{k}f}{ew}"
    elif style == "dm":
        text = f"{d1:02d}{m1:02d}{ns}{d2:03d}{m2:02d}{ew}"
    elif style == "dm_space":
        text = f"{d1:02d}{m1:02d}{ns} {d2:03d}{m2:02d}{ew}"
    elif style in _DMS_JOINS:
        joins = _DMS_JOINS[style]
        join = joins[0] if len(joins) == 1 else rng.choice(joins)  # a one-way choice would still draw
        text = f"{d1:02d}{m1:02d}{sec_txt(s1)}{ns}{join}{d2:03d}{m2:02d}{sec_txt(s2)}{ew}"
    elif style == "dm_hyphen":  # NAVAREA / HYDROPAC warnings: 31-57.00N 077-01.00W
        text = f"{d1:02d}-{m1 + s1 / 60:05.2f}{ns} {d2:03d}-{m2 + s2 / 60:05.2f}{ew}"
    elif style == "hemi_first":
        text = f"{ns}{d1:02d}{m1:02d}{sec_txt(s1)}{ew}{d2:03d}{m2:02d}{sec_txt(s2)}"
    elif style == "hemi_first_space":
        text = f"{ns}{d1:02d}{m1:02d}{sec_txt(s1)} {ew}{d2:03d}{m2:02d}{sec_txt(s2)}"
    elif style == "hemi_first_dm":
        text = f"{ns}{d1:02d}{m1:02d}{rng.choice(('', ' '))}{ew}{d2:03d}{m2:02d}"
    elif style == "spaced":
        lond = f"{d2:03d}" if rng.random() < 0.5 else f"{d2}"
        text = f"{d1:02d} {m1:02d} {sec_txt(s1)} {ns} {lond} {m2:02d} {sec_txt(s2)} {ew}"
    elif style == "spaced_dm":
        text = f"{ns}{d1:02d} {m1:02d} {ew}{d2:03d} {m2:02d}"
    elif style == "dms_symbols":
        deg = rng.choice(("°", "°", "º"))
        mn, sc = rng.choice((("'", '"'), ("′", "″"), ("'", "''")))
        sp = rng.choice(("", "", " "))
        hsp = rng.choice(("", "", " "))
        lond = f"{d2:03d}" if rng.random() < 0.3 else f"{d2}"
        sep = rng.choice((" ", " ", ", ", " / "))
        text = (f"{d1}{deg}{sp}{m1:02d}{mn}{sp}{sec_txt(s1)}{sc}{hsp}{ns}{sep}"
                f"{lond}{deg}{sp}{m2:02d}{mn}{sp}{sec_txt(s2)}{sc}{hsp}{ew}")
    elif style in ("cn", "cn_dms", "cn_dufen"):
        hn = "北纬" if ns == "N" else "南纬"
        he = "东经" if ew == "E" else "西经"
        sep = rng.choice((" ", "、", "，", "", " "))
        if style == "cn":
            text = f"{hn}{d1}°{m1:02d}′{sep}{he}{d2}°{m2:02d}′"
        elif style == "cn_dufen":
            text = f"{hn}{d1}度{m1:02d}分{sep}{he}{d2}度{m2:02d}分"
        else:
            text = f"{hn}{d1}°{m1:02d}′{sec_txt(s1)}″{sep}{he}{d2}°{m2:02d}′{sec_txt(s2)}″"
    else:
        raise ValueError(f"unknown coordinate style {style!r}")
    return text, (round(glat, 8), round(glon, 8))


def qline_coord(lat: float, lon: float, radius_nm: float) -> tuple[str, tuple[float, float], int]:
    """The Q-line ``DDMMNDDDMMWRRR`` form; returns text, the (lat, lon) it denotes and its radius in NM."""
    lat, lon = _limit(lat, lon)
    d1, m1, _, a1 = _split_sec(lat, 60.0)
    d2, m2, _, a2 = _split_sec(lon, 60.0)
    ns = "N" if lat >= 0 else "S"
    ew = "E" if lon >= 0 else "W"
    r = max(1, min(999, int(math.ceil(radius_nm))))
    text = f"{d1:02d}{m1:02d}{ns}{d2:03d}{m2:02d}{ew}{r:03d}"
    return text, (round(a1 * (-1 if ns == "S" else 1), 8), round(a2 * (-1 if ew == "W" else 1), 8)), r


# ------------------------------------------------------------------------------------------------ distances
def sample_radius_nm(rng: random.Random, lo: float = 0.1, hi: float = 250.0) -> float:
    """Log-uniform radius in NM (many small drone zones, a long tail of big ones)."""
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def _num(v: float, decimals: int) -> str:
    return f"{v:.{decimals}f}" if decimals else f"{int(round(v))}"


def fmt_distance(rng: random.Random, nm: float, unit: str) -> tuple[str, float]:
    """Print a radius near ``nm`` in ``unit`` (nm, km, m, ft, nm_words, km_words, cn_km, cn_qianmi, cn_m, mi_words)."""
    if unit in ("nm", "nm_words"):
        if nm < 1:
            v = max(0.1, round(nm, 1))
            if unit == "nm" and rng.random() < 0.4:
                s = f"{v:.1f}"[1:]  # ".5"
            else:
                s = f"{v:.1f}"
        elif nm < 10 and rng.random() < 0.5:
            v = round(nm, 1)
            s = f"{v:.1f}"
        else:
            v = float(int(round(nm)))
            s = f"{int(v)}"
        metres = float(s) * NM_M
        if unit == "nm":
            return s + rng.choice(("NM", "NM", "NM", " NM")), metres
        return s + rng.choice((" nautical miles", " nautical mile", " NM", " nm")), metres
    km = nm * 1.852
    if unit in ("km", "km_words", "cn_km", "cn_qianmi"):
        if km < 1 and unit in ("km", "km_words"):
            v = max(0.1, round(km, 1))
            s = f"{v:.1f}"
        elif km < 10 and rng.random() < 0.4:
            s = f"{round(km, 1):.1f}"
        else:
            s = f"{max(1, int(round(km)))}"
        metres = float(s) * 1000
        if unit == "km":
            return s + rng.choice(("KM", "KM", " KM", "km", " km")), metres
        if unit == "km_words":
            return s + rng.choice((" kilometres", " kilometers", " km")), metres
        if unit == "cn_km":
            return s + "公里", metres
        return s + "千米", metres
    if unit in ("m", "cn_m"):
        q = rng.choice((50, 50, 10))  # surveyed radii are written to the metre's tens too (1,330M)
        mval = min(max(50, int(round(km * 1000 / q)) * q), 9990)
        s = f"{mval}"
        if unit == "cn_m":
            return s + "米", float(mval)
        return _thousands(mval, rng.choice(("none", "none", "comma"))) + rng.choice(("M", " M", " m", "MTR", "m")), float(mval)
    if unit == "ft":
        fval = max(500, int(round(nm * 6076.12 / 100.0)) * 100)
        fval = min(fval, 30000)
        return _thousands(fval, rng.choice(("none", "none", "comma"))) + rng.choice(("FT", " FT", "FT")), fval * 0.3048
    if unit == "mi_words":
        s = f"{max(1, int(round(nm * 1.15078)))}"
        return s + rng.choice((" statute miles", " SM")), float(s) * 1609.344
    raise ValueError(unit)


# --------------------------------------------------------------------------------------------------- limits
def _thousands(v: int, style: str) -> str:
    if v >= 1000 and style == "comma":
        return f"{v:,}"
    if v >= 1000 and style == "space":
        return f"{v:,}".replace(",", " ")
    return str(v)


def limit_sfc(rng: random.Random, word: str | None = None) -> tuple[str, dict]:
    w = word or rng.choice(("SFC", "SFC", "GND"))
    return w, {"ref": "GND" if w == "GND" else "SFC", "ft": 0.0}


def fmt_limit(rng: random.Random, kind: str, value: float, *, thousands: str = "none") -> tuple[str, dict]:
    """Print a limit. ``kind``: ft_amsl, ft_msl, ft_agl, ft_bare (FAA: MSL), fl, m_amsl, m_agl, cn_agl, unl,
    ft_words_msl / ft_words_agl (TFR prose), m_words_agl (free text). ``value`` in the kind's own unit."""
    v = int(value)
    if kind == "unl":
        return rng.choice(("UNL", "UNL", "UNL")), {"ref": "UNL", "ft": None}
    if kind == "fl":
        sp = rng.choice(("", "", "", " "))
        return f"FL{sp}{v:03d}", {"ref": "FL", "ft": float(v * 100)}
    n = _thousands(v, thousands)
    if kind in ("ft_amsl", "ft_msl", "ft_agl", "ft_bare"):
        sp = rng.choice(("", "", " "))
        unit = rng.choice(("FT", "FT", "FT", "ft")) if kind != "ft_bare" else "FT"
        if kind == "ft_bare":
            return f"{n}{sp}{unit}", {"ref": "AMSL", "ft": float(v)}
        ref = {"ft_amsl": "AMSL", "ft_msl": "MSL", "ft_agl": "AGL"}[kind]
        return f"{n}{sp}{unit} {ref}", {"ref": "AGL" if ref == "AGL" else "AMSL", "ft": float(v)}
    if kind in ("m_amsl", "m_agl"):
        sp = rng.choice(("", "", " "))
        unit = rng.choice(("M", "M", "m"))
        ref = "AMSL" if kind == "m_amsl" else "AGL"
        return f"{n}{sp}{unit} {ref}", {"ref": ref, "ft": v * FT_PER_M}
    if kind == "cn_agl":
        return f"真高{v}米", {"ref": "AGL", "ft": v * FT_PER_M}
    if kind == "ft_words_msl":
        return f"{n} feet MSL", {"ref": "AMSL", "ft": float(v)}
    if kind == "ft_words_agl":
        return f"{n} feet AGL", {"ref": "AGL", "ft": float(v)}
    if kind == "m_words_agl":
        return f"{n} {rng.choice(('m', 'm', 'metres', 'meters'))} AGL", {"ref": "AGL", "ft": v * FT_PER_M}
    raise ValueError(kind)


def sample_band(rng: random.Random, profile: str) -> tuple[tuple[str, dict], tuple[str, dict], int, int]:
    """A (lower, upper) pair for a realistic activity ``profile`` (drone, low, mid, high, space).

    Also returns the Q-line lower/upper in flight levels (000–999)."""
    th = rng.choice(("none", "none", "comma", "space")) if rng.random() < 0.5 else "none"
    if profile == "drone":
        lower = limit_sfc(rng)
        k = rng.random()
        if k < 0.45:
            up = fmt_limit(rng, "ft_agl", rng.choice((200, 300, 400, 400, 500, 700, 1000)), thousands=th)
        elif k < 0.75:
            up = fmt_limit(rng, "m_agl", rng.choice((50, 100, 120, 120, 150, 300)), thousands=th)
        else:
            up = fmt_limit(rng, "ft_amsl", rng.choice((500, 800, 1000, 1500, 1600, 1700, 2000)), thousands=th)
        qu = 5 if (up[1]["ft"] or 0) <= 500 else int(math.ceil((up[1]["ft"] or 0) / 100.0 + 3))
        return lower, up, 0, min(qu, 999)
    if profile == "low":
        lower = limit_sfc(rng) if rng.random() < 0.8 else fmt_limit(rng, "ft_agl", rng.choice((100, 200, 500)))
        k = rng.random()
        if k < 0.5:
            up = fmt_limit(rng, "ft_amsl", rng.choice((1500, 2000, 2500, 3000, 3500, 4500, 5000, 6500)), thousands=th)
        elif k < 0.7:
            up = fmt_limit(rng, "fl", rng.choice((45, 55, 65, 75, 95, 100, 115, 130)))
        else:
            up = fmt_limit(rng, "m_amsl", rng.choice((600, 900, 1200, 1500, 1800, 3000)), thousands=th)
        ql = 0 if lower[1]["ft"] in (0.0, None) else int(lower[1]["ft"] // 100)
        return lower, up, ql, min(999, int(math.ceil(up[1]["ft"] / 100.0)))
    if profile == "mid":
        if rng.random() < 0.5:
            lo_fl = rng.choice((50, 75, 95, 115, 125, 145, 195))
            lower = fmt_limit(rng, "fl", lo_fl)
            ql = lo_fl
        else:
            lower = limit_sfc(rng)
            ql = 0
        hi = rng.choice((245, 285, 330, 350, 460, 600, 660))
        up = fmt_limit(rng, "fl", max(hi, ql + 10)) if rng.random() < 0.75 else fmt_limit(
            rng, "m_amsl", rng.choice((5700, 8100, 10000, 12200)), thousands=th)
        if up[1]["ft"] <= (lower[1]["ft"] or 0) + 500:
            up = fmt_limit(rng, "fl", max(hi, ql + 10))
        return lower, up, ql, min(999, int(math.ceil(up[1]["ft"] / 100.0)))
    if profile == "agl_low":
        lower = fmt_limit(rng, "m_agl", rng.choice((50, 100, 150))) if rng.random() < 0.5 else fmt_limit(
            rng, "ft_agl", rng.choice((200, 500, 1000)))
        up = fmt_limit(rng, "fl", rng.choice((100, 150, 200, 330)))
        return lower, up, 0, int(up[1]["ft"] / 100)
    # space / high: SFC-UNL
    lower = limit_sfc(rng, "SFC" if rng.random() < 0.8 else "GND")
    return lower, fmt_limit(rng, "unl", 0), 0, 999


# ---------------------------------------------------------------------------------------------------- times
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
BEIJING = timedelta(hours=8)


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.strftime("%Y-%m-%dT%H:%M:%SZ")


def sample_start(rng: random.Random, minute_step: int = 1) -> datetime:
    base = datetime(2023, 1, 1, tzinfo=timezone.utc)
    t = base + timedelta(minutes=rng.randrange(0, 5 * 365 * 24 * 60))
    return t.replace(minute=(t.minute // minute_step) * minute_step)


def sample_duration(rng: random.Random, profile: str) -> timedelta:
    if profile == "short":
        return timedelta(minutes=rng.choice((30, 45, 60, 60, 90, 120, 180, 240, 300, 360, 480, 600, 720)))
    if profile == "days":
        return timedelta(days=rng.randint(1, 14), minutes=rng.choice((0, 0, 30, 59, 120, 600)))
    return timedelta(days=rng.randint(10, 120), minutes=rng.choice((0, 0, 59, 719)))


def fmt_icao_time(t: datetime) -> str:
    return t.strftime("%y%m%d%H%M")


def fmt_prose_time(rng: random.Random, t: datetime) -> str:
    """``July 23, 2026 at 2105 UTC`` (TFR pages)."""
    return f"{MONTH_NAMES[t.month - 1]} {t.day}, {t.year} at {t:%H%M} UTC"


def fmt_iso_time(rng: random.Random, t: datetime) -> str:
    k = rng.random()
    if k < 0.5:
        return f"{t:%Y-%m-%dT%H:%M}Z"
    return f"{t:%Y-%m-%d %H:%M}Z" if k < 0.8 else f"{t:%Y-%m-%d %H:%M} UTC"


def cn_time_pair(rng: random.Random, start_utc: datetime, hours: int) -> tuple[str, str, str, datetime, datetime, str]:
    """A Beijing-time range. ``start_utc`` is on a whole hour. Returns (start text, joiner, end text, start, end,
    form). The end may be a bare ``18时``/``24时`` that takes its date from the start."""
    s_loc = start_utc + BEIJING
    e_utc = start_utc + timedelta(hours=hours)
    e_loc = e_utc + BEIJING
    form = rng.choice(("shi", "shi", "colon", "shi_bare_end", "shi_bare_end", "shi_24"))
    date_s = f"{s_loc.year}年{s_loc.month}月{s_loc.day}日"
    joiner = rng.choice(("至", "至", "到", "—", "-"))
    if form == "shi_24":
        # whole afternoon/evening up to local midnight, written "24时"
        s_loc = s_loc.replace(hour=rng.choice((8, 10, 12, 14, 18)))
        start_utc = s_loc - BEIJING
        e_loc = s_loc.replace(hour=0) + timedelta(days=1)
        e_utc = e_loc - BEIJING
        s_txt = f"{date_s}{s_loc.hour}时"
        e_txt = "24时" if rng.random() < 0.5 else f"{date_s}24时"
        return s_txt, joiner, e_txt, start_utc, e_utc, form
    if form == "colon":
        s_txt = f"{date_s}{s_loc:%H:%M}"
        e_txt = f"{e_loc.year}年{e_loc.month}月{e_loc.day}日{e_loc:%H:%M}"
        return s_txt, joiner, e_txt, start_utc, e_utc, form
    s_txt = f"{date_s}{s_loc.hour}时"
    if form == "shi_bare_end" and e_loc.date() == s_loc.date():
        return s_txt, joiner, f"{e_loc.hour}时", start_utc, e_utc, form
    e_txt = f"{e_loc.year}年{e_loc.month}月{e_loc.day}日{e_loc.hour}时"
    return s_txt, joiner, e_txt, start_utc, e_utc, "shi"


# ------------------------------------------------------------------------------------------------ schedules
DAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")


def _hhmm(rng: random.Random, lo: int = 0, hi: int = 23) -> int:
    return rng.randint(lo, hi) * 100 + rng.choice((0, 0, 0, 15, 30, 45))


def sample_schedule(rng: random.Random, start: datetime, end: datetime) -> str:
    """A D-item schedule string (gold = the string itself)."""
    a = _hhmm(rng, 0, 16)
    b = min(2359, a + rng.choice((100, 200, 300, 400, 600, 800)))
    span = f"{a:04d}-{b:04d}"
    k = rng.random()
    if k < 0.15:
        return "H24"
    if k < 0.4:
        return f"DAILY {span}"
    if k < 0.5:
        c = min(2300, b + 100)
        d = min(2359, c + rng.choice((100, 200, 400)))
        return f"{rng.choice(('MON-FRI', 'DAILY', 'SAT-SUN'))} {span} {c:04d}-{d:04d}"
    if k < 0.62:
        d1 = rng.randrange(0, 5)
        d2 = rng.randrange(d1 + 1, 7)
        return f"{DAYS[d1]}-{DAYS[d2]} {span}"
    if k < 0.7:
        days = sorted(rng.sample(range(7), rng.randint(2, 3)))
        return f"{' '.join(DAYS[d] for d in days)} {span}"
    if k < 0.78:
        return rng.choice(("DAILY SR-SS", "SR-SS", "DAILY SR MINUS30 - SS PLUS30", "SR MINUS15 TO SS PLUS15"))
    if k < 0.84:
        return span
    if k < 0.88:
        # explicit windows, or per-day windows with month names, or exceptions
        v = rng.random()
        if v < 0.35 and end - start >= timedelta(hours=2):
            w, t = [], start
            while t < end and len(w) < 4:
                w.append(f"{t:%y%m%d%H%M} TO {min(end, t + timedelta(hours=2)):%y%m%d%H%M}")
                t += timedelta(days=1)
            return rng.choice(("  ", " ")).join(w)
        if v < 0.7 and end - start >= timedelta(days=1, hours=1):
            return f"{MONTHS[start.month - 1]} {start.day:02d} {span}, {min(28, start.day + 1):02d} {span}"
        ex = start + timedelta(days=rng.randint(1, 6))
        return f"{rng.choice(('MON-FRI', 'DAILY'))} {span} EXC {MONTHS[ex.month - 1]} {ex.day:02d}"
    # day-of-month list within B-C
    d0 = start.day
    d1 = min(28, d0 + rng.randint(1, 4))
    if end.month == start.month and d0 < d1 <= end.day:
        return f"{d0:02d}-{d1:02d} {span}"
    return f"DAILY {span}"


# ------------------------------------------------------------------------------------------------------ arcs
ARC_STEP_DEG = 3.0  # the documented densification convention: equal azimuth steps of at most 3 degrees


def _geod():
    from pyproj import Geod

    return Geod(ellps="WGS84")


_GEOD = None


def geod():
    global _GEOD
    if _GEOD is None:
        _GEOD = _geod()
    return _GEOD


def fwd(lat: float, lon: float, az: float, dist_m: float) -> tuple[float, float]:
    lo, la, _ = geod().fwd(lon, lat, az, dist_m)
    return la, ((lo + 180.0) % 360.0) - 180.0


def arc_vertices(centre: tuple[float, float], a: tuple[float, float], b: tuple[float, float], radius_m: float,
                 sweep_sign: int | None) -> list[tuple[float, float]]:
    """Intermediate vertices of the arc a -> b around ``centre`` at ``radius_m`` (endpoints excluded).

    ``sweep_sign`` +1 clockwise, -1 anticlockwise, None the shorter way. Azimuths are the geodesic azimuths of the
    printed endpoints seen from the printed centre; the arc is cut into ceil(|sweep| / 3 deg) equal steps."""
    g = geod()
    az_a = g.inv(centre[1], centre[0], a[1], a[0])[0]
    az_b = g.inv(centre[1], centre[0], b[1], b[0])[0]
    cw = (az_b - az_a) % 360.0
    ccw = cw - 360.0
    sweep = cw if sweep_sign == 1 else ccw if sweep_sign == -1 else (cw if cw <= -ccw else ccw)
    n = max(1, math.ceil(abs(sweep) / ARC_STEP_DEG))
    return [fwd(centre[0], centre[1], az_a + sweep * k / n, radius_m) for k in range(1, n)]
