"""Written-form variants of a real message: the same values as another feed writes them.

The archive's feeds write each value one way: ``451200N0013000E`` with no blank, ``3000FT AMSL`` tight, ``FL120``,
``1330M``. Other publishers write the same values ``451200N 0013000E``, ``451200N / 0013000E``, ``N451200
E0013000``, ``451200N-0013000E``, vertices parted by `` - `` or ``, ``, ``3,000 FT AMSL``, ``FL 120``, ``1,330M``.
A model reads a form only if it has seen it, and the generated families cannot know every feed's habit, so a
silver row is also written in another of these forms.

``written`` rewrites the values inside a row's spans (coordinates of a centre or a polygon and what parts a
polygon's vertices, a radius, a limit) by rearranging the very same digits, hemisphere letters and units: a number
is never recomputed, so the variant states exactly the values of the row. One form is drawn per message and used
for every value of its kind (a feed is consistent). ``airspace.data.silver`` keeps a variant only where the rules
reader reads it to the same records at the carried spans.

Pure functions: nothing here reads a file or a model.
"""

from __future__ import annotations

import random
import re

from airspace.data.layout import Edit, apply_edits, move
from airspace.parser.header import parse_header

# a compact ICAO coordinate, the latitude's and the longitude's precision alike: DDMM[SS[.s]]N DDDMM[SS[.s]]E, the
# two halves tight or parted by blanks or a slash; or hemisphere first, N4512 E00130
_SUFFIX = re.compile(r"(?<![\dA-Z])(?P<la>\d{4}(?:\d{2}(?:\.\d{1,2})?)?)(?P<ns>[NS])\s*/?\s*"
                     r"(?P<lo>\d{5}(?:\d{2}(?:\.\d{1,2})?)?)(?P<ew>[EW])(?![\dA-Z])")
_PREFIX = re.compile(r"(?<![\dA-Z])(?P<ns>[NS])(?P<la>\d{4}(?:\d{2}(?:\.\d{1,2})?)?)\s*/?\s*"
                     r"(?P<ew>[EW])(?P<lo>\d{5}(?:\d{2}(?:\.\d{1,2})?)?)(?![\dA-Z])")
# what stands between two vertices of a polygon ("keep": as the row has it)
VERTEX_SEPARATORS = ("keep", "keep", " - ", "-", ", ", " ", "  ")
# a radius or a limit: a number and its unit (and a reference after a limit's unit)
_MEASURE = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>NM|KM|FT|M)(?P<rest>(?:\s+(?:AMSL|AGL|MSL))?)")
_FL = re.compile(r"FL\s*(?P<num>\d{2,3})")
MEASURE_FORMS = ("tight", "blank", "thousands", "thousands_blank")


def _halves_match(m: re.Match) -> bool:
    """A latitude and a longitude written to the same precision (DDMM with DDDMM, DDMMSS with DDDMMSS, ...)."""
    return len(m["la"]) + 1 == len(m["lo"])


# each form as a template over the latitude's digits, its hemisphere letter, the longitude's and its letter
COORD_TEMPLATES = {
    "tight": "{la}{ns}{lo}{ew}", "blank": "{la}{ns} {lo}{ew}", "slash": "{la}{ns} / {lo}{ew}",
    "slash_tight": "{la}{ns}/{lo}{ew}", "dash": "{la}{ns}-{lo}{ew}", "hemi_first": "{ns}{la}{ew}{lo}",
    "hemi_first_blank": "{ns}{la} {ew}{lo}",
}
COORD_FORMS = tuple(COORD_TEMPLATES)


def coord_text(la: str, ns: str, lo: str, ew: str, form: str) -> str:
    if form not in COORD_TEMPLATES:
        raise ValueError(f"unknown coordinate form {form!r}")
    return COORD_TEMPLATES[form].format(la=la, ns=ns, lo=lo, ew=ew)


def _alone(text: str, m: re.Match) -> bool:
    """A match that is a whole token of the text, not part of a longer one: the span's ends are not the text's (a
    Q-line centre ``5010N07115W`` runs on into its radius ``085``)."""
    return not (m.start() > 0 and text[m.start() - 1].isalnum()) and not (m.end() < len(text) and
                                                                            text[m.end()].isalnum())


