"""
README.md's configuration reference against the real binary's --help: every flag and
environment variable the server has is in the table, with the right pairing and the default
--help shows, and the table names nothing the server does not have. Every CHESS_* name in the
self-hosting docs and the deploy/ files (compose, Dockerfile, systemd unit, env example) must
be one of the server's variables too: the server ignores a misspelt variable silently.

    /usr/bin/python3 tests/deploy/check_config_doc.py --server build/release/server/chess_server
"""
import argparse
import os
import re
import sys

from server_help import Failures, env_names_in, read_options

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# Files whose every CHESS_* name must be a variable of the server.
DEPLOY_FILES = ["docker-compose.yml", "deploy/Dockerfile", "deploy/systemd/chess-server.service",
                "deploy/systemd/chess-server.env", "deploy/systemd/chess-server@.service",
                "deploy/systemd/node.env", "docs/self-hosting.md"]
# README defaults that are not literal values: what they must equal.
SYMBOLIC_DEFAULTS = {"one per CPU": lambda: str(os.sysconf("SC_NPROCESSORS_ONLN")),
                     "none": lambda: ""}


def section(text, title):
    """The body of the '## title' section of a Markdown text, or None."""
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), text, re.S | re.M)
    return m.group(1) if m else None


def table_rows(body):
    """(flags, envs, defaults) of each row of the first table whose header starts with 'flag'."""
    rows, in_table = [], False
    for line in body.splitlines():
        if line.startswith("| flag"):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.startswith("|"):
            break
        if set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            rows.append((line, [], [], []))
            continue
        flags = re.findall(r"`(--[a-z0-9-]+)`", cells[0])
        envs = re.findall(r"`(CHESS_[A-Z0-9_]+)`", cells[1])
        defaults = [d.strip() for d in cells[2].split(",")] if len(flags) > 1 else [cells[2]]
        rows.append((line, flags, envs, defaults))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True, help="the chess_server binary")
    args = ap.parse_args()
    options = read_options(args.server)
    by_flag = {o.flag: o for o in options}
    known_envs = {o.env for o in options}
    f = Failures()

    with open(os.path.join(ROOT, "README.md")) as fh:
        readme = fh.read()
    config = section(readme, "Configuration")
    if not f.check(config is not None, "README.md has no '## Configuration' section"):
        return f.report("README configuration reference")
    documented = set()
    for line, flags, envs, defaults in table_rows(config):
        where = "README row %r" % line[:60]
        if not f.check(flags and len(flags) == len(envs) == len(defaults),
                       "%s: needs as many flags, variables and defaults (got %s, %s, %s)"
                       % (where, flags, envs, defaults)):
            continue
        for flag, env, default in zip(flags, envs, defaults):
            documented.add(flag)
            o = by_flag.get(flag)
            if not f.check(o is not None, "%s: %s is not an option of the server" % (where, flag)):
                continue
            f.check(env == o.env, "%s: %s reads %s, not %s" % (where, flag, o.env, env))
            want = SYMBOLIC_DEFAULTS[default]() if default in SYMBOLIC_DEFAULTS else default
            f.check(want == o.default, "%s: %s defaults to %r (--help), README says %r"
                    % (where, flag, o.default, default))
    for o in options:
        f.check(o.flag in documented, "README's configuration table lacks %s (%s)"
                % (o.flag, o.env))
    for name in sorted(env_names_in(config) - known_envs):
        f.check(False, "README's Configuration section names %s, which the server does not read"
                % name)

    selfhost = section(readme, "Self-hosting")
    f.check(selfhost is not None, "README.md has no '## Self-hosting' section")
    texts = [("README's Self-hosting section", selfhost or "")]
    for rel in DEPLOY_FILES:
        path = os.path.join(ROOT, rel)
        if f.check(os.path.isfile(path), "%s is missing" % rel):
            with open(path) as fh:
                texts.append((rel, fh.read()))
    for where, text in texts:
        for name in sorted(env_names_in(text) - known_envs):
            f.check(False, "%s names %s, which the server does not read (see --help)"
                    % (where, name))
    return f.report("README configuration reference and deploy files against --help")


if __name__ == "__main__":
    sys.exit(main())
