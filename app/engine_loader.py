"""The page's engines, loaded behind the page: the rules reader at once, a model engine (torch, a checkpoint:
seconds) in a thread of its own, so the first screen never waits for torch. No Streamlit in here.

One ``EngineLoader`` per server process (``shared``): every session sees the same engines, loaded once. The page
asks ``state(name)`` ("ready", "loading", "failed" with the reason, or "idle") and reads with the rules reader while
the engine it wants is not ready, saying so."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

READY, LOADING, FAILED, IDLE = "ready", "loading", "failed", "idle"


class EngineLoader:
    """Loads engines with ``load(name) -> extractor`` (raising when it cannot), each at most once; model engines
    in a background thread (``start``), any engine on demand (``wait``)."""

    def __init__(self, load: Callable[[str], Any]):
        self._load = load
        self._lock = threading.Lock()
        self._engines: dict[str, Any] = {}
        self._errors: dict[str, str] = {}
        self._threads: dict[str, threading.Thread] = {}

    def _run(self, name: str) -> None:
        try:
            extractor = self._load(name)
        except SystemError:
            # CPython 3.11's AST recursion-depth check is shared across threads: a load that parses source (triton
            # reads its kernels' source) while the server compiles the page script can fail; once more, then it counts
            extractor = self._load(name)
        with self._lock:
            self._engines[name] = extractor

    def _load_or_fail(self, name: str) -> None:
        try:
            self._run(name)
        except Exception as exc:  # noqa: BLE001 - a missing checkpoint or torch: the page says why and reads with rules
            with self._lock:
                self._errors[name] = f"{type(exc).__name__}: {exc}"

    def start(self, name: str) -> None:
        """Begin loading ``name`` in the background (nothing when it is loaded, loading or failed). Not a daemon
        thread: a process that ends while torch loads waits for it rather than tearing torch down mid-import."""
        with self._lock:
            if name in self._engines or name in self._errors or name in self._threads:
                return
            th = threading.Thread(target=self._load_or_fail, args=(name,), name=f"airspace-load-{name}", daemon=False)
            self._threads[name] = th
        th.start()

    def state(self, name: str) -> tuple[str, str | None]:
        """(READY / LOADING / FAILED / IDLE, the failure's reason or None)."""
        with self._lock:
            if name in self._engines:
                return READY, None
            if name in self._errors:
                return FAILED, self._errors[name]
            if name in self._threads:
                return LOADING, None
            return IDLE, None

    def wait(self, name: str, timeout: float | None = None) -> tuple[Any | None, str | None]:
        """(extractor or None, the reason it is not there): loads ``name`` if need be and waits up to ``timeout``."""
        self.start(name)
        th = self._threads.get(name)
        if th is not None:
            th.join(timeout)
        with self._lock:
            if name in self._engines:
                return self._engines[name], None
            return None, self._errors.get(name, f"engine {name!r} is still loading")

    def get(self, name: str) -> Any | None:
        """The extractor when it is loaded, else None (never waits)."""
        with self._lock:
            return self._engines.get(name)


_SHARED: EngineLoader | None = None
_SHARED_LOCK = threading.Lock()


def shared(load: Callable[[str], Any]) -> EngineLoader:
    """The server's loader (made with ``load`` on first call; later calls get the same one)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = EngineLoader(load)
        return _SHARED
