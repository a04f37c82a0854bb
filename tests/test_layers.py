"""Every import of the server runs down its layers, and no import circle appears anywhere (STYLE.md, "Applied to
our layout"). Read from the source with `ast`, so a lazy import inside a function or under TYPE_CHECKING counts
like any other: a lower layer that needs something of a higher one gets it passed in by the composition root."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("server.__main__", "server.app", "server.admin", "server.workers"),   # the composition root and its commands
    ("server.realtime",),      # the wire: Socket.IO namespace, transport, fan-out, request parsing
    ("server.tutorial",),      # the lessons and the learners' private games
    ("server.notify",),        # messages to people away from the table: it reads the lobby's store, and the
                               # authority tells it facts through the lobby's own `Facts` protocol
    ("server.lobby",),         # rooms, seats, the authority, timers, the modes, the Redis store
    ("server.records",),       # finished games: record, store, replay
    ("server.bots",),          # the levels over an engine's contract, and the worker that runs them
    ("server.config", "server.logs", "server.metrics", "server.patch"),   # what the layers above share
    ("server.game",),          # the pure engines: they import nothing of the server
)
"""Top to bottom. A module may import from its own layer and the ones below it, never from one above."""


def modules() -> dict[str, Path]:
    """Every module of the server package by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The server modules `name` imports (anywhere in it), each with the line of its first import. `from p import
    x` imports the module p.x when there is one, else p (as import-linter counts)."""
    out: dict[str, int] = {}
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package[: len(package) - (node.level - 1)]
                base = ".".join(stem + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for target in targets:
            if target.split(".")[0] == "server" and target != name:
                out.setdefault(target, node.lineno)
    return out


def layer_of(name: str) -> int | None:
    for i, layer in enumerate(LAYERS):
        if any(name == top or name.startswith(top + ".") for top in layer):
            return i
    return None


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(name for name in modules() if name != "server" and layer_of(name) is None)
    assert not unplaced, f"modules in no layer (place their package in LAYERS): {unplaced}"


def test_every_import_runs_down() -> None:
    ups = []
    for name, targets in graph().items():
        here = layer_of(name)
        for target, line in targets.items():
            there = layer_of(target)
            if here is not None and there is not None and there < here:
                ups.append(f"{name}:{line} imports {target} ({LAYERS[here][0]} is below {LAYERS[there][0]})")
    assert not ups, "imports running up a layer:\n" + "\n".join(sorted(ups))


def circles(edges: dict[str, dict[str, int]]) -> list[set[str]]:
    """The import circles: strongly connected sets of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, rest = work[-1]
            for nxt in rest:
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.add(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(part)
    return found


def test_no_import_circle() -> None:
    found = [sorted(c) for c in circles(graph())]
    assert not found, f"import circles: {found}"


def test_the_checks_see_an_up_import_and_a_circle() -> None:
    """The checks above can fail: a made-up graph with an arrow up and a circle is caught by both."""
    edges = {"server.game.a": {"server.lobby.rooms": 1}, "server.lobby.rooms": {"server.game.a": 1}}
    assert layer_of("server.lobby.rooms") is not None and layer_of("server.game.a") is not None
    assert layer_of("server.lobby.rooms") < layer_of("server.game.a")   # type: ignore[operator]
    assert circles(edges) == [{"server.game.a", "server.lobby.rooms"}]
    known = modules()
    lobby = imports("server.lobby.authority", known["server.lobby.authority"], known)
    assert "server.lobby.store" in lobby   # a real module's imports are read
