"""
Static checks of what deploy/ and docker-compose.yml ship, since no Docker engine runs on the
build machines: the files parse, agree with each other and with the repository, and the
runtime image installs what the built binary links to.

- deploy/Dockerfile: the stages exist, every COPY source exists in the repository and is not
  excluded by .dockerignore, COPY --from names an earlier stage and a path under its work
  directory; the server stage runs unprivileged, exposes its port, has a health check whose
  script it copies, keeps its data in the volume; the build stage installs the -dev packages of
  scripts/setup.sh, and its COPY set is enough for its CMake configure step (run on a copy of
  just those files); every package an apt-get install names exists in Debian 12; the runtime
  stage installs (directly, through dependencies, or as part of Debian's base image) the
  package of every library in the binary's NEEDED entries, found with ldd and dpkg -S, plus
  the libuv plugin of libwebsockets, which is loaded at run time.
- docker-compose.yml: YAML, the services and their healthchecks and restart policies, build
  contexts, Dockerfiles and targets, mounted files, the shared named volume, the front's
  upstream (deploy/nginx/compose.conf) naming exactly the node services.
- deploy/nginx: `nginx -t` on the compose front and on the TLS site with each upstream file
  (Debian's nginx, installed by scripts/setup.sh test); the WebSocket location's read timeout
  against the server's ping interval.
- deploy/systemd: `systemd-analyze verify` (any warning fails) and the offline security
  exposure score of the unit and of an instance of the template, when systemd-analyze is
  present; the data directory against StateDirectory; the template has every setting of the
  single unit.

    /usr/bin/python3 tests/deploy/check_deploy.py --server build/release/server/chess_server
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from server_help import Failures, read_options

try:
    import yaml
except ImportError:
    sys.stderr.write("python3-yaml is missing: run with /usr/bin/python3 after "
                     "scripts/setup.sh test\n")
    sys.exit(1)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOCKERFILE = "deploy/Dockerfile"
HEALTHCHECK_SCRIPT = "/usr/local/lib/chess/healthcheck.sh"
# Where docs/self-hosting.md installs the nginx files of the TLS site.
NGINX_INSTALL = {"/etc/nginx/chess/proxy.conf": "deploy/nginx/chess-proxy.conf"}
NGINX_UPSTREAMS = ["deploy/nginx/upstream-one-node.conf", "deploy/nginx/upstream-several-nodes.conf"]
# The most the systemd unit's offline exposure score may be (0 best, 10 worst; below 2 is "OK").
SYSTEMD_MAX_EXPOSURE = 2.0


def read(rel):
    with open(os.path.join(ROOT, rel)) as fh:
        return fh.read()


# ---- Dockerfile ----

class Stage:
    def __init__(self, name, base):
        self.name, self.base = name, base
        self.instructions = []  # (KEYWORD, argument text)
        self.workdir = "/"

    def all(self, keyword):
        return [arg for kw, arg in self.instructions if kw == keyword]

    def env(self):
        env = {}
        for arg in self.all("ENV"):
            for tok in shlex.split(arg):
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    env[k] = v
        return env

    def copies(self):
        """(from stage or None, [sources], destination) of each COPY/ADD."""
        out = []
        for kw, arg in self.instructions:
            if kw not in ("COPY", "ADD"):
                continue
            words = json.loads(arg) if arg.startswith("[") else shlex.split(arg)
            src_stage = None
            while words and words[0].startswith("--"):
                flag = words.pop(0)
                if flag.startswith("--from="):
                    src_stage = flag.split("=", 1)[1]
            out.append((src_stage, words[:-1], words[-1]))
        return out

    def copy_dest(self, dest_path):
        """The COPY whose destination is dest_path (a file or the directory holding it)."""
        for src_stage, sources, dest in self.copies():
            if dest_path == dest or dest_path.startswith(dest.rstrip("/") + "/"):
                return src_stage, sources, dest
        return None

    def apt_packages(self):
        pkgs = []
        for arg in self.all("RUN"):
            for m in re.finditer(r"apt-get\s+install\s+([^&;|]*)", arg):
                pkgs += [w for w in m.group(1).split() if not w.startswith("-")]
        return pkgs


def parse_dockerfile(text):
    """Stages of a Dockerfile, in order, and the ARG defaults given before the first FROM."""
    text = re.sub(r"\\\n", " ", text)
    args, stages = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kw, _, arg = line.partition(" ")
        kw, arg = kw.upper(), arg.strip()
        if kw == "ARG" and not stages:
            k, _, v = arg.partition("=")
            args[k] = v
        elif kw == "FROM":
            words = arg.split()
            base = re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m.group(1), m.group(0)), words[0])
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(name, base))
        elif stages:
            stages[-1].instructions.append((kw, arg))
            if kw == "WORKDIR":
                stages[-1].workdir = os.path.join(stages[-1].workdir, arg)
    return stages, args


def dockerignore_patterns():
    patterns = []
    path = os.path.join(ROOT, ".dockerignore")
    if os.path.exists(path):
        for line in read(".dockerignore").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                patterns.append(line)
    return patterns


def pattern_regex(pattern):
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def dockerignored(rel, patterns):
    """Whether .dockerignore keeps rel (a path relative to the context) out of the context: the
    last pattern matching it or one of its parent directories decides, '!' re-includes."""
    parts = rel.strip("/").split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    excluded = False
    for p in patterns:
        negate = p.startswith("!")
        rx = pattern_regex(os.path.normpath(p.lstrip("!").strip("/")))
        if any(rx.match(x) for x in prefixes):
            excluded = not negate
    return excluded


def check_dockerfile(f, stages, options):
    names = [s.name for s in stages]
    for want in ("build", "client", "front", "server"):
        f.check(want in names, "%s: no stage named %s" % (DOCKERFILE, want))
    f.check(stages and stages[-1].name == "server",
            "%s: the last stage (the default image) must be the server, not %s"
            % (DOCKERFILE, stages[-1].name if stages else None))
    by_name = {s.name: s for s in stages}
    patterns = dockerignore_patterns()
    for i, st in enumerate(stages):
        for src_stage, sources, dest in st.copies():
            if src_stage is None:
                for src in sources:
                    hits = glob.glob(os.path.join(ROOT, src))
                    f.check(hits, "%s: COPY source %s (stage %s) does not exist"
                            % (DOCKERFILE, src, st.name))
                    f.check(not dockerignored(src, patterns),
                            "%s: COPY source %s is excluded by .dockerignore" % (DOCKERFILE, src))
                continue
            earlier = [s.name for s in stages[:i]]
            if not f.check(src_stage in earlier, "%s: COPY --from=%s in stage %s: no earlier "
                           "stage of that name" % (DOCKERFILE, src_stage, st.name)):
                continue
            wd = by_name[src_stage].workdir.rstrip("/") + "/"
            for src in sources:
                f.check(src.startswith(wd), "%s: COPY --from=%s %s is not under that stage's "
                        "work directory %s" % (DOCKERFILE, src_stage, src, wd))

    known_env = {o.env for o in options}
    for st in stages:
        for k in st.env():
            if k.startswith("CHESS_"):
                f.check(k in known_env, "%s: ENV %s is not a variable of the server"
                        % (DOCKERFILE, k))

    for name in ("server", "front"):
        st = by_name.get(name)
        if not st:
            continue
        users = st.all("USER")
        f.check(users and users[-1] not in ("root", "0"),
                "%s: stage %s must end with a USER that is not root" % (DOCKERFILE, name))
        hc = st.all("HEALTHCHECK")
        if f.check(hc, "%s: stage %s has no HEALTHCHECK" % (DOCKERFILE, name)):
            f.check(HEALTHCHECK_SCRIPT in hc[-1] and st.copy_dest(HEALTHCHECK_SCRIPT),
                    "%s: stage %s's HEALTHCHECK must run %s, copied into the stage"
                    % (DOCKERFILE, name, HEALTHCHECK_SCRIPT))
        f.check("8080" in " ".join(st.all("EXPOSE")), "%s: stage %s must EXPOSE 8080"
                % (DOCKERFILE, name))

    srv = by_name.get("server")
    if srv:
        env = srv.env()
        f.check(env.get("CHESS_PORT") == "8080", "%s: the server stage must set CHESS_PORT=8080"
                % DOCKERFILE)
        data = env.get("CHESS_DATA_DIR")
        f.check(data and data in " ".join(srv.all("VOLUME")),
                "%s: the server stage's VOLUME must be its CHESS_DATA_DIR (%s)" % (DOCKERFILE, data))
        static = env.get("CHESS_STATIC_DIR")
        c = srv.copy_dest(static) if static else None
        f.check(c and c[0] == "client",
                "%s: CHESS_STATIC_DIR (%s) must be the client built in stage client"
                % (DOCKERFILE, static))
        entry = srv.all("ENTRYPOINT")
        binary = json.loads(entry[-1])[0] if entry else None
        c = srv.copy_dest(binary) if binary else None
        f.check(c and c[0] == "build" and c[1][0].endswith("/chess_server"),
                "%s: the server stage's ENTRYPOINT must be chess_server from the build stage"
                % DOCKERFILE)
    front = by_name.get("front")
    if front:
        c = front.copy_dest("/etc/nginx/nginx.conf")
        f.check(c and c[1] == ["deploy/nginx/compose.conf"],
                "%s: the front's /etc/nginx/nginx.conf must be deploy/nginx/compose.conf"
                % DOCKERFILE)
        root = re.search(r"^\s*root\s+([^;]+);", read("deploy/nginx/compose.conf"), re.M)
        c = front.copy_dest(root.group(1)) if root else None
        f.check(c and c[0] == "client", "%s: the front must copy the built client to the root "
                "of deploy/nginx/compose.conf (%s)" % (DOCKERFILE, root and root.group(1)))
        for inc in re.findall(r"^\s*include\s+([^;]+);", read("deploy/nginx/compose.conf"), re.M):
            f.check(inc.startswith("/etc/nginx/mime") or front.copy_dest(inc),
                    "%s: deploy/nginx/compose.conf includes %s, which the front stage does not "
                    "copy" % (DOCKERFILE, inc))


def check_build_context(f, stages):
    """Copies what the build stage COPYs (as the Docker context would hold it, .dockerignore
    applied) into an empty directory and runs the stage's CMake configure step there: the
    copied files must be enough, and configuring must create the directory the server stage
    takes the binary from."""
    by_name = {s.name: s for s in stages}
    build, srv = by_name.get("build"), by_name.get("server")
    if not (build and srv):
        return
    preset = re.search(r"cmake --preset (\S+)", " ".join(build.all("RUN")))
    binary = srv.copies()
    binary = [c[1][0] for c in binary if c[0] == "build"]
    if not f.check(preset and binary, "%s: the build stage has no `cmake --preset` step, or the "
                   "server stage copies nothing from it" % DOCKERFILE):
        return
    patterns = dockerignore_patterns()

    def ignore(directory, names):
        rel = os.path.relpath(directory, ROOT)
        return [n for n in names if dockerignored(os.path.normpath(os.path.join(rel, n)),
                                                  patterns)]

    with tempfile.TemporaryDirectory(prefix="chess-context-") as tmp:
        workdir = os.path.join(tmp, build.workdir.lstrip("/"))
        os.makedirs(workdir, exist_ok=True)
        for src_stage, sources, dest in build.copies():
            if src_stage:
                continue
            target = os.path.join(workdir, dest)
            for src in sources:
                path = os.path.join(ROOT, src)
                if os.path.isdir(path):
                    shutil.copytree(path, target, ignore=ignore, dirs_exist_ok=True)
                elif os.path.isfile(path):
                    os.makedirs(os.path.dirname(target.rstrip("/")) or ".", exist_ok=True)
                    shutil.copy(path, os.path.join(target, os.path.basename(src))
                                if dest.endswith("/") else target)
        r = subprocess.run(["cmake", "--preset", preset.group(1)], cwd=workdir,
                           capture_output=True, text=True, timeout=120)
        if not f.check(r.returncode == 0, "%s: `cmake --preset %s` fails on the files the build "
                       "stage copies:\n%s" % (DOCKERFILE, preset.group(1), r.stderr[-2000:])):
            return
        out_dir = os.path.join(tmp, os.path.dirname(binary[0]).lstrip("/"))
        f.check(os.path.isdir(out_dir), "%s: the server stage copies %s, but the build stage's "
                "CMake makes no directory %s" % (DOCKERFILE, binary[0],
                                                 os.path.dirname(binary[0])))


def setup_run_packages():
    m = re.search(r"^run_packages=\(([^)]*)\)", read("scripts/setup.sh"), re.M)
    return m.group(1).split() if m else []


def installed_packages():
    """Installed packages: name -> (essential or required, [first alternative of each
    Pre-Depends and Depends entry])."""
    out = subprocess.run(["dpkg-query", "-W", "-f",
                          "${Package}\t${Essential}\t${Priority}\t${Pre-Depends}, ${Depends}\n"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    pkgs = {}
    for line in out.splitlines():
        name, essential, priority, deps = line.split("\t")
        firsts = []
        for entry in deps.split(","):
            entry = entry.strip()
            if entry:
                firsts.append(re.split(r"[\s(:|]", entry, 1)[0])
        pkgs[name] = (essential == "yes" or priority == "required", firsts)
    return pkgs


def closure(roots, pkgs):
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += pkgs.get(p, (False, []))[1]
    return seen


def packages_of(paths):
    """path -> the Debian package that owns it (None when none does), with one dpkg -S: the
    path as ldd gives it, resolved, or under /usr (merged /usr: dpkg knows one of them)."""
    candidates = {p: [p, os.path.realpath(p)] + (["/usr" + p] if p.startswith("/lib") else [])
                  for p in paths}
    r = subprocess.run(["dpkg", "-S"] + sorted({c for cs in candidates.values() for c in cs}),
                       capture_output=True, text=True, timeout=60)
    owner = {}
    for line in r.stdout.splitlines():
        pkgs, _, path = line.partition(": ")
        owner[path.strip()] = pkgs.split(",")[0].split(":")[0].strip()
    return {p: next((owner[c] for c in cs if c in owner), None) for p, cs in candidates.items()}


def check_apt_names(f, stages):
    """Every package a Debian-based stage installs exists in Debian 12 (this machine's apt
    lists, scripts/setup.sh's source)."""
    if not shutil.which("apt-cache"):
        print("note: no apt-cache; the Dockerfile's package names are not checked")
        return
    wanted = {p for s in stages if s.base.startswith("debian:") for p in s.apt_packages()}
    r = subprocess.run(["apt-cache", "show", "--no-all-versions"] + sorted(wanted),
                       capture_output=True, text=True, timeout=60)
    known = set(re.findall(r"^Package: (\S+)", r.stdout, re.M))
    for p in sorted(wanted - known):
        f.check(False, "%s: apt-get install %s: no such Debian package" % (DOCKERFILE, p))


def check_runtime_libraries(f, stages, binary):
    by_name = {s.name: s for s in stages}
    build, srv = by_name.get("build"), by_name.get("server")
    if not (build and srv):
        return
    build_pkgs = set(build.apt_packages())
    for p in setup_run_packages():
        if p.startswith("lib"):
            f.check(p in build_pkgs, "%s: the build stage lacks %s (scripts/setup.sh run)"
                    % (DOCKERFILE, p))
    runtime = srv.apt_packages()
    f.check("libwebsockets-evlib-uv" in runtime,
            "%s: the server stage must install libwebsockets-evlib-uv (loaded at run time)"
            % DOCKERFILE)
    if not shutil.which("dpkg-query") or not shutil.which("ldd"):
        print("note: no dpkg-query or ldd; the runtime libraries are not checked")
        return
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30)
    paths = dict(re.findall(r"^\s*(\S+) => (/\S+)", ldd.stdout, re.M))
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]",
                        subprocess.run(["readelf", "-d", binary], capture_output=True, text=True,
                                       timeout=30).stdout)
    if not f.check(needed, "no NEEDED entries read from %s (readelf -d)" % binary):
        return
    f.check(not any(n.startswith(("libasan", "libubsan")) for n in needed),
            "%s is a sanitizer build; check the release build" % binary)
    pkgs = installed_packages()
    base = closure([p for p, (req, _) in pkgs.items() if req], pkgs)
    provided = closure(runtime, pkgs) | base
    owners = packages_of([paths[n] for n in needed if n in paths])
    for soname in needed:
        path = paths.get(soname)
        if not f.check(path, "ldd does not resolve %s of %s" % (soname, binary)):
            continue
        pkg = owners[path]
        if not f.check(pkg, "no Debian package owns %s (%s)" % (path, soname)):
            continue
        f.check(pkg in provided, "%s: the server stage does not install %s, which provides %s "
                "(a NEEDED library of chess_server)" % (DOCKERFILE, pkg, soname))


