"""Play over days: people reached away from the table, by e-mail and web push (docs/deploy.md,
"Notifications").

The authority only tells facts (`facts.py`: a round began, a game ended) on a Redis stream; the
notifier (`worker.py`, `tongiaki notify`, started by `tongiaki serve` like the bot workers) turns them
into messages for the people of the table who asked for them (`reach.py`), in their language
(`words.py`, `compose.py`), puts each in an outbox under its idempotency key (`outbox.py`), and sends
them by mail (`mail.py`) or web push (`push.py`), backing off when refused. `turns.py` is the "Your
turns" list, `api.py` the HTTP API the client calls.

Layers: above the lobby (it reads rooms and games through the lobby's Store), beside the realtime
layer; the lobby knows only the `Facts` protocol (server/lobby/person.py)."""
