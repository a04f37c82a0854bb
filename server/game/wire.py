"""Actions on the wire: the dicts of docs/engine.md, checked and turned into canonical keys, and back.

A key is a tuple that names one action exactly (lists sorted), so two spellings of the same action are
equal; the engine lists, samples and checks keys, and hands callers fresh dicts made from them.
"""

from __future__ import annotations

from typing import Any

from . import arrangements, landing
from .errors import IllegalAction

Action = dict[str, Any]
Event = dict[str, Any]
Key = tuple[Any, ...]

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


def landing_key(placement: landing.Landing) -> Key:
    """The key of a landing (R8) given as the boats added to each beach."""
    return ("land", tuple(sorted([(c, b) for b, added in enumerate(placement) for c in arrangements.boats(added)])))


def action_of(key: Key) -> Action:
    """The canonical wire form of an action key."""
    kind = key[0]
    if kind in ("setup", "settle"):
        return {"type": kind, "beach": key[1]}
    if kind == "expand":
        action: Action = {"type": "expand", "island": key[1], "beaches": list(key[2])}
        if key[3] is not None:
            action["take_back"] = {"island": key[3][0], "beach": key[3][1]}
        return action
    if kind == "royal":
        return {"type": "royal", "island": key[1]}
    if kind == "colonise":
        return {"type": "colonise"}
    if kind == "restart":
        if key[1] == "tonga":
            return {"type": "restart", "tonga": list(key[2])}
        return {"type": "restart", "island": key[1], "beach": key[2]}
    if kind == "migrate":
        return {"type": "migrate", "island": key[1], "beach": key[2], "pier": key[3]}
    if kind == "land":
        return {"type": "land", "boats": [[c, b] for c, b in key[1]]}
    if kind == "place_tile":
        return {"type": "place_tile", "cell": [key[1], key[2]], "rotation": key[3]}
    if kind == "turn_tile":
        return {"type": "turn_tile", "rotation": key[1]}
    raise AssertionError(kind)  # pragma: no cover


def show(action: Any) -> str:
    """An input as an error message quotes it: its repr, cut short."""
    text = repr(action)
    return text if len(text) <= 200 else text[:197] + "..."


def _int(value: Any, what: str, action: Any) -> int:
    if type(value) is not int:
        raise IllegalAction("malformed", f"{what} must be an integer, got {show(value)} in {show(action)}", action)
    return value


def _str(value: Any, what: str, action: Any) -> str:
    if type(value) is not str:
        raise IllegalAction("malformed", f"{what} must be a string, got {show(value)} in {show(action)}", action)
    return value


def _list(value: Any, what: str, action: Any, most: int = 16) -> list[Any]:
    if type(value) is not list or len(value) > most:
        raise IllegalAction(
            "malformed", f"{what} must be a list of at most {most}, got {show(value)} in {show(action)}", action
        )
    return value


def key_of(action: Any) -> Key:
    """The canonical key of an action, checking its shape; raises IllegalAction('malformed')."""
    if type(action) is not dict:
        raise IllegalAction("malformed", f"an action is a dict with a 'type', got {show(action)}", action)
    kind = action.get("type")
    if type(kind) is not str or kind not in FIELDS:
        raise IllegalAction("malformed", f"unknown action type {show(kind)} in {show(action)}", action)
    if any(type(field) is not str for field in action):
        raise IllegalAction("malformed", f"field names must be strings in {show(action)}", action)
    extra = set(action) - FIELDS[kind] - {"type"}
    if extra:
        raise IllegalAction("malformed", f"unexpected field(s) {sorted(map(str, extra))} in {show(action)}", action)
    try:
        if kind in ("setup", "settle"):
            return (kind, _int(action["beach"], "beach", action))
        if kind == "expand":
            island = _str(action["island"], "island", action)
            beaches = tuple(sorted(_int(b, "beach", action) for b in _list(action["beaches"], "beaches", action)))
            tb = action.get("take_back")
            take_back = None
            if tb is not None:
                if type(tb) is not dict or set(tb) != {"island", "beach"}:
                    raise IllegalAction(
                        "malformed", f"take_back must be {{'island': N, 'beach': i}}, got {show(tb)}", action
                    )
                take_back = (
                    _str(tb["island"], "take_back island", action),
                    _int(tb["beach"], "take_back beach", action),
                )
            return ("expand", island, beaches, take_back)
        if kind == "royal":
            return ("royal", _str(action["island"], "island", action))
        if kind == "colonise":
            return ("colonise",)
        if kind == "restart":
            if "tonga" in action:
                if set(action) != {"type", "tonga"}:
                    raise IllegalAction("malformed", f"a Tonga restart has only 'tonga': {show(action)}", action)
                pair = tuple(sorted(_int(b, "beach", action) for b in _list(action["tonga"], "tonga", action, 2)))
                return ("restart", "tonga", pair)
            if set(action) != {"type", "island", "beach"}:
                raise IllegalAction(
                    "malformed", f"a restart names 'tonga' or 'island' and 'beach': {show(action)}", action
                )
            return ("restart", _str(action["island"], "island", action), _int(action["beach"], "beach", action))
        if kind == "migrate":
            return (
                "migrate",
                _str(action["island"], "island", action),
                _int(action["beach"], "beach", action),
                _int(action["pier"], "pier", action),
            )
        if kind == "land":
            pairs = []
            for given in _list(action["boats"], "boats", action, 8):
                boat = _list(given, "a landing pair [colour, beach]", action, 2)
                if len(boat) != 2:
                    raise IllegalAction("malformed", f"a landing pair is [colour, beach], got {show(boat)}", action)
                pairs.append((_str(boat[0], "colour", action), _int(boat[1], "beach", action)))
            return ("land", tuple(sorted(pairs)))
        if kind == "place_tile":
            cell = _list(action["cell"], "cell", action, 2)
            if len(cell) != 2:
                raise IllegalAction("malformed", f"cell must be [q, r], got {show(cell)}", action)
            return (
                "place_tile",
                _int(cell[0], "q", action),
                _int(cell[1], "r", action),
                _int(action["rotation"], "rotation", action),
            )
        if kind == "turn_tile":
            return ("turn_tile", _int(action["rotation"], "rotation", action))
    except KeyError as missing:
        raise IllegalAction("malformed", f"missing field {missing} in {show(action)}", action) from None
    raise AssertionError(kind)  # pragma: no cover
