#!/usr/bin/env python3
"""dashboard-queries.py [DASHBOARD] - every PromQL expression of a Grafana dashboard, one a line,
with Grafana's variables filled in so that Prometheus can run it as it is: $__rate_interval
becomes 5m and each label variable ($host, $cgroup) the regex .* that "All" stands for.

DASHBOARD defaults to dist/grafana-dashboard.json. The expressions come in panel order, rows'
collapsed panels included; a variable left unfilled is an error (exit 1), not a line Prometheus
would refuse for the wrong reason.
"""
import json
import re
import sys
from pathlib import Path

FILL = {"__rate_interval": "5m", "host": ".*", "cgroup": ".*"}
VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def panels(items):
    for p in items:
        yield p
        yield from panels(p.get("panels", []))


def fill(expr):
    def one(m):
        name = m.group(1) or m.group(2)
        if name not in FILL:
            raise SystemExit(f"dashboard-queries.py: no value for ${name} in {expr}")
        return FILL[name]
    return VARIABLE.sub(one, expr)


def main():
    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent / "dist/grafana-dashboard.json")
    dashboard = json.loads(path.read_text())
    for p in panels(dashboard.get("panels", [])):
        for t in p.get("targets", []):
            if t.get("expr"):
                print(re.sub(r"\s*\n\s*", " ", fill(t["expr"]).strip()))


if __name__ == "__main__":
    main()
