"""Configuration from one table (server/config.py `SETTINGS`): every value parsed strictly with a one-line
error naming the setting, yes/no settings only from 1/0, true/false, yes/no, on/off, and `tongiaki serve
--help` and docs/deploy.md listing exactly the table's settings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import server.__main__ as cli
import server.config as settings
import server.workers

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "deploy.md"


@pytest.fixture(autouse=True)
def never_serve(monkeypatch):
    """A value wrongly accepted must fail the test, not start a server inside it."""
    def started(*args, **kwargs):
        raise AssertionError("the command went on to serve")
    monkeypatch.setattr(cli, "serve", started, raising=False)
    monkeypatch.setattr(server.workers, "run", started)
    monkeypatch.setattr(cli.web, "run_app", started)


@pytest.mark.parametrize("word, value", [("off", False), ("False", False), ("No", False), ("0", False),
                                         ("OFF", False), ("on", True), ("True", True), ("yes", True), ("1", True)])
@pytest.mark.parametrize("name", ["TONGIAKI_FORWARDED_FOR", "TONGIAKI_DEFLATE", "TONGIAKI_LIVE_GAMES"])
def test_yes_no_settings_read_every_spelling_of_off_as_off(name, word, value):
    field = name.removeprefix("TONGIAKI_").lower()
    assert getattr(settings.from_env({name: word}), field) is value


@pytest.mark.parametrize("env, said", [
    ({"TONGIAKI_FORWARDED_FOR": "maybe"}, "TONGIAKI_FORWARDED_FOR='maybe': not a yes/no value"),
    ({"TONGIAKI_DEFLATE": "enabled"}, "TONGIAKI_DEFLATE='enabled': not a yes/no value"),
    ({"TONGIAKI_WORKERS": "two"}, "TONGIAKI_WORKERS='two': not a whole number"),
    ({"TONGIAKI_WORKERS": "-1"}, "TONGIAKI_WORKERS='-1': a whole number of at least 0"),
    ({"TONGIAKI_TICK": "abc"}, "TONGIAKI_TICK='abc': not a number"),
    ({"TONGIAKI_TICK": "nan"}, "TONGIAKI_TICK='nan': not a number"),
    ({"TONGIAKI_TICK": "0"}, "TONGIAKI_TICK='0': a number of at least 0.001"),
    ({"TONGIAKI_SEND_QUEUE": "1.5"}, "TONGIAKI_SEND_QUEUE='1.5': not a whole number"),
    ({"TONGIAKI_LOG_FORMAT": "xml"}, "TONGIAKI_LOG_FORMAT='xml': text or json expected"),
    ({"TONGIAKI_EVENT_LOOP": "trio"}, "TONGIAKI_EVENT_LOOP='trio': uvloop or asyncio expected"),
    ({"TONGIAKI_ORIGINS": "play.example.org"}, "TONGIAKI_ORIGINS='play.example.org': 'play.example.org' is "
                                               "not an origin"),
    ({"REDIS_URL": "localhost:6379"}, "REDIS_URL='localhost:6379': a redis://, rediss://, unix://, "
                                      "redis+cluster:// or redis+sentinel:// URL"),
    ({"REDIS_URL": "redis+cluster://a:b"}, "REDIS_URL='redis+cluster://a:b': host:port pairs"),
    ({"TONGIAKI_PREFIX": "a b"}, "TONGIAKI_PREFIX='a b': letters, digits"),
])
def test_a_bad_value_is_one_line_naming_the_setting_and_exit_2(env, said, monkeypatch, capsys):
    for name in env:
        monkeypatch.setenv(name, env[name])
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--port", "0"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tongiaki: {said}") and err.count("\n") == 1, err


def test_a_bad_flag_is_one_line_too(capsys):
    for argv, said in ((["serve", "--port", "http"], "--port='http': not a whole number"),
                       (["serve", "--port", "70000"], "--port='70000': a whole number of at most 65535"),
                       (["serve", "--deflate", "sometimes"], "--deflate='sometimes': not a yes/no value"),
                       (["bots", "--log-level", "loud"], "--log-level='loud': debug, info, warning or error")):
        with pytest.raises(SystemExit) as stopped:
            cli.main(argv)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tongiaki: {said}") and err.count("\n") == 1, err


def test_the_command_itself_exits_without_a_traceback(tmp_path):
    env = {**os.environ, "TONGIAKI_WORKERS": "two", "TONGIAKI_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "server", "serve", "--port", "0"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "tongiaki: TONGIAKI_WORKERS='two': not a whole number\n"
    assert not any(tmp_path.iterdir())   # nothing started


def test_a_flag_wins_over_its_variable():
    config = settings.from_flags({"port": "9000", "deflate": "off"}, {"TONGIAKI_PORT": "8000", "TONGIAKI_DEFLATE": "on",
                                                                 "TONGIAKI_TICK": "0.2"})
    assert (config.port, config.deflate, config.tick) == (9000, False, 0.2)
    with pytest.raises(settings.ConfigError, match="^--tick='x': not a number$"):
        settings.from_flags({"tick": "x"}, {})


def test_serve_help_lists_every_setting_with_its_variable(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = capsys.readouterr().out
    shown = re.sub(r"\s+", " ", out)
    for setting in settings.SETTINGS:
        assert setting.option in shown and f"${setting.variable}" in shown, setting.name
    flags = set(re.findall(r"^  (--[a-z][a-z-]+)", out, re.M))
    assert flags == {s.option for s in settings.SETTINGS}


def test_docs_deploy_lists_the_table_of_the_code():
    docs = DOCS.read_text()
    begin, end = "<!-- settings: generated from server/config.py SETTINGS -->\n", "<!-- settings: end -->"
    listed = docs[docs.index(begin) + len(begin):docs.index(end)]
    assert listed == settings.markdown(), "docs/deploy.md's settings table differs from server/config.py SETTINGS: " \
                                 "paste `python -m server.config` between its markers"
    names = set(re.findall(r"`(TONGIAKI_[A-Z_]+|REDIS_URL)`", listed))
    assert names == {s.variable for s in settings.SETTINGS}
