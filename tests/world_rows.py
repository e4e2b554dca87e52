"""Rows of the world set and the vendored archive the tests may read (world train and val splits only: test rows
are never read by a test), synthetic messages in the layouts of feeds that name their items instead of lettering
them, each used beside a real row cited by id, and the rules engine's records of a text as the reader tests check
them."""

import json
from datetime import datetime

from airspace.data.paths import REAL
from airspace.data.world import read_world


def drawn_records(text: str):
    """The rules engine's records of ``text`` that draw something, as the pipeline returns them."""
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.split import Message

    recs, _ = process_batch([Message(0, text)], "rules")
    return [r for r in recs if r.geometry is not None]


def utc(s: str) -> datetime:
    """``2024-06-26T06:00Z`` as an aware datetime."""
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def archive_text(row_id: str) -> str:
    """The text of a row of the vendored archive (``data/real/archive.jsonl``) by its id."""
    for line in (REAL / "archive.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if r["id"] == row_id:
            return r["text"]
    raise KeyError(row_id)


def world_text(row_id: str) -> str:
    """The text of a train or val row of the world set."""
    for split in ("train", "val"):
        for r in read_world(split):
            if r["id"] == row_id:
                return r["text"]
    raise KeyError(row_id)


# an EAD/NATS PIB export: one <Notam> element, B)/C) as <StartValidity>/<EndValidity>, the Q-line's fields as tags
PIB_VARIANT = """<Notam OriginalMessage="false" PIBSection="EN">
    <NOF>EGGN</NOF>
    <Series>Q</Series>
    <Number>123</Number>
    <Year>25</Year>
    <Type>N</Type>
    <QLine>
        <FIR>EGPX</FIR>
        <Code23>RD</Code23>
        <Code45>CA</Code45>
        <Traffic>IV</Traffic>
        <Purpose>BO</Purpose>
        <Scope>W</Scope>
        <Lower>0</Lower>
        <Upper>25</Upper>
    </QLine>
    <Coordinates>5551N00412W</Coordinates>
    <Radius>3</Radius>
    <ItemA>EGPF</ItemA>
    <StartValidity>2503031000</StartValidity>
    <EndValidity>2503071600</EndValidity>
    <ItemE>TEMPO DANGER AREA ACTIVE WI 2NM RADIUS OF 555100N 0041200W
(GLASGOW). MAX HGT 400FT AGL.</ItemE>
    <ItemF>SFC</ItemF>
    <ItemG>2500FT AMSL</ItemG>
</Notam>"""
