"""Which store: ``sqlite:///path`` (the embedded default) or ``postgresql://…`` (PostGIS), from ``--store``, the
environment variable ``AIRSPACE_STORE``, else the default file under the user's data directory
(``$XDG_DATA_HOME/clover-airspace/zones.sqlite``, ``~/.local/share/…`` without it)."""

from __future__ import annotations

import os
from pathlib import Path

from airspace.store.base import ZoneStore

ENV = "AIRSPACE_STORE"


def default_url() -> str:
    env = os.environ.get(ENV, "").strip()
    if env:
        return env
    data = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(data) / 'clover-airspace' / 'zones.sqlite'}"


def open_store(url: str | None = None) -> ZoneStore:
    """The store a URL names (module doc). A bad URL is a ``ValueError`` that says which forms are understood."""
    url = (url or default_url()).strip()
    if url.startswith("sqlite:///"):
        from airspace.store.sqlite import SqliteStore

        path = url[len("sqlite:///"):]
        if not path:
            raise ValueError("sqlite:/// needs a file path, e.g. sqlite:///var/zones.sqlite")
        return SqliteStore(path)  # sqlite:////abs/path or sqlite:///rel/path, as SQLAlchemy writes them
    if url.startswith(("postgresql://", "postgres://")):
        from airspace.store.postgis import PostgisStore

        return PostgisStore(url)
    raise ValueError(f"not a store URL: {url!r} (sqlite:///path or postgresql://user@host/db)")
