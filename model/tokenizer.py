"""Copy-friendly character tokenizer for messages.

Every ASCII character, digit, letter and every CJK/symbol character seen in the corpus is one token, so a pointer
into the prompt lands on a character boundary almost everywhere. Characters outside the vocabulary fall back to
their UTF-8 bytes (one token per byte), so nothing is ever lost. Special tokens: ``PAD`` (padding, never
attended), ``MASK`` (a not-yet-decoded answer slot), ``SEP`` (ends the message; pointer slots use its position as
NULL). Answers are not tokenized: they are pointer slots (``airspace.model.pointers``).

``blank_runs="one"`` writes every run of white space (blanks, tabs, line breaks) as one blank token: feeds store
one notice one item per line, wrapped at 69 columns or on one line with double blanks, and a small model trained
mostly on one feed's layout reads another's worse. Under this option those layouts are one prompt; each character
of a run maps to the run's token, so spans still come back in the message's own characters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

PAD, MASK, SEP = "<pad>", "<mask>", "<sep>"
SPECIALS: tuple[str, ...] = (PAD, MASK, SEP)
PAD_ID, MASK_ID, SEP_ID = range(3)
N_BYTES = 256
KIND = "airspace-char-v2"
BLANK_RUNS = ("keep", "one")
BASE_CHARS = "".join(chr(c) for c in range(32, 127)) + "\n\t"
# Characters common in Chinese airspace notices and in prose NOTAMs, always in the vocabulary.
DEFAULT_EXTRA = (
    "北纬东经南西度分秒公里米千真高海拔至以下上年月日时起止空域临时限制禁飞区半径范围内中心点坐标"
    "°′″’‘“”，。：；、（）－—–·～"
)


class Tokenizer:
    """Characters -> ids. ids: specials, then 256 byte tokens, then characters (ASCII first)."""

    def __init__(self, chars: Iterable[str] = (), blank_runs: str = "keep"):
        if blank_runs not in BLANK_RUNS:
            raise ValueError(f"blank_runs must be one of {BLANK_RUNS}, got {blank_runs!r}")
        self.blank_runs = blank_runs
        seen: dict[str, None] = {}
        for ch in list(BASE_CHARS) + list(DEFAULT_EXTRA) + list(chars):
            if len(ch) == 1:
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

    @property
    def vocab_size(self) -> int:
        return self.char_offset + len(self.chars)

    # ------------------------------------------------------------------ encoding
    def encode_text(self, text: str) -> list[int]:
        """Message text, one token per character (UTF-8 bytes for characters outside the vocabulary)."""
        return self.encode_text_offsets(text)[0]

    def encode_text_offsets(self, text: str, as_bytes: frozenset[int] | set[int] = frozenset()
                            ) -> tuple[list[int], list[int]]:
        """(ids, char_to_tok): ``char_to_tok[c]`` is the token index where character c starts; one more entry for
        the end of the text. Characters at the indices ``as_bytes`` are written as bytes even when the vocabulary
        has them (training shows the model what an unknown character looks like). Under ``blank_runs="one"`` the
        characters of a white-space run all start at the run's one blank token, and the blanks before the
        first and after the last character have none."""
        out: list[int] = []
        starts: list[int] = []
        one = self.blank_runs == "one"
        blank = self.char_to_id[" "]
        lo, hi = (len(text) - len(text.lstrip()), len(text.rstrip())) if one else (0, len(text))
        for c, ch in enumerate(text):
            if one and ch.isspace():
                if c < lo or c >= hi:  # blanks before the first character or after the last: no token at all
                    starts.append(len(out))
                elif text[c - 1].isspace():
                    starts.append(len(out) - 1)
                else:
                    starts.append(len(out))
                    out.append(blank)
                continue
            starts.append(len(out))
            i = None if c in as_bytes else self.char_to_id.get(ch)
            if i is not None:
                out.append(i)
            else:
                out.extend(self.byte_offset + b for b in ch.encode("utf-8"))
        starts.append(len(out))
        return out, starts

    def encode_prompt(self, message: str) -> list[int]:
        return self.encode_text(message) + [self.sep_id]

    # ------------------------------------------------------------------ decoding
    def decode(self, ids: Iterable[int]) -> str:
        """ids -> text; specials vanish; byte runs are decoded as UTF-8 (invalid -> U+FFFD)."""
        parts: list[str] = []
        buf = bytearray()
        for i in ids:
            i = int(i)
            if self.byte_offset <= i < self.char_offset:
                buf.append(i - self.byte_offset)
                continue
            if buf:
                parts.append(buf.decode("utf-8", errors="replace"))
                buf.clear()
            if i >= self.char_offset:
                parts.append(self.chars[i - self.char_offset])
        if buf:
            parts.append(buf.decode("utf-8", errors="replace"))
        return "".join(parts)

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict:
        d = {"kind": KIND, "specials": list(SPECIALS), "n_bytes": N_BYTES, "chars": self.chars}
        if self.blank_runs != "keep":  # a file without the key reads as the checkpoints before the option did
            d["blank_runs"] = self.blank_runs
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Tokenizer:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        if d.get("kind") != KIND or d.get("specials") != list(SPECIALS) or d.get("n_bytes") != N_BYTES:
            raise ValueError(f"{path}: not a compatible airspace tokenizer file")
        tok = cls(d["chars"], d.get("blank_runs", "keep"))
        if tok.chars != d["chars"]:
            raise ValueError(f"{path}: character list is not canonical")
        return tok

    @classmethod
    def from_texts(cls, texts: Iterable[str], min_count: int = 1) -> Tokenizer:
        """Vocabulary = ASCII + default extras + every non-ASCII character seen at least ``min_count`` times."""
        counts: dict[str, int] = {}
        for t in texts:
            for ch in t:
                if ord(ch) > 126:
                    counts[ch] = counts.get(ch, 0) + 1
        extra = sorted(c for c, n in counts.items() if n >= min_count)
        return cls(extra)
