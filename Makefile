# The two commands README.md gives: `make run` (service + web client) and `make test` (every test).
.PHONY: run test setup bench

setup:
	./scripts/bootstrap.sh

run: setup
	.venv/bin/tongiaki serve

test:
	./scripts/bootstrap.sh --browser
	.venv/bin/python -m pytest -q -n auto --dist loadfile --reruns 1 -rfER --durations=25

bench: setup
	.venv/bin/python -m bench.engine
	.venv/bin/python -m bench.load
	.venv/bin/python -m bench.deflate
	.venv/bin/python -m bench.soak
	.venv/bin/python -m bench.disconnect
