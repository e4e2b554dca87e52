"""How an engine read a batch, in an operator's words: what every engine reports (``ExtractStats``) and what a
model engine adds (``ModelStats``: forward passes, answer tokens, denoising steps per block)."""

from __future__ import annotations

from airspace.core.contract import ModelStats


def torch_threads(env: str | None, cpus: int | None) -> int:
    """Threads the dashboard lets torch use: ``env`` (``AIRSPACE_APP_THREADS``) when it is a positive integer,
    else half of ``cpus`` (at least one).

    The browser drawing the map (software WebGL where there is no GPU) needs CPU at the moment the model runs, and
    other work may share the machine. With as many torch threads as cores every OpenMP barrier waits on a thread
    the OS has parked: on 2 cores a demo20 Run measured 0.4 s alone took 1.7 s beside the browser and ~19 s
    beside a training; with one thread 0.6-1.0 s in all three cases."""
    try:
        n = int((env or "").strip())
    except ValueError:
        n = 0
    return n if n > 0 else max(1, (cpus or 2) // 2)


def stats_dict(stats) -> dict:
    """What every engine reports, and what a model engine adds (zeros for the rules engine): plain values that
    ``st.cache_data`` can keep."""
    model = isinstance(stats, ModelStats)
    return {
        "engine": stats.engine,
        "messages": stats.messages,
        "wall_s": stats.wall_s,
        "model": model,
        "forwards": stats.forwards if model else 0,
        "answer_tokens": stats.answer_tokens if model else 0,
        "tokens_per_forward": stats.tokens_per_forward if model else 0.0,
        "steps_per_block": list(stats.steps_per_block) if model else [],
        "trace": stats.trace if model else None,
        "prompts_cached": stats.prompts_cached if model else 0,
    }


def _n(x: int, one: str, many: str | None = None) -> str:
    return f"{x:,} {one if x == 1 else (many or one + 's')}"


def reading_summary(stats: dict, wall_s: float) -> str:
    """One or two sentences on how the engine read the batch (plain text; the page shows it beside the engine's
    time). The model figures: forward passes (each one reads the message and its answer so far once), answer
    tokens written per pass (an autoregressive model writes one; Clover fills several masked slots of a block per
    pass), and denoising steps per block (how many passes a block of the answer took to be filled in)."""
    engine = stats.get("engine") or "the engine"
    n = int(stats.get("messages") or 0)
    head = f"{engine} read {_n(n, 'message')} in {wall_s:.2f} s"
    if not stats.get("model"):
        return head + ": the deterministic rules reader, no model passes."
    fw, tok = int(stats.get("forwards") or 0), int(stats.get("answer_tokens") or 0)
    tpf = float(stats.get("tokens_per_forward") or 0.0)
    parts = [head + f": {_n(fw, 'forward pass', 'forward passes')} wrote {_n(tok, 'answer token')}"
             f" ({tpf:.1f} per pass; a word-by-word model writes about 1)"]
    steps = [int(s) for s in stats.get("steps_per_block") or []]
    if steps:
        mean = sum(steps) / len(steps)
        parts.append(f"each block of the answer took {mean:.1f} denoising steps on average "
                     f"({min(steps)}–{max(steps)}, over {_n(len(steps), 'block')})")
    kept = int(stats.get("prompts_cached") or 0)
    if kept:
        parts.append(f"{kept} of {n} messages had been read while the batch was on the page, so this Run only "
                     f"wrote their answers")
    return "; ".join(parts) + "."
