#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
check_timeline.py - validate a timeline written by wakeprobe (user/output/perfetto_timeline.c).

    python3 tests/check_timeline.py FILE

Checks that FILE is one JSON object in the trace-event "JSON Object Format"
(traceEvents, displayTimeUnit "ns", otherData); that every event has the keys
its phase needs (name, ph, ts, pid, tid, and dur for X), ts and dur written as
microseconds with three decimals; that the phase slices of each sample tile its wakeup slice from
t_notify to t_woken exactly; that every flow start has its end, on slices of
the same sample, the end strictly later (both viewers bind flows in time
order); that the X slices of each thread nest; and that every process and
thread drawn on has a name. In an attach run (user/output/perfetto_attach.c): that
the kernel phases drawn of each wakeup tile its wakeup slice on the wakee's
thread, in order, and with the ones its args call absent make the four
kernel phases; that each arrow leaves a zero-length waker slice of the same
wakeup and lands on a kernel phase of the wakee it names. With --chains:
that each hop's slices are as long as their args say and meet the next
hop's, back from the wakee's waking, and that each chain arrow leaves a
hop's run and lands on what it woke where the run ended (hop 0: inside the
wakee's wakeup slice). Prints a one-line summary and exits 0, or prints each
problem and exits 1.

The tests import it to look at the content: load() returns a Timeline.
"""
import decimal
import json
import re
import sys

PHASES = ["notify_user", "notify_kernel", "wake_enqueue", "runq_wait", "resume_kernel", "resume_user"]
WAKER_PHASES = 2
# attach mode has no stamps in the program: the phases it can draw
KERNEL_PHASES = PHASES[1:5]
# --chains: a thread's chain track, beside it in its process (user/output/perfetto_attach.c)
CHAIN_TID = 1 << 22
METADATA = {"process_name", "thread_name", "process_sort_index", "thread_sort_index"}


class Problem(Exception):
    pass


def to_ns(value, what):
    """microseconds with at most three decimals, as whole nanoseconds"""
    if isinstance(value, bool) or not isinstance(value, (int, decimal.Decimal)):
        raise Problem(f"{what}: not a number: {value!r}")
    ns = decimal.Decimal(value) * 1000
    if ns != ns.to_integral_value():
        raise Problem(f"{what}: {value} is not a whole number of nanoseconds")
    return int(ns)


class Slice:
    """an X event, its times in ns"""

    def __init__(self, event, index):
        self.event = event
        self.index = index
        self.name = event["name"]
        self.cat = event.get("cat")
        self.pid = event["pid"]
        self.tid = event["tid"]
        self.args = event.get("args", {})
        self.start = to_ns(event["ts"], f"event {index} ts")
        self.dur = to_ns(event["dur"], f"event {index} dur")
        self.end = self.start + self.dur

    def __repr__(self):
        return f"{self.name!r} [{self.start}, {self.end}] pid {self.pid} tid {self.tid}"


def thread_of(s):
    """the thread a slice is of: a chain slice's is its chain track's"""
    return s.tid - CHAIN_TID if s.cat == "chain" else s.tid


class Timeline:
    def __init__(self, doc):
        if not isinstance(doc, dict):
            raise Problem("the document is not a JSON object")
        for key in ("traceEvents", "displayTimeUnit", "otherData"):
            if key not in doc:
                raise Problem(f"no {key}")
        if doc["displayTimeUnit"] != "ns":
            raise Problem(f"displayTimeUnit is {doc['displayTimeUnit']!r}")
        if not isinstance(doc["traceEvents"], list) or not isinstance(doc["otherData"], dict):
            raise Problem("traceEvents is not a list or otherData not an object")
        self.other = doc["otherData"]
        self.events = doc["traceEvents"]
        self.process_names = {}
        self.thread_names = {}
        self.slices = []
        self.instants = []
        for i, e in enumerate(self.events):
            self._take(i, e)

    def _take(self, i, e):
        if not isinstance(e, dict):
            raise Problem(f"event {i} is not an object")
        for key in ("name", "ph", "pid", "tid"):
            if key not in e:
                raise Problem(f"event {i} has no {key}: {e}")
        if not isinstance(e["name"], str) or not isinstance(e["ph"], str):
            raise Problem(f"event {i}: name and ph must be strings: {e}")
        for key in ("pid", "tid"):
            if isinstance(e[key], bool) or not isinstance(e[key], int) or not 0 < e[key] < 2**32:
                raise Problem(f"event {i}: {key} must be a 32-bit id: {e}")
        ph = e["ph"]
        if ph == "M":
            if e["name"] not in METADATA or not isinstance(e.get("args"), dict):
                raise Problem(f"event {i}: unexpected metadata {e}")
            if e["name"] == "process_name":
                self.process_names[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                self.thread_names[(e["pid"], e["tid"])] = e["args"]["name"]
            return
        if "ts" not in e:
            raise Problem(f"event {i} has no ts: {e}")
        if ph == "X":
            if "dur" not in e:
                raise Problem(f"event {i}: an X event without dur: {e}")
            self.slices.append(Slice(e, i))
        elif ph == "i":
            if e.get("s") != "t":
                raise Problem(f"event {i}: an instant not scoped to its thread: {e}")
            e["ts_ns"] = to_ns(e["ts"], f"event {i} ts")
            self.instants.append(e)
        else:
            raise Problem(f"event {i}: phase {ph!r} is not one wakeprobe writes")

    def thread(self, name, pid=None):
        """the (pid, tid) of the one thread called @name (in process @pid)"""
        found = [k for k, v in self.thread_names.items() if v == name and (pid is None or k[0] == pid)]
        if len(found) != 1:
            raise Problem(f"{len(found)} threads named {name!r}")
        return found[0]

    def find(self, name=None, cat=None, pid=None, tid=None, prefix=None):
        return [s for s in self.slices
                if (name is None or s.name == name) and (cat is None or s.cat == cat)
                and (pid is None or s.pid == pid) and (tid is None or s.tid == tid)
                and (prefix is None or s.name.startswith(prefix))]

    def flows(self):
        """bind_id -> (producer slice, consumer slice); problems for what does not pair"""
        out, into, problems = {}, {}, []
        for s in self.slices:
            if "bind_id" not in s.event:
                continue
            fo, fi = s.event.get("flow_out") is True, s.event.get("flow_in") is True
            if fo == fi:
                problems.append(f"{s}: bind_id needs exactly one of flow_out and flow_in")
                continue
            side = out if fo else into
            if s.event["bind_id"] in side:
                problems.append(f"{s}: flow {s.event['bind_id']} bound twice on one side")
            side[s.event["bind_id"]] = s
        pairs = {}
        for fid, p in out.items():
            c = into.get(fid)
            if c is None:
                problems.append(f"flow {fid} from {p} never ends")
                continue
            if c.start <= p.start:
                problems.append(f"flow {fid}: {c} does not start after {p}")
            if p.cat == "waker" or c.cat == "kernel_phase":
                # attach mode: from the waker's thread or CPU, in any process, to the wakee it names
                if (p.cat, c.cat) != ("waker", "kernel_phase") or c.args.get("seq") != p.args.get("seq") \
                        or p.args.get("wakee_tid") != c.tid or p.dur != 0:
                    problems.append(f"flow {fid}: {p} and {c} are not a waker and the wakeup it made")
            elif p.cat == "chain" or c.cat == "chain":
                # --chains: from a hop's run to what it woke, from where the run ended
                hop = p.args.get("hop")
                woke = (thread_of(c), c.args.get("seq")) == (p.args.get("wakee_tid"), p.args.get("seq"))
                if hop == 0:
                    woke = woke and c.cat == "wakeup" and c.start <= p.end <= c.end
                else:
                    woke = woke and (c.name, c.args.get("hop"), c.start) == ("chain: runnable", hop - 1, p.end)
                if p.name != "chain: ran" or not woke:
                    problems.append(f"flow {fid}: {p} and {c} are not a hop and what it woke")
            elif c.pid != p.pid or c.args.get("seq") != p.args.get("seq"):
                problems.append(f"flow {fid}: {p} and {c} are not of one sample")
            pairs[fid] = (p, c)
        for fid, c in into.items():
            if fid not in out:
                problems.append(f"flow {fid} into {c} never starts")
        return pairs, problems


def nesting_problems(tl):
    problems = []
    by_thread = {}
    for s in tl.slices:
        by_thread.setdefault((s.pid, s.tid), []).append(s)
    for key, slices in by_thread.items():
        # parents first: earlier start, then longer
        slices.sort(key=lambda s: (s.start, -s.end, s.index))
        stack = []
        for s in slices:
            while stack and stack[-1].end <= s.start:
                stack.pop()
            if stack and s.end > stack[-1].end:
                problems.append(f"thread {key}: {s} overlaps {stack[-1]} without nesting")
                continue
            stack.append(s)
    return problems


def tiling_problems(tl):
    """each sample's phases tile its wakeup slice; returns (problems, samples tiled)"""
    problems = []
    wakeups = {}
    for s in tl.find(cat="wakeup", prefix="wakeup #"):
        wakeups[(s.pid, s.args.get("seq"))] = s
    groups = {}
    for s in tl.find(cat="phase"):
        groups.setdefault((s.pid, s.args.get("seq")), []).append(s)
    for key, phases in groups.items():
        phases.sort(key=lambda s: (s.start, s.end))
        names = [s.name for s in phases]
        w = wakeups.get(key)
        if names != PHASES:
            problems.append(f"sample {key}: phases {names}")
            continue
        if w is None:
            problems.append(f"sample {key}: phases without a wakeup slice")
            continue
        if phases[0].start != w.start or phases[-1].end != w.end:
            problems.append(f"sample {key}: phases span [{phases[0].start}, {phases[-1].end}], wakeup {w}")
        for a, b in zip(phases, phases[1:]):
            if a.end != b.start:
                problems.append(f"sample {key}: {a} and {b} do not meet")
        if any(s.tid != w.tid for s in phases[WAKER_PHASES:]):
            problems.append(f"sample {key}: wakee phases off the wakeup slice's thread")
        if phases[0].tid != phases[1].tid:
            problems.append(f"sample {key}: the notify phases are on two threads")
        if sum(s.args.get("ns", -1) for s in phases) != w.args.get("total_ns"):
            problems.append(f"sample {key}: phase ns do not add up to total_ns {w.args.get('total_ns')}")
    return problems, len(groups)


