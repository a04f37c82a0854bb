"""Expeditions: the simultaneous-orders rule set (EXPEDITIONS.md E1-E13). Pure: see docs/expeditions.md."""

from .catalogue import BOATS, COLOURS, TILES, Cell
from .errors import OrderError, PositionError
from .events import Event, event_from_wire
from .game import Expeditions
from .orders import Expand, Order, Pass, Place, Royal, order_from_wire
from .rules import Options

__all__ = [
    "BOATS",
    "COLOURS",
    "TILES",
    "Cell",
    "Event",
    "Expand",
    "Expeditions",
    "Options",
    "Order",
    "OrderError",
    "Pass",
    "Place",
    "PositionError",
    "Royal",
    "event_from_wire",
    "order_from_wire",
]
