"""The shipped demo batches (``data/samples``), written from their values so the expected records are by construction.

``demo20``: one drone-dispatch morning in Shenzhen, demo time ``DEMO_TIME`` (10:00 Beijing time): twenty messages
in mixed formats (ICAO NOTAMs incl. a collapsed one, FAA-style, Chinese notices, dispatcher free text in English
and Chinese), overlapping zones in different altitude bands, past / active / future windows, one NOTAMC and one
named venue without coordinates (``review``). ``composite5``: one NOTAM that defines five zones.

    python -m airspace.data.gen.demo --out data/samples      # rewrite the four sample files
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DEMO_TIME = "2026-11-30T02:00:00Z"
FT_PER_M = 1 / 0.3048


def dms(d: int, m: int, s: float = 0, h: str = "N") -> float:
    v = d + m / 60 + s / 3600
    return round(-v if h in "SW" else v, 8)


def C(lat: float, lon: float, radius_m: float) -> dict:
    return {"type": "circle", "center": [lat, lon], "radius_m": radius_m}


def P(*pts: tuple[float, float]) -> dict:
    return {"type": "polygon", "points": [list(p) for p in pts]}


SFC = {"ref": "SFC", "ft": 0.0}
GND = {"ref": "GND", "ft": 0.0}
UNL = {"ref": "UNL", "ft": None}


def amsl_ft(v: float) -> dict:
    return {"ref": "AMSL", "ft": float(v)}


def agl_ft(v: float) -> dict:
    return {"ref": "AGL", "ft": float(v)}


def amsl_m(v: float) -> dict:
    return {"ref": "AMSL", "ft": v * FT_PER_M}


def agl_m(v: float) -> dict:
    return {"ref": "AGL", "ft": v * FT_PER_M}


def fl(n: int) -> dict:
    return {"ref": "FL", "ft": float(n * 100)}


def Z(geometry, lower, upper, start, end, status="ok", **extra) -> dict:
    z = {"status": status, "geometry": geometry, "lower": lower, "upper": upper, "start": start, "end": end}
    z.update(extra)
    return z


# Real places (approximate): Shenzhen Bay Sports Centre, Qianhai, Civic Centre, Lianhuashan Park, Sea World (Shekou),
# Universiade Centre, Bao'an airport (ZGSZ), Window of the World, Dapeng Bay, Shenzhen World, Ping An Finance Centre,
# Yantian port, Longgang. Windows are relative to DEMO_TIME = 2026-11-30 02:00Z.
DEMO20: list[tuple[str, list[dict], str]] = [
    ("""A2231/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001
A) ZGSZ B) 2611300000 C) 2611301200
E) UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 1NM RADIUS OF
PSN 223110N 1135635E (SHENZHEN BAY SPORTS CENTRE).
F) SFC G) 1000FT AMSL""",
     [Z(C(dms(22, 31, 10), dms(113, 56, 35, "E"), 1852.0), SFC, amsl_ft(1000),
        "2026-11-30T00:00:00Z", "2026-11-30T12:00:00Z")], "active"),
    ("""A2232/26 NOTAMN
Q) ZGZU/QRTCA/IV/BO/W/000/020/2232N11354E002
A) ZGSZ B) 2611300100 C) 2611300500
E) TEMPO RESTRICTED AREA FOR HEL OPS BOUNDED BY:
N223300E1135200-N223330E1135500-N223130E1135630-N223045E1135300 BACK TO START.
F) SFC G) 600M AMSL""",
     [Z(P((dms(22, 33), dms(113, 52)), (dms(22, 33, 30), dms(113, 55)), (dms(22, 31, 30), dms(113, 56, 30)),
          (dms(22, 30, 45), dms(113, 53))), SFC, amsl_m(600), "2026-11-30T01:00:00Z", "2026-11-30T05:00:00Z")],
     "active"),
    ("""!FDC 6/0871 ZGZU GD..AIRSPACE SHENZHEN, GD..TEMPORARY FLIGHT RESTRICTIONS FOR VIP MOVEMENT WI AN AREA DEFINED AS 2NM RADIUS OF 223235N1140335E (SZX074026.0) SFC-3000FT 2611300130-2611300330""",
     [Z(C(dms(22, 32, 35), dms(114, 3, 35), 3704.0), SFC, amsl_ft(3000),
        "2026-11-30T01:30:00Z", "2026-11-30T03:30:00Z")], "active"),
    ("""A2198/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611250000 C) 2612052359
