"""A golden transcript of one whole seeded game: every decision, legal-action list, action, event list and
view, checked into the repository. Any change to the rules' outcomes, the events or the view format shows
up here as a diff. Regenerate (after an intended change) with:

    TONGIAKI_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden
"""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path
from typing import Any

from server.game import Game

TRANSCRIPT = Path(__file__).with_name("game_3_colours_seed_2026.json.gz")
COLOURS = ["red", "blue", "green"]
SEED = 2026


def record() -> list[dict[str, Any]]:
    game = Game.new(COLOURS, seed=SEED)
    rng = random.Random(SEED)
    steps = [{"view": game.view()}]
    while game.to_move is not None:
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        steps.append({"action": action, "events": events, "view": game.view()})
    return steps


def test_golden_transcript_of_a_whole_game() -> None:
    """Replaying the transcript's actions gives exactly its legal lists, events and views at every step."""
    if os.environ.get("TONGIAKI_REGENERATE_GOLDEN"):
        with gzip.open(TRANSCRIPT, "wt", encoding="utf-8") as out:
            json.dump(record(), out, separators=(",", ":"), sort_keys=True)
    with gzip.open(TRANSCRIPT, "rt", encoding="utf-8") as f:
        steps = json.load(f)
    game = Game.new(COLOURS, seed=SEED)
    assert json.loads(json.dumps(game.view())) == steps[0]["view"]
    for n, step in enumerate(steps[1:], start=1):
        events = game.apply(step["action"])
        assert json.loads(json.dumps(events)) == step["events"], f"events differ at step {n}"
        assert json.loads(json.dumps(game.view())) == step["view"], f"view differs at step {n}"
    assert game.to_move is None and steps[-1]["view"]["result"] is not None
    assert len(steps) > 50