# ---- docker-compose.yml ----

def check_compose(f, stages, options):
    try:
        doc = yaml.safe_load(read("docker-compose.yml"))
    except (OSError, yaml.YAMLError) as e:
        f.check(False, "docker-compose.yml does not parse: %s" % e)
        return
    services = doc.get("services") or {}
    declared_volumes = set((doc.get("volumes") or {}).keys())
    by_name = {s.name: s for s in stages}
    srv_env = by_name["server"].env() if "server" in by_name else {}
    nodes = [n for n, s in services.items() if (s.get("build") or {}).get("target") == "server"]
    f.check("redis" in services and "redis" in str(services["redis"].get("image", "")),
            "docker-compose.yml: no redis service with a redis image")
    pg = services.get("postgres") or {}
    f.check("postgres:15" in str(pg.get("image", "")),
            "docker-compose.yml: no postgres service with a PostgreSQL 15 image (Debian 12's)")
    pg_env = pg.get("environment") or {}
    pg_volumes = [v.split(":") for v in pg.get("volumes") or []]
    f.check(any(len(v) >= 2 and v[0] in declared_volumes and v[1] == "/var/lib/postgresql/data"
                for v in pg_volumes),
            "docker-compose.yml: PostgreSQL's data is not in a named volume")
    f.check(len(nodes) >= 3, "docker-compose.yml: fewer than three server nodes (%s)" % nodes)
    f.check("front" in services, "docker-compose.yml: no front service")

    for name, s in services.items():
        where = "docker-compose.yml: service %s" % name
        f.check(s.get("restart") in ("always", "unless-stopped", "on-failure"),
                "%s has no restart policy" % where)
        test = (s.get("healthcheck") or {}).get("test")
        f.check(test, "%s has no healthcheck" % where)
        build = s.get("build")
        target_stage = None
        if build:
            ctx = os.path.normpath(os.path.join(ROOT, build.get("context", ".")))
            dockerfile = os.path.join(ctx, build.get("dockerfile", "Dockerfile"))
            f.check(os.path.isdir(ctx), "%s: build context %s does not exist" % (where, ctx))
            f.check(os.path.isfile(dockerfile), "%s: %s does not exist" % (where, dockerfile))
            if os.path.normpath(dockerfile) == os.path.join(ROOT, DOCKERFILE):
                target_stage = by_name.get(build.get("target"))
                f.check(target_stage, "%s: target %s is not a stage of %s"
                        % (where, build.get("target"), DOCKERFILE))
        if test and target_stage and HEALTHCHECK_SCRIPT in " ".join(test):
            f.check(target_stage.copy_dest(HEALTHCHECK_SCRIPT),
                    "%s: its healthcheck runs %s, which stage %s does not copy"
                    % (where, HEALTHCHECK_SCRIPT, target_stage.name))
        for dep, cond in (s.get("depends_on") or {}).items():
            f.check(dep in services, "%s depends on %s, which is not a service" % (where, dep))
        for vol in s.get("volumes") or []:
            src, _, rest = vol.partition(":")
            target = rest.split(":")[0]
            if src.startswith((".", "/")):
                f.check(os.path.exists(os.path.join(ROOT, src)),
                        "%s mounts %s, which does not exist" % (where, src))
                if target_stage:
                    c = target_stage.copy_dest(target)
                    f.check(c and [os.path.normpath(x) for x in c[1]] == [os.path.normpath(src)],
                            "%s mounts %s at %s, but the image has another file there"
                            % (where, src, target))
            else:
                f.check(src in declared_volumes, "%s uses volume %s, not declared under "
                        "volumes:" % (where, src))

    known_env = {o.env for o in options}
    for n in nodes:
        s = services[n]
        env = dict(srv_env, **{k: str(v) for k, v in (s.get("environment") or {}).items()})
        for k in env:
            f.check(not k.startswith("CHESS_") or k in known_env,
                    "docker-compose.yml: node %s sets %s, which the server does not read" % (n, k))
        # Nothing on a node's disk is needed by another: no shared data volume, one database.
        f.check(not s.get("volumes"), "docker-compose.yml: node %s mounts %s: the nodes keep "
                "nothing of the site on their disks" % (n, s.get("volumes")))
        url = re.match(r"postgresql://([^:@/]+)(?::([^@/]*))?@([^:/]+):(\d+)/(\w+)$",
                       env.get("CHESS_DATABASE", ""))
        f.check(url and url.group(3) == "postgres" and url.group(1) == pg_env.get("POSTGRES_USER")
                and url.group(2) == str(pg_env.get("POSTGRES_PASSWORD"))
                and url.group(5) == pg_env.get("POSTGRES_DB"),
                "docker-compose.yml: node %s must reach the postgres service as its user and "
                "database (CHESS_DATABASE=%r)" % (n, env.get("CHESS_DATABASE")))
        f.check(((s.get("depends_on") or {}).get("postgres") or {}).get("condition") ==
                "service_healthy", "docker-compose.yml: node %s must wait for PostgreSQL" % n)
        redis = env.get("CHESS_REDIS", "")
        f.check(redis.split(":")[0] == "redis",
                "docker-compose.yml: node %s must reach the redis service (CHESS_REDIS=%r)"
                % (n, redis))

    front = services.get("front") or {}
    conf = read("deploy/nginx/compose.conf")
    listen = re.search(r"^\s*listen\s+(\d+)", conf, re.M)
    published = [str(p) for p in front.get("ports") or []]
    f.check(listen and any(p.split(":")[-1] == listen.group(1) and p.startswith("8080:")
                           for p in published),
            "docker-compose.yml: the front must publish 8080 to compose.conf's listen port "
            "(%s, %s)" % (published, listen and listen.group(1)))
    deps = front.get("depends_on") or {}
    for n in nodes:
        f.check(isinstance(deps, dict) and (deps.get(n) or {}).get("condition") ==
                "service_healthy", "docker-compose.yml: the front must wait for %s to be "
                "healthy (nginx resolves the node names at start)" % n)
    upstream = re.search(r"upstream\s+chess_nodes\s*\{(.*?)\}", conf, re.S)
    servers = re.findall(r"^\s*server\s+([^:\s;]+):(\d+)", upstream.group(1) if upstream else "",
                         re.M)
    f.check(sorted(h for h, _ in servers) == sorted(nodes),
            "deploy/nginx/compose.conf: the upstream names %s; the compose nodes are %s"
            % (sorted(h for h, _ in servers), sorted(nodes)))
    for h, p in servers:
        f.check(p == srv_env.get("CHESS_PORT"), "deploy/nginx/compose.conf: %s:%s is not the "
                "nodes' port %s" % (h, p, srv_env.get("CHESS_PORT")))


