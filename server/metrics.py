"""The process's metrics through prometheus_client, one registry per app (tests run several apps in one
process). Everything here is per process, so `sum()` across replicas is right; the cluster-wide room
counts are exported by one replica only (the one holding the metrics lease, `ClusterFigures`)."""

from __future__ import annotations

import functools
import gc
import os
import subprocess
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def revision() -> str:
    """The source revision running: `TONGIAKI_REVISION` (set when the image is built), else the checkout's
    `git rev-parse HEAD` (asked once), else "unknown"."""
    if os.environ.get("TONGIAKI_REVISION", "").strip():
        return os.environ["TONGIAKI_REVISION"].strip()
    try:
        done = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=Path(__file__).parent,
                              capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


class ClusterFigures(Collector):
    """Cluster-wide counts (rooms in Redis, listed rooms, live processes), read cheaply (ZCARD) by the
    replica holding the metrics lease and by no other, so a `sum()` over replicas counts them once."""

    def __init__(self) -> None:
        self.figures: dict[str, int] | None = None
        self.bot_jobs: dict[str, int] = {}   # the bot queue's depth per class (BotQueue.waiting_by_class)

    def collect(self) -> Iterator[Metric]:
        if self.figures is None:
            return
        rooms = GaugeMetricFamily("tongiaki_cluster_rooms", "Rooms held in Redis (all processes; exported by "
                                  "one replica only).")
        rooms.add_metric([], self.figures.get("rooms", 0))
        yield rooms
        listed = GaugeMetricFamily("tongiaki_cluster_listed_rooms", "Rooms listed in the lobby (all processes; "
                                   "exported by one replica only).")
        listed.add_metric([], self.figures.get("listed", 0))
        yield listed
        procs = GaugeMetricFamily("tongiaki_cluster_processes", "Server processes with a recent heartbeat "
                                  "(exported by one replica only).")
        procs.add_metric([], self.figures.get("processes", 0))
        yield procs
        jobs = GaugeMetricFamily("tongiaki_bot_jobs_waiting", "Bot decisions posted and not yet answered, by "
                                 "job class: the bot queue's depth (exported by one replica only).",
                                 labels=["class"])
        for kind, waiting in self.bot_jobs.items():
            jobs.add_metric([kind], waiting)
        yield jobs


class CollectorPauses(Collector):
    """How long each garbage collection stopped the process, by generation: `tongiaki_gc_pause_seconds`.
    The tail of a busy server is made of these (docs/deploy.md), and prometheus_client's own GC collector
    counts collections but does not time them. Called by the interpreter (`gc.callbacks`) in the middle of
    whatever allocated, so it only adds to plain numbers: a prometheus metric's lock taken there could be
    the one the interrupted code holds."""

    BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

    def __init__(self) -> None:
        self._counts = [[0] * (len(self.BUCKETS) + 1) for _ in range(3)]   # per generation, per bucket
        self._sums = [0.0, 0.0, 0.0]
        self._began = 0.0

    def __repr__(self) -> str:
        return f"CollectorPauses(collections={[sum(c) for c in self._counts]})"

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took, generation = time.perf_counter() - self._began, info["generation"]
        bucket = next((i for i, bound in enumerate(self.BUCKETS) if took <= bound), len(self.BUCKETS))
        self._counts[generation][bucket] += 1
        self._sums[generation] += took

    def install(self) -> None:
        """Starts timing this process's collections (once; `remove` stops it)."""
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily("tongiaki_gc_pause", "How long each garbage collection stopped the "
                                       "process, by generation (0 youngest, 2 full).", labels=["generation"],
                                       unit="seconds")
        for generation, counts in enumerate(self._counts):
            cumulative, buckets = 0, []
            for bound, n in zip((*map(str, self.BUCKETS), "+Inf"), counts, strict=True):
                cumulative += n
                buckets.append((bound, cumulative))
            family.add_metric([str(generation)], buckets, self._sums[generation])
        yield family


