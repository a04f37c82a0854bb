"""Real Redis topologies on loopback for the tests: a Redis Cluster (redis-server processes in cluster mode,
primaries and their replicas) and a primary with a replica behind Sentinels. Debian's redis-server and
redis-cli (scripts/bootstrap.sh installs them); every port comes from the OS."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server")
REDIS_CLI = shutil.which("redis-cli")
SENTINEL = shutil.which("redis-sentinel") or REDIS_SERVER

MISSING = "Debian's redis-server and redis-cli are not installed (scripts/bootstrap.sh --browser installs them)"


def _installed() -> tuple[str, str]:
    """The two programs; a machine without them fails the test that needs them (a skip would prove nothing)."""
    assert REDIS_SERVER is not None and REDIS_CLI is not None, MISSING
    return REDIS_SERVER, REDIS_CLI


def free_ports(n: int) -> list[int]:
    """n distinct free loopback ports (held together while picked, so they differ)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def stop_process(proc: subprocess.Popen[bytes], within: float) -> None:
    """Asks a process the test started to end (SIGTERM); kills it when it has not ended within `within` s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(within)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cli(port: int, *args: str, timeout: float = 10.0) -> str:
    return subprocess.run([_installed()[1], "-h", "127.0.0.1", "-p", str(port), *args], capture_output=True,
                          text=True, timeout=timeout, check=True).stdout


def wait_for(what: str, check, timeout: float = 20.0) -> None:
    """Polls `check` (a process we do not get events from) until it is true, or fails naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except (subprocess.SubprocessError, OSError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)


class Node:
    """One redis-server process."""

    def __init__(self, tmp: Path, port: int, *args: str, config: Path | None = None) -> None:
        self.port = port
        self.dir = tmp / f"redis-{port}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.log = self.dir / "log"
        self.proc = subprocess.Popen(
            [_installed()[0], *([str(config)] if config else []), "--port", str(port), "--bind", "127.0.0.1",
             "--dir", str(self.dir), *([] if config else ["--save", "", "--appendonly", "no"]),
             "--daemonize", "no", "--logfile", str(self.log), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for(f"redis-server on {port}", lambda: self.proc.poll() is None and cli(port, "ping").strip() == "PONG")

    def kill(self) -> None:
        """kill -9: no shutdown, no save."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        stop_process(self.proc, 5)


class Cluster:
    """A Redis Cluster of `primaries` primaries with `replicas` replicas each, on loopback."""

    def __init__(self, tmp: Path, primaries: int = 3, replicas: int = 1) -> None:
        n = primaries * (1 + replicas)
        ports = free_ports(2 * n)
        self.nodes: list[Node] = []
        try:
            for port, bus in zip(ports[:n], ports[n:], strict=True):
                self.nodes.append(Node(tmp, port, "--cluster-enabled", "yes", "--cluster-port", str(bus),
                                       "--cluster-config-file", f"nodes-{port}.conf",
                                       "--cluster-node-timeout", "1000", "--repl-diskless-sync-delay", "0"))
            subprocess.run([REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{x.port}" for x in self.nodes),
                            "--cluster-replicas", str(replicas), "--cluster-yes"], capture_output=True, text=True,
                           timeout=30, check=True)
            for node in self.nodes:
                wait_for(f"cluster state on {node.port}",
                         lambda node=node: "cluster_state:ok" in cli(node.port, "cluster", "info")
                         and cli(node.port, "cluster", "nodes").count("connected") == n)
            for node in self.nodes:   # every replica has synchronised (else it could not take over)
                wait_for(f"replication on {node.port}",
                         lambda node=node: "role:master" in (info := cli(node.port, "info", "replication"))
                         or "master_link_status:up" in info)
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{x.port}" for x in self.nodes)

    def primaries(self) -> list[int]:
        """The ports of the nodes that are primaries now (as a node still running sees it)."""
        out = []
        alive = next(node for node in self.nodes if node.proc.poll() is None)
        for line in cli(alive.port, "cluster", "nodes").splitlines():
            fields = line.split()
            if "master" in fields[2] and "fail" not in fields[2]:
                out.append(int(fields[1].split("@")[0].rsplit(":", 1)[1]))
        return out

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class Sentinels:
    """A primary, `replicas` replicas and three Sentinels watching them (quorum 2), on loopback; the
    Sentinels declare the primary down after `down_ms` without an answer."""

    NAME = "mymaster"

    def __init__(self, tmp: Path, replicas: int = 1, down_ms: int = 500) -> None:
        ports = free_ports(1 + replicas + 3)
        self.nodes: list[Node] = []
        self.sentinels: list[Node] = []
        try:
            self.nodes.append(Node(tmp, ports[0]))
            for port in ports[1:1 + replicas]:
                self.nodes.append(Node(tmp, port, "--replicaof", "127.0.0.1", str(ports[0])))
            wait_for("replicas online", lambda: cli(ports[0], "info", "replication")
                     .count("state=online") == replicas)
            for port in ports[1 + replicas:]:
                conf = tmp / f"sentinel-{port}.conf"
                conf.write_text(f"port {port}\nbind 127.0.0.1\nsentinel resolve-hostnames no\n"
                                f"sentinel monitor {self.NAME} 127.0.0.1 {ports[0]} 2\n"
                                f"sentinel down-after-milliseconds {self.NAME} {down_ms}\n"
                                f"sentinel failover-timeout {self.NAME} 5000\n"
                                f"sentinel parallel-syncs {self.NAME} 1\n")
                self.sentinels.append(Node(tmp, port, "--sentinel", config=conf))
            for s in self.sentinels:
                wait_for("sentinels know each other and the replicas", lambda s=s: _sentinel_ready(s.port, replicas))
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return "redis+sentinel://" + ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels) + f"/0/{self.NAME}"

    def primary(self) -> int:
        """The port of the primary, as the Sentinels say."""
        return int(cli(self.sentinels[0].port, "sentinel", "get-master-addr-by-name", self.NAME).split()[1])

    def node(self, port: int) -> Node:
        return next(n for n in self.nodes if n.port == port)

    def stop(self) -> None:
        for node in self.sentinels + self.nodes:
            node.stop()


def _sentinel_ready(port: int, replicas: int) -> bool:
    info = cli(port, "sentinel", "master", Sentinels.NAME).split()
    fields = dict(zip(info[::2], info[1::2], strict=False))
    return int(fields.get("num-slaves", 0)) == replicas and int(fields.get("num-other-sentinels", 0)) == 2