# ---- nginx ----

def seconds(value):
    m = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value)
    if not m:
        return None
    n = int(m.group(1))
    return n * {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def check_nginx_structure(f, options):
    proxy = read("deploy/nginx/chess-proxy.conf")
    ws = re.search(r"location\s*=\s*/ws\s*\{(.*?)\}", proxy, re.S)
    if not f.check(ws, "deploy/nginx/chess-proxy.conf: no `location = /ws`"):
        return
    body = ws.group(1)
    f.check("proxy_pass http://chess_nodes" in body, "chess-proxy.conf: /ws is not proxied")
    for needed in (r"proxy_http_version\s+1\.1", r"proxy_set_header\s+Upgrade\s+\$http_upgrade",
                   r"proxy_set_header\s+Connection\s+\$connection_upgrade"):
        f.check(re.search(needed, proxy), "chess-proxy.conf lacks %s (WebSocket upgrade)" % needed)
    ping = {o.flag: o.default for o in options}.get("--ping-seconds")
    timeout = re.search(r"proxy_read_timeout\s+(\w+);", body)
    t = seconds(timeout.group(1)) if timeout else 60
    f.check(ping and t and t > 2 * int(ping),
            "chess-proxy.conf: /ws proxy_read_timeout %ss is not well above the server's ping "
            "interval (%ss): idle WebSockets would be cut" % (t, ping))
    check_nginx_api(f, proxy)
    for rel in ["deploy/nginx/chess.conf", "deploy/nginx/compose.conf"]:
        text = read(rel)
        f.check(re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade", text),
                "%s does not map $connection_upgrade" % rel)
    for rel in ["deploy/nginx/compose.conf"] + NGINX_UPSTREAMS:
        text = re.sub(r"#.*", "", read(rel))
        f.check("least_conn" not in text or re.search(r"^\s*zone\s", text, re.M),
                "%s: least_conn without a zone: each nginx worker would count only its own "
                "connections" % rel)
    for rel in ["deploy/nginx/chess.conf"]:
        text = re.sub(r"#.*", "", read(rel))
        for inc in re.findall(r"^\s*include\s+([^;]+);", text, re.M):
            f.check(inc in NGINX_INSTALL or inc == "/etc/nginx/chess/upstream.conf",
                    "%s includes %s, which docs/self-hosting.md does not install" % (rel, inc))
    doc = read("docs/self-hosting.md")
    for dest, src in list(NGINX_INSTALL.items()) + [("/etc/nginx/chess/upstream.conf", u)
                                                      for u in NGINX_UPSTREAMS]:
        f.check(dest in doc and src in doc, "docs/self-hosting.md does not say to install %s "
                "as %s" % (src, dest))


def size_bytes(value):
    m = re.fullmatch(r"(\d+)([kKmMgG])?", value)
    if not m:
        return None
    return int(m.group(1)) * {None: 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[
        m.group(2) and m.group(2).lower()]


def source_constant(rel, pattern):
    """A number the server's source defines (e.g. "(64 * 1024)"), or None."""
    m = re.search(pattern + r"\s+\(?([\d *]+)\)?", read(rel))
    if not m:
        return None
    n = 1
    for factor in m.group(1).split("*"):
        n *= int(factor)
    return n


def check_nginx_api(f, proxy):
    """The HTTP API's locations (docs/http-api.md): streams unbuffered and not cut between
    keep-alives, request bodies as large as the server reads, /game/export/ to the nodes."""
    proxy = re.sub(r"#.*", "", proxy)
    api = re.search(r"location\s+/api/\s*\{(.*?)\}", proxy, re.S)
    if not f.check(api, "deploy/nginx/chess-proxy.conf: no `location /api/`"):
        return
    body = api.group(1)
    f.check("proxy_pass http://chess_nodes" in body, "chess-proxy.conf: /api/ is not proxied")
    f.check(re.search(r"proxy_buffering\s+off;", body),
            "chess-proxy.conf: /api/ buffers responses: NDJSON stream lines would wait")
    f.check(re.search(r"^\s*proxy_http_version\s+1\.1;", proxy, re.M),
            "chess-proxy.conf: the API's streams need HTTP/1.1 to the nodes (chunked)")
    # The server's keep-alive: a newline after STREAM_KEEPALIVE_MS without text, checked each
    # second by the transport's sweep.
    keepalive = source_constant("server/src/app/apistream.c", r"#define\s+STREAM_KEEPALIVE_MS")
    timeout = re.search(r"proxy_read_timeout\s+(\w+);", body)
    t = seconds(timeout.group(1)) if timeout else 60
    if f.check(keepalive, "server/src/app/apistream.c defines no STREAM_KEEPALIVE_MS"):
        gap = keepalive / 1000 + 1
        f.check(t and t > 2 * gap, "chess-proxy.conf: /api/ proxy_read_timeout %ss is not well "
                "above the streams' keep-alive gap (%ss): quiet streams would be cut" % (t, gap))
    body_max = source_constant("server/src/net/net.h", r"#define\s+NET_HTTP_BODY_MAX")
    size = re.search(r"client_max_body_size\s+(\w+);", body)
    n = size_bytes(size.group(1)) if size else 1 << 20
    f.check(body_max and n >= body_max, "chess-proxy.conf: /api/ client_max_body_size %s is "
            "below the server's NET_HTTP_BODY_MAX (%s)" % (n, body_max))
    gzip_types = re.search(r"gzip_types\s+([^;]*);", proxy)
    f.check(not gzip_types or "ndjson" not in gzip_types.group(1),
            "chess-proxy.conf: gzip of application/x-ndjson would hold stream lines back")
    export = re.search(r"location\s+/game/export/\s*\{(.*?)\}", proxy, re.S)
    f.check(export and "proxy_pass http://chess_nodes" in export.group(1),
            "chess-proxy.conf: /game/export/ (a game's PGN, an API path) is not proxied")


def nginx_test(f, what, conf_text, tmp):
    """Runs `nginx -t` on one nginx.conf text; any error fails."""
    path = os.path.join(tmp, "nginx.conf")
    with open(path, "w") as fh:
        fh.write(conf_text)
    r = subprocess.run(["nginx", "-t", "-q", "-e", "stderr", "-p", tmp, "-c", path],
                       capture_output=True, text=True, timeout=30)
    f.check(r.returncode == 0 and "emerg" not in r.stderr,
            "nginx -t rejects %s:\n%s" % (what, r.stderr.strip()))


def check_nginx_t(f):
    nginx = shutil.which("nginx") or (os.path.exists("/usr/sbin/nginx") and "/usr/sbin/nginx")
    if not nginx:
        print("note: nginx is not installed (scripts/setup.sh test); only structural checks")
        return
    os.environ["PATH"] += os.pathsep + os.path.dirname(nginx)
    with tempfile.TemporaryDirectory(prefix="chess-nginx-") as tmp:
        # The compose front, with the node names (resolved by Docker's DNS) as loopback and its
        # includes at their repository paths.
        conf = read("deploy/nginx/compose.conf")
        conf = re.sub(r"(^\s*server\s+)[a-z0-9_-]+(:\d+)", r"\g<1>127.0.0.1\2", conf, flags=re.M)
        # Temporary paths first: the repository itself may live under /tmp.
        conf = conf.replace("/tmp/", tmp + "/")
        conf = conf.replace("/etc/nginx/chess/proxy.conf",
                            os.path.join(ROOT, "deploy/nginx/chess-proxy.conf"))
        nginx_test(f, "deploy/nginx/compose.conf", conf, tmp)

        # The TLS site in a minimal http block, once per upstream file, with a throw-away
        # certificate in place of certbot's.
        cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        r = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:prime256v1", "-nodes", "-days",
                            "1", "-subj", "/CN=chess.example.org", "-keyout", key, "-out", cert],
                           capture_output=True, text=True, timeout=60)
        if not f.check(r.returncode == 0, "openssl could not make a test certificate: %s"
                       % r.stderr):
            return
        for upstream in NGINX_UPSTREAMS:
            site = read("deploy/nginx/chess.conf")
            site = re.sub(r"ssl_certificate\s+[^;]+;", "ssl_certificate %s;" % cert, site)
            site = re.sub(r"ssl_certificate_key\s+[^;]+;", "ssl_certificate_key %s;" % key, site)
            site = site.replace("/etc/nginx/chess/upstream.conf", os.path.join(ROOT, upstream))
            for dest, src in NGINX_INSTALL.items():
                site = site.replace(dest, os.path.join(ROOT, src))
            site_path = os.path.join(tmp, "site.conf")
            with open(site_path, "w") as fh:
                fh.write(site)
            wrapper = ("pid %s/nginx.pid;\nevents {}\nhttp {\n"
                       "    include /etc/nginx/mime.types;\n" % tmp +
                       "".join("    %s_temp_path %s/%s;\n" % (k, tmp, k)
                               for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) +
                       "    include %s;\n}\n" % site_path)
            nginx_test(f, "deploy/nginx/chess.conf with %s" % upstream, wrapper, tmp)


