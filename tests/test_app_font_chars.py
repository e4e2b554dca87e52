"""The map labels' shipped font-atlas characters (app/font_chars.py) match the vendored names they come from."""

from __future__ import annotations

from airspace.app import font_chars as FC
from airspace.app import map_layers as L


def test_shipped_charset_is_what_the_vendored_names_give():
    shipped = FC.shipped()
    computed = FC.compute()
    missing = set(computed) - set(shipped)
    assert not missing, f"rewrite it: python -m airspace.app.font_chars --write (missing {sorted(missing)[:20]})"
    assert shipped == computed
    assert (FC.BASEMAP_DIR / FC.CHARS_FILE).is_file()
    # what the label layer's atlas gets: a town's apostrophe, the symbols, letters beyond Latin-1 (Łódź, Čáslav)
    assert L.label_charset() == shipped
    assert set("Bao'an✈°Łłč") <= set(shipped)
    assert shipped == "".join(sorted(set(shipped))) and "\n" not in shipped
