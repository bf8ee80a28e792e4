"""
The options chess_server documents in its --help, read from the real binary: the source of
truth the deployment checks compare README.md, docs and deploy/ against.
"""
import os
import re
import subprocess

# "  --flag   CHESS_ENV   what it does (value in effect)"; long flags may run into the env column.
OPTION_LINE = re.compile(r"^\s+(--[a-z0-9-]+)\s+(CHESS_[A-Z0-9_]+)\s+(.*)\((.*)\)\s*$")


class Option:
    def __init__(self, flag, env, help_text, default):
        self.flag, self.env, self.help, self.default = flag, env, help_text.strip(), default


def read_options(binary):
    """Runs `binary --help` with no CHESS_* variables set (so the values are the defaults) and
    returns its options, in order. Raises RuntimeError when the output has none."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHESS_")}
    out = subprocess.run([binary, "--help"], env=env, capture_output=True, text=True,
                         timeout=30, check=True).stdout
    options = []
    for line in out.splitlines():
        m = OPTION_LINE.match(line)
        if m:
            options.append(Option(m.group(1), m.group(2), m.group(3), m.group(4)))
    if not options:
        raise RuntimeError("no options found in the output of %s --help:\n%s" % (binary, out))
    return options


def env_names_in(text):
    """Every CHESS_* name mentioned in a text (code, config or prose)."""
    return set(re.findall(r"\bCHESS_[A-Z0-9_]*[A-Z0-9]\b", text))


class Failures:
    """Collects failed checks so one run reports all of them."""

    def __init__(self):
        self.items = []

    def check(self, ok, message):
        if not ok:
            self.items.append(message)
        return ok

    def report(self, what):
        """Prints the result; returns the process exit status."""
        if self.items:
            print("FAIL %s: %d problem(s)" % (what, len(self.items)))
            for m in self.items:
                print("  - " + m)
            return 1
        print("ok %s" % what)
        return 0