# ---- systemd ----

def unit_keys(text):
    """key -> [values] of a unit file, and its [Service] lines without comments."""
    keys, service, section = {}, [], None
    for line in text.splitlines():
        if line.startswith("["):
            section = line
        elif "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            keys.setdefault(k, []).append(v)
            if section == "[Service]":
                service.append(line)
    return keys, service


def check_env_example(f, rel):
    for line in read(rel).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            f.check(re.match(r"CHESS_[A-Z0-9_]+=\S", line),
                    "%s: %r is not a CHESS_*=value line" % (rel, line))


def check_systemd(f, binary):
    single, template = "deploy/systemd/chess-server.service", "deploy/systemd/chess-server@.service"
    units = {single: ("chess-server.service", "chess-server.env"),
             template: ("chess-server@node1.service", "%i.env")}
    services = {}
    for rel, (_, env_file_name) in units.items():
        keys, services[rel] = unit_keys(read(rel))
        f.check(keys.get("ExecStart", [""])[0].endswith("/chess_server"),
                "%s: ExecStart is not chess_server" % rel)
        f.check(keys.get("DynamicUser") == ["yes"] or keys.get("User"),
                "%s: neither DynamicUser=yes nor a User=" % rel)
        state = keys.get("StateDirectory", [None])[0]
        envs = dict(v.split("=", 1) for v in keys.get("Environment", []))
        f.check(state and envs.get("CHESS_DATA_DIR") == "/var/lib/" + state,
                "%s: CHESS_DATA_DIR must be the StateDirectory (/var/lib/%s)" % (rel, state))
        for k, v in (("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
                     ("ProtectHome", "yes"), ("PrivateTmp", "yes")):
            f.check(keys.get(k) == [v], "%s: %s=%s is missing" % (rel, k, v))
        env_file = keys.get("EnvironmentFile", [""])[0].lstrip("-")
        f.check(os.path.basename(env_file) == env_file_name,
                "%s: EnvironmentFile %s is not .../%s" % (rel, env_file, env_file_name))
    # The template is the single unit for one node of several: the same settings otherwise.
    keys, _ = unit_keys(read(template))
    f.check(keys.get("User") == ["chess-server"] and "CHESS_NODE_ID=%i" in keys.get(
        "Environment", []), "%s: every instance needs User=chess-server (one shared state "
            "directory) and CHESS_NODE_ID=%%i" % template)
    for line in services[single]:
        if not line.startswith(("Environment", "Description")):
            f.check(line in services[template], "%s lacks %r of %s" % (template, line, single))
    check_env_example(f, "deploy/systemd/chess-server.env")
    check_env_example(f, "deploy/systemd/node.env")

    analyze = shutil.which("systemd-analyze")
    if not analyze:
        print("note: systemd-analyze is not installed; the units are checked structurally only")
        return
    with tempfile.TemporaryDirectory(prefix="chess-systemd-") as tmp:
        for rel, (instance, _) in units.items():
            # verify requires ExecStart's program to exist: the built binary stands in.
            with open(os.path.join(tmp, os.path.basename(rel)), "w") as fh:
                fh.write(re.sub(r"^ExecStart=\S+", "ExecStart=" + os.path.abspath(binary),
                                read(rel), flags=re.M))
            path = os.path.join(tmp, instance)
            r = subprocess.run([analyze, "verify", path], capture_output=True, text=True,
                               timeout=60)
            # verify exits 0 on unknown keys and bad values (it ignores them): output fails.
            out = (r.stdout + r.stderr).strip()
            f.check(r.returncode == 0 and not out, "systemd-analyze verify %s:\n%s" % (rel, out))
            r = subprocess.run([analyze, "security", "--offline=true", "--no-pager", path],
                               capture_output=True, text=True, timeout=60)
            m = re.search(r"Overall exposure level for \S+: ([\d.]+)", r.stdout)
            if m:
                f.check(float(m.group(1)) <= SYSTEMD_MAX_EXPOSURE,
                        "%s: systemd-analyze security exposure %s is above %s"
                        % (rel, m.group(1), SYSTEMD_MAX_EXPOSURE))
            else:
                print("note: systemd-analyze security --offline gave no score: %s"
                      % r.stderr.strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True, help="the chess_server binary (release build)")
    args = ap.parse_args()
    options = read_options(args.server)
    f = Failures()
    stages, _ = parse_dockerfile(read(DOCKERFILE))
    check_dockerfile(f, stages, options)
    check_apt_names(f, stages)
    check_runtime_libraries(f, stages, args.server)
    check_build_context(f, stages)
    check_compose(f, stages, options)
    check_nginx_structure(f, options)
    check_nginx_t(f)
    check_systemd(f, args.server)
    return f.report("deploy/ and docker-compose.yml")


if __name__ == "__main__":
    sys.exit(main())
