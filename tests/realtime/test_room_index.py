"""Our managers' rooms (`RoomIndex`, server/realtime/fanout.py) stay exactly python-socketio's through any
sequence of connects, room entries and exits, closed rooms and disconnects, and a socket's disconnect
leaves the rooms it was in, without looking through the others."""

from __future__ import annotations

from typing import Any

import socketio
from hypothesis import given, settings
from hypothesis import strategies as st

from server.realtime.fanout import LocalManager

SIDS = [f"s{i}" for i in range(6)]
TABLES = ["r_a", "r_b", "p_c"]
NAMESPACES = ["/", "/other"]

OPS = st.lists(st.one_of(
    st.tuples(st.just("connect"), st.sampled_from(SIDS), st.sampled_from(NAMESPACES)),
    st.tuples(st.just("enter"), st.sampled_from(SIDS), st.sampled_from(NAMESPACES), st.sampled_from(TABLES)),
    st.tuples(st.just("leave"), st.sampled_from(SIDS), st.sampled_from(NAMESPACES), st.sampled_from(TABLES)),
    st.tuples(st.just("close"), st.sampled_from(TABLES), st.sampled_from(NAMESPACES)),
    st.tuples(st.just("disconnect"), st.sampled_from(SIDS), st.sampled_from(NAMESPACES)),
), max_size=60)


def apply(manager: Any, op: tuple[Any, ...]) -> None:
    """One step, as python-socketio's server makes it (connect: the namespace's room of every socket, then
    the socket's own room, as `pre_connect` does with the sid it draws)."""
    kind = op[0]
    if kind == "connect":
        _, sid, ns = op
        if manager.is_connected(sid, ns):
            return
        manager.basic_enter_room(sid, ns, None, eio_sid="e" + sid)
        manager.basic_enter_room(sid, ns, sid, eio_sid="e" + sid)
    elif kind == "enter":
        _, sid, ns, room = op
        if manager.is_connected(sid, ns):
            manager.basic_enter_room(sid, ns, room)
    elif kind == "leave":
        manager.basic_leave_room(op[1], op[2], op[3])
    elif kind == "close":
        manager.basic_close_room(op[1], op[2])
    else:
        manager.basic_disconnect(op[1], op[2])


def rooms(manager: Any) -> dict[Any, dict[Any, dict[str, str]]]:
    return {ns: {room: dict(members) for room, members in by_room.items()} for ns, by_room in manager.rooms.items()}


@settings(max_examples=300, deadline=None)
@given(OPS)
def test_the_rooms_are_python_socketios_after_any_sequence(ops: list[tuple[Any, ...]]) -> None:
    ours, theirs = LocalManager(), socketio.AsyncManager()
    for op in ops:
        apply(ours, op)
        apply(theirs, op)
        assert rooms(ours) == rooms(theirs), op
        for ns in NAMESPACES:
            for sid in SIDS:
                assert sorted(ours.get_rooms(sid, ns)) == sorted(theirs.get_rooms(sid, ns)), (op, sid, ns)
    # and the index holds nothing of a socket that is in no room
    for (ns, sid), mine in ours.rooms_of.items():
        assert mine and all(sid in ours.rooms[ns][room] for room in mine), (ns, sid, mine)


def test_a_disconnect_looks_only_at_the_sockets_own_rooms() -> None:
    """A thousand sockets, and one of them goes: the rooms python-socketio would have looked through (every
    socket's own room among them) are not read."""
    manager = LocalManager()
    for i in range(1000):
        apply(manager, ("connect", f"s{i}", "/"))
        apply(manager, ("enter", f"s{i}", "/", f"r_{i // 6}"))

    class Watched(dict[Any, Any]):
        read: list[Any] = []

        def __getitem__(self, key: Any) -> Any:
            self.read.append(key)
            return super().__getitem__(key)

        def copy(self) -> Any:
            raise AssertionError("the whole namespace was copied to find the socket's rooms")

        def items(self) -> Any:
            raise AssertionError("every room of the namespace was looked through")

    manager.rooms["/"] = Watched(manager.rooms["/"])
    manager.basic_disconnect("s7", "/")
    assert set(Watched.read) <= {None, "s7", "r_1"}, Watched.read
    assert not manager.is_connected("s7", "/") and "s7" not in manager.rooms["/"]
    assert "s7" not in manager.rooms["/"]["r_1"] and len(manager.rooms["/"]["r_1"]) == 5
