"""Unit tests of the lobby's pure parts (no Redis, no sockets): who may sit where, what the lobby lists
and in which order, what a rematch keeps."""

from __future__ import annotations

import pytest

from server.lobby.errors import Rejected
from server.lobby.modes import MODES
from server.lobby.person import Person
from server.lobby.rematch import _new_room
from server.lobby.rooms import FINISHED, PLAYING, PRESENCE_ROUNDS, WAITING, BotLevels, Room, Seat
from server.lobby.settings import Settings
from server.lobby.store.rooms import REAL_ROOM, listing_score

LEVELS = BotLevels(("random", "greedy", "search"), "greedy")


def room(seats: int = 3, private: bool = False, created: float = 100.0) -> Room:
    settings = Settings.from_wire({"name": "table", "seats": seats, "private": private}, MODES)
    return Room.new("r_1", "ABCDEF", "p_host", "Host", settings, created)


def code(call: object) -> str:
    with pytest.raises(Rejected) as refused:
        call()   # type: ignore[operator]
    return refused.value.code


def test_a_kicked_person_is_barred_from_the_table_and_others_may_sit():
    r = room()
    r.sit(1, "p_squatter", "Squatter")
    assert r.kick(1, "p_host") == "p_squatter"
    assert r.seats[1].kind == "empty" and r.barred == ["p_squatter"]
    assert code(lambda: r.sit(1, "p_squatter", "Squatter")) == "barred"
    assert code(lambda: r.sit(2, "p_squatter", "Squatter")) == "barred"
    r.sit(1, "p_friend", "Friend")
    assert Room.from_store(r.to_store()).barred == ["p_squatter"]     # it is stored with the room
    assert code(lambda: r.kick(1, "p_friend")) == "not_host"
    assert code(lambda: r.kick(0, "p_host")) == "malformed"          # not one's own seat


def test_a_seat_kept_for_a_player_is_theirs_until_the_host_opens_it():
    r = room()
    r.seats[1] = Seat(held_for="p_old")
    assert code(lambda: r.sit(1, "p_stranger", "Stranger")) == "seat_taken"
    r.sit(2, "p_stranger", "Stranger")                                # another seat is free for anyone
    r.sit(1, "p_old", "Old")
    assert r.seats[1].person == "p_old" and r.seats[1].held_for is None
    r.seats[1] = Seat(held_for="p_old")
    assert r.kick(1, "p_host") == "p_old" and r.seats[1] == Seat()    # opened, and p_old is not barred
    assert r.barred == []
    r.sit(1, "p_old", "Old")


def test_a_rematch_keeps_the_bots_and_each_players_seat_for_them():
    old = room(seats=3)
    old.sit(1, "p_b", "B")
    old.add_bot(2, "p_host", LEVELS)
    old.status = FINISHED
    new = _new_room(old, Person("p_b", "B"), 200.0)
    assert new.host == "p_b" and new.id != old.id and new.status == WAITING
    assert [(s.kind, s.person, s.held_for) for s in new.seats] == [
        ("empty", None, "p_host"), ("human", "p_b", None), ("bot", None, None)]


def test_the_lobby_lists_public_tables_someone_seated_is_at():
    r = room()
    assert r.listed({"p_host"})
    assert not r.listed(set()) and not r.listed({"p_spectator"})      # the host left: not offered
    r.status = PLAYING
    assert r.listed(set())                                            # a game on is listed as one
    r.status = FINISHED
    assert not r.listed({"p_host"})                                   # listed as a record instead
    assert not room(private=True).listed({"p_host"})


def test_real_tables_rank_above_rooms_made_in_bulk():
    lone, newer = room(created=100.0), room(created=200.0)
    assert listing_score(newer) > listing_score(lone)                 # newest first among equals
    lone.sit(1, "p_friend", "Friend")                                 # two people: a real table
    assert listing_score(lone) == 100.0 + REAL_ROOM > listing_score(newer)
    newer.status = PLAYING
    assert listing_score(newer) > listing_score(lone)


def test_names_are_unique_at_a_table_ignoring_case():
    r = room()
    assert r.name_taken("HOST", "p_other") and not r.name_taken("HOST", "p_host")
    assert code(lambda: r.sit(1, "p_other", "host")) == "name_taken"