def attach_tiling_problems(tl):
    """each attach wakeup's kernel phases tile it; returns (problems, wakeups tiled)"""
    problems = []
    wakeups = {}
    for s in tl.find(cat="wakeup", prefix="wakeup #"):
        if "absent" in s.args:
            wakeups[(s.pid, s.args.get("seq"))] = s
    groups = {}
    for s in tl.find(cat="kernel_phase"):
        groups.setdefault((s.pid, s.args.get("seq")), []).append(s)
    for key in wakeups.keys() - groups.keys():
        problems.append(f"wakeup {key}: no kernel phase drawn")
    for key, phases in groups.items():
        phases.sort(key=lambda s: (KERNEL_PHASES.index(s.name) if s.name in KERNEL_PHASES else -1, s.start))
        names = [s.name for s in phases]
        w = wakeups.get(key)
        if w is None:
            problems.append(f"wakeup {key}: kernel phases without a wakeup slice")
            continue
        absent = w.args["absent"]
        both = names + list(absent) if isinstance(absent, dict) else ["?"]
        if not set(both) <= set(KERNEL_PHASES) or sorted(both, key=KERNEL_PHASES.index) != KERNEL_PHASES:
            problems.append(f"wakeup {key}: phases {names} and absent {absent} are not the kernel phases")
            continue
        if phases[0].start != w.start or phases[-1].end != w.end:
            problems.append(f"wakeup {key}: phases span [{phases[0].start}, {phases[-1].end}], wakeup {w}")
        for a, b in zip(phases, phases[1:]):
            if a.end != b.start:
                problems.append(f"wakeup {key}: {a} and {b} do not meet")
        if any(s.tid != w.tid for s in phases):
            problems.append(f"wakeup {key}: phases off the wakeup slice's thread")
        if sum(s.args.get("ns", -1) for s in phases) != w.args.get("total_ns"):
            problems.append(f"wakeup {key}: phase ns do not add up to total_ns {w.args.get('total_ns')}")
    return problems, len(groups)


