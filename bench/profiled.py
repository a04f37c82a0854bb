"""`python bench/profiled.py OUT serve …`: the server (`python -m server …`) under cProfile counting CPU
time, not wall time (on a busy machine a wall-clock profile is mostly other processes' turns), switched on
by SIGUSR1 and written to OUT by SIGUSR2, so the profile covers exactly a benchmark's measured window
(`python -m bench.load --profile OUT`). Read it with `python -m pstats OUT`."""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time

out = sys.argv[1]
sys.argv = ["server", *sys.argv[2:]]
profile = cProfile.Profile(time.process_time)


def start(_signum: int, _frame: object) -> None:
    profile.enable()


def stop(_signum: int, _frame: object) -> None:
    profile.disable()
    profile.dump_stats(out)


signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
runpy.run_module("server", run_name="__main__", alter_sys=True)