D) DAILY 0000-0400
E) UA FLIGHTS PROHIBITED WI 0.5NM RADIUS CENTERED ON 223313N 1140317E (LIANHUASHAN PARK).
F) SFC G) 120M AGL""",
     [Z(C(dms(22, 33, 13), dms(114, 3, 17), 926.0), SFC, agl_m(120), "2026-11-25T00:00:00Z",
        "2026-12-05T23:59:00Z", schedule="DAILY 0000-0400")], "active (daily 0000-0400)"),
    ("""A2240/26 NOTAMC A2187/26
Q) ZGZU/QWULW/IV/BO/W/000/004/2232N11404E001
A) ZGSZ B) 2611292330
E) A2187/26 CANCELLED. UAS RESTRICTION AT FUTIAN CBD NO LONGER REQUIRED.""",
     [{"status": "ok", "geometry": None, "notam_type": "C", "ref_id": "A2187/26"}], "cancellation"),
    ("""A2225/26 NOTAMN
Q) ZGZU/QWMLW/IV/BO/W/000/015/2229N11355E001
A) ZGSZ B) 2611291200 C) 2611291330
E) FIREWORKS DISPLAY WI 0.5NM RADIUS: 222905N 1135452E (SHEKOU SEA WORLD).
F) SFC G) 1500FT AMSL""",
     [Z(C(dms(22, 29, 5), dms(113, 54, 52), 926.0), SFC, amsl_ft(1500),
        "2026-11-29T12:00:00Z", "2026-11-29T13:30:00Z")], "past"),
    ("""深圳市公安局关于深圳马拉松赛期间对无人驾驶航空器实施临时管控的通告

为保障深圳马拉松赛期间空中安全，现就有关事项明确如下：
一、管控区域：以北纬22°41′50″ 东经114°12′47″为中心，半径3公里范围内，真高300米以下空域。
二、管控时间：2026年11月30日7时至2026年11月30日13时。
三、管控期间，禁止一切无人机及“低慢小”航空器飞行。

深圳市公安局
2026年11月25日""",
     [Z(C(dms(22, 41, 50), dms(114, 12, 47), 3000.0), SFC, agl_m(300),
        "2026-11-29T23:00:00Z", "2026-11-30T05:00:00Z")], "active (Beijing 07-13)"),
    ("""A2243/26 NOTAMR A2219/26
Q) ZGZU/QRTCA/IV/BO/W/000/030/2236N11349E003
A) ZGSZ B) 2611300000 C) 2611301600EST
E) TEMPO RESTRICTED AREA FOR CALIBRATION FLT BOUNDED BY:
N223800E1134700 - N223800E1135200 - N223400E1135200 - N223400E1134700 BACK TO START.
F) SFC G) 3000FT AMSL""",
     [Z(P((dms(22, 38), dms(113, 47)), (dms(22, 38), dms(113, 52)), (dms(22, 34), dms(113, 52)),
          (dms(22, 34), dms(113, 47))), SFC, amsl_ft(3000), "2026-11-30T00:00:00Z", "2026-11-30T16:00:00Z",
        status="review", end_estimated=True, notam_type="R", ref_id="A2219/26")], "active, end estimated"),
    ("""!SZX 11/045 SZX AIRSPACE UAS WI AN AREA DEFINED AS .5NM RADIUS OF 223211N1135825E (SZX095012.4) SFC-400FT AGL 2611300030-2611300600""",
     [Z(C(dms(22, 32, 11), dms(113, 58, 25), 926.0), SFC, agl_ft(400),
        "2026-11-30T00:30:00Z", "2026-11-30T06:00:00Z")], "active"),
    ("""A2236/26 NOTAMN
Q) ZGZU/QRDCA/IV/BO/W/050/150/2234N11432E008
A) ZGZU B) 2611300600 C) 2611300900
E) MIL EXER IN AREA BOUNDED BY 2240N11425E - 2240N11438E - 2228N11438E - 2228N11425E BACK TO START.
F) FL050 G) FL150""",
     [Z(P((dms(22, 40), dms(114, 25)), (dms(22, 40), dms(114, 38)), (dms(22, 28), dms(114, 38)),
          (dms(22, 28), dms(114, 25))), fl(50), fl(150), "2026-11-30T06:00:00Z", "2026-11-30T09:00:00Z")],
     "future"),
    ("""深圳市宝安区人民政府关于深圳国际会展中心展会期间实施临时禁飞的通告

