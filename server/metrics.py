"""Prometheus text metrics, kept by hand (a few counters, gauges and one histogram)."""

from __future__ import annotations

import bisect
from collections import Counter

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The process's counters; /metrics renders them with the room counts read from Redis."""

    def __init__(self) -> None:
        self.sockets = 0
        self.actions = Counter[str]()          # by outcome: "accepted" or an error code
        self.latency_counts = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0
        self.latency_n = 0
        self.messages = 0                      # game messages broadcast
        self.lag_counts = [0] * (len(LATENCY_BUCKETS) + 1)  # event-loop lag of the timer loop's sleeps
        self.lag_n = 0

    def accepted(self, seconds: float) -> None:
        """An action applied and broadcast, `seconds` after it arrived."""
        self.actions["accepted"] += 1
        self.latency_sum += seconds
        self.latency_n += 1
        _count(self.latency_counts, seconds)

    def lag(self, seconds: float) -> None:
        """How much later than asked the timer loop woke up: the event loop (or the CPU) was busy."""
        self.lag_n += 1
        _count(self.lag_counts, seconds)

    def rejected(self, code: str) -> None:
        self.actions[code] += 1

    def render(self, rooms_by_status: dict[str, int]) -> str:
        lines = [
            "# HELP tongiaki_sockets Connected Socket.IO sockets on this process.",
            "# TYPE tongiaki_sockets gauge",
            f"tongiaki_sockets {self.sockets}",
            "# HELP tongiaki_rooms Rooms by status (all processes).",
            "# TYPE tongiaki_rooms gauge",
        ]
        for status in ("waiting", "playing", "finished"):
            lines.append(f'tongiaki_rooms{{status="{status}"}} {rooms_by_status.get(status, 0)}')
        lines += ["# HELP tongiaki_actions_total Actions received, by outcome (accepted or error code).",
                  "# TYPE tongiaki_actions_total counter"]
        lines.append(f'tongiaki_actions_total{{outcome="accepted"}} {self.actions["accepted"]}')
        for code, n in sorted(self.actions.items()):
            if code != "accepted":
                lines.append(f'tongiaki_actions_total{{outcome="{code}"}} {n}')
        lines += ["# HELP tongiaki_game_messages_total Game messages broadcast by this process.",
                  "# TYPE tongiaki_game_messages_total counter",
                  f"tongiaki_game_messages_total {self.messages}",
                  "# HELP tongiaki_action_latency_seconds From an action's arrival to its broadcast.",
                  "# TYPE tongiaki_action_latency_seconds histogram"]
        total = 0
        for bound, n in zip(LATENCY_BUCKETS, self.latency_counts, strict=False):
            total += n
            lines.append(f'tongiaki_action_latency_seconds_bucket{{le="{bound}"}} {total}')
        lines.append(f'tongiaki_action_latency_seconds_bucket{{le="+Inf"}} {self.latency_n}')
        lines.append(f"tongiaki_action_latency_seconds_sum {self.latency_sum:.6f}")
        lines.append(f"tongiaki_action_latency_seconds_count {self.latency_n}")
        lines += ["# HELP tongiaki_loop_lag_seconds How late the timer loop woke up (event loop or CPU busy).",
                  "# TYPE tongiaki_loop_lag_seconds histogram"]
        total = 0
        for bound, n in zip(LATENCY_BUCKETS, self.lag_counts, strict=False):
            total += n
            lines.append(f'tongiaki_loop_lag_seconds_bucket{{le="{bound}"}} {total}')
        lines.append(f'tongiaki_loop_lag_seconds_bucket{{le="+Inf"}} {self.lag_n}')
        lines.append(f"tongiaki_loop_lag_seconds_count {self.lag_n}")
        return "\n".join(lines) + "\n"


def _count(counts: list[int], seconds: float) -> None:
    """Add one observation to a histogram over LATENCY_BUCKETS (the last slot is +Inf)."""
    counts[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
