#!/usr/bin/env python3
"""Checks the self-play games kept in engine/data/ (engine/data/README.md).

    check_selfplay_data.py NNUE_DATA ENGINE_DATA_DIR

Every *.cgr.xz file must decompress and replay with `nnue_data --games` (every move legal, the
stream whole), must have a row in the README's table, and must give exactly the number of
training positions that row states; every row must name a file that is there.
"""
import os
import re
import subprocess
import sys
import tempfile


def table_rows(readme):
    rows = {}
    for line in open(readme, encoding="utf-8"):
        m = re.match(r"\|\s*`?([\w.-]+\.cgr\.xz)`?\s*\|(.*)\|\s*$", line)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            rows[m.group(1)] = int(cells[3].replace(",", "").replace(" ", ""))
    return rows


def replay(nnue_data, path):
    with tempfile.TemporaryDirectory() as tmp:
        xz = subprocess.Popen(["xz", "-dc", path], stdout=subprocess.PIPE)
        out = subprocess.run([nnue_data, "--games", os.path.join(tmp, "records.bin")],
                             stdin=xz.stdout, capture_output=True, text=True)
        xz.stdout.close()
        if xz.wait() != 0 or out.returncode != 0:
            sys.exit("%s does not replay: %s" % (path, out.stderr.strip()))
        m = re.search(r"nnue_data: (\d+) records", out.stderr)
        return int(m.group(1))


def main(nnue_data, data_dir):
    rows = table_rows(os.path.join(data_dir, "README.md"))
    files = sorted(f for f in os.listdir(data_dir) if f.endswith(".cgr.xz"))
    for name in files:
        if name not in rows:
            sys.exit("%s has no row in %s/README.md" % (name, data_dir))
        got = replay(nnue_data, os.path.join(data_dir, name))
        if got != rows[name]:
            sys.exit("%s gives %d positions, its row says %d" % (name, got, rows[name]))
        print("%s: %d positions" % (name, got))
    for name in rows:
        if name not in files:
            sys.exit("README row %s names no file" % name)
    print("%d files checked" % len(files))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
