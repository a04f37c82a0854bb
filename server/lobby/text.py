"""Display text from clients (names of people and rooms, chat lines), cleaned the same way everywhere."""

from __future__ import annotations


def clean(value: str) -> str:
    """`value` without control, format (bidi overrides such as U+202E, zero-width U+200B), private-use
    or unassigned characters, runs of whitespace collapsed to one space, trimmed."""
    kept = "".join(ch if ch.isprintable() else (" " if ch.isspace() else "") for ch in value)
    return " ".join(kept.split())