def chain_problems(tl):
    """--chains: each hop's slices as long as their args say, meeting the next hop's back in time"""
    problems = []
    chains = {}
    for s in tl.find(cat="chain"):
        key, hop = (s.args.get("seq"), s.args.get("chain_of")), s.args.get("hop")
        want = s.args.get("ran_ns") if s.name == "chain: ran" else s.args.get("runnable_ns")
        if s.name not in ("chain: ran", "chain: runnable") or s.dur != want:
            problems.append(f"chain {key}: {s} is not a hop's run or wait as its args say")
        if not 0 < thread_of(s) < CHAIN_TID or not tl.thread_names.get((s.pid, s.tid), "").endswith(" chain"):
            problems.append(f"chain {key}: {s} is not on a chain track")
        chains.setdefault(key, {})[(hop, s.name)] = s
    for key, slices in chains.items():
        for (hop, name), s in slices.items():
            before = slices.get((hop, "chain: ran") if name == "chain: runnable" else (hop - 1, "chain: runnable"))
            if name == "chain: ran" and hop and before is None:
                problems.append(f"chain {key}: hop {hop} drawn without the wait of hop {hop - 1}")
            elif before is not None and s.end != before.start:
                problems.append(f"chain {key}: {s} does not end where {before} starts")
    return problems


