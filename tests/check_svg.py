#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
check_svg.py - validate a plot written by wakeprobe --plot (user/output/plot_workload.c,
user/output/plot_attach.c).

    python3 tests/check_svg.py FILE

Checks that FILE is well-formed XML (python's own parser reads it) whose
root is an SVG element of the SVG namespace with a width, a height and a
viewBox that agree, and a <title>; that every coordinate and length drawn is
a finite number and every shape lies on the page; that every text drawn has
text; and that each drawing keeps its own numbers: the bars of a
distribution panel add up to its count and follow each other, its
percentiles are in order and lie where its bars are, the segments of a
stacked bar follow each other. Prints a one-line summary and exits 0, or
prints each problem and exits 1.

The tests import it to look at the content: load() returns the root element,
by_class() the elements of a class, num() an attribute as a number.
"""
import math
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
PHASES = ["notify_user", "notify_kernel", "wake_enqueue", "runq_wait", "resume_kernel", "resume_user"]
GEOMETRY = ["x", "y", "width", "height", "x1", "y1", "x2", "y2"]


def load(path):
    """The root element of the SVG file at path; ET.ParseError if it is not well-formed."""
    return ET.parse(path).getroot()


def tag(e):
    return e.tag[len(SVG):] if e.tag.startswith(SVG) else e.tag


def classes(e):
    return e.get("class", "").split()


def by_class(root, cls, name=None):
    """Every element of class cls (and tag name, when given), in document order."""
    return [e for e in root.iter() if cls in classes(e) and (name is None or tag(e) == name)]


def num(e, attr):
    value = e.get(attr)
    if value is None:
        raise KeyError(f"<{tag(e)} class={e.get('class')!r}> has no {attr}")
    return float(value)


def text_of(e):
    return "".join(e.itertext())


def check_page(root, problems):
    if root.tag != SVG + "svg":
        problems.append(f"the root is {root.tag}, not an SVG element")
        return 0, 0
    width, height = num(root, "width"), num(root, "height")
    if root.get("viewBox") != f"0 0 {width:.0f} {height:.0f}":
        problems.append(f"viewBox {root.get('viewBox')!r} is not the page, {width} x {height}")
    if root.find(SVG + "title") is None or not text_of(root.find(SVG + "title")).strip():
        problems.append("the document has no <title>")
    return width, height


def check_shapes(root, width, height, problems):
    for e in root.iter():
        for a in GEOMETRY:
            v = e.get(a)
            if v is None or v.endswith("%"):
                continue
            try:
                f = float(v)
            except ValueError:
                problems.append(f"<{tag(e)}> {a}={v!r} is not a number")
                continue
            if not math.isfinite(f):
                problems.append(f"<{tag(e)}> {a}={v!r} is not finite")
            elif a in ("width", "height") and f < 0:
                problems.append(f"<{tag(e)}> {a}={v} is negative")
            elif a.startswith("x") and not -0.5 <= f <= width + 0.5:
                problems.append(f"<{tag(e)} class={e.get('class')!r}> {a}={v} is off the page (width {width})")
            elif a.startswith("y") and not -0.5 <= f <= height + 0.5:
                problems.append(f"<{tag(e)} class={e.get('class')!r}> {a}={v} is off the page (height {height})")
        if tag(e) == "rect" and e.get("x") and e.get("width") and not e.get("width").endswith("%"):
            if num(e, "x") + num(e, "width") > width + 0.5:
                problems.append(f"<rect class={e.get('class')!r}> ends past the page")
        if tag(e) == "text" and not text_of(e).strip():
            problems.append(f"a <text> at {e.get('x')},{e.get('y')} is empty")


def check_panel(p, problems):
    name = f"panel {p.get('data-run')!r}/{p.get('data-name')!r}"
    count = int(p.get("data-count"))
    bins = by_class(p, "bin", "rect")
    if sum(int(b.get("data-count")) for b in bins) != count:
        problems.append(f"{name}: its bars hold {sum(int(b.get('data-count')) for b in bins)}, not {count}")
    for a, b in zip(bins, bins[1:]):
        if int(a.get("data-high-ns")) >= int(b.get("data-low-ns")) or num(a, "x") >= num(b, "x"):
            problems.append(f"{name}: bars out of order at {a.get('data-low-ns')} ns")
    if not count:
        return
    marks = [int(p.get(f"data-{k}-ns")) for k in ("p50", "p99", "p99_9", "max")]
    if marks != sorted(marks):
        problems.append(f"{name}: percentiles out of order: {marks}")
    low, high = int(bins[0].get("data-low-ns")), int(bins[-1].get("data-high-ns"))
    if not (low <= marks[0] and marks[-1] <= high):
        problems.append(f"{name}: percentiles {marks} outside its bars, {low} to {high} ns")
    for m, key in zip(marks, ("p50", "p99", "p99_9", "max")):
        lines = [e for e in by_class(p, "mark", "line") if key in classes(e)]
        if len(lines) != 1 or int(lines[0].get("data-ns")) != m:
            problems.append(f"{name}: no one {key} line at {m} ns")


def check_stack(st, problems):
    segments = by_class(st, "segment", "rect")
    for a, b in zip(segments, segments[1:]):
        if abs(num(a, "x") + num(a, "width") - num(b, "x")) > 0.02:
            problems.append(f"stack {st.get('data-run')!r}: {b.get('data-phase')} does not follow {a.get('data-phase')}")


def check(root):
    """The problems of the plot root, and a summary of what it holds."""
    problems = []
    width, height = check_page(root, problems)
    if problems:
        return problems, ""
    check_shapes(root, width, height, problems)
    panels = by_class(root, "panel", "g")
    for p in panels:
        check_panel(p, problems)
    stacks = by_class(root, "stack", "g")
    for st in stacks:
        check_stack(st, problems)
    pairs = by_class(root, "pair", "g")
    summary = f"{width:.0f} x {height:.0f} px: {len(panels)} panels, {len(stacks)} stacked bars, {len(pairs)} pairs"
    return problems, summary


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: check_svg.py FILE")
    try:
        root = load(argv[1])
    except ET.ParseError as e:
        sys.exit(f"{argv[1]}: not well-formed XML: {e}")
    problems, summary = check(root)
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(summary)


if __name__ == "__main__":
    main(sys.argv)
