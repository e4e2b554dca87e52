"""The engine contract: what every engine (rules, clover, ar) hands to the pipeline.

An engine reads whole messages and returns, for each message, either its zones as ``ZoneDraft`` s — each field's
verbatim value and the exact character span of the message it came from — or an ``EngineError`` saying why it has
no answer for that message (over its context limit, an answer that did not end). Model engines build the spans
from their pointers; the rules reader from its matches. Nothing downstream searches the message for a value again.

This module imports nothing from the project's folders: every folder may import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

__all__ = ["FIELDS", "PLACE_FIELDS", "Span", "ZoneDraft", "EngineError", "ExtractStats", "ModelStats", "Capabilities",
           "capabilities_of", "Extractor", "Answer"]

# The fields a zone may state, in the canonical order of the answer format (``airspace.core.answer``).
FIELDS: tuple[str, ...] = (
    "center",
    "radius",
    "polygon",
    "name",
    "lower",
    "upper",
    "start",
    "end",
    "schedule",
    # appended (checkpoints carry their own field list, so the slot layout of the nine above never moves):
    "date",  # the calendar day of clock-only times, stated apart from them ("Ops note 14 Jan 2027")
    "tz",  # the time zone those clock times are in ("UTC+8")
)
PLACE_FIELDS: tuple[str, ...] = ("center", "polygon", "name")  # what says where a zone is


@dataclass(frozen=True)
class Span:
    """A half-open character range ``[start, end)`` of the message and the text it covers."""

    start: int
    end: int
    text: str


@dataclass
class ZoneDraft:
    """One zone as an engine read it: field name -> verbatim value, and where each value sits in the message.

    A value without a span is one the engine could not place in the message; the pipeline flags it."""

    values: dict[str, str] = field(default_factory=dict)
    spans: dict[str, Span] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    @classmethod
    def from_spans(cls, spans: dict[str, Span]) -> ZoneDraft:
        return cls(values={k: s.text for k, s in spans.items()}, spans=dict(spans))


@dataclass(frozen=True)
class EngineError:
    """Why an engine has no answer for one message (the pipeline turns it into that message's ``error`` record)."""

    reason: str


# One message's answer: its zones (an empty list: the message defines no zone) or why there is none.
Answer = list[ZoneDraft] | EngineError


@dataclass
class ExtractStats:
    """What one ``extract`` call cost, as every engine reports it."""

    engine: str
    messages: int = 0
    wall_s: float = 0.0
    peak_mb: float = 0.0


@dataclass
class ModelStats(ExtractStats):
    """What a model engine adds: the numbers the timing demo and ``make bench`` compare between Clover and AR."""

    forwards: int = 0  # row-forwards: a batched call over b messages counts b
    answer_tokens: int = 0  # pointer slots written
    steps_per_block: list[int] = field(default_factory=list)  # clover: denoising steps each block took
    prefill_s: float = 0.0  # wall seconds of the prompt reads
    trace: list[list[str]] | None = None  # optional: per step, the partially denoised answer of every message
    repaired: int = 0  # fields whose span was re-chosen so that it reads as its field
    prompts_cached: int = 0  # messages whose prompt read was kept from before (read cache)

    @property
    def tokens_per_forward(self) -> float:
        return self.answer_tokens / self.forwards if self.forwards else 0.0


@dataclass(frozen=True)
class Capabilities:
    """What an engine can do. The pipeline, the benchmark and the dashboard ask these, never the engine's name, so a
    new engine is one entry in the registry (``airspace.pipeline.engines``) and the class that says what it does.

    The defaults are the safe reading of an engine that says nothing of itself: it reads a batch at once, its
    records are cross-checked, and it is not taken for a trained model. ``parser.rules.RulesExtractor`` and
    ``model.engine.ModelExtractor`` state theirs."""

    # reads one message per call: the pipeline hands it each message alone and counts the read in that message's
    # time budget; else it gets the whole batch at once (and each message alone only when the batch call fails)
    per_message: bool = False
    # its records are cross-checked against the rules reading of the same zone (a disagreement is ``review``); the
    # rules reader is that reading, so it is not checked against itself
    cross_checked: bool = True
    # a message with no header, Q-line, coordinates or times that it reads as no zone is one it did not understand
    # (an ``error`` record); else its empty answer says the message has no zone (a ``review`` record)
    says_not_understood: bool = False
    # a trained model: it reads a checkpoint, reports ``ModelStats`` and decodes with a ``go_on`` floor
    # (``airspace.model.decoding``), so the benchmark reports its forwards, repaired fields and kept prompt reads
    model: bool = False


def capabilities_of(extractor: object) -> Capabilities:
    """The extractor's ``capabilities``, or the defaults for one that states none."""
    caps = getattr(extractor, "capabilities", None)
    return caps if isinstance(caps, Capabilities) else Capabilities()


@runtime_checkable
class Extractor(Protocol):
    name: str
    capabilities: Capabilities

    def extract(self, messages: list[str]) -> tuple[list[Answer], ExtractStats]:
        """One answer per message, in order, and the cost of producing them."""
        ...