展会期间，以深圳国际会展中心为中心，半径2公里范围内禁止无人机飞行。
管控时间：2026年11月30日9时至2026年11月30日18时。""",
     [Z({"type": "named", "name": "深圳国际会展中心"}, SFC, None, "2026-11-30T01:00:00Z", "2026-11-30T10:00:00Z",
        status="review")], "active, named venue without coordinates -> review"),
    ("""Dispatch note: UAV ops prohibited within 3 km of 22.60N 113.88E from November 30, 2026 at 0130 UTC to November 30, 2026 at 0430 UTC, SFC to 120 m AGL. Reroute the BA-07 deliveries along the coast.""",
     [Z(C(22.6, 113.88, 3000.0), SFC, agl_m(120), "2026-11-30T01:30:00Z", "2026-11-30T04:30:00Z")], "active"),
    ("""调度通知：北纬22.55度，东经114.10度半径500米内，2026年11月30日14时至2026年11月30日17时禁飞，真高120米以下。""",
     [Z(C(22.55, 114.1, 500.0), SFC, agl_m(120), "2026-11-30T06:00:00Z", "2026-11-30T09:00:00Z")],
     "future (Beijing 14-17)"),
    ("""A2241/26 NOTAMN  Q) ZGZU/QWELW/IV/BO /W /000/999/2232N11403E001  A) ZGSZ B) 2611301100 C) 2611301500  E) LASER LIGHT SHOW 0.3NM RADIUS CENTRED ON 223200N 1140319E  FUTIAN CBD.  F) SFC G) UNL    CREATED: 28 NOV 2026 09:12  SOURCE: ZGGGYNYX""",
     [Z(C(dms(22, 32), dms(114, 3, 19), 555.6), SFC, UNL, "2026-11-30T11:00:00Z", "2026-11-30T15:00:00Z")],
     "future; newlines collapsed"),
    ("""A2244/26 NOTAMN
Q) ZGZU/QWCLW/IV/M/W/000/008/2235N11416E002
A) ZGSZ B) 2611292200 C) 2611301000
E) CAPTIVE BALLOONS OPR. THE AREA WI 0.3NM RADIUS OF PSNS CLSD FM SFC AS FLW:
PSN N223450E1141540 UP TO 500FT AMSL.
PSN N223520E1141710 UP TO 800FT AMSL.
F) SFC G) 800FT AMSL""",
     [Z(C(dms(22, 34, 50), dms(114, 15, 40), 555.6), SFC, amsl_ft(500), "2026-11-29T22:00:00Z",
        "2026-11-30T10:00:00Z"),
      Z(C(dms(22, 35, 20), dms(114, 17, 10), 555.6), SFC, amsl_ft(800), "2026-11-29T22:00:00Z",
        "2026-11-30T10:00:00Z")], "active; two zones"),
    ("""A2245/26 NOTAMN
Q) ZGZU/QRTCA/IV/BO/W/003/050/2232N11356E003
A) ZGSZ B) 2611300145 C) 2611300800
E) HEL TRAINING FLT WI 3NM RADIUS CENTERED ON 223150N 1135600E.
F) 100M AGL G) FL050""",
     [Z(C(dms(22, 31, 50), dms(113, 56), 5556.0), agl_m(100), fl(50), "2026-11-30T01:45:00Z",
        "2026-11-30T08:00:00Z")], "active; above the drone layer"),
    ("""A2101/26 NOTAMN
Q) ZGZU/QRPCA/IV/BO/W/000/010/2234N11357E001
A) ZGSZ B) 2609010000 C) PERM
E) PROHIBITED AREA ESTABLISHED OVER DETENTION FACILITY WI 0.3NM RADIUS OF 223422N 1135712E.
F) SFC G) 1000FT AMSL""",
     [Z(C(dms(22, 34, 22), dms(113, 57, 12), 555.6), SFC, amsl_ft(1000), "2026-09-01T00:00:00Z", None,
        permanent=True)], "active, permanent"),
    ("""A2246/26 NOTAMN
Q) ZGZU/QWALW/IV/BO/W/015/050/2231N11357E002
A) ZGSZ B) 2611300300 C) 2611300500
E) AEROBATIC DISPLAY WI 2NM RADIUS OF 223110N 1135635E.
F) 1500FT AMSL G) FL050""",
     [Z(C(dms(22, 31, 10), dms(113, 56, 35), 3704.0), amsl_ft(1500), fl(50), "2026-11-30T03:00:00Z",
        "2026-11-30T05:00:00Z")], "future; same centre as message 0, higher band"),
    ("""!SZX 11/040 SZX AIRSPACE UAS WI AN AREA DEFINED AS 1NM RADIUS OF 224230N1135020E (SZX030005.2) SFC-200FT AGL 2611290800-2611291400""",
     [Z(C(dms(22, 42, 30), dms(113, 50, 20), 1852.0), SFC, agl_ft(200), "2026-11-29T08:00:00Z",
        "2026-11-29T14:00:00Z")], "past"),
    ("""A2247/26 NOTAMN
