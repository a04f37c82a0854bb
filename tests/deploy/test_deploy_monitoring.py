"""The `monitoring` profile checked without a Docker engine: docker-compose.yml's Prometheus and Grafana
services and their mounts, Prometheus's scrape configuration and alert rules (with `promtool` where
Debian's prometheus package is installed, as here), Grafana's provisioning and the dashboard JSON — and
that every metric the rules and panels name is one the server exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from server.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
RULES = DEPLOY / "prometheus" / "alerts.yml"
PROMETHEUS = DEPLOY / "prometheus" / "prometheus.yml"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "tongiaki.json"
METRIC = re.compile(r"\b((?:tongiaki|process|python_gc)_[a-z_]+)")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def exported() -> str:
    """The names in a /metrics body, on the replica that holds the cluster lease."""
    metrics = Metrics()
    metrics.accepted(0.01)
    metrics.lag(0.001)
    metrics.rejected("stale_version")
    metrics.refused_request("rate_limited")
    metrics.dropped_slow_socket()
    metrics.refused_connection("per_address")
    metrics.request()
    return metrics.render({"rooms": 3, "listed": 2, "processes": 2}).decode()


def mounts(service: dict) -> dict[str, Path]:
    """Container path → host path of a service's bind mounts."""
    out = {}
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        if source.startswith("./"):
            out[target] = ROOT / source
    return out


def test_monitoring_profile_runs_prometheus_and_grafana_provisioned(compose):
    services = compose["services"]
    prometheus, grafana = services["prometheus"], services["grafana"]
    assert prometheus["profiles"] == ["monitoring"] and grafana["profiles"] == ["monitoring"]
    for name, service in services.items():   # the default `up` runs the service alone
        if name not in ("prometheus", "grafana"):
            assert "profiles" not in service, name
    mounted = mounts(prometheus)
    assert mounted["/etc/prometheus"] == DEPLOY / "prometheus"
    config = yaml.safe_load(PROMETHEUS.read_text())
    rule_file = config["rule_files"][0]
    assert (mounted["/etc/prometheus"] / Path(rule_file).relative_to("/etc/prometheus")).is_file()
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    job = config["scrape_configs"][0]
    assert job["dns_sd_configs"][0]["names"] == ["server"] and job["dns_sd_configs"][0]["port"] == 8080
    assert job.get("metrics_path", "/metrics") == "/metrics"
    mounted = mounts(grafana)
    provisioning = mounted["/etc/grafana/provisioning"]
    datasource = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())["datasources"][0]
    assert datasource["type"] == "prometheus" and datasource["url"] == "http://prometheus:9090"
    provider = yaml.safe_load((provisioning / "dashboards" / "tongiaki.yml").read_text())["providers"][0]
    dashboards = mounted[provider["options"]["path"]]
    assert (dashboards / DASHBOARD.name).is_file()
    dashboard = json.loads(DASHBOARD.read_text())
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == datasource["uid"], panel["title"]
    for name in ("prometheus-data", "grafana-data"):
        assert name in compose["volumes"]


def test_alert_rules_cover_what_an_operator_watches_and_name_exported_metrics(exported):
    rules = [r for g in yaml.safe_load(RULES.read_text())["groups"] for r in g["rules"]]
    by_metric = " ".join(r["expr"] for r in rules)
    for needed in ("tongiaki_action_latency_seconds_bucket", "tongiaki_requests_rejected_total",
                   "tongiaki_loop_lag_seconds_bucket", "tongiaki_redis_up", "process_resident_memory_bytes"):
        assert needed in by_metric, needed
    assert "histogram_quantile(0.99" in by_metric
    for rule in rules:
        assert rule["alert"] and rule["for"] and rule["labels"]["severity"] and rule["annotations"]["summary"]
        for name in METRIC.findall(rule["expr"]):
            assert name in exported, (rule["alert"], name)


def test_dashboard_panels_name_exported_metrics(exported):
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"]
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 10
    for expr in exprs:
        for name in METRIC.findall(expr):
            assert name in exported, name
    text = " ".join(exprs)
    for needed in ("tongiaki_action_latency_seconds_bucket", "tongiaki_loop_lag_seconds_bucket",
                   "process_resident_memory_bytes", "tongiaki_sockets", "tongiaki_requests_rejected_total"):
        assert needed in text, needed


def test_promtool_accepts_the_rules_and_the_configuration(tmp_path):
    """Debian's prometheus package brings promtool (installed on this machine); where it is missing only
    the checks above run."""
    promtool = shutil.which("promtool")
    if promtool is None:
        return
    checked = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the configuration names the rules where the container mounts them: point it at the file here
    config = PROMETHEUS.read_text().replace("/etc/prometheus/alerts.yml", str(RULES))
    (tmp_path / "prometheus.yml").write_text(config)
    checked = subprocess.run([promtool, "check", "config", str(tmp_path / "prometheus.yml")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
