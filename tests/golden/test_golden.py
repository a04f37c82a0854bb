"""A golden transcript of one whole seeded game: every action, event list, view and legal-action list,
checked into the repository as text. Any change to the rules' outcomes, the events or the view format shows
up here as a reviewable diff. Regenerate (after an intended change) with:

    TONGIAKI_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden

The format (transcript.txt): a block per step, opened by `step N`; then `action <json>` (not in step 0),
one `event <json>` per event, and the view with the legal actions as its key `legal` (`seen`) a line per
key, `view.<key> <json>`, except that the long lists (`tiles`, `players`, `legal`) take a line per item,
`view.<key>+ <json>`, after `view.<key> []`. JSON is compact with sorted keys, so that every line is stable.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from server.game import Game

TRANSCRIPT = Path(__file__).with_name("game_3_colours_seed_2026.txt")
COLOURS = ["red", "blue", "green"]
SEED = 2026
LISTED = ("tiles", "players", "legal")
"""View keys written an item per line."""


def seen(game: Game) -> dict[str, Any]:
    """What a step shows: the view, with the legal actions (their own call) under `legal`."""
    return {**game.view(), "legal": game.legal_actions()}


def record() -> list[dict[str, Any]]:
    game = Game.new(COLOURS, seed=SEED)
    rng = random.Random(SEED)
    steps = [{"view": seen(game)}]
    while game.to_move is not None:
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        steps.append({"action": action, "events": events, "view": seen(game)})
    return steps


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def write(steps: list[dict[str, Any]]) -> str:
    """The transcript as text (the format of the module's docstring)."""
    lines = [f"# Tongiaki golden transcript: {', '.join(COLOURS)}, seed {SEED}; see tests/golden/test_golden.py"]
    for n, step in enumerate(steps):
        lines.append(f"step {n}")
        if "action" in step:
            lines.append(f"action {_json(step['action'])}")
            lines.extend(f"event {_json(event)}" for event in step["events"])
        for key, value in sorted(step["view"].items()):
            if key in LISTED and isinstance(value, list):
                lines.append(f"view.{key} []")
                lines.extend(f"view.{key}+ {_json(item)}" for item in value)
            else:
                lines.append(f"view.{key} {_json(value)}")
    return "\n".join(lines) + "\n"


def read(text: str) -> list[dict[str, Any]]:
    """The steps of a transcript written by `write`."""
    steps: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        tag, _, value = line.partition(" ")
        if tag == "step":
            assert int(value) == len(steps), f"line {number}: step {value} out of order"
            steps.append({"view": {}})
        elif tag == "action":
            steps[-1]["action"] = json.loads(value)
            steps[-1]["events"] = []
        elif tag == "event":
            steps[-1]["events"].append(json.loads(value))
        elif tag.startswith("view.") and tag.endswith("+"):
            steps[-1]["view"][tag[5:-1]].append(json.loads(value))
        elif tag.startswith("view."):
            steps[-1]["view"][tag[5:]] = json.loads(value)
        else:
            raise AssertionError(f"line {number}: unknown line {line[:40]!r}")
    return steps


def test_the_transcript_format_reads_back_what_it_writes() -> None:
    steps = [
        {"view": {"tiles": [{"a": 1}], "legal": [], "turn": 0}},
        {"action": {"type": "x"}, "events": [], "view": {"tiles": [], "players": [{"b": [2]}], "legal": None}},
    ]
    assert read(write(steps)) == steps


def test_golden_transcript_of_a_whole_game() -> None:
    """Replaying the transcript's actions gives exactly its legal lists, events and views at every step."""
    if os.environ.get("TONGIAKI_REGENERATE_GOLDEN"):
        TRANSCRIPT.write_text(write(record()), encoding="utf-8")
    steps = read(TRANSCRIPT.read_text(encoding="utf-8"))
    game = Game.new(COLOURS, seed=SEED)
    assert json.loads(json.dumps(seen(game))) == steps[0]["view"]
    for n, step in enumerate(steps[1:], start=1):
        events = game.apply(step["action"])
        assert json.loads(json.dumps(events)) == step["events"], f"events differ at step {n}"
        assert json.loads(json.dumps(seen(game))) == step["view"], f"view differs at step {n}"
    assert game.to_move is None and steps[-1]["view"]["result"] is not None
    assert len(steps) > 50