# between two vertices: blanks, a dash or a comma (with blanks around), nothing else
_BETWEEN = re.compile(r"\s*[-,]?\s*")


def _coord_edits(text: str, start: int, end: int, form: str, between: str = "keep") -> list[Edit]:
    """The coordinates of a centre or a polygon in ``form``; a polygon's vertices parted by ``between`` where only
    blanks, a dash or a comma part them (a word between two vertices stays)."""
    found = sorted((m for rx in (_SUFFIX, _PREFIX) for m in rx.finditer(text, start, end)
                    if _halves_match(m) and _alone(text, m)), key=lambda m: m.start())
    edits = []
    for m in found:
        new = coord_text(m["la"], m["ns"], m["lo"], m["ew"], form)
        if new != m.group():
            edits.append(Edit(m.start(), m.end(), new))
    if between != "keep" and not (form == "dash" and "-" in between):
        for a, b in zip(found, found[1:]):
            gap = text[a.end():b.start()]
            if a.end() < b.start() and _BETWEEN.fullmatch(gap) and gap != between:
                edits.append(Edit(a.end(), b.start(), between))
    return sorted(edits, key=lambda e: e.start)


def _number(num: str, form: str) -> str:
    if form.startswith("thousands") and "." not in num and len(num) >= 4 and not num.startswith("0"):
        return f"{int(num):,}"
    return num


def measure_text(m: re.Match, form: str) -> str:
    sep = " " if form.endswith("blank") else ""
    return f"{_number(m['num'], form)}{sep}{m['unit']}{m['rest']}"


def _measure_edits(text: str, start: int, end: int, form: str) -> list[Edit]:
    """The value's own text only: a span that is exactly one number and its unit (``1330M``, ``3000FT AMSL``) or
    one flight level (``FL120``)."""
    if (m := _MEASURE.fullmatch(text, start, end)) is not None:
        if not _alone(text, m):
            return []
        new = measure_text(m, form)
    elif (m := _FL.fullmatch(text, start, end)) is not None:
        new = f"FL{' ' if form.endswith('blank') else ''}{m['num']}"
    else:
        return []
    return [Edit(start, end, new)] if new != m.group() else []


def choose_forms(rng: random.Random) -> dict[str, str]:
    """One feed's habits, drawn: how it writes a coordinate, a radius and a limit."""
    return {"coord": rng.choice(COORD_FORMS), "between": rng.choice(VERTEX_SEPARATORS),
            "measure": rng.choice(MEASURE_FORMS)}


def written(text: str, spans: list[dict], rng: random.Random) -> tuple[str, list[dict], list[str]]:
    """A written-form variant of a message with its spans: (text, spans carried through the edits, the forms
    used). Only values inside the spans change; a message with nothing to rewrite comes back as it was."""
    forms = choose_forms(rng)
    edits: list[Edit] = []
    used = set()
    q = parse_header(text).qline
    for z in spans:
        for field, (s, e) in z.items():
            if q is not None and s < q.raw.end and e > q.raw.start:
                continue  # the Q-line's form is fixed by ICAO, whatever the feed
            if field in ("center", "polygon"):
                kind, got = "coord", _coord_edits(text, s, e, forms["coord"],
                                                  forms["between"] if field == "polygon" else "keep")
            elif field in ("radius", "lower", "upper"):
                kind, got = "measure", _measure_edits(text, s, e, forms["measure"])
            else:
                continue
            if got:
                used.add(kind)
                edits.extend(got)
    edits = sorted({(x.start, x.end): x for x in edits}.values(), key=lambda x: x.start)
    if not edits or any(a.end > b.start for a, b in zip(edits, edits[1:])):
        return text, spans, []
    new = apply_edits(text, edits)
    moved = [{k: [move(s, edits, is_end=False), move(e, edits, is_end=True)] for k, (s, e) in z.items()}
             for z in spans]
    return new, moved, [f"{k}:{forms[k]}" for k in sorted(used)] + (
        [f"between:{forms['between']!r}"] if "coord" in used and forms["between"] != "keep" else [])
