"""Scale-out on Ray Data: one batch read by a pool of actors, each holding one engine, with the records
``process_batch`` gives in one process, message for message.

The driver splits the input as the one-process CLI does (so every message keeps its index, and a line that is not
a message keeps its ``error`` record); Ray Data cuts the messages into shards of ``shard_size`` and an actor pool
of ``workers`` runs ``process_batch`` over each shard with the engine it loaded once. A shard's records travel
back as their JSON and are put in message order. Nothing in a record depends on which shard read it: the model
engines read every message on its own (a prompt's padding is masked, and length groups are formed inside the
engine), and the cross-check, validation and budgets are per message. What messages say about each other (a NOTAMR or
NOTAMC of the batch) is read once over the whole batch on the driver (``notam_graph.link_batch``), not per shard.

Actors take one CPU each (and one GPU where the cluster has GPUs: the model engines then run in bf16 on it), with
``threads`` torch threads, so workers x threads never asks for more cores than Ray was given. ``address`` is a Ray
cluster's address; without one a local cluster is started with the cores this process may use.
"""

from __future__ import annotations

import os
from datetime import date

from airspace.core.contract import ExtractStats
from airspace.core.records import ZoneRecord
from airspace.pipeline.notam_graph import link_batch
from airspace.pipeline.split import Message

__all__ = ["RayUnavailable", "read_with_ray", "usable_cores"]

SHARD_SIZE = 64  # messages per Ray Data batch: large enough that an actor's batched read fills its forwards


class RayUnavailable(RuntimeError):
    """Ray cannot be imported or the cluster cannot be reached."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _ShardReader:
    """A Ray Data actor: loads the engine once, then reads shard after shard."""

    def __init__(self, engine: str, checkpoint: str | None, cross_check: bool, threads: int):
        import torch

        from airspace.pipeline.engines import get_extractor

        # The actor holds ``threads`` of the cluster's CPUs, but Ray does not pin it, so the engine would see every
        # core of the node and read prompt groups side by side on all of them: two actors on two cores then ran
        # four readers and scaled 1.2x. One reader of ``threads`` torch threads keeps the actor to its share.
        os.environ["AIRSPACE_READ_WORKERS"] = "1"
        torch.set_num_threads(max(1, threads))
        self.extractor = get_extractor(engine, checkpoint)
        self.cross_check = cross_check

    def __call__(self, shard: dict) -> dict:
        from airspace.pipeline.batch import process_batch

        messages = [Message(int(i), str(t), str(e) or None, received=date.fromisoformat(d) if d else None)
                    for i, t, e, d in zip(shard["index"], shard["text"], shard["error"], shard["received"])]
        records, _ = process_batch(messages, self.extractor, cross_check=self.cross_check, link=False)
        by_message: dict[int, list[str]] = {m.index: [] for m in messages}
        for r in records:
            by_message[r.message].append(r.model_dump_json())
        return {"index": [m.index for m in messages], "records": [by_message[m.index] for m in messages]}


def _reachable(address: str, timeout_s: float = 5.0) -> None:
    """A ``host:port`` (or ``ray://host:port``) that does not answer is said at once: ``ray.init`` itself retries
    an unreachable cluster for minutes."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return  # 'auto' and other forms Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise RayUnavailable(f"cannot start or reach the Ray cluster at {address}: {exc.strerror or exc}") from exc


def _connect(address: str | None, workers: int) -> None:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable(f"--ray needs the ray package ({exc})") from exc
    if ray.is_initialized():
        return
    if address:
        _reachable(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        else:  # a local cluster of the cores this process may use, no dashboard, nothing listening beyond loopback
            ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
    except Exception as exc:  # noqa: BLE001 - any failure to start or reach the cluster is said as such
        raise RayUnavailable(f"cannot start or reach the Ray cluster{f' at {address}' if address else ''}: "
                             f"{' '.join(str(exc).split())[:200]}") from exc


def read_with_ray(messages: list[Message], engine: str, *, checkpoint: str | None = None, cross_check: bool = True,
                  address: str | None = None, workers: int | None = None, threads: int = 1,
                  shard_size: int = SHARD_SIZE) -> tuple[list[ZoneRecord], ExtractStats]:
    """``process_batch(messages, engine)`` on a Ray actor pool: the same records, in message order."""
    import time

    t0 = time.perf_counter()
    workers = workers or max(1, usable_cores() // max(1, threads))
    _connect(address, workers)
    import logging

    import ray
    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # stderr belongs to the CLI's own diagnostics
    logging.getLogger("ray.data").setLevel(logging.WARNING)

    gpus = ray.cluster_resources().get("GPU", 0)
    # Longest messages first, one block per shard, and no shard queued behind another at an actor: the pool hands
    # the next shard to whichever actor is free, so one actor's long shard (the 64 longest archive messages cost as
    # much as the next 300) does not hold back a shard the other could read, and the last shards, the shortest, even
    # out the end. What a record says does not depend on its shard; records are put back in message order.
    rows = sorted(({"index": m.index, "text": m.text, "error": m.error or "",
                    "received": m.received.isoformat() if m.received else ""} for m in messages),
                  key=lambda r: -len(r["text"]))
    if not rows:
        return [], ExtractStats(engine=engine)
    ds = ray.data.from_items(rows, override_num_blocks=max(1, -(-len(rows) // shard_size)))
    pool = ray.data.ActorPoolStrategy(size=workers, max_tasks_in_flight_per_actor=1)
    out = ds.map_batches(_ShardReader, fn_constructor_kwargs={"engine": engine, "checkpoint": checkpoint,
                                                              "cross_check": cross_check, "threads": threads},
                         batch_size=shard_size, compute=pool, num_cpus=threads,
                         num_gpus=1 if gpus >= workers else 0, batch_format="numpy")
    read: dict[int, list[str]] = {}
    for row in out.iter_rows():
        read[int(row["index"])] = list(row["records"])
    missing = [m.index for m in messages if m.index not in read]
    if missing:  # a shard that never came back is said for each of its messages: nothing is lost silently
        raise RayUnavailable(f"{len(missing)} messages came back from no worker (first: {missing[0]})")
    records = link_batch([ZoneRecord.model_validate_json(j) for m in messages for j in read[m.index]])
    return records, ExtractStats(engine=engine, messages=len(messages), wall_s=time.perf_counter() - t0)
