"""Copy constraint for decoding: every field value must be a verbatim span of the message.

The answer grammar is ``key value (sep key value)* EOA`` (or ``NONE EOA``), where a value is a substring of the
message. Given the committed tokens to the left of a position, ``allowed`` returns which tokens may go there:

* at the start: a field key or NONE; after a separator: a field key; after NONE: EOA;
* right after a key: any token that occurs in the message (a value is never empty);
* inside a value: the tokens that follow an occurrence of the value so far in the message, or a separator / EOA.

A position whose left context is not committed yet (Clover decodes a block in any order) is left free, and so is a
value that already left the message (then the constraint cannot help). Both engines use the same rule, so the
timing comparison stays fair. Masking the disallowed tokens also sharpens the model's confidence, so Clover
commits more positions per step once a value prefix is unique in the message.
"""

from __future__ import annotations

import torch

from airspace.model.tokenizer import Tokenizer


class CopyConstraint:
    """Per-message constraint state (message tokens as a string of code points for fast substring search)."""

    def __init__(self, tok: Tokenizer, message_ids: list[int], vocab_size: int, device=None):
        self.tok = tok
        self.msg = "".join(chr(t) for t in message_ids)
        self.V = vocab_size
        self.device = device
        self.keys = set(tok.key_ids.values())
        self.seps = {tok.field_sep_id, tok.zone_sep_id}
        self.end = {tok.field_sep_id, tok.zone_sep_id, tok.eoa_id}
        self._cache: dict[str, torch.Tensor | None] = {}
        self._first = self._mask(set(message_ids))
        self._start = self._mask(self.keys | {tok.none_id})
        self._key = self._mask(self.keys)
        self._eoa = self._mask({tok.eoa_id})

    def _mask(self, ids) -> torch.Tensor:
        m = torch.zeros(self.V, dtype=torch.bool)
        m[[i for i in ids if 0 <= i < self.V]] = True
        if not m.any():
            m[:] = True  # nothing to copy from (empty message): leave the position free
        return m.to(self.device) if self.device is not None else m

    def allowed(self, left: list[int]) -> torch.Tensor | None:
        """Allowed-token mask [V] for the position after ``left`` (committed answer tokens), or None (free)."""
        tok = self.tok
        if not left:
            return self._start
        last = left[-1]
        if last == tok.mask_id:
            return None
        if last == tok.none_id or last == tok.eoa_id:
            return self._eoa
        if last in self.seps:
            return self._key
        if last in self.keys:
            return self._first
        value = []
        for t in reversed(left):
            if t in self.keys:
                break
            if t == tok.mask_id or t in self.seps or t == tok.none_id:
                return None
            value.append(t)
        s = "".join(chr(t) for t in reversed(value))
        if s in self._cache:
            return self._cache[s]
        nxt, start = set(), self.msg.find(s)
        while start >= 0:
            j = start + len(s)
            if j < len(self.msg):
                nxt.add(ord(self.msg[j]))
            start = self.msg.find(s, start + 1)
        out = None if not nxt and s not in self.msg else self._mask(nxt | self.end)
        self._cache[s] = out
        return out


def apply(logits: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
    """Disallowed tokens get -inf (in place on a [V] row)."""
    if allowed is not None:
        logits.masked_fill_(~allowed, float("-inf"))
    return logits
