"""
The include graph of server/src/ (docs/architecture.md, "Modules"): reads every #include "..."
and fails, printing why, on
  - a circle between folders (net -> app -> net),
  - a circle of more than two modules inside a folder (a .c and its .h count as one module; a
    module and its helper may include each other, three or more in a ring may not),
  - a folder including a folder its layer may not use (for example net/ including the store).

    check_includes.py [SRC_DIR]     default: server/src beside this repository's tests
    check_includes.py --self-test   runs the checks on small made-up trees that must fail
"""
import os
import re
import sys
import tempfile

# What each folder may include besides itself (main.c, at the top, may include anything).
ALLOWED = {
    "util": set(),
    "core": {"util"},
    "proto": {"core", "util"},
    "metrics": {"util"},
    "pool": {"util"},
    "store": {"core", "util"},
    "pubsub": {"util"},
    "net": {"util"},
    "app": {"core", "proto", "metrics", "pool", "store", "pubsub", "net", "util"},
    "site": {"app", "core", "proto", "metrics", "pubsub", "net", "util"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(src):
    """Maps each module ("folder/name") to the set of modules its files include."""
    graph = {}
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(folder, name), src)
            module = os.path.splitext(rel)[0]
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            deps = graph.setdefault(module, set())
            for inc in INCLUDE.findall(text):
                target = os.path.splitext(inc)[0]
                if target != module:
                    deps.add(target)
    return graph


def folder_of(module):
    return os.path.dirname(module) or "."


def circles(graph):
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def check(src):
    """Returns the list of problems (empty when the tree is fine)."""
    graph = modules(src)
    problems = []
    folders = {}
    for module, deps in graph.items():
        here = folder_of(module)
        for dep in deps:
            there = folder_of(dep)
            if dep in graph and there != here:
                folders.setdefault(here, set()).add(there)
                if here in ALLOWED and there not in ALLOWED[here]:
                    problems.append("%s includes %s: %s/ may not use %s/" % (module, dep, here,
                                                                             there))
    for ring in circles(folders):
        problems.append("folders include each other in a circle: %s" % " -> ".join(ring))
    for folder in sorted({folder_of(m) for m in graph}):
        inside = {m: {d for d in deps if folder_of(d) == folder}
                  for m, deps in graph.items() if folder_of(m) == folder}
        for ring in circles(inside):
            if len(ring) > 2:
                problems.append("modules of %s/ include each other in a circle of %d: %s"
                                % (folder, len(ring), ", ".join(ring)))
    return problems


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    cases = {
        "folder circle": {"app/a.c": '#include "net/n.h"\n', "net/n.c": '#include "app/a.h"\n',
                          "app/a.h": "", "net/n.h": ""},
        "three modules": {"app/a.c": '#include "app/b.h"\n', "app/b.c": '#include "app/c.h"\n',
                          "app/c.c": '#include "app/a.h"\n', "app/a.h": "", "app/b.h": "",
                          "app/c.h": ""},
        "layer": {"net/n.c": '#include "store/s.h"\n', "store/s.h": "", "net/n.h": ""},
    }
    fine = {"app/a.c": '#include "app/b.h"\n#include "net/n.h"\n',
            "app/b.c": '#include "app/a.h"\n', "app/a.h": "", "app/b.h": "", "net/n.h": ""}
    failures = 0
    for name, files in cases.items():
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, files)
            if not check(root):
                print("self-test: the %s case was not caught" % name)
                failures += 1
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, fine)
        for problem in check(root):
            print("self-test: a fine tree was refused: " + problem)
            failures += 1
    print("self-test: %d passed, %d failed" % (len(cases) + 1 - failures, failures))
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "server",
                                                              "src")
    problems = check(src)
    for p in problems:
        print(p)
    print("include graph of %s: %s" % (os.path.normpath(src),
                                       "%d problem(s)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
