"""Copy-friendly character tokenizer.

Every ASCII character, digit, letter and every CJK/symbol character seen in the corpus is one token, so the
model copies spans of the message character by character. Characters outside the vocabulary fall back to their
UTF-8 bytes (one token per byte), so nothing is ever lost. Special tokens:

- ``PAD`` (padding, never attended), ``MASK`` (block diffusion), ``SEP`` (between message and answer),
  ``EOA`` (end of answer), ``NONE`` (the whole answer of a message that defines no zone),
- the two answer separators ``ZONE_SEP`` / ``FIELD_SEP`` of ``airspace.parser.answer``,
- one token per field key prefix (``center=``, ``radius=`` ...), so a key costs one token in the answer.

Key tokens are used only when encoding answers (at the start of a field); messages are encoded character by
character.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Iterable

from airspace.parser.answer import FIELD_SEP, FIELDS, NO_ZONE, ZONE_SEP

PAD, MASK, SEP, EOA, NONE = "<pad>", "<mask>", "<sep>", "<eoa>", "<none>"
SPECIALS: tuple[str, ...] = (PAD, MASK, SEP, EOA, NONE, ZONE_SEP, FIELD_SEP) + tuple(f"{k}=" for k in FIELDS)
N_BYTES = 256
BASE_CHARS = "".join(chr(c) for c in range(32, 127)) + "\n\t"
# Characters common in Chinese airspace notices and in prose NOTAMs, always in the vocabulary.
DEFAULT_EXTRA = (
    "北纬东经南西度分秒公里米千真高海拔至以下上年月日时起止空域临时限制禁飞区半径范围内中心点坐标"
    "°′″’‘“”，。：；、（）－—–·～"
)


class Tokenizer:
    """Characters -> ids. ids: specials, then 256 byte tokens, then characters (ASCII first)."""

    def __init__(self, chars: Iterable[str] = ()):
        seen: dict[str, None] = {}
        for ch in list(BASE_CHARS) + list(DEFAULT_EXTRA) + list(chars):
            if len(ch) == 1 and ch not in (ZONE_SEP, FIELD_SEP):
                seen.setdefault(ch, None)
        self.chars: list[str] = list(seen)
        self.n_special = len(SPECIALS)
        self.byte_offset = self.n_special
        self.char_offset = self.n_special + N_BYTES
        self.char_to_id = {c: self.char_offset + i for i, c in enumerate(self.chars)}
        self.special_id = {s: i for i, s in enumerate(SPECIALS)}
        self.pad_id = self.special_id[PAD]
        self.mask_id = self.special_id[MASK]
        self.sep_id = self.special_id[SEP]
        self.eoa_id = self.special_id[EOA]
        self.none_id = self.special_id[NONE]
        self.zone_sep_id = self.special_id[ZONE_SEP]
        self.field_sep_id = self.special_id[FIELD_SEP]
        self.key_ids = {k: self.special_id[f"{k}="] for k in FIELDS}

    @property
    def vocab_size(self) -> int:
        return self.char_offset + len(self.chars)

    # ------------------------------------------------------------------ encoding
    def encode_text(self, text: str) -> list[int]:
        """Message text, one token per character (UTF-8 bytes for characters outside the vocabulary)."""
        out: list[int] = []
        for ch in text:
            i = self.char_to_id.get(ch)
            if i is not None:
                out.append(i)
            elif ch == ZONE_SEP:
                out.append(self.zone_sep_id)
            elif ch == FIELD_SEP:
                out.append(self.field_sep_id)
            else:
                out.extend(self.byte_offset + b for b in ch.encode("utf-8"))
        return out

    def encode_prompt(self, message: str) -> list[int]:
        return self.encode_text(message) + [self.sep_id]

    def encode_answer(self, answer: str) -> list[int]:
        """Answer text (engine output format) -> ids ending with EOA; field keys become single tokens."""
        if answer.strip() == NO_ZONE:
            return [self.none_id, self.eoa_id]
        out: list[int] = []
        for zi, zone in enumerate(answer.split(ZONE_SEP)):
            if zi:
                out.append(self.zone_sep_id)
            for fi, fld in enumerate(zone.split(FIELD_SEP)):
                if fi:
                    out.append(self.field_sep_id)
                key, eq, value = fld.partition("=")
                if eq and key in self.key_ids:
                    out.append(self.key_ids[key])
                    out.extend(self.encode_text(value))
                else:
                    out.extend(self.encode_text(fld))
        out.append(self.eoa_id)
        return out

    # ------------------------------------------------------------------ decoding
    def decode(self, ids: Iterable[int], *, stop_at_eoa: bool = True) -> str:
        """ids -> text. Stops at EOA; PAD/MASK/SEP vanish; byte runs are decoded as UTF-8 (invalid -> U+FFFD)."""
        parts: list[str] = []
        buf = bytearray()

        def flush() -> None:
            if buf:
                parts.append(buf.decode("utf-8", errors="replace"))
                buf.clear()

        for i in ids:
            i = int(i)
            if i == self.eoa_id and stop_at_eoa:
                break
            if self.byte_offset <= i < self.char_offset:
                buf.append(i - self.byte_offset)
                continue
            flush()
            if i >= self.char_offset:
                parts.append(self.chars[i - self.char_offset])
            elif i == self.none_id:
                parts.append(NO_ZONE)
            elif i in (self.zone_sep_id, self.field_sep_id):
                parts.append(SPECIALS[i])
            elif SPECIALS[i].endswith("=") and i < self.n_special:
                parts.append(SPECIALS[i])
            # PAD, MASK, SEP, EOA (when not stopping): nothing
        flush()
        return "".join(parts)

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict:
        return {"kind": "airspace-char-v1", "specials": list(SPECIALS), "n_bytes": N_BYTES, "chars": self.chars}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Tokenizer":
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        if d.get("kind") != "airspace-char-v1" or d.get("specials") != list(SPECIALS) or d.get("n_bytes") != N_BYTES:
            raise ValueError(f"{path}: not a compatible airspace tokenizer file")
        tok = cls(d["chars"])
        if tok.chars != d["chars"]:
            raise ValueError(f"{path}: character list is not canonical")
        return tok

    @classmethod
    def from_texts(cls, texts: Iterable[str], min_count: int = 1) -> "Tokenizer":
        """Vocabulary = ASCII + default extras + every non-ASCII character seen at least ``min_count`` times."""
        counts: dict[str, int] = {}
        for t in texts:
            for ch in t:
                if ord(ch) > 126:
                    counts[ch] = counts.get(ch, 0) + 1
        extra = sorted(c for c, n in counts.items() if n >= min_count)
        return cls(extra)
