#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""attach_bench.py - what attach mode costs programs of Debian's, and whether it counts them whole.

Run by `make bench` (docs/bench.md, "Attach mode on real programs"), as root. Each figure is
measured in this run; ratios are taken within a round, between sides run one after the other,
and summed up as the median with a 95% interval, 1.58 IQR / sqrt(n) (the notches of a box plot).

  1. throughput: a loopback server (redis-server, driven by redis-benchmark) and a many-task
     messaging benchmark (perf bench sched messaging), each untraced, under wakeprobe's attach
     mode as it runs by default (the lean engine), under --engine full, under libbpf-tools' runqlat
     and under offcputime, in rounds whose order rotates;
  2. counts: the messaging benchmark's wakeups as wakeprobe recorded them against a witness of
     its own (build/bench/wake-count), both following every process it forks, and the drops;
  3. BPF program runs per wakeup on the server, with and without a syscall-heavy neighbour
     (stress-ng --get), by default, with --engine full and with --syscall-phases;
  4. what --csv and --perfetto cost wakeprobe's own CPU on a pipe ping-pong (perf bench sched pipe);
  5. what --stacks adds: a paced timer wakeup (cyclictest) and a ping-pong flood (perf bench sched pipe);
     what unwinding the user stacks from copies adds to walking them by frame pointers alone, there and
     on the loopback server;
     what --chains adds to the programs' time and the ring's bytes, there and on the loopback server;
  6. workload mode: a 100,000-wakeup back-to-back flood's whole-process wall time, traced
     against untraced, and the peak RSS of a 1,000,000-sample run; attach mode's RSS over a
     run of the server under load;
  7. the service (--all --listen): its own CPU and its programs' time per wakeup of the whole
     machine, at a paced 20,000 wakeups a second (stress-ng) and at a flood's rate; its programs'
     time against runqlat's on the paced load, from the kernel's statistics; its RSS while
     cgroups are made and removed.
