"""Template families of the synthetic corpus (one module per family; ``values`` prints every value form and
computes its gold, ``base`` assembles messages from tagged parts, ``noise`` perturbs them part by part).

- ``icao``: NOTAMN/R/C with Q-line (padded, empty, ``undefined``), items A–G in several layouts; item-E geometry as
  PSN+RADIUS, WI … RADIUS, CENTERED ON, circle-around, boundaries (``-``/newlines/commas/``TO``), arcs, Q-line-only
  areas, radius around an aerodrome, composite PSN lists and multi-area messages; closures of the FIRs of item A
  (``icao_fir``: one zone per indicator); cancellations, aerodrome or procedure notices and FIR-wide trigger or
  deactivation notices (``NONE``).
- ``faa``: domestic ``!ACCT NN/NNN LOC AIRSPACE UAS WI AN AREA DEFINED AS …`` and FDC TFRs (radius, polygon,
  stadium ``AND BLW``); runway/taxiway notices (``NONE``).
- ``tfr``: TFR web pages in prose (``Beginning Date and Time : July 23, 2026 at 2105 UTC``), the long tail.
- ``chinese``: 通告 with venue (named), coordinate circle or polygon, short 禁飞 notices, venue lists.
- ``freetext``: dispatcher messages in English and Chinese (``en_local``: clock times in local time, the day and
  the UTC offset written apart, answered as ``date`` / ``tz``).
- ``composite``: 2–8 zones in one message (dispatcher lists, FAA areas A–H, Chinese numbered areas).
- ``navwarn``: navigational warnings (NAVAREA IV / XII, HYDROPAC, HYDROLANT): lettered areas (boundaries of
  ``31-57.00N 077-01.00W`` points, or circles ``WITHIN 15 MILES OF …``) under a hazard paragraph with their periods;
  cancellations and hazards to ships alone (a wreck, a buoy, a station off air) define no zone (``NONE``).
- ``worldforms`` / ``zhforms``: forms of other feeds (issue 44): location-first NOTAMs without Q)/A), several
  areas each with its own limits or window, FAA 91.141 rings with VOR/DME alternates, area designators and radii
  with words; Chinese notices listing venues each with its own day range and daily window, days without a month
  under a dated heading, road-bounded areas and districts as the place. Forms the normalisers do not read yet are
  ``PENDING`` in their module and join the corpus once they do (``readiness``).
- ``mix``: compositional messages (random field phrasings, order, list markers, shared values; EN+ZH, 1–8 zones),
  train/val only: it teaches what a field looks like wherever it stands rather than one template's layout.

``pool(split)`` gives each split its (family, template, weight); ``HELD_OUT`` names the template variants that only
the family-held-out test split uses, so its score measures generalisation to phrasings never seen in training.
"""

from __future__ import annotations

from . import chinese, composite, faa, freetext, icao, mix, navwarn, tfr, worldforms, zhforms

MODULES = {"icao": icao, "faa": faa, "tfr": tfr, "chinese": chinese, "freetext": freetext, "composite": composite, "mix": mix,
           "navwarn": navwarn, "worldforms": worldforms, "zhforms": zhforms}

# family weight (share of rows) and per-template relative weights (default 1.0)
FAMILY_WEIGHTS = {"icao": 38, "faa": 12, "tfr": 6, "chinese": 16, "freetext": 16, "composite": 12, "mix": 30,
                  "navwarn": 7, "worldforms": 9, "zhforms": 7}
TEMPLATE_WEIGHTS = {
    "icao.notamc": 0.5, "icao.aerodrome_none": 0.4, "icao.qline_only": 0.5, "faa.domestic_none": 0.4,
    "icao.fir_closure": 2.0, "icao.fir_info": 0.8, "icao.fir_advisory": 0.8,
    "icao.multi_psn": 0.8, "icao.multi_area": 0.8, "icao.multi_psn_inline": 0.6, "icao.multi_ring": 3.0,
    "navwarn.warning_circle": 0.7, "navwarn.warning_surface": 0.5,
    "freetext.en_local": 5.0,  # the only family that writes ``date`` / ``tz``: enough rows to learn two fields
}
HELD_OUT = frozenset({
    "icao.circle_around", "icao.points_comma", "faa.fdc_stadium", "tfr.page_polygon", "chinese.venue_list",
    "freetext.en_police", "composite.zh_numbered",
    # issue 44's world forms: one layout variant of each form held out
    "worldforms.locfirst_oneline", "worldforms.launch_areas_named", "worldforms.vip_rings_core",
    "zhforms.venues_table", "zhforms.road_bounded_zhi",
})


def all_templates() -> list[tuple[str, str]]:
    return [(fam, t) for fam, mod in MODULES.items() for t in mod.TEMPLATES]


def pool(split: str) -> list[tuple[str, str, float]]:
    """(family, template, weight) available to ``split``: test takes only held-out templates, train/val the rest."""
    out = []
    for fam, mod in MODULES.items():
        temps = [t for t in mod.TEMPLATES if ((f"{fam}.{t}" in HELD_OUT) == (split == "test"))]
        if not temps:
            continue
        tw = {t: TEMPLATE_WEIGHTS.get(f"{fam}.{t}", 1.0) for t in temps}
        total = sum(tw.values())
        for t in temps:
            out.append((fam, t, FAMILY_WEIGHTS[fam] * tw[t] / total))
    return out
