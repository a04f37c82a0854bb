"""The view patch of docs/protocol.md §5: `set` / `del` / `trunc` operations on a plain-data tree."""

from __future__ import annotations

import copy
from typing import Any

import msgpack

Op = list[Any]


def diff(old: Any, new: Any) -> list[Op]:
    """Operations that turn `old` into `new` (both plain data: dict, list, str, int, float, bool, None)."""
    ops: list[Op] = []
    _diff(old, new, [], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # True == 1 in Python, but not on the wire
    return type(a) is type(b) and a == b


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, key], value])
            elif not _same(old[key], value):
                _diff(old[key], value, [*path, key], ops)
        for key in old:
            if key not in new:
                ops.append(["del", [*path, key]])
    elif isinstance(old, list) and isinstance(new, list) and path:
        inner: list[Op] = []
        for i in range(min(len(old), len(new))):
            if not _same(old[i], new[i]):
                _diff(old[i], new[i], [*path, i], inner)
        for i in range(len(old), len(new)):
            inner.append(["set", [*path, i], new[i]])
        if len(new) < len(old):
            inner.append(["trunc", path, len(new)])
        # an array that changed more than it stayed goes whole (e.g. a sorted list that lost its head)
        if len(inner) > 1 and _size(inner) >= _size(new):
            ops.append(["set", path, new])
        else:
            ops.extend(inner)
    elif not _same(old, new):
        ops.append(["set", path, new])


def _size(value: Any) -> int:
    return len(msgpack.packb(value))


def apply(view: Any, ops: list[Op]) -> Any:
    """Applies a patch to a copy of `view` and returns it (what a client does)."""
    view = copy.deepcopy(view)
    for op in ops:
        kind, path = op[0], op[1]
        if not path:
            if kind == "set":
                view = copy.deepcopy(op[2])
            continue
        node = view
        for step in path[:-1]:
            node = node[step]
        last = path[-1]
        if kind == "set":
            value = copy.deepcopy(op[2])
            if isinstance(node, list) and last == len(node):
                node.append(value)
            else:
                node[last] = value
        elif kind == "del":
            del node[last]
        elif kind == "trunc":
            del node[last][op[2]:]
        else:
            raise ValueError(f"unknown patch op {kind!r}")
    return view
