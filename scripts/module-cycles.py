#!/usr/bin/env python3
"""module-cycles.py - the include cycles between the modules of a directory.

A module is a file stem: foo.c and foo.h are module foo, and so is foo's
private header foo_internal.h. Module A depends on module B when a file of A
includes a header of B in the same directory. Prints
each group of modules that depend on each other through others, one line a
group, and exits 1 if there is any; prints "no cycles" and exits 0 otherwise.

    scripts/module-cycles.py [DIR]      (default: user)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)


def module_of(stem):
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem


def module_graph(directory):
    files = [f for f in os.listdir(directory) if f.endswith((".c", ".h"))]
    stems = {os.path.splitext(f)[0] for f in files}
    graph = {module_of(s): set() for s in stems}
    for f in files:
        mod = module_of(os.path.splitext(f)[0])
        with open(os.path.join(directory, f), encoding="utf-8") as src:
            for dep in INCLUDE.findall(src.read()):
                if dep in stems and module_of(dep) != mod:
                    graph[mod].add(module_of(dep))
    return graph


def cycles(graph):
    """Tarjan's strongly connected components, those of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "user"
    groups = cycles(module_graph(directory))
    for group in groups:
        print("cycle: " + " <-> ".join(group))
    if not groups:
        print("no cycles")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
