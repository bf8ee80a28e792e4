"""
A small client of the lichess-compatible HTTP API (docs/http-api.md), on Python's standard
library only, for the integration tests: plain requests, and NDJSON streams read line by line on
a thread of their own (as lichess-bot and berserk read them).
"""
import http.client
import json
import queue
import threading
import time
from urllib.parse import urlencode

TIMEOUT = 10


class ApiError(AssertionError):
    pass


class Api:
    """Requests with one token (or none) to one server."""

    def __init__(self, port, token=None, host="127.0.0.1"):
        self.port = port
        self.host = host
        self.token = token

    def headers(self, extra=None):
        h = {}
        if self.token:
            h["Authorization"] = "Bearer " + self.token
        h.update(extra or {})
        return h

    def request(self, method, path, body=None, headers=None, form=None):
        """One request on a new connection: (status, headers with lower-case names, body)."""
        if form is not None:
            body = urlencode(form)
            headers = dict(headers or {}, **{"Content-Type": "application/x-www-form-urlencoded"})
        conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=self.headers(headers))
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            conn.close()

    def json(self, method, path, expect=200, **kw):
        status, headers, data = self.request(method, path, **kw)
        if status != expect:
            raise ApiError("%s %s: %d (expected %d): %r" % (method, path, status, expect, data))
        assert headers["content-type"].startswith("application/json"), headers
        return json.loads(data)

    def get(self, path, expect=200, **kw):
        return self.json("GET", path, expect, **kw)

    def post(self, path, expect=200, **kw):
        return self.json("POST", path, expect, **kw)

    def stream(self, path, expect=200, method="GET", form=None):
        return Stream(self, path, expect, method, form)


class Stream:
    """An NDJSON stream: each line read on a thread into a queue; keep-alive newlines counted."""

    def __init__(self, api, path, expect=200, method="GET", form=None):
        self.conn = http.client.HTTPConnection(api.host, api.port, timeout=60)
        body = urlencode(form) if form is not None else None
        extra = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else None
        self.conn.request(method, path, body=body, headers=api.headers(extra))
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = {k.lower(): v for k, v in self.resp.getheaders()}
        self.lines = queue.Queue()
        self.keepalives = 0
        self.closed = threading.Event()
        if self.status != expect:
            body = self.resp.read()
            self.conn.close()
            raise ApiError("GET %s: %d (expected %d): %r" % (path, self.status, expect, body))
        if self.status == 200:
            if method == "GET":
                assert self.headers["content-type"] == "application/x-ndjson", self.headers
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                if line.strip() == b"":
                    self.keepalives += 1
                    continue
                self.lines.put(json.loads(line))
        except Exception:  # the connection cut (close() from another thread)
            pass
        finally:
            self.closed.set()

    def next(self, timeout=TIMEOUT):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise ApiError("no line within %ss" % timeout) from None

    def next_type(self, kind, timeout=TIMEOUT):
        """The next line of this type (others before it are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.01, deadline - time.monotonic()))
            if line.get("type") == kind:
                return line

    def ended(self, timeout=TIMEOUT):
        """Whether the server ended the stream within timeout."""
        return self.closed.wait(timeout)

    def close(self):
        try:
            self.conn.sock and self.conn.sock.shutdown(2)
        except OSError:
            pass
        self.conn.close()
