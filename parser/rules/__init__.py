"""The deterministic rules extractor: message -> zones in the engine output format (verbatim spans).

It reads the FORMATS, not particular messages:

- ICAO NOTAMs: geometry from item E (circles, polygons with arcs and named points, composite lists of centres),
  limits from F)/G) (or stated in E), times from B)/C), schedule from D); the Q-line circle only as a fallback.
- FAA domestic NOTAMs (``!BOS 01/502 …``): geometry and ``SFC-400FT AGL`` limits from the text, times from the
  trailing ``YYMMDDHHMM-YYMMDDHHMM``.
- FAA TFR web prose (``Beginning Date and Time : …``, ``From the surface up to and including 18000 feet MSL``).
- Chinese notices (``以<地名>为中心，半径2公里``, 北纬/东经, 真高…米, ``2024年9月10日12时至…24时``).

Layout (each module one job): ``patterns`` (the vocabulary), ``geometry`` and ``sectors`` (the geometry roles
over the coordinates in the text), ``readers`` (the fallbacks, in order, for a message without coordinates) and
``chinese`` (places a Chinese notice names), ``limits``, ``times``, ``drafts`` (one message's zones with each
zone's own values), ``zone`` (what the parts pass each other).

With no coordinates in the text, in this order (``readers.FALLBACKS``): an aerodrome identifier with a radius (``.5NM RADIUS OF ATL``,
``14KM RADIUS RJTT AERODROME``); a place name in prose (``within 0.4NM of Wembley Stadium``) or Chinese
(``以X为中心``, ``X及周边500米``, ``X，半径3公里``, ``X周边``, ``X上空``); the Q-line circle (coarse); a named area
switched on (``R5206 ACT``, ``VAD 8 (BERCHHA) ACT``) when the Q-line has no coordinate or a 999 NM radius; a FIR
named with its indicator (``NOT TO ENTER FIR TRIPOLI (HLLL)``); the A) location indicator (the pipeline resolves
identifiers through ``airportsdata``: approximate, review; never when A) is the Q-line's own FIR, whose code an
airport may share). The Q-line and A) fallbacks apply only to notices about
an area: a Q-code subject M/F/I/L/N/C/P/S/G/O (movement area, facilities, navaids, procedures, services…) without
coordinates is an aerodrome/procedure notice and yields no zone (the record says so). Place names are never
geocoded.
"""

from airspace.parser.rules.drafts import RulesExtractor, message_times, rules_drafts, rules_zones
from airspace.parser.rules.readers import FALLBACKS, area_designator

__all__ = ["RulesExtractor", "rules_drafts", "rules_zones", "area_designator", "message_times", "FALLBACKS"]
