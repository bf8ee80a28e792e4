"""
Separate "machines" for the cluster tests: each host a network namespace of its own, joined to
the others by a bridge, or, where namespaces cannot be made (no CAP_NET_ADMIN, no `ip`), a
loopback address of its own (127.0.0.2, 127.0.0.3, ...). `Hosts.kind` says which was used.

With namespaces, every address is one this module created: a private /24 (10.X.Y.0, X and Y
chosen so that no route of the machine covers it), the bridge in a namespace of its own, a veth
pair per host from the bridge to the host's namespace, and one into the test's own namespace
(address .1), through which the test reaches every host. A host's link can be cut and restored
(`cut`, `restore`): a partition, seen by the host as its cable pulled.

    hosts = Hosts()
    try:
        h = hosts.host("redis")
        subprocess.Popen(h.wrap(["redis-server", "--bind", h.addr, ...]))
    finally:
        hosts.close()
"""
import ipaddress
import os
import random
import subprocess


def _ip(*args, ns=None, check=True):
    cmd = (["ip", "netns", "exec", ns, "ip"] if ns else ["ip"]) + list(args)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=check, timeout=10)


def _free_subnet():
    """A private /24 that no route of this machine covers (nor covers it)."""
    routes = _ip("-4", "route", "show", "table", "all").stdout.split("\n")
    taken = []
    for line in routes:
        word = line.split(" ")[0] if line else ""
        if word.startswith("local") or word.startswith("broadcast"):
            word = line.split(" ")[1]
        try:
            taken.append(ipaddress.ip_network(word, strict=False))
        except ValueError:
            continue
    rng = random.Random(os.getpid())
    for _ in range(200):
        net = ipaddress.ip_network("10.%d.%d.0/24" % (rng.randrange(64, 250),
                                                       rng.randrange(1, 250)))
        if not any(net.overlaps(t) for t in taken if t.prefixlen > 0):
            return net
    raise RuntimeError("no free private /24 for the test's hosts")


class Host:
    def __init__(self, hosts, name, addr, ns=None, link=None):
        self.hosts, self.name, self.addr, self.ns, self.link = hosts, name, addr, ns, link

    def wrap(self, cmd):
        """cmd run on this host (inside its namespace, or as is on a loopback address)."""
        return ["ip", "netns", "exec", self.ns] + list(cmd) if self.ns else list(cmd)


class Hosts:
    def __init__(self, prefer_namespaces=True):
        self.tag = "ch%d" % (os.getpid() % 100000)
        self.hosts = {}
        self.namespaces = []
        self.kind = "loopback"
        if prefer_namespaces:
            try:
                self._make_bridge()
                self.kind = "netns"
            except (OSError, subprocess.SubprocessError) as e:
                self.close()
                self.why = str(e).strip()
        self.count = 0

    def _ns(self, suffix):
        name = "%s-%s" % (self.tag, suffix)
        _ip("netns", "add", name)
        self.namespaces.append(name)
        _ip("link", "set", "lo", "up", ns=name)
        return name

    def _make_bridge(self):
        self.net = _free_subnet()
        self.bridge_ns = self._ns("br")
        _ip("link", "add", "br0", "type", "bridge", ns=self.bridge_ns)
        _ip("link", "set", "br0", "up", ns=self.bridge_ns)
        # The test's own leg: veth from this namespace into the bridge, address .1.
        self.own_link = "%sx" % self.tag
        _ip("link", "add", self.own_link, "type", "veth", "peer", "name", "up0")
        _ip("link", "set", "up0", "netns", self.bridge_ns)
        _ip("link", "set", "up0", "master", "br0", ns=self.bridge_ns)
        _ip("link", "set", "up0", "up", ns=self.bridge_ns)
        _ip("addr", "add", "%s/24" % self.net[1], "dev", self.own_link)
        _ip("link", "set", self.own_link, "up")

    def host(self, name):
        """A new host (or the one of that name)."""
        if name in self.hosts:
            return self.hosts[name]
        self.count += 1
        if self.kind == "loopback":
            h = Host(self, name, "127.0.0.%d" % (self.count + 1))
        else:
            ns = self._ns("h%d" % self.count)
            link = "h%d" % self.count  # the host's port on the bridge
            _ip("link", "add", link, "netns", self.bridge_ns, "type", "veth", "peer", "name",
                "eth0", "netns", ns)
            _ip("link", "set", link, "master", "br0", ns=self.bridge_ns)
            _ip("link", "set", link, "up", ns=self.bridge_ns)
            addr = str(self.net[self.count + 1])
            _ip("addr", "add", "%s/24" % addr, "dev", "eth0", ns=ns)
            _ip("link", "set", "eth0", "up", ns=ns)
            h = Host(self, name, addr, ns, link)
        self.hosts[name] = h
        return h

    def cut(self, name):
        """The host's link to the others goes down (a partition); loopback hosts cannot be cut."""
        h = self.hosts[name]
        if not h.link:
            raise RuntimeError("hosts on loopback addresses cannot be cut off")
        _ip("link", "set", h.link, "down", ns=self.bridge_ns)

    def restore(self, name):
        _ip("link", "set", self.hosts[name].link, "up", ns=self.bridge_ns)

    def describe(self):
        if self.kind == "netns":
            return "network namespaces on %s" % self.net
        return "loopback addresses (no namespaces: %s)" % getattr(self, "why", "not asked")

    def close(self):
        for ns in reversed(self.namespaces):
            _ip("netns", "del", ns, check=False)
        self.namespaces = []
        if getattr(self, "own_link", None):
            _ip("link", "del", self.own_link, check=False)
            self.own_link = None
