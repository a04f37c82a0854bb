"""The Expeditions tile catalogue (EXPEDITIONS.md E1), transcribed from expeditions-tiles.json.

Islands are numbered 1-16 and sea tiles 17-48 in this order (E10). Tiles are never rotated: a route
lists its two ends as printed, with the weather factor printed at each end."""

from __future__ import annotations

# (name, abbreviation, value); Tonga first. Every island has a beach of capacity 3 on each side.
ISLAND_DATA: tuple[tuple[str, str, int], ...] = (
    ("Tonga", "TONG", 0),
    ("Muroroa", "MURO", 2),
    ("Nauru", "NAUR", 2),
    ("Tubuai", "TUBU", 2),
    ("Rarotonga", "RARO", 3),
    ("Rapa Nui", "RAPA", 3),
    ("Tokelau", "TOKE", 3),
    ("Tuamotu", "TUAM", 3),
    ("Hiva Oa", "HIVA", 4),
    ("Mangareva", "MANG", 4),
    ("Oahu", "OAHU", 4),
    ("Tahiti", "TAHI", 4),
    ("Tuvalu", "TUVA", 4),
    ("Fidschi", "FIDS", 5),
    ("Hawaii", "HAWA", 5),
    ("Samoa", "SAMO", 5),
)

# (id, ((end, end, factor at the first end, factor at the second end), second route))
SEA_DATA: tuple[tuple[str, tuple[tuple[str, str, int, int], tuple[str, str, int, int]]], ...] = (
    ("S01", (("N", "S", 3, 1), ("E", "W", 3, 1))),
    ("S02", (("N", "W", 2, 4), ("S", "E", 3, 2))),
    ("S03", (("N", "E", 1, 1), ("S", "W", 3, 4))),
    ("S04", (("N", "W", 1, 1), ("S", "E", 1, 1))),
    ("S05", (("N", "S", 2, 2), ("E", "W", 3, 3))),
    ("S06", (("N", "E", 2, 1), ("S", "W", 3, 1))),
    ("S07", (("N", "S", 4, 1), ("E", "W", 2, 3))),
    ("S08", (("N", "W", 1, 4), ("S", "E", 4, 1))),
    ("S09", (("N", "S", 1, 1), ("E", "W", 2, 1))),
    ("S10", (("N", "W", 4, 1), ("S", "E", 1, 2))),
    ("S11", (("N", "S", 2, 2), ("E", "W", 2, 4))),
    ("S12", (("N", "E", 1, 1), ("S", "W", 1, 2))),
    ("S13", (("N", "S", 3, 1), ("E", "W", 1, 2))),
    ("S14", (("N", "S", 2, 1), ("E", "W", 2, 2))),
    ("S15", (("N", "S", 1, 1), ("E", "W", 3, 2))),
    ("S16", (("N", "E", 2, 3), ("S", "W", 3, 3))),
    ("S17", (("N", "S", 2, 2), ("E", "W", 1, 1))),
    ("S18", (("N", "S", 1, 2), ("E", "W", 4, 3))),
    ("S19", (("N", "E", 2, 2), ("S", "W", 3, 3))),
    ("S20", (("N", "W", 1, 4), ("S", "E", 2, 1))),
    ("S21", (("N", "S", 3, 4), ("E", "W", 1, 3))),
    ("S22", (("N", "W", 2, 2), ("S", "E", 4, 1))),
    ("S23", (("N", "E", 2, 1), ("S", "W", 2, 1))),
    ("S24", (("N", "W", 4, 1), ("S", "E", 3, 3))),
    ("S25", (("N", "W", 2, 2), ("S", "E", 1, 3))),
    ("S26", (("N", "E", 1, 3), ("S", "W", 1, 2))),
    ("S27", (("N", "E", 2, 2), ("S", "W", 1, 3))),
    ("S28", (("N", "W", 2, 1), ("S", "E", 1, 4))),
    ("S29", (("N", "W", 3, 2), ("S", "E", 2, 1))),
    ("S30", (("N", "E", 1, 2), ("S", "W", 1, 1))),
    ("S31", (("N", "S", 3, 1), ("E", "W", 1, 1))),
    ("S32", (("N", "E", 1, 1), ("S", "W", 3, 2))),
)
