"""The whole suite's hooks: what a rerun test said the first time, printed at the end of the run (the
rerun's own report is one line, and a test that passes on its rerun left no trace of why it failed)."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    reruns = terminalreporter.stats.get("rerun", [])
    if not reruns:
        return
    terminalreporter.section("what the rerun tests said the first time")
    for report in reruns:
        text = getattr(report, "longreprtext", "") or ""
        lines = [line for line in text.splitlines() if line.startswith("E ")] or text.splitlines()[-5:]
        terminalreporter.write_line(f"{report.nodeid}:")
        for line in lines[:12]:
            terminalreporter.write_line("    " + line[:300])
