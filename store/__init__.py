"""The live airspace picture: a store that keeps every zone until a cancellation, a replacement or its end.

``open_store(url)`` gives a ``ZoneStore`` (``store/base.py``) over SQLite (``sqlite:///path``, the default file)
or PostGIS (``postgresql://…``). The feed semantics are ``store/semantics.py``; the page's calls ``store/api.py``.
"""

from airspace.store.base import Preview, StoredZone, ZoneStore
from airspace.store.url import default_url, open_store

__all__ = ["ZoneStore", "StoredZone", "Preview", "open_store", "default_url"]