Q) ZGZU/QWPLW/IV/BO/W/000/130/2242N11405E002
A) ZGSZ B) 2612010000 C) 2612010400
E) PJE OVER LONGGANG WI 1.5NM RADIUS PSN 224200N 1140500E.
F) GND G) FL130""",
     [Z(C(dms(22, 42), dms(114, 5), 2778.0), GND, fl(130), "2026-12-01T00:00:00Z", "2026-12-01T04:00:00Z")],
     "future (tomorrow)"),
]

COMPOSITE5 = ("""A2250/26 NOTAMN
Q) ZGZU/QRTCA/IV/BO/W/000/050/2235N11400E015
A) ZGSZ B) 2611300000 C) 2611301000
E) TEMPO RESTRICTED AREAS FOR CITY MARATHON AND DRONE LIGHT SHOW:
AREA 1: PSN 223110N 1135635E RADIUS 1NM. SFC-1000FT AMSL.
AREA 2: PSN 223235N 1140335E RADIUS 0.5NM. SFC-500FT AMSL.
AREA 3: 223300N1135200E - 223330N1135500E - 223130N1135630E - 223045N1135300E BACK TO START. SFC-600M AMSL.
AREA 4: PSN 224150N 1141247E RADIUS 2KM. SFC-300M AGL.
AREA 5: 223900N1140000E - 223900N1140300E - 223700N1140300E - 223700N1140000E BACK TO START. 1000FT AMSL-FL050.
F) SFC G) FL050""", [
    Z(C(dms(22, 31, 10), dms(113, 56, 35), 1852.0), SFC, amsl_ft(1000), "2026-11-30T00:00:00Z", "2026-11-30T10:00:00Z"),
    Z(C(dms(22, 32, 35), dms(114, 3, 35), 926.0), SFC, amsl_ft(500), "2026-11-30T00:00:00Z", "2026-11-30T10:00:00Z"),
    Z(P((dms(22, 33), dms(113, 52)), (dms(22, 33, 30), dms(113, 55)), (dms(22, 31, 30), dms(113, 56, 30)),
        (dms(22, 30, 45), dms(113, 53))), SFC, amsl_m(600), "2026-11-30T00:00:00Z", "2026-11-30T10:00:00Z"),
    Z(C(dms(22, 41, 50), dms(114, 12, 47), 2000.0), SFC, agl_m(300), "2026-11-30T00:00:00Z", "2026-11-30T10:00:00Z"),
    Z(P((dms(22, 39), dms(114, 0)), (dms(22, 39), dms(114, 3)), (dms(22, 37), dms(114, 3)), (dms(22, 37), dms(114, 0))),
      amsl_ft(1000), fl(50), "2026-11-30T00:00:00Z", "2026-11-30T10:00:00Z"),
], "active; five zones")


def active_at(z: dict, t: str = DEMO_TIME) -> bool:
    """Whether zone ``z`` is active at ``t`` (ISO UTC strings compare in time order): inside [start, end) and,
    for a ``DAILY hhmm-hhmm`` schedule, inside that day's window."""
    if z.get("geometry") is None:
        return False
    if z.get("start") and t < z["start"]:
        return False
    if z.get("end") and t >= z["end"]:
        return False
    sched = z.get("schedule")
    if sched:
        a, b = sched.split()[-1].split("-")
        hhmm = t[11:13] + t[14:16]
        return a <= hhmm < b
    return True


def _expected_lines(batch: list[tuple[str, list[dict], str]]) -> list[str]:
    out = []
    for mi, (_, zones, note) in enumerate(batch):
        for zi, z in enumerate(zones):
            obj = {"message": mi, "zone": zi, **z, "active_at_demo_time": active_at(z), "note": note}
            out.append(json.dumps(obj, ensure_ascii=False))
    return out


def files() -> dict[str, str]:
    """File name -> content of the four sample files."""
    demo = DEMO20
    comp = [COMPOSITE5]
    return {
        "demo20.txt": "\n\n".join(t for t, _, _ in demo) + "\n",
        "demo20.expected.jsonl": "\n".join(_expected_lines(demo)) + "\n",
        "composite5.txt": COMPOSITE5[0] + "\n",
        "composite5.expected.jsonl": "\n".join(_expected_lines(comp)) + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="write the demo sample batches and their expected records")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "samples"))
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files().items():
        (out / name).write_text(content, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
