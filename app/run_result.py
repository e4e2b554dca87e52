"""What one Run of the dashboard produced, as the page's views read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from airspace.app.feed import FeedView


@dataclass(frozen=True)
class RunResult:
    """What the last Run produced: the batch, the engine, every record, the feed's view of them (what the map
    shows), their volumes, the engine's wall time and stats (``run_summary.stats_dict``), and the day the batch was
    received where the operator gave one (``reference``)."""

    text: str = ""
    engine: str = ""
    records: list = field(default_factory=list)
    wall_s: float = 0.0
    volumes: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    feed: FeedView = field(default_factory=FeedView)
    note: str | None = None
    reference: date | None = None
