"""What a mass disconnect costs the event loop (a replica's network blip, its shutdown): every socket of a
process leaving at once, with python-socketio's own manager against ours (`RoomIndex`,
server/realtime/fanout.py), which leaves a socket's own rooms instead of looking through every room of the
namespace. Sockets sit six to a table, as at a full table. `python -m bench.disconnect [--sockets 1200 5000
10000] [--repeat 3]`; interleaved, prints the median seconds per mass disconnect and the ratio."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import socketio

from server.realtime.fanout import LocalManager


def filled(manager: Any, sockets: int) -> list[str]:
    """`sockets` connected sockets (as python-socketio's pre_connect enters them), six to a table's room."""
    sids = [f"s{i}" for i in range(sockets)]
    for i, sid in enumerate(sids):
        manager.basic_enter_room(sid, "/", None, eio_sid="e" + sid)
        manager.basic_enter_room(sid, "/", sid, eio_sid="e" + sid)
        manager.basic_enter_room(sid, "/", f"r_{i // 6}")
    return sids


def all_gone(make: Any, sockets: int) -> float:
    """Seconds to disconnect every socket of a filled manager."""
    manager = make()
    sids = filled(manager, sockets)
    began = time.perf_counter()
    for sid in sids:
        manager.basic_disconnect(sid, "/")
    took = time.perf_counter() - began
    assert not manager.rooms.get("/"), "sockets left behind"
    return took


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.disconnect", description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, nargs="+", default=[1200, 5000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'sockets':>8} {'python-socketio s':>18} {'ours s':>10} {'ratio':>8}")
    for n in args.sockets:
        theirs, ours = [], []
        for _ in range(args.repeat):   # interleaved
            theirs.append(all_gone(socketio.AsyncManager, n))
            ours.append(all_gone(LocalManager, n))
        t, o = statistics.median(theirs), statistics.median(ours)
        print(f"{n:>8} {t:>18.3f} {o:>10.4f} {t / o:>8.0f}")


if __name__ == "__main__":
    main()
