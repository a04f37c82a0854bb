"""`tongiaki serve`'s processes: a port it cannot bind is one line and a non-zero exit (with one worker or
several), a worker that keeps dying is restarted after a growing pause and then given up on (exit 1), and
the default number of workers is the CPUs the process may use (affinity and cgroup quota), not the host's."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from deploykit import free_port, tongiaki_command

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], tmp_path: Path, timeout: float, env: dict[str, str] | None = None,
        cpus: set[int] | None = None) -> subprocess.CompletedProcess[str]:
    """`tongiaki serve ARGS` to its end; a failure when it has not ended within `timeout` seconds."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TONGIAKI_") and k != "REDIS_URL"}
    try:
        return subprocess.run([*tongiaki_command(), "serve", "--host", "127.0.0.1", "--data-dir",
                               str(tmp_path / "data"), *args],
                              env={**clean, "TONGIAKI_BOT_WORKERS": "0", **(env or {})}, cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout,
                              preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
    except subprocess.TimeoutExpired as e:
        out = e.stderr.decode() if isinstance(e.stderr, bytes) else e.stderr or ""
        pytest.fail(f"`tongiaki serve {' '.join(args)}` still running after {timeout:.0f} s; it said:\n{out[-3000:]}")


@pytest.fixture
def busy_port():
    with socket.socket() as held:
        held.bind(("127.0.0.1", free_port()))
        held.listen()
        yield held.getsockname()[1]


@pytest.mark.parametrize("workers", ["2", "1"])
def test_a_port_already_taken_is_one_line_and_a_non_zero_exit(busy_port, tmp_path, workers):
    done = run(["--port", str(busy_port), "--workers", workers], tmp_path, timeout=90)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and f"cannot listen on 127.0.0.1:{busy_port}: Address already in use" in errors[0]
    assert "starting it again" not in done.stderr
    assert not (tmp_path / "data").exists()   # given up before anything started (the embedded Redis)


def test_workers_that_keep_dying_are_restarted_after_a_pause_then_given_up(tmp_path):
    dead = free_port()   # no Redis there: every worker fails at start
    done = run(["--port", str(free_port()), "--workers", "3", "--redis-url", f"redis://127.0.0.1:{dead}/0"],
               tmp_path, timeout=150)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    restarts = [line for line in done.stderr.splitlines() if "starting it again in" in line]
    assert 2 <= len(restarts) <= 4, done.stderr   # five deaths within the minute: given up
    assert "starting it again in 0.5 s" in done.stderr and "starting it again in 1.0 s" in done.stderr
    assert "5 worker deaths within 60 s" in done.stderr and "giving up" in done.stderr
    assert done.stderr.count("cannot start: ") >= 5   # each worker's own one line why


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_cpu_quota_counts_the_cgroup_limit_and_the_affinity(tmp_path):
    from server.config import cpu_quota

    cpus = len(os.sched_getaffinity(0))
    assert cpu_quota(write(tmp_path / "v2max", {"cpu.max": "max 100000\n"})) == cpus
    assert cpu_quota(write(tmp_path / "v2", {"cpu.max": "50000 100000\n"})) == 1            # half a CPU: 1
    assert cpu_quota(write(tmp_path / "v2big", {"cpu.max": "6400000 100000\n"})) == cpus    # above the CPUs
    assert cpu_quota(write(tmp_path / "v1", {"cpu/cpu.cfs_quota_us": "100000\n",
                                             "cpu/cpu.cfs_period_us": "100000\n"})) == 1
    assert cpu_quota(write(tmp_path / "v1none", {"cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
                                                 "cpu,cpuacct/cpu.cfs_period_us": "100000\n"})) == cpus
    assert cpu_quota(tmp_path / "nothing") == cpus
    one = subprocess.run([sys.executable, "-c", "import os; os.sched_setaffinity(0, {0}); "
                          "from server.config import cpu_quota; print(cpu_quota())"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert one.stdout.strip() == "1", one.stderr


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs a host with two cores to limit to one")
def test_by_default_serve_runs_as_many_workers_as_cpus_it_may_use(busy_port, tmp_path):
    """Limited to one CPU of the host's several, `tongiaki serve` runs one process (no supervisor): the
    port's refusal comes from the server itself, not from a supervisor's check."""
    done = run(["--port", str(busy_port)], tmp_path, timeout=90, cpus={0})
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert " ERROR server: cannot listen" in done.stderr and "server.workers" not in done.stderr
