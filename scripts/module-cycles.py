#!/usr/bin/env python3
"""module-cycles.py - the include cycles between the modules of a tree, and between its folders.

A module is a file stem: foo.c and foo.h are module foo, and so is foo's
private header foo_internal.h. Module A depends on module B when a file of A
includes a header of B; a folder depends on another when one of its modules
depends on one of the other's. The headers are included by name alone (each
folder's include path is set in the Makefile), so a stem must be unique in
the tree, or an include could mean two files.

Prints each group of modules, then each group of folders, that depend on
each other through others, one line a group, and exits 1 if there is any or
if a stem is not unique; prints "no cycles" and exits 0 otherwise.

    scripts/module-cycles.py [DIR]      (default: user)
    scripts/module-cycles.py --deepest [DIR]
                                        the longest chain of includes, module by module
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)


def module_of(stem):
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem


def sources(top):
    """(folder, file name) of every .c and .h under @top; folder "." is @top itself"""
    for directory, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(directory, top), f


def graphs(top):
    """the module graph, the folder graph, and the stems found in more than one folder"""
    folder_of, twice = {}, set()
    for folder, f in sources(top):
        stem = os.path.splitext(f)[0]
        if folder_of.setdefault(stem, folder) != folder:
            twice.add(stem)
    modules = {module_of(s): set() for s in folder_of}
    folders = {f: set() for f in folder_of.values()}
    for folder, f in sources(top):
        mod = module_of(os.path.splitext(f)[0])
        with open(os.path.join(top, folder, f), encoding="utf-8") as src:
            for dep in INCLUDE.findall(src.read()):
                if dep not in folder_of:
                    continue
                if module_of(dep) != mod:
                    modules[mod].add(module_of(dep))
                if folder_of[dep] != folder:
                    folders[folder].add(folder_of[dep])
    return modules, folders, sorted(twice)


def cycles(graph):
    """Tarjan's strongly connected components, those of more than one node."""
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


def deepest(graph):
    """the longest path of the graph, which has no cycle, as a list of nodes"""
    longest = {}

    def visit(v):
        if v not in longest:
            longest[v] = [v]
            for w in sorted(graph[v]):
                if len(visit(w)) + 1 > len(longest[v]):
                    longest[v] = [v] + longest[w]
        return longest[v]

    return max((visit(v) for v in sorted(graph)), key=len, default=[])


def main():
    args = sys.argv[1:]
    depth = bool(args) and args[0] == "--deepest"
    if depth:
        args = args[1:]
    top = args[0] if args else "user"
    modules, folders, twice = graphs(top)
    if depth and not twice and not cycles(modules):
        chain = deepest(modules)
        print(f"{len(chain)}: " + " -> ".join(chain))
        return 0
    bad = False
    for stem in twice:
        print(f"stem in two folders: {stem} (an include by name could mean either)")
        bad = True
    for group in cycles(modules):
        print("cycle: " + " <-> ".join(group))
        bad = True
    for group in cycles(folders):
        print("folder cycle: " + " <-> ".join(group))
        bad = True
    if not bad:
        print(f"no cycles: {len(modules)} modules in {len(folders)} folders")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
