"""Clover Airspace: air-traffic messages to validated 3D no-fly volumes.

The ``airspace`` namespace maps over the repository's top-level folders:
``airspace.parser`` -> ``parser/``, ``airspace.geo`` -> ``geo/``, ``airspace.model`` -> ``model/``,
``airspace.kernels`` -> ``kernels/``, ``airspace.app`` -> ``app/``, ``airspace.data`` -> ``data/``.
"""

__version__ = "0.1.0"