def naming_problems(tl):
    problems = []
    for s in tl.slices:
        if s.pid not in tl.process_names:
            problems.append(f"{s}: process {s.pid} has no name")
        if (s.pid, s.tid) not in tl.thread_names:
            problems.append(f"{s}: thread {s.tid} has no name")
    for e in tl.instants:
        if (e["pid"], e["tid"]) not in tl.thread_names:
            problems.append(f"instant {e['name']}: thread {e['tid']} has no name")
    return problems


# ts and dur as written: microseconds with exactly three decimals, from integer nanoseconds
TIME_FIELD = re.compile(r'"(ts|dur)":\s*([^,}\s]*)')
TIME_VALUE = re.compile(r"\d+\.\d{3}")


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for m in TIME_FIELD.finditer(text):
        if not TIME_VALUE.fullmatch(m.group(2)):
            raise Problem(f"{m.group(1)} written as {m.group(2)!r}, not microseconds with three decimals")
    return Timeline(json.loads(text, parse_float=decimal.Decimal))


def check(tl):
    """every problem found, and a summary"""
    pairs, problems = tl.flows()
    problems += nesting_problems(tl)
    tiling, tiled = tiling_problems(tl)
    attach_tiling, attach_tiled = attach_tiling_problems(tl)
    problems += tiling + attach_tiling + chain_problems(tl) + naming_problems(tl)
    summary = (f"{len(tl.events)} events, {len(tl.slices)} slices, {len(tl.instants)} instants, "
               f"{len(pairs)} flows, " + (f"{attach_tiled} attach wakeups tiled, " if attach_tiled else "")
               + f"{tiled} samples tiled")
    return problems, summary


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        tl = load(argv[1])
        problems, summary = check(tl)
    except (Problem, ValueError, KeyError, OSError) as err:
        print(f"{argv[1]}: {err}", file=sys.stderr)
        return 1
    for p in problems[:20]:
        print(f"{argv[1]}: {p}", file=sys.stderr)
    if problems:
        print(f"{argv[1]}: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"timeline ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