"""

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WAKEPROBE = os.environ.get("WAKEPROBE", os.path.join(HERE, "..", "build", "wakeprobe"))
WAKE_COUNT = os.environ.get("WAKE_COUNT", os.path.join(HERE, "..", "build", "bench", "wake-count"))
REDIS_PORT = 6399
MESSAGING = ["perf", "bench", "sched", "messaging", "-g", "10", "-l", "100"]
PIPE = ["perf", "bench", "sched", "pipe", "-l", "50000"]
REDIS_REQUESTS = 100000
SIDES = ["untraced", "default", "all", "runqlat", "offcputime"]
# wakeprobe's sides: attach mode as it runs by default (the lean engine), and --engine full
WAKEPROBE_SIDES = {"default": [], "all": ["--engine", "full"]}
TOOLS = {"runqlat": "/usr/sbin/runqlat", "offcputime": "/usr/sbin/offcputime"}


def die(msg):
    print(f"attach_bench: {msg}", file=sys.stderr)
    sys.exit(1)


def summary(xs):
    """median, and the low and high ends of its 95% interval"""
    if not xs:
        return float("nan"), float("nan"), float("nan")
    med = statistics.median(xs)
    if len(xs) < 4:
        return med, min(xs), max(xs)
    q = statistics.quantiles(xs, n=4)
    half = 1.58 * (q[2] - q[0]) / len(xs) ** 0.5
    return med, med - half, med + half


def verdict(xs, aim, at_most=False):
    """met when the whole interval meets the aim, NOT met when none of it does, else cannot tell"""
    med, lo, hi = summary(xs)
    if at_most:
        lo, hi, aim = -hi, -lo, -aim
    if lo >= aim:
        return "met"
    if hi < aim:
        return "NOT met"
    return "cannot tell"


def fmt_ratio(xs):
    med, lo, hi = summary(xs)
    return f"{med:.3f} ({lo:.3f} .. {hi:.3f}, n={len(xs)})"


def bpf_links(pid):
    """how many BPF links process pid holds: attached programs"""
    n = 0
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                n += os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:bpf_link"
            except OSError:
                pass
    except OSError:
        pass
    return n


def wait_attached(proc, what, timeout=30.0):
    """until proc holds BPF links and their number held still for 0.3 s"""
    end = time.monotonic() + timeout
    last, since = 0, time.monotonic()
    while time.monotonic() < end:
        if proc.poll() is not None:
            die(f"{what} ended before it attached (status {proc.returncode})")
        n = bpf_links(proc.pid)
        if n != last:
            last, since = n, time.monotonic()
        elif n and time.monotonic() - since >= 0.3:
            return
        time.sleep(0.05)
    die(f"{what} did not attach within {timeout:.0f} s")


def stop(proc, timeout=60):
    """SIGINT, as Ctrl-C: the tools write their report and end"""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        die(f"pid {proc.pid} did not end on SIGINT")


def held_child(argv):
    """argv started, held by a shell that execs it once a line comes down a pipe: (process, the pipe)

    Its pid is argv's from the start, so that a tracer attached to it first sees all of argv's life.
    """
    r, w = os.pipe()
    hold = f'read -r _ <&{r}; exec {r}<&-; exec "$@"'
    proc = subprocess.Popen(["sh", "-c", hold, "sh", *argv], pass_fds=(r,), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    os.close(r)
    return proc, w


def release(go):
    os.write(go, b"go\n")
    os.close(go)


class Tracer:
    """one side's tracer: started on a scope, attached, then stopped; its JSON if wakeprobe's"""

    def __init__(self, side, scope_pid, machine_wide, extra=()):
        self.side, self.proc, self.json = side, None, None
        if side == "untraced":
            return
        if side in WAKEPROBE_SIDES:
            fd, self.json = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
            os.close(fd)
            # as a user runs it: the default outliers, which the default explains from its flight records
            argv = [WAKEPROBE, "--pid", str(scope_pid), "--json", self.json, *WAKEPROBE_SIDES[side], *extra]
        else:
            argv = [TOOLS[side]] + ([] if machine_wide else ["-p", str(scope_pid)])
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_attached(self.proc, side)

    def end(self):
        """stopped (a --pid wakeprobe also ends when its targets have): its document, or None"""
        if not self.proc:
            return None
        stop(self.proc)
        err = self.proc.stderr.read()
        if self.json is None:
            return None
        if self.proc.returncode != 0:
            die(f"wakeprobe ended with status {self.proc.returncode}: {err.strip()[-400:]}")
        with open(self.json) as f:
            doc = json.load(f)
        os.unlink(self.json)
        return doc


# ------------------------------------------------------------------ the two programs


def messaging_round(side, extra=()):
    """one run of the messaging benchmark under side: (its throughput, 1/s; wakeprobe's document)"""
    proc, go = held_child(MESSAGING)
    tracer = Tracer(side, proc.pid, machine_wide=True, extra=extra)
    release(go)
    out, _ = proc.communicate()
    if proc.returncode != 0:
        die(f"{' '.join(MESSAGING)} failed: {out[-400:]}")
    # a --pid wakeprobe ends by itself once its targets have exited
    if tracer.proc and tracer.json:
        tracer.proc.wait(timeout=60)
    doc = tracer.end()
    m = re.search(r"Total time: ([0-9.]+) \[sec\]", out)
    if not m:
        die(f"no total time in: {out[-400:]}")
    return 1.0 / float(m.group(1)), doc


def redis_load(requests=REDIS_REQUESTS):
    """redis-benchmark's SET and GET against the server: requests per second over both"""
    out = subprocess.run(["taskset", "-c", "1", "redis-benchmark", "-p", str(REDIS_PORT), "-t", "set,get", "-n", str(requests),
                          "-c", "8", "--csv"], capture_output=True, text=True, check=True).stdout
    rates = [float(m.group(1)) for m in re.finditer(r'^"(?:SET|GET)","([0-9.]+)"', out, re.M)]
    if len(rates) != 2:
        die(f"redis-benchmark said: {out[-400:]}")
    return 2.0 / (1.0 / rates[0] + 1.0 / rates[1])


def redis_round(server, side, extra=()):
    tracer = Tracer(side, server.pid, machine_wide=False, extra=extra)
    rate = redis_load()
    return rate, tracer.end()


def start_redis():
    server = subprocess.Popen(["taskset", "-c", "0", "redis-server", "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "ping"], capture_output=True,
                          text=True).stdout.strip() == "PONG":
            return server
        time.sleep(0.1)
    server.kill()
    die("redis-server did not answer on 127.0.0.1:%d" % REDIS_PORT)


def per_wakeup(doc, key):
    cost = doc["tracing_cost"]
    return cost[key] / cost["wakeups"] if cost["wakeups"] else float("nan")


# ------------------------------------------------------------------ the sections


def throughput(rounds, server):
    print(f"\n== Throughput: {rounds} rounds, each side against the untraced run of its round ==")
    print("   server: redis-server on 127.0.0.1 and CPU 0, redis-benchmark -t set,get -n %d -c 8 on CPU 1"
          " (requests/s);" % REDIS_REQUESTS)
    print("           traced: --pid of the server, runqlat -p and offcputime -p of it")
    print("   messaging: %s (1 / its total time);" % " ".join(MESSAGING))
    print("           traced: wakeprobe --pid of the benchmark before it starts (it follows the forks);")
    print("           runqlat and offcputime machine-wide, which they trace alike")
    ratios = {(b, s): [] for b in ("server", "messaging") for s in SIDES[1:]}
    drops = {s: 0 for s in WAKEPROBE_SIDES}
    for r in range(rounds):
        order = SIDES[r % len(SIDES):] + SIDES[:r % len(SIDES)]
        for bench, run in (("server", lambda s: redis_round(server, s)), ("messaging", messaging_round)):
            got = {}
            for side in order:
                rate, doc = run(side)
                got[side] = rate
                if doc:
                    drops[side] += doc["events"]["dropped"]
            line = " ".join(f"{s} {got[s]:.0f}" if bench == "server" else f"{s} {got[s]:.3f}" for s in SIDES)
            print(f"   round {r + 1:2d} {bench:9s} {line}")
            for side in SIDES[1:]:
                ratios[(bench, side)].append(got[side] / got["untraced"])
    print("\n   throughput / untraced, median (95% interval):")
    for bench in ("server", "messaging"):
        for side in SIDES[1:]:
            print(f"     {bench:9s} {side:10s} {fmt_ratio(ratios[(bench, side)])}")
    print(f"   records dropped, all rounds: default {drops['default']}, --engine full {drops['all']}")
    print("\n   aims (met: the whole 95% interval meets it; NOT met: none of it does; else cannot tell):")
    for bench in ("server", "messaging"):
        default = ratios[(bench, "default")]
        offcpu, runq = ratios[(bench, "offcputime")], ratios[(bench, "runqlat")]
        # the comparisons between two tools, round by round; the default is the lean engine
        vs_offcpu = [a - b for a, b in zip(default, offcpu)]
        vs_runq = [a - b + 0.02 for a, b in zip(default, runq)]
        print(f"     {bench:9s} attach default >= 0.97: {fmt_ratio(default)} {verdict(default, 0.97)}")
        print(f"     {bench:9s} attach default - offcputime >= 0: {fmt_ratio(vs_offcpu)} {verdict(vs_offcpu, 0)}")
        print(f"     {bench:9s} attach default (lean) - runqlat + 0.02 >= 0: {fmt_ratio(vs_runq)}"
              f" {verdict(vs_runq, 0)}")


def wakeup_records(path, lo, hi):
    """the WP_EV_WAKEUP records of recording path stamped inside [lo, hi]"""
    n = 0
    with open(path, "rb") as f:
        data = f.read()
    off = 16
    while off + 8 <= len(data):
        rtype = int.from_bytes(data[off:off + 2], "little")
        length = int.from_bytes(data[off + 4:off + 8], "little")
        p = off + 8
        if rtype == 3:  # REC_EVENT
            ts = int.from_bytes(data[p:p + 8], "little")
            etype = int.from_bytes(data[p + 8:p + 12], "little")
            n += etype == 3 and lo <= ts <= hi  # WP_EV_WAKEUP
        off = p + length
    return n


def counts(runs):
    print(f"\n== Counts: the messaging benchmark, {runs} runs of each side, wakeprobe against a witness ==")
    print("   both attached before it starts, both following its forks; the witness counts sched_wakeup and")
    print("   sched_wakeup_new (build/bench/wake-count). --engine full: the WAKEUP records of its recording in")
    print("   the witness's window; the default: its wakeups, and the wakes it counts without a record (those")
    print("   that found the thread on its CPU or preempted, with no waking before them, with no task storage)")
    for side in WAKEPROBE_SIDES:
        for i in range(runs):
            proc, go = held_child(MESSAGING)
            witness = subprocess.Popen([WAKE_COUNT, "0", str(proc.pid)], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            if "counting" not in witness.stderr.readline():
                die("wake-count did not start")
            fd, rec = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".wpr")
            os.close(fd)
            fd, doc_path = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
            os.close(fd)
            tracer = subprocess.Popen([WAKEPROBE, "record", "-o", rec, "--json", doc_path, "--outliers", "0",
                                       "--pid", str(proc.pid), *WAKEPROBE_SIDES[side]], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
            wait_attached(tracer, "wakeprobe")
            release(go)
            proc.communicate()
            tracer.wait(timeout=120)
            stop(witness)
            out = witness.stdout.read()
            m = re.search(r"wakeups (\d+) in [0-9.]+ s, CLOCK_MONOTONIC (\d+)\.\.(\d+) ns", out)
            if tracer.returncode != 0 or not m:
                die(f"{side} run {i + 1}: wakeprobe status {tracer.returncode}, witness said {out!r}")
            with open(doc_path) as f:
                doc = json.load(f)
            ev = doc["events"]
            if side == "all":
                seen = wakeup_records(rec, int(m.group(2)), int(m.group(3)))
                what = f"{seen} WAKEUP records"
            else:
                seen = (doc["wakeups"]["total"] + ev["lean_woke_running"] + ev["lean_wakeup_unpaired"] +
                        ev["lean_no_storage"])
                what = f"{seen} wakes ({ev['lean_woke_running']} found it running)"
            print(f"   {side:7s} run {i + 1}: witness {m.group(1)}, wakeprobe {what}"
                  f" ({'equal' if seen == int(m.group(1)) else 'DIFFERENT'}), {doc['wakeups']['total']} wakeups"
                  f" paired, {doc['wakeups']['complete']} complete; dropped {ev['dropped']},"
                  f" missed runs {ev['missed_runs']}")
            os.unlink(rec)
            os.unlink(doc_path)


def agreement(server, runs):
    print(f"\n== The default and --engine full against a witness: the server's wakeups, {runs} runs each ==")
    print("   wake-count attached beside each: the share queued from another CPU (sched_wakeup elsewhere than")
    print("   sched_waking) and waking -> wakeup (wake_enqueue), whose percentiles it gives as the power of 2")
    print("   above them; wakeprobe's over its complete wakeups, the witness's over every one")
    for side in WAKEPROBE_SIDES:
        for _ in range(runs):
            witness = subprocess.Popen([WAKE_COUNT, "0", str(server.pid)], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            if "counting" not in witness.stderr.readline():
                die("wake-count did not start")
            _, doc = redis_round(server, side)
            stop(witness)
            out = witness.stdout.read()
            n = int(re.search(r"wakeups (\d+)", out).group(1))
            remote = int(re.search(r"queued from another CPU (\d+)", out).group(1))
            pct = re.search(r"p50 < (\d+) ns p90 < (\d+) ns p99 < (\d+) ns", out)
            complete = doc["wakeups"]["complete"]
            enq = doc["stats"]["wake_enqueue"]
            print(f"   {side:9s} queued remotely {doc['sub_phases']['remote_wakeups']} of {complete}"
                  f" ({100 * doc['sub_phases']['remote_wakeups'] / max(complete, 1):.1f}%), witness {remote} of {n}"
                  f" ({100 * remote / max(n, 1):.1f}%); wake_enqueue p50/p90/p99"
                  f" {enq['p50_ns'] / 1000:.1f}/{enq['p90_ns'] / 1000:.1f}/{enq['p99_ns'] / 1000:.1f} us,"
                  f" witness < {int(pct.group(1)) / 1000:.1f}/{int(pct.group(2)) / 1000:.1f}/"
                  f"{int(pct.group(3)) / 1000:.1f} us")


def neighbour(server):
    print("\n== BPF program runs per wakeup on the server, against a syscall-heavy neighbour ==")
    print("   stress-ng --get 1 (get* syscalls as fast as it can) beside it, or nothing")
    for side, extra, name in (("default", (), "default"), ("all", (), "--engine full"),
                              ("untimed", ("--syscall-phases",), "--syscall-phases")):
        row = []
        for with_neighbour in (False, True):
            hog = None
            if with_neighbour:
                hog = subprocess.Popen(["stress-ng", "--get", "1", "--timeout", "60", "--quiet"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(0.5)
            # --syscall-phases streams the run as --engine full does
            _, doc = redis_round(server, "default" if side == "default" else "all",
                                 extra=extra if side == "untimed" else ())
            if hog:
                hog.terminate()
                hog.wait()
            row.append(f"{per_wakeup(doc, 'bpf_runs'):.1f} runs, {per_wakeup(doc, 'bpf_run_ns') / 1000:.2f} us")
        print(f"   {name:17s} alone: {row[0]:24s} with the neighbour: {row[1]}")


def output_cost(pairs):
    print(f"\n== What an output costs wakeprobe's own CPU: {' '.join(PIPE)}, {pairs} runs each, in turn ==")
    print("   own CPU per wakeup (tracing_cost.self_cpu_ns over its wakeups); --csv's aim: 2 times or less")
    options = {"none": [], "--csv": ["--csv"], "--perfetto": ["--perfetto"]}
    cpu = {name: [] for name in options}
    for _ in range(pairs):
        for name, extra in options.items():
            fd, path = tempfile.mkstemp(prefix="wakeprobe-bench-")
            os.close(fd)
            fd, doc_path = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
            os.close(fd)
            argv = [WAKEPROBE, "--json", doc_path, "--outliers", "0"] + (extra + [path] if extra else [])
            subprocess.run(argv + ["--"] + PIPE, capture_output=True, check=True)
            with open(doc_path) as f:
                cpu[name].append(per_wakeup(json.load(f), "self_cpu_ns"))
            os.unlink(path)
            os.unlink(doc_path)
    for name in ("--csv", "--perfetto"):
        ratios = [a / b for a, b in zip(cpu[name], cpu["none"])]
        line = f"   {name:10s} {statistics.median(cpu[name]):.0f} ns against {statistics.median(cpu['none']):.0f};"
        line += f" with / without {fmt_ratio(ratios)}"
        if name == "--csv":
            line += f"; aim <= 2: {verdict(ratios, 2, at_most=True)}"
        print(line)


CYCLICTEST = ["cyclictest", "-t1", "-a1", "-i", "1000", "-l", "3000", "-q"]


def stacks_cost(pairs):
    """--stacks against none, in turn: a paced timer wakeup and a ping-pong flood"""
    print(f"\n== What --stacks adds, {pairs} runs of each side, in turn ==")
    print(f"   paced: {' '.join(CYCLICTEST)} (its own wakeup latency, avg us), untraced, traced, --stacks")
    print(f"   flood: {' '.join(PIPE)} (usecs/op), traced and --stacks; both: BPF ns per wakeup, the kernel's count")
    paced = {s: [] for s in ("untraced", "traced", "stacks")}
    flood = {s: [] for s in ("traced", "stacks")}
    prog = {(b, s): [] for b in ("paced", "flood") for s in ("traced", "stacks")}
    taking = {b: [] for b in ("paced", "flood")}

    def took(bench, doc):
        """the programs' own clock around their stack calls, per wakeup"""
        if doc.get("stacks") and doc["tracing_cost"]["wakeups"]:
            taking[bench].append(doc["stacks"]["program_ns"] / doc["tracing_cost"]["wakeups"])

    for _ in range(pairs):
        for side in ("untraced", "traced", "stacks"):
            fd, doc_path = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
            os.close(fd)
            pre = [] if side == "untraced" else [WAKEPROBE, "--json", doc_path] + \
                (["--stacks"] if side == "stacks" else []) + ["--"]
            out = subprocess.run(pre + CYCLICTEST, capture_output=True, text=True, check=True).stdout
            m = re.search(r"Avg:\s+(\d+)", out)
            if not m:
                die(f"no average in cyclictest's output: {out[-300:]}")
            paced[side].append(float(m.group(1)))
            if side != "untraced":
                with open(doc_path) as f:
                    doc = json.load(f)
                prog[("paced", side)].append(per_wakeup(doc, "bpf_run_ns"))
                took("paced", doc)
                out = subprocess.run([WAKEPROBE, "--json", doc_path] + (["--stacks"] if side == "stacks" else []) +
                                     ["--"] + PIPE, capture_output=True, text=True, check=True).stdout
                m = re.search(r"([0-9.]+) usecs/op", out)
                if not m:
                    die(f"no usecs/op in: {out[-300:]}")
                flood[side].append(float(m.group(1)))
                with open(doc_path) as f:
                    doc = json.load(f)
                prog[("flood", side)].append(per_wakeup(doc, "bpf_run_ns"))
                took("flood", doc)
            os.unlink(doc_path)
    for side in ("untraced", "traced", "stacks"):
        print(f"   paced {side:9s} avg {statistics.median(paced[side]):.0f} us (median of {pairs})")
    added = [b - a for a, b in zip(paced["traced"], paced["stacks"])]
    print(f"   paced --stacks - traced, avg us: {fmt_ratio(added)}")
    ratios = [b / a for a, b in zip(flood["traced"], flood["stacks"])]
    print(f"   flood usecs/op {statistics.median(flood['traced']):.2f} traced, {statistics.median(flood['stacks']):.2f}"
          f" --stacks; --stacks / traced {fmt_ratio(ratios)}")
    for bench in ("paced", "flood"):
        a, b = prog[(bench, "traced")], prog[(bench, "stacks")]
        print(f"   {bench} BPF ns per wakeup: traced {statistics.median(a):.0f}, --stacks {statistics.median(b):.0f};"
              f" --stacks / traced {fmt_ratio([y / x for x, y in zip(a, b)])}")
    for bench in ("paced", "flood"):
        if taking[bench]:
            print(f"   {bench} taking the stacks, by the programs' own clock: {statistics.median(taking[bench]):.0f} ns"
                  f" per wakeup (median of {len(taking[bench])})")
    print("   a wakeup's record: 192 bytes with --stacks, 128 without; the stacks map: 17 MiB of kernel memory")


def three_benches(server, side, extra, took):
    """one run each of the paced wakeup, the flood and the loopback server, traced with @extra: took(bench, side, doc)"""
    fd, doc_path = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
    os.close(fd)
    for bench, argv in (("paced", CYCLICTEST), ("flood", PIPE)):
        subprocess.run([WAKEPROBE, "--json", doc_path] + extra + ["--"] + argv, capture_output=True, text=True, check=True)
        took(bench, side, doc_path)
    tracer = subprocess.Popen([WAKEPROBE, "--json", doc_path, "--pid", str(server.pid)] + extra,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_attached(tracer, "wakeprobe")
    redis_load(REDIS_REQUESTS // 4)
    stop(tracer)
    took("loopback", side, doc_path)
    os.unlink(doc_path)


def chains_cost(pairs, server):
    """--chains against none, in turn: a paced timer wakeup, a ping-pong flood and a loopback server"""
    print(f"\n== What --chains adds, {pairs} runs of each side, in turn ==")
    print(f"   paced: {' '.join(CYCLICTEST)}; flood: {' '.join(PIPE)}; loopback: redis-benchmark against redis-server")
    print("   each: BPF ns per wakeup (the kernel's count) and ring bytes per wakeup, traced and --chains")
    benches = ("paced", "flood", "loopback")
    prog = {(b, s): [] for b in benches for s in ("traced", "chains")}
    ring = {(b, s): [] for b in benches for s in ("traced", "chains")}

    def took(bench, side, doc_path):
        with open(doc_path) as f:
            doc = json.load(f)
        prog[(bench, side)].append(per_wakeup(doc, "bpf_run_ns"))
        ring[(bench, side)].append(per_wakeup(doc, "records") * 64)

    for _ in range(pairs):
        for side in ("traced", "chains"):
            three_benches(server, side, ["--chains"] if side == "chains" else [], took)
    for bench in benches:
        a, b = prog[(bench, "traced")], prog[(bench, "chains")]
        x, y = ring[(bench, "traced")], ring[(bench, "chains")]
        print(f"   {bench:8s} BPF ns per wakeup: traced {statistics.median(a):.0f}, --chains {statistics.median(b):.0f};"
              f" --chains / traced {fmt_ratio([q / p for p, q in zip(a, b)])}; ring bytes per wakeup"
              f" {statistics.median(x):.0f} and {statistics.median(y):.0f}")
    print("   aim: --chains on by default if it adds under 10% BPF time per wakeup; it is an option otherwise")


def unwind_cost(pairs, server):
    """--stacks with the copies unwound (its default) against frame pointers alone (--unwind off), in turn"""
    print(f"\n== What unwinding the user stacks adds to --stacks, {pairs} runs of each side, in turn ==")
    print(f"   paced: {' '.join(CYCLICTEST)}; flood: {' '.join(PIPE)}; loopback: redis-benchmark against redis-server")
    print("   each: BPF ns per wakeup (the kernel's count) and ring bytes per wakeup, --stacks --unwind off and --stacks;")
    print("   with --stacks, the copies' program time per wakeup and wakeprobe's time unwinding per wakeup unwound")
    benches = ("paced", "flood", "loopback")
    sides = ("frame pointers", "unwound")
    prog = {(b, s): [] for b in benches for s in sides}
    ring = {(b, s): [] for b in benches for s in sides}
    copy_ns, unwind_ns, share = ({b: [] for b in benches} for _ in range(3))

    def took(bench, side, doc_path):
        with open(doc_path) as f:
            doc = json.load(f)
        u = doc["stacks"]["unwound"]
        wakeups = doc["tracing_cost"]["wakeups"]
        prog[(bench, side)].append(per_wakeup(doc, "bpf_run_ns"))
        ring[(bench, side)].append((doc["tracing_cost"]["records"] * 64 + u["ring_bytes"]) / wakeups)
        if side == "unwound":
            copy_ns[bench].append(u["copy_program_ns"] / wakeups)
            if u["stacks"]:
                unwind_ns[bench].append(u["unwind_ns"] / u["stacks"])
            share[bench].append(u["wakeups"] / wakeups)

    for _ in range(pairs):
        for side in sides:
            three_benches(server, side, ["--stacks"] + (["--unwind", "off"] if side == "frame pointers" else []), took)
    for bench in benches:
        a, b = prog[(bench, "frame pointers")], prog[(bench, "unwound")]
        x, y = ring[(bench, "frame pointers")], ring[(bench, "unwound")]
        print(f"   {bench:8s} BPF ns per wakeup: frame pointers {statistics.median(a):.0f}, unwound"
              f" {statistics.median(b):.0f}; unwound / frame pointers {fmt_ratio([q / p for p, q in zip(a, b)])};"
              f" ring bytes per wakeup {statistics.median(x):.0f} and {statistics.median(y):.0f}")
        per = f"{statistics.median(unwind_ns[bench]) / 1000:.1f} us" if unwind_ns[bench] else "none unwound"
        print(f"   {bench:8s} the copies: {statistics.median(copy_ns[bench]):.0f} ns of program time per wakeup;"
              f" unwound {100 * statistics.median(share[bench]):.1f}% of the wakeups, {per} of wakeprobe's time each")


def wall(argv):
    t = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - t


def peak_rss_kb(argv):
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        die(f"{' '.join(argv)}: status {status}")
    return usage.ru_maxrss


def workload(pairs):
    flood = [WAKEPROBE, "--workload", "eventfd", "--interval-us", "0", "--samples", "100000"]
    print(f"\n== Workload mode: a 100,000-wakeup back-to-back eventfd flood, whole process, {pairs} pairs ==")
    # --engine full streams every event; the default, the lean engine, pairs them in the kernel
    modes = (("--engine full", ["--engine", "full"]), ("--engine lean (default)", []))
    ratios = {mode: [] for mode, _ in modes}
    for _ in range(pairs):
        for mode, extra in modes:
            traced = wall(flood + extra)
            untraced = wall(flood + ["--no-trace"])
            ratios[mode].append(traced / untraced)
    for (mode, _), aim in zip(modes, (1.3, 1.15)):
        print(f"   {mode}: traced / untraced wall {fmt_ratio(ratios[mode])};"
              f" aim <= {aim}: {verdict(ratios[mode], aim, at_most=True)}")
    print("\n== Peak RSS ==")
    million = [WAKEPROBE, "--workload", "eventfd", "--interval-us", "0", "--samples", "1000000"]
    for mode, extra in modes:
        kb = peak_rss_kb(million + extra)
        print(f"   workload, 1,000,000 samples, {mode}: {kb / 1024:.1f} MiB;"
              f" aim <= 64 MB: {'met' if kb * 1024 <= 64e6 else 'NOT met'}")


def recorded(side, pid, run):
    """record -o of pid, as wakeprobe side traces, around run(): (bytes, wakeups)"""
    fd, rec = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".wpr")
    os.close(fd)
    fd, doc_path = tempfile.mkstemp(prefix="wakeprobe-bench-", suffix=".json")
    os.close(fd)
    argv = [WAKEPROBE, "record", "-o", rec, "--json", doc_path, "--pid", str(pid)] + WAKEPROBE_SIDES[side]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_attached(proc, side)
    run()
    stop(proc)
    if proc.returncode != 0:
        die(f"record {side}: status {proc.returncode}: {proc.stderr.read().strip()[-400:]}")
    with open(doc_path) as f:
        wakeups = json.load(f)["wakeups"]["total"]
    size = os.path.getsize(rec)
    os.unlink(rec)
    os.unlink(doc_path)
    return size, wakeups


def recording_bytes(server):
    print("\n== Recordings: bytes per wakeup, record -o of the default attach mode and of --engine full ==")
    print("   the server under redis-benchmark -n 50000, and the messaging benchmark (--pid before it starts);")
    print("   a file's bytes over the wakeups of traced threads its report counts")
    for bench in ("server", "messaging"):
        for side in WAKEPROBE_SIDES:
            if bench == "server":
                size, n = recorded(side, server.pid, lambda: redis_load(50000))
            else:
                proc, go = held_child(MESSAGING)

                def run():
                    release(go)
                    proc.communicate()
                size, n = recorded(side, proc.pid, run)
            per = f"{size / n:.0f} bytes a wakeup" if n else "no wakeup"
            print(f"   {bench:9s} {side:9s} {size:10d} bytes, {n:6d} wakeups: {per}")


def attach_rss(server, seconds):
    proc = subprocess.Popen([WAKEPROBE, "--pid", str(server.pid)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_attached(proc, "wakeprobe")
    marks = []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        redis_load(20000)
        with open(f"/proc/{proc.pid}/status") as f:
            rss = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))
        marks.append((time.monotonic() - start, rss))
    stop(proc)
    print(f"   attach, the server under load for {seconds} s: RSS {marks[0][1] / 1024:.1f} MiB at"
          f" {marks[0][0]:.0f} s, {marks[-1][1] / 1024:.1f} MiB at {marks[-1][0]:.0f} s"
          f" (the engine's tables are bounded: it does not grow with the run)")


SERVICE_PORT = 9751
# paced: two processes handing a pipe's token back and forth 10,000 times a second, 20,000 wakeups
SERVICE_PACED = ["stress-ng", "--switch", "1", "--switch-freq", "10000", "--quiet", "-t"]
SERVICE_FLOOD = ["perf", "bench", "sched", "pipe", "-l", "2000000"]


def scrape(port):
    """the sums of the samples of /metrics by metric name"""
    import urllib.request
    sums = {}
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("#") or " " not in line:
                continue
            name = re.split(r"[{ ]", line, 1)[0]
            sums[name] = sums.get(name, 0.0) + float(line.rsplit(" ", 1)[1])
    return sums


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def service_window(proc, load, seconds):
    """wakeprobe --all --listen's cost over @seconds while @load runs: wakeups/s, own CPU, programs' time"""
    hz = os.sysconf("SC_CLK_TCK")
    # a group of its own: perf bench's pipe partner is a child that outlives a signal to its parent
    runner = subprocess.Popen(load, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(2)
    a, ta, t0 = scrape(SERVICE_PORT), cpu_ticks(proc.pid), time.monotonic()
    time.sleep(seconds)
    b, tb, t1 = scrape(SERVICE_PORT), cpu_ticks(proc.pid), time.monotonic()
    os.killpg(runner.pid, signal.SIGTERM)
    runner.wait()
    span = t1 - t0
    wakeups = b["wakeprobe_wakeups_total"] - a["wakeprobe_wakeups_total"]
    own = (tb - ta) / hz
    bpf = b.get("wakeprobe_bpf_program_run_seconds_total", 0) - a.get("wakeprobe_bpf_program_run_seconds_total", 0)
    return {"rate": wakeups / span, "own": own / span, "own_ns": own * 1e9 / wakeups if wakeups else float("nan"),
            "bpf": bpf / span, "bpf_ns": bpf * 1e9 / wakeups if wakeups else float("nan"),
            "rss": b["wakeprobe_self_resident_bytes"], "dropped": b["wakeprobe_dropped_events_total"]}


def service_cost(rounds, seconds):
    """--all --listen at a paced 20,000 wakeups a second, and at a flood's rate: what the service costs"""
    print(f"\n== The service: --all --listen, {rounds} windows of {seconds} s under each load ==")
    print(f"   paced: {' '.join(SERVICE_PACED)} N (20,000 wakeups a second); flood: {' '.join(SERVICE_FLOOD)}")
    proc = subprocess.Popen([WAKEPROBE, "--all", "--listen", f"127.0.0.1:{SERVICE_PORT}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_attached(proc, "wakeprobe --all --listen")
        for name, load in (("paced", SERVICE_PACED + [str(seconds + 5)]), ("flood", SERVICE_FLOOD)):
            # the first window's load also warms what a rate brings into the caches
            ws = [service_window(proc, load, seconds) for _ in range(rounds)]
            med = {k: statistics.median(w[k] for w in ws) for k in ws[0]}
            print(f"   {name}: {med['rate']:,.0f} wakeups/s on the machine; wakeprobe's own CPU {100 * med['own']:.2f}%"
                  f" of one CPU ({med['own_ns']:.0f} ns a wakeup); the BPF programs {100 * med['bpf']:.2f}%"
                  f" ({med['bpf_ns']:.0f} ns a wakeup, in the woken tasks' time); RSS {med['rss'] / 2**20:.1f} MiB;"
                  f" dropped {med['dropped']:.0f} (medians of {rounds})")
            if name == "paced":
                aim = [100 * w["own"] for w in ws]
                print(f"   paced, wakeprobe's own CPU % of one CPU: {fmt_ratio(aim)} -> {verdict(aim, 1.0, at_most=True)}"
                      " (aim: <= 1% at 20,000 wakeups/s)")
        print("   at 200,000 a second: the flood's own CPU per wakeup times the rate; the ring (8 MiB, 192 bytes"
              " a wakeup) is taken every 50 ms, 2 MiB of it at that rate")
    finally:
        stop(proc)


def program_ids(pid):
    """the ids of the BPF programs process pid holds, by their fds or their links' (/proc/PID/fdinfo)"""
    ids = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") not in ("anon_inode:bpf-prog", "anon_inode:bpf_link"):
                continue
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                m = re.search(r"^prog_id:\s+(\d+)", f.read(), re.M)
        except OSError:
            continue
        if m:
            ids.add(int(m.group(1)))
    return ids


def programs_of(pid):
    """the kernel's statistics of the BPF programs process pid holds: {id: (name, runs, run_time_ns)}"""
    ids = program_ids(pid)
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True, check=True).stdout
    return {p["id"]: (p.get("name", "?"), p.get("run_cnt", 0), p.get("run_time_ns", 0))
            for p in json.loads(out) if p["id"] in ids}


class BpfStats:
    """kernel.bpf_stats_enabled set for the run and put back as it was, whatever happens"""

    PATH = "/proc/sys/kernel/bpf_stats_enabled"

    def __enter__(self):
        with open(self.PATH) as f:
            self.was = f.read().strip()
        with open(self.PATH, "w") as f:
            f.write("1")
        return self

    def __exit__(self, *exc):
        with open(self.PATH, "w") as f:
            f.write(self.was)


def side_window(argv, load, seconds):
    """argv's programs' time and its own CPU over @seconds of @load, both started afresh"""
    hz = os.sysconf("SC_CLK_TCK")
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_attached(proc, os.path.basename(argv[0]))
        runner = subprocess.Popen(load, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            time.sleep(2)
            a, ta, t0 = programs_of(proc.pid), cpu_ticks(proc.pid), time.monotonic()
            time.sleep(seconds)
            b, tb, t1 = programs_of(proc.pid), cpu_ticks(proc.pid), time.monotonic()
        finally:
            os.killpg(runner.pid, signal.SIGTERM)
            runner.wait()
    finally:
        stop(proc)
    span = t1 - t0
    runs = sum(b[i][1] - a[i][1] for i in b if i in a)
    ns = sum(b[i][2] - a[i][2] for i in b if i in a)
    by_prog = {}
    for i in b:
        if i in a:
            by_prog[b[i][0]] = by_prog.get(b[i][0], 0) + (b[i][2] - a[i][2]) / 1e9 / span
    return {"bpf": ns / 1e9 / span, "runs": runs / span, "own": (tb - ta) / hz / span, "by_prog": by_prog}


def service_vs_runqlat(rounds, seconds):
    """--all --listen against runqlat on the same paced load, interleaved: the programs' time, the kernel's figures"""
    print(f"\n== The service against runqlat: {rounds} interleaved rounds of {seconds} s, each tool started afresh ==")
    print(f"   load: {' '.join(SERVICE_PACED)} N (20,000 wakeups a second); the programs' run time from the kernel's")
    print("   statistics (kernel.bpf_stats_enabled), every program each tool holds summed")
    load = SERVICE_PACED + [str(seconds + 5)]
    sides = {"wakeprobe": [WAKEPROBE, "--all", "--listen", f"127.0.0.1:{SERVICE_PORT}"],
             "runqlat": [TOOLS["runqlat"], str(seconds + 60)]}
    got = {side: [] for side in sides}
    with BpfStats():
        for r in range(rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for side in order:
                got[side].append(side_window(sides[side], load, seconds))
    for side in sides:
        w = got[side]
        print(f"   {side:9s}: programs {statistics.median(x['bpf'] for x in w) * 1e3:.2f} ms a second,"
              f" {statistics.median(x['runs'] for x in w):,.0f} runs a second; own CPU"
              f" {100 * statistics.median(x['own'] for x in w):.2f}% of one CPU (medians of {rounds})")
    for side in sides:
        names = {n for x in got[side] for n in x["by_prog"]}
        share = {n: statistics.median(x["by_prog"].get(n, 0) for x in got[side]) for n in names}
        top = sorted(share.items(), key=lambda kv: -kv[1])[:6]
        print(f"   {side:9s}: where its programs' time goes, medians in ms a second: "
              + ", ".join(f"{n} {v * 1e3:.2f}" for n, v in top))
    ratio = [a["bpf"] / b["bpf"] for a, b in zip(got["wakeprobe"], got["runqlat"])]
    own = [100 * x["own"] for x in got["wakeprobe"]]
    print(f"   wakeprobe / runqlat, programs' time: {fmt_ratio(ratio)} -> {verdict(ratio, 1.5, at_most=True)}"
          " (aim: <= 1.5)")
    print(f"   wakeprobe's own CPU, % of one CPU: {fmt_ratio(own)} -> {verdict(own, 0.5, at_most=True)} (aim: <= 0.5%)")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def cgroup2_mount():
    """where the cgroup2 hierarchy is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host)"""
    with open("/proc/mounts") as f:
        for line in f:
            fields = line.split()
            if fields[2] == "cgroup2":
                return fields[1]
    die("no cgroup2 hierarchy is mounted: mount -t cgroup2 none /sys/fs/cgroup")


def service_rss(seconds):
    """--all --listen's RSS over @seconds while cgroups are made, run a load and are removed, one after another"""
    print(f"\n== The service's memory: {seconds} s of cgroups made, loaded and removed (--service-rss-seconds) ==")
    root = cgroup2_mount()
    proc = subprocess.Popen([WAKEPROBE, "--all", "--listen", f"127.0.0.1:{SERVICE_PORT}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    marks, made = [], 0
    try:
        wait_attached(proc, "wakeprobe --all --listen")
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            cg = os.path.join(root, f"wakeprobe-bench-{os.getpid()}-{made}")
            os.mkdir(cg)
            try:
                # a paced hand-off in the new cgroup, for a second, then the cgroup goes
                load = subprocess.Popen(["sh", "-c", f'echo $$ > {cg}/cgroup.procs && exec "$@"', "sh",
                                         "stress-ng", "--switch", "1", "--switch-freq", "2000", "--quiet", "-t", "1"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                load.wait()
            finally:
                for _ in range(50):
                    try:
                        os.rmdir(cg)
                        break
                    except OSError:
                        time.sleep(0.1)
            made += 1
            if made % 10 == 0:
                scrape(SERVICE_PORT)
                marks.append((time.monotonic() - start, rss_kb(proc.pid)))
    finally:
        stop(proc)
    if len(marks) < 4:
        die("the RSS run was too short to tell: give --service-rss-seconds 60 or more")
    tenth = marks[len(marks) // 10]
    last = marks[-1]
    # the trend between, for a slow growth to show apart from an allocator settling
    fifths = [marks[len(marks) * k // 5] for k in range(1, 5)] + [last]
    print("   RSS along the run: " + ", ".join(f"{m[1] / 1024:.1f} MiB at {m[0]:.0f} s" for m in fifths))
    print(f"   {made} cgroups made and removed; RSS {tenth[1] / 1024:.1f} MiB at {tenth[0]:.0f} s,"
          f" {last[1] / 1024:.1f} MiB at {last[0]:.0f} s, at most {max(m[1] for m in marks) / 1024:.1f} MiB"
          f" -> {'flat' if last[1] <= tenth[1] * 1.05 + 1024 else 'GROWS'} (aim: flat, within 5% + 1 MiB)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="throughput rounds (default 7)")
    ap.add_argument("--pairs", type=int, default=7, help="flood and --csv pairs (default 7)")
    ap.add_argument("--attach-seconds", type=int, default=30, help="the attach RSS run (default 30)")
    ap.add_argument("--only", choices=["stacks", "unwind", "chains", "service", "runqlat", "service-rss"],
                    help="run this section alone")
    ap.add_argument("--service-seconds", type=int, default=10, help="each window of the service's cost (default 10)")
    ap.add_argument("--service-rss-seconds", type=int, default=300,
                    help="the service's RSS run, cgroups made and removed throughout (default 300; 3600 for the hour)")
    args = ap.parse_args()
    # stopped by a signal, it cleans up as on ^C: the services stopped, the cgroups it made removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    if os.geteuid() != 0:
        die("tracing needs root: run it through make bench")
    for tool in ["perf", "redis-server", "redis-benchmark", "redis-cli", "stress-ng", "cyclictest", WAKEPROBE, WAKE_COUNT,
                 *TOOLS.values()]:
        if not (os.access(tool, os.X_OK) or subprocess.run(["sh", "-c", f"command -v {tool}"],
                                                            capture_output=True).returncode == 0):
            die(f"{tool} is missing: make bench installs it (scripts/setup-deps.sh bench)")
    print(f"attach_bench: {os.uname().release}, {os.cpu_count()} CPUs; {time.strftime('%Y-%m-%d %H:%M')} UTC")
    if args.only == "stacks":
        stacks_cost(args.pairs)
        return
    if args.only == "service":
        service_cost(5, args.service_seconds)
        return
    if args.only == "runqlat":
        service_vs_runqlat(5, args.service_seconds)
        return
    if args.only == "service-rss":
        service_rss(args.service_rss_seconds)
        return
    if args.only in ("chains", "unwind"):
        server = start_redis()
        try:
            (chains_cost if args.only == "chains" else unwind_cost)(args.pairs, server)
        finally:
            server.terminate()
            server.wait()
        return
    server = start_redis()
    try:
        throughput(args.rounds, server)
        counts(2)
        agreement(server, 2)
        neighbour(server)
        output_cost(args.pairs)
        stacks_cost(args.pairs)
        unwind_cost(args.pairs, server)
        chains_cost(args.pairs, server)
        recording_bytes(server)
        workload(args.pairs)
        attach_rss(server, args.attach_seconds)
        service_cost(5, args.service_seconds)
        service_vs_runqlat(5, args.service_seconds)
        service_rss(args.service_rss_seconds)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
