"""The wire's vocabulary: actions and events are the dicts of docs/engine.md (their typed values, which
read and write these dicts, are in actions.py and events.py); which action types answer which decision,
and the fields each type has."""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]
Event = dict[str, Any]

# Which action types answer which decision.
ANSWERS: dict[str, tuple[str, ...]] = {
    "setup": ("setup",),
    "turn": ("expand", "royal", "colonise"),
    "restart": ("restart", "colonise"),
    "migrate": ("migrate",),
    "land": ("land",),
    "place_tile": ("place_tile",),
    "settle": ("settle",),
    "turn_tile": ("turn_tile",),
}

FIELDS: dict[str, set[str]] = {
    "setup": {"beach"},
    "expand": {"island", "beaches", "take_back"},
    "royal": {"island"},
    "colonise": set(),
    "restart": {"tonga", "island", "beach"},
    "migrate": {"island", "beach", "pier"},
    "land": {"boats"},
    "place_tile": {"cell", "rotation"},
    "settle": {"beach"},
    "turn_tile": {"rotation"},
}


def show(action: Any) -> str:
    """An input as an error message quotes it: its repr, cut short."""
    text = repr(action)
    return text if len(text) <= 200 else text[:197] + "..."
