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
    metrics.lost_broadcasts = 2
    return metrics.render({"rooms": 3, "listed": 2, "processes": 2}, True, {"urgent": 0, "quick": 1}).decode()


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
    # the default `up` runs the service alone; the Sentinel profile adds a Redis replica and its Sentinels
    default = {name for name, service in services.items() if "profiles" not in service}
    assert default == {"redis", "server", "bots", "proxy"}, default
    for name in set(services) - default - {"prometheus", "grafana"}:
        assert services[name]["profiles"] == ["sentinel"], name
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


@pytest.fixture(scope="module")
def promtool() -> str:
    """Debian's prometheus package brings promtool: `scripts/bootstrap.sh --browser` installs it."""
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("needs promtool (Debian's prometheus package): scripts/bootstrap.sh --browser installs it")
    return found


def test_promtool_accepts_the_rules_and_the_configuration(tmp_path, promtool):
    checked = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the configuration names the rules where the container mounts them: point it at the file here
    config = PROMETHEUS.read_text().replace("/etc/prometheus/alerts.yml", str(RULES))
    (tmp_path / "prometheus.yml").write_text(config)
    checked = subprocess.run([promtool, "check", "config", str(tmp_path / "prometheus.yml")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_rules_fire_on_what_they_watch_and_stay_quiet_otherwise(tmp_path, promtool):
    """The alert rules evaluated by promtool on made-up series (`promtool test rules`): every replica gone
    (none discovered, or all down), a crash loop, descriptors near the limit, a long full collection,
    internal errors as a share of requests (a busy replica with a few is quiet; a quiet one failing most
    of its requests is not), lost broadcasts and a bot queue backlog."""
    job = 'job="tongiaki",instance="a:8080"'
    tests = [
        {"interval": "1m", "input_series": [], "alert_rule_test": [
            {"eval_time": "2m", "alertname": "TongiakiAllReplicasGone",
             "exp_alerts": [{"exp_labels": {"severity": "critical"}}]}]},
        {"interval": "1m", "input_series": [{"series": f"up{{{job}}}", "values": "0x5"},
                                            {"series": 'up{job="tongiaki",instance="b:8080"}', "values": "0x5"}],
         "alert_rule_test": [{"eval_time": "3m", "alertname": "TongiakiAllReplicasGone",
                              "exp_alerts": [{"exp_labels": {"severity": "critical"}}]}]},
        {"interval": "1m", "input_series": [{"series": f"up{{{job}}}", "values": "1x5"},
                                            {"series": 'up{job="tongiaki",instance="b:8080"}', "values": "0x5"}],
         "alert_rule_test": [{"eval_time": "3m", "alertname": "TongiakiAllReplicasGone", "exp_alerts": []}]},
        {"interval": "1m", "input_series": [
            {"series": f"process_start_time_seconds{{{job}}}", "values": "100 100 200 300 400 400 400"}],
         "alert_rule_test": [
             {"eval_time": "2m", "alertname": "TongiakiCrashLoop", "exp_alerts": []},
             {"eval_time": "5m", "alertname": "TongiakiCrashLoop",
              "exp_alerts": [{"exp_labels": {"severity": "critical", "job": "tongiaki", "instance": "a:8080"}}]}]},
        {"interval": "1m", "input_series": [
            {"series": f"process_open_fds{{{job}}}", "values": "900x10"},
            {"series": f"process_max_fds{{{job}}}", "values": "1024x10"},
            {"series": 'process_open_fds{job="tongiaki",instance="b:8080"}', "values": "100x10"},
            {"series": 'process_max_fds{job="tongiaki",instance="b:8080"}', "values": "1024x10"}],
         "alert_rule_test": [{"eval_time": "8m", "alertname": "TongiakiFileDescriptorsNearLimit",
                              "exp_alerts": [{"exp_labels": {"severity": "warning", "job": "tongiaki",
                                                             "instance": "a:8080"}}]}]},
        {"interval": "1m", "input_series": [
            {"series": f'tongiaki_gc_pause_seconds_count{{{job},generation="2"}}', "values": "0 0 1 1 1"},
            {"series": f'tongiaki_gc_pause_seconds_bucket{{{job},generation="2",le="0.25"}}', "values": "0 0 0 0 0"},
            {"series": f'tongiaki_gc_pause_seconds_count{{{job},generation="1"}}', "values": "0 5 10 15 20"},
            {"series": f'tongiaki_gc_pause_seconds_bucket{{{job},generation="1",le="0.25"}}',
             "values": "0 5 10 15 20"}],
         "alert_rule_test": [
             {"eval_time": "1m", "alertname": "TongiakiLongFullCollection", "exp_alerts": []},
             {"eval_time": "3m", "alertname": "TongiakiLongFullCollection",
              "exp_alerts": [{"exp_labels": {"severity": "warning", "job": "tongiaki", "instance": "a:8080",
                                             "generation": "2"}}]}]},
        {"interval": "1m", "input_series": [   # busy: 1000 requests/s, 2 internal a second: 0.2 %, quiet
            {"series": f"tongiaki_requests_total{{{job}}}", "values": "0+60000x12"},
            {"series": f'tongiaki_requests_rejected_total{{{job},code="internal"}}', "values": "0+120x12"}],
         "alert_rule_test": [{"eval_time": "12m", "alertname": "TongiakiInternalErrors", "exp_alerts": []}]},
        {"interval": "1m", "input_series": [   # quiet: 1 request/s, most of them failing
            {"series": f"tongiaki_requests_total{{{job}}}", "values": "0+60x12"},
            {"series": f'tongiaki_requests_rejected_total{{{job},code="internal"}}', "values": "0+30x12"}],
         "alert_rule_test": [{"eval_time": "12m", "alertname": "TongiakiInternalErrors",
                              "exp_alerts": [{"exp_labels": {"severity": "critical"}}]}]},
        {"interval": "1m", "input_series": [
            {"series": f"tongiaki_broadcasts_lost_total{{{job}}}", "values": "0 0 0 7 7"},
            {"series": f'tongiaki_bot_jobs_waiting{{{job},class="quick"}}', "values": "30x10"},
            {"series": f'tongiaki_bot_jobs_waiting{{{job},class="search"}}', "values": "30x10"}],
         "alert_rule_test": [
             {"eval_time": "4m", "alertname": "TongiakiBroadcastsLost",
              "exp_alerts": [{"exp_labels": {"severity": "warning"}}]},
             {"eval_time": "8m", "alertname": "TongiakiBotQueueBacklog",
              "exp_alerts": [{"exp_labels": {"severity": "warning"}}]}]},
    ]
    # the rules without their annotations (promtool compares those too; their templates are checked by
    # `promtool check rules` above): what is asserted here is when each rule fires, and with which labels
    rules = yaml.safe_load(RULES.read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            rule.pop("annotations", None)
    bare = tmp_path / "alerts.yml"
    bare.write_text(yaml.safe_dump(rules))
    for i, case in enumerate(tests):   # one file per case: each starts from no series at all
        spec = tmp_path / f"case{i}.yml"
        spec.write_text(yaml.safe_dump({"rule_files": [str(bare)], "evaluation_interval": "1m",
                                        "tests": [case]}))
        checked = subprocess.run([promtool, "test", "rules", str(spec)], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, (case, checked.stdout + checked.stderr)


def colour(panel: dict, value: float) -> str:
    """The colour Grafana gives `value` on a panel coloured by thresholds: the last step whose value is
    at most `value` (the first step's null is minus infinity); "" when the panel is not coloured by them."""
    defaults = panel.get("fieldConfig", {}).get("defaults", {})
    for mapping in defaults.get("mappings", []):   # a value mapping's colour wins over the thresholds
        mapped = mapping.get("options", {}).get(f"{value:g}")
        if mapping.get("type") == "value" and mapped and mapped.get("color"):
            return str(mapped["color"])
    if defaults.get("color", {}).get("mode") != "thresholds":
        return ""
    steps = defaults["thresholds"]["steps"]
    assert defaults["thresholds"]["mode"] == "absolute" and steps[0]["value"] is None
    return str([s for s in steps if s["value"] is None or s["value"] <= value][-1]["color"])


def test_the_stat_panels_show_trouble_in_red(exported):
    panels = {p["title"]: p for p in json.loads(DASHBOARD.read_text())["panels"]}
    redis = panels["Redis reachable"]
    assert (colour(redis, 0), colour(redis, 1)) == ("red", "green")
    replicas = panels["Replicas up"]
    assert (colour(replicas, 0), colour(replicas, 1), colour(replicas, 3)) == ("red", "green", "green")
    for panel in panels.values():
        if panel["type"] == "stat":   # no stat panel left with Grafana's default (green up to 80)
            assert colour(panel, 0) == "red", panel["title"]


def test_the_dashboard_shows_the_bot_queue_lost_broadcasts_and_descriptors(exported):
    exprs = " ".join(t["expr"] for p in json.loads(DASHBOARD.read_text())["panels"] for t in p["targets"])
    for needed in ("tongiaki_bot_jobs_waiting", "tongiaki_broadcasts_lost_total", "process_open_fds",
                   "process_max_fds"):
        assert needed in exprs, needed
    for needed in ("tongiaki_bot_jobs_waiting", "tongiaki_broadcasts_lost_total", "tongiaki_build_info"):
        assert needed in exported
    for panel in json.loads(DASHBOARD.read_text())["panels"]:   # each query reads something real
        for target in panel["targets"]:
            assert METRIC.search(target["expr"]) or "up{" in target["expr"], (panel["title"], target["expr"])
