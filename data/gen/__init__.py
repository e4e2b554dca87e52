"""Template families of the synthetic corpus.

``REGISTRY`` lists every (family, template, weight); ``HELD_OUT`` names the template variants that only the
family-held-out test split uses, so its score measures generalisation to phrasings never seen in training.
"""

from __future__ import annotations

from . import chinese, composite, faa, freetext, icao, tfr

MODULES = {"icao": icao, "faa": faa, "tfr": tfr, "chinese": chinese, "freetext": freetext, "composite": composite}

# family weight (share of rows) and per-template relative weights (default 1.0)
FAMILY_WEIGHTS = {"icao": 38, "faa": 12, "tfr": 6, "chinese": 16, "freetext": 16, "composite": 12}
TEMPLATE_WEIGHTS = {
    "icao.notamc": 0.5, "icao.aerodrome_none": 0.4, "icao.qline_only": 0.5, "faa.domestic_none": 0.4,
    "icao.multi_psn": 0.8, "icao.multi_area": 0.8, "icao.multi_psn_inline": 0.6,
}
HELD_OUT = frozenset({
    "icao.circle_around", "icao.points_comma", "faa.fdc_stadium", "tfr.page_polygon", "chinese.venue_list",
    "freetext.en_police", "composite.zh_numbered",
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
