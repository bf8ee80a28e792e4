"""A UCI engine (Stockfish in the benchmarks) as one long-lived process, for the scripts in
tests/bench: start it with options, send commands, read its answers."""
import subprocess


class UciEngine:
    def __init__(self, path, options=()):
        """Starts the engine, sets each (name, value) option and waits until it is ready."""
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_line(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the engine exited")
        return line.strip()

    def wait_for(self, prefix):
        """Reads up to the first line that starts with prefix and returns it."""
        while True:
            line = self.read_line()
            if line.startswith(prefix):
                return line

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)