class Metrics:
    """The process's counters, gauges and histograms; `render()` is the /metrics body."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=self.registry)      # RSS, CPU seconds, open fds, start time
        GCCollector(registry=self.registry)           # collections per generation
        # no exact versions of Python or the libraries (nor prometheus_client's python_info): /metrics is
        # served on the app port, and those tell a stranger which published flaws to try
        build = Gauge("tongiaki_build_info", "The running build: the service's version and source revision.",
                      ["version", "revision"], registry=self.registry)
        build.labels(_version("tongiaki"), revision()).set(1)
        self._sockets = Gauge("tongiaki_sockets", "Connected Socket.IO sockets on this process.",
                              registry=self.registry)
        self._actions = Counter("tongiaki_actions", "Actions received, by outcome (accepted or error code).",
                                ["outcome"], registry=self.registry)
        self._actions.labels("accepted")
        self._requests = Counter("tongiaki_requests", "Requests received from clients (any event).",
                                 registry=self.registry)
        self._redis_up = Gauge("tongiaki_redis_up", "1 when this process reached Redis at the last scrape, else 0.",
                               registry=self.registry)
        self._rejections = Counter("tongiaki_requests_rejected", "Requests of any event refused, by error code "
                                   "(rate_limited, malformed, ...).", ["code"], registry=self.registry)
        self._dropped = Counter("tongiaki_slow_sockets_dropped", "Sockets closed because they did not read "
                                "their messages (send queue full or write timed out).", registry=self.registry)
        self._refused = Counter("tongiaki_connections_refused", "Connections refused, by reason.", ["reason"],
                                registry=self.registry)
        self._offloaded = Counter("tongiaki_engine_steps_offloaded", "Engine steps that outgrew their slice of the "
                                  "event loop and ran in the engine worker.", registry=self.registry)
        self._lost = Counter("tongiaki_broadcasts_lost", "Broadcasts to the other processes dropped: Redis "
                             "away or the publisher's backlog full (clients are told to resync).",
                             registry=self.registry)
        self._messages = Counter("tongiaki_game_messages", "Game messages broadcast by this process.",
                                 registry=self.registry)
        self._latency = Histogram("tongiaki_action_latency_seconds", "From an action's arrival to its broadcast.",
                                  buckets=LATENCY_BUCKETS, registry=self.registry)
        self._lag = Histogram("tongiaki_loop_lag_seconds", "How late the timer loop woke up (event loop or CPU "
                              "busy).", buckets=LATENCY_BUCKETS, registry=self.registry)
        self.closed_sessions = 0   # Engine.IO sessions closed since start (not exported: the timers read it)
        self.cluster = ClusterFigures()
        self.registry.register(self.cluster)
        self.pauses = CollectorPauses()   # installed by the app while it serves (server/app.py)
        self.registry.register(self.pauses)

    # -- the counters' interface (kept small: the lobby and namespace call these) -------------------
    @property
    def sockets(self) -> int:
        return int(self._sockets._value.get())

    @sockets.setter
    def sockets(self, value: int) -> None:
        self._sockets.set(value)

    @property
    def messages(self) -> int:
        return int(self._messages._value.get())

    @messages.setter
    def messages(self, value: int) -> None:
        self._messages.inc(max(0, value - self.messages))

    @property
    def lost_broadcasts(self) -> int:
        return int(self._lost._value.get())

    @lost_broadcasts.setter
    def lost_broadcasts(self, value: int) -> None:
        """The publisher's own count (server/realtime/fanout.py), copied at each scrape."""
        self._lost.inc(max(0, value - self.lost_broadcasts))

    def accepted(self, seconds: float) -> None:
        """An action applied and broadcast, `seconds` after it arrived."""
        self._actions.labels("accepted").inc()
        self._latency.observe(seconds)

    def lag(self, seconds: float) -> None:
        """How much later than asked the timer loop woke up: the event loop (or the CPU) was busy."""
        self._lag.observe(seconds)

    def rejected(self, code: str) -> None:
        """An action refused with `code`."""
        self._actions.labels(code).inc()

    def request(self) -> None:
        """A request arrived (the denominator of the rejection rate)."""
        self._requests.inc()

    def refused_request(self, code: str) -> None:
        """Any request refused with `code` (the rejection rate the alert rules watch)."""
        self._rejections.labels(code).inc()

    def closed_session(self) -> None:
        """An Engine.IO session closed (its leftovers wait for a full collection: server/lobby/timers.py)."""
        self.closed_sessions += 1

    def offloaded(self) -> None:
        """An engine step ran in the engine worker (server/lobby/offload.py)."""
        self._offloaded.inc()

    def dropped_slow_socket(self) -> None:
        self._dropped.inc()

    def refused_connection(self, reason: str) -> None:
        self._refused.labels(reason).inc()

    def render(self, cluster: dict[str, int] | None = None, redis_up: bool = True,
               bot_jobs: dict[str, int] | None = None) -> bytes:
        """The Prometheus text exposition; `cluster` and `bot_jobs` (per class) only on the replica holding
        the metrics lease."""
        self.cluster.figures = cluster
        self.cluster.bot_jobs = bot_jobs or {}
        self._redis_up.set(1 if redis_up else 0)
        return bytes(generate_latest(self.registry))