def test_a_bot_seat_takes_the_level_named_or_the_default_and_refuses_others():
    r = room(seats=4)
    r.add_bot(1, "p_host", LEVELS)
    r.add_bot(2, "p_host", LEVELS, "search")
    assert [s.shown_level for s in r.seats] == [None, "greedy", "search", None]
    assert code(lambda: r.add_bot(3, "p_host", LEVELS, "grandmaster")) == "malformed"
    assert code(lambda: r.add_bot(2, "p_host", LEVELS, "grandmaster")) == "seat_taken"   # the seat is looked at first
    assert code(lambda: r.set_bot_level(1, "p_host", "grandmaster", LEVELS)) == "malformed"
    assert r.seats[3].kind == "empty" and r.seats[1].level == "greedy"                  # nothing changed
    r.fill_with_bots("random")
    assert r.seats[3].shown_level == "random" and r.search_bots() == 1
    assert r.seats[0].bot_level("greedy") == "greedy"   # a person's seat: the bot that plays for them


@pytest.mark.parametrize(("payload", "message"), [
    ({"game": "chess"}, "game must be one of tongiaki, expeditions"),
    ({"game": ["tongiaki"]}, "game must be one of"),
    ({"game": "expeditions", "clock": 60, "variants": {}}, "no variants"),
    ({"game": "expeditions"}, "clock must be a number from 30"),   # the turn's deadline is required
    ({"game": "expeditions", "clock": 20}, "clock must be a number from 30"),
    ({"seats": 3, "variants": {"two_colours": True}}, "for 2 seats (R14)"),
    ({"seats": 3, "first": 3}, "first must be null or a seat index"),
    ({"clock": 601}, "clock must be a number from 1 to 600"),
])
def test_each_mode_validates_its_own_settings(payload: dict, message: str) -> None:
    with pytest.raises(Rejected) as refused:
        Settings.from_wire({"name": "table", **payload}, MODES)
    assert refused.value.code == "malformed" and message in refused.value.message


def test_settings_a_mode_accepts() -> None:
    expeditions = Settings.from_wire({"name": "t", "game": "expeditions", "clock": 3600, "seats": 5}, MODES)
    assert (expeditions.game, expeditions.seats, expeditions.clock, expeditions.first) == ("expeditions", 5, 3600, None)
    two = Settings.from_wire({"name": "t", "variants": {"two_colours": True}}, MODES)
    assert (two.game, two.seats, two.two_colours, two.clock) == ("tongiaki", 2, True, None)


def playing(seats: int = 2, **settings: object) -> Room:
    r = Room.new("r_1", "ABCDEF", "p_host", "Host", Settings.from_wire({"name": "t", "seats": seats, **settings},
                                                                        MODES), 100.0)
    r.sit(1, "p_b", "B")
    r.status = PLAYING
    return r


def test_an_away_seat_is_played_by_a_bot_after_its_grace_and_is_theirs_again_on_return():
    r = playing(grace=5)
    assert r.mark_presence({"p_host"}, 200.0)            # B's socket is gone: away from now
    assert r.seats[1].away_since == 200.0 and not r.seats[1].autopilot
    assert not r.mark_presence({"p_host"}, 204.9)        # within the grace: nothing changes
    assert r.mark_presence({"p_host"}, 205.0) and r.seats[1].autopilot   # a bot plays for them
    assert r.mark_presence({"p_host", "p_b"}, 206.0)     # back: their seat again
    assert (r.seats[1].away_since, r.seats[1].autopilot) == (None, False)
    assert not r.seats[0].autopilot and r.seats[0].away_since is None


def test_a_waiting_rooms_seat_is_freed_once_its_person_stayed_away_past_the_grace():
    r = room()
    r.sit(1, "p_b", "B")
    r.mark_away("p_b", 100.0)
    assert not r.release_away({"p_host"}, 100.0 + r.settings.grace - 0.1)
    assert r.release_away({"p_host"}, 100.0 + r.settings.grace) and r.seats[1].kind == "empty"


def test_the_next_check_is_the_earliest_of_pace_clock_grace_and_presence():
    r = playing(clock=20, bot_pace=2)
    # a person decides: the clock's deadline, unless presence comes first (every PRESENCE_ROUNDS TTLs)
    assert r.next_check(("red",), 100.0, 100.0, 100.0, 60.0) == 120.0
    assert 100.0 + PRESENCE_ROUNDS * 30.0 <= r.next_check(("red",), 100.0, 900.0, 100.0, 60.0) \
        <= 100.0 + PRESENCE_ROUNDS * 60.0   # presence: in the second half of PRESENCE_ROUNDS TTLs
    r.seats[1] = Seat("bot", None, "Bot 1", level="greedy")
    assert r.next_check(("blue",), 100.0, 100.0, 100.0, 60.0) == 102.0   # the bot's pace from its turn
    r.seats[0].away_since = 85.0
    assert r.next_check(("blue",), 100.0, 100.0, 100.0, 60.0) == 102.0 and r.next_check(
        ("red",), 100.0, 100.0, 100.0, 60.0) == 85.0 + r.settings.grace   # the grace ends before the clock
