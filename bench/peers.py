#!/usr/bin/env python3
"""Side by side: whole-process latency of other Claude Code command guards and ours.

Run it with `bench/peers.sh`, which installs the peers at pinned versions and passes them
here. By hand:

    python3 bench/peers.py --ours did-it-actually \
        --tool 'did-it-actually|0.1.0|target/release/did-it-actually block-wrong-branch' \
        --tool 'NAME|VERSION|COMMAND ARGS...' ... \
        --floor '/bin/true|/bin/true' --floor 'hello-world|target/peers/hello' \
        [--runs N] [--warmup N]

Every tool gets the same cases: one Claude Code PreToolUse event for the Bash tool per
case, written to its stdin, with the event's `cwd` and the process's working directory
a scratch git repository (`main` pushed to a bare `origin`, `feat/x` checked out, as in
bench/bench.rs). Before any timing, each (tool, case) runs once with its output captured
and its answer is read the way Claude Code reads it: exit 2 is a deny; exit 0 with
`hookSpecificOutput.permissionDecision` in stdout is that decision; exit 0 with nothing
on stdout lets the command through ("allow (silent)"); any other exit is an error, which
Claude Code also lets through. The answer goes into the table, so a peer that does not
deny a case shows as such. The same check runs again after the timing, and a changed
answer is flagged.

A run is the time from just before `subprocess.run` to its return (fork and exec, the
interpreter's or binary's start, reading stdin, the check, exit), measured with
`time.perf_counter_ns`; stdout and stderr go to /dev/null. The runs are interleaved:
every iteration runs every (tool, case) and every floor once, round-robin, starting one
place further along each iteration, so machine noise hits all of them alike. Floors:
`/bin/true` and a hello-world Rust binary, run with empty stdin, give the cost of
starting any process here and of starting a Rust binary that does nothing.

Every process gets a scratch HOME (no `.gitconfig`, no user config of any of the tools)
holding a `.claude/settings.json` that registers every tool as a PreToolUse Bash hook, as
an installed user would have it; XDG_CONFIG_HOME under it; no GIT_* variables nor any of
the tools' own environment overrides; CLAUDE_PROJECT_DIR set to the repository, as
Claude Code sets it for hooks.
"""

import argparse
import json
import math
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_RUNS = 200
DEFAULT_WARMUP = 5
SESSION = "5f0c2c8e-3b8a-4d7e-9c41-0d6a2f9b7e13"
PROMPT = "a41d7c3e-92f0-4b6b-8e15-7c0f3d2a9b64"
HELLO_FLOOR = "hello-world"

# (label, Bash command). `rm -rf /` is the classic; `dd` onto a disk device is the one
# every peer denies with its default rules (cc-toolgate asks on `rm -rf /`).
CASES = [
    ("`ls -la`", "ls -la"),
    ("`git push origin main`", "git push origin main"),
    ("`rm -rf /`", "rm -rf /"),
    ("`dd if=/dev/zero of=/dev/sda`", "dd if=/dev/zero of=/dev/sda"),
]

# Environment variables through which a tool's behaviour can be changed from outside;
# none is passed on.
DROP_PREFIXES = ("GIT_", "DID_IT_ACTUALLY_", "DCG_", "CC_SAFETY_NET_", "CC_TOOLGATE", "CLAUDE_")


class Tool:
    def __init__(self, spec, floor=False):
        parts = spec.split("|")
        if floor:
            if len(parts) != 2:
                sys.exit(f"--floor wants 'NAME|COMMAND', not {spec!r}")
            self.name, self.version, command = parts[0], "", parts[1]
        else:
            if len(parts) != 3:
                sys.exit(f"--tool wants 'NAME|VERSION|COMMAND', not {spec!r}")
            self.name, self.version, command = parts
        self.argv = shlex.split(command)
        if not self.argv:
            sys.exit(f"empty command in {spec!r}")
        exe = shutil.which(self.argv[0])
        if exe is None:
            sys.exit(f"{self.name}: cannot find {self.argv[0]!r}")
        self.argv[0] = os.path.abspath(exe)
        self.floor = floor


def git(cwd, home, *args):
    env = clean_env(home)
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL="/dev/null",
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.invalid",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.invalid",
    )
    p = subprocess.run(["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True)
    if p.returncode != 0:
        sys.exit(f"git {args} in {cwd}: {p.stderr.decode(errors='replace').strip()}")


def make_repo(root, home):
    work = root / "work"
    work.mkdir()
    git(work, home, "init", "-q", "-b", "main")
    (work / "README.md").write_text("bench\n")
    git(work, home, "add", "README.md")
    git(work, home, "commit", "-q", "-m", "seed")
    git(root, home, "init", "-q", "--bare", "origin.git")
    git(work, home, "remote", "add", "origin", str(root / "origin.git"))
    git(work, home, "push", "-q", "origin", "main")
    git(work, home, "checkout", "-q", "-b", "feat/x")
    return work


def clean_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROP_PREFIXES)}
    env["HOME"] = str(home)
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    for k in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env.pop(k, None)
    return env


def write_settings(home, tools):
    hooks = [{"type": "command", "command": shlex.join(t.argv)} for t in tools]
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")


def event(repo, command):
    return json.dumps({
        "session_id": SESSION,
        "transcript_path": f"/home/u/.claude/projects/-home-u-proj/{SESSION}.jsonl",
        "cwd": str(repo),
        "prompt_id": PROMPT,
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run the command"},
        "tool_use_id": "toolu_01BenchPeers0000000000000",
    }).encode()


def verdict(rc, out):
    """The answer as Claude Code reads it, and a short reason if there is one."""
    if rc == 2:
        return "deny (exit 2)"
    if rc != 0:
        return f"error (exit {rc})"
    text = out.decode(errors="replace").strip()
    if not text:
        return "allow (silent)"
    try:
        v = json.loads(text.splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return "allow (non-JSON stdout)"
    if not isinstance(v, dict):
        return "allow (non-object stdout)"
    hso = v.get("hookSpecificOutput") or {}
    d = hso.get("permissionDecision") if isinstance(hso, dict) else None
    if isinstance(d, str):
        return d
    if v.get("decision") in ("block", "deny"):
        return "deny"
    if v.get("continue") is False:
        return "stop"
    return "allow (no decision)"


def check(tool, stdin, cwd, env):
    p = subprocess.run(tool.argv, input=stdin, cwd=cwd, env=env, capture_output=True)
    return p.returncode, verdict(p.returncode, p.stdout), p.stdout, p.stderr


def pct(sorted_ns, p):
    # Nearest rank, as bench/bench.rs.
    n = len(sorted_ns)
    i = min(max(math.ceil(p * n), 1), n) - 1
    return sorted_ns[i]


def ms(ns):
    return f"{ns / 1e6:.2f}"


def loadavg():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", action="append", default=[], help="NAME|VERSION|COMMAND")
    ap.add_argument("--floor", action="append", default=[], help="NAME|COMMAND")
    ap.add_argument("--ours", required=True, help="the NAME of our tool among --tool")
    ap.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    ap.add_argument("--warmup", type=int, default=DEFAULT_WARMUP)
    ap.add_argument("--verbose", action="store_true", help="print each check's output")
    a = ap.parse_args()
    if a.runs < 1 or a.warmup < 0:
        sys.exit("--runs must be at least 1 and --warmup at least 0")
    tools = [Tool(s) for s in a.tool]
    floors = [Tool(s, floor=True) for s in a.floor]
    if a.ours not in [t.name for t in tools]:
        sys.exit(f"--ours {a.ours!r} is not among the --tool names")

    scratch = Path(tempfile.mkdtemp(prefix="peers-bench-"))
    try:
        run(a, tools, floors, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(a, tools, floors, scratch):
    home = scratch / "home"
    home.mkdir()
    repo = make_repo(scratch, home)
    write_settings(home, tools)
    env = clean_env(home)
    env["CLAUDE_PROJECT_DIR"] = str(repo)
    env["DID_IT_ACTUALLY_STATE_DIR"] = str(scratch / "state")

    # Jobs: (tool, case index or None, stdin bytes).
    jobs = [(t, i, event(repo, cmd)) for t in tools for i, (_, cmd) in enumerate(CASES)]
    jobs += [(f, None, b"") for f in floors]

    answers = {}  # (tool name, case index) -> (rc, verdict)
    print(f"Answers (checked once before timing, cwd {repo}):", file=sys.stderr)
    for t, i, stdin in jobs:
        rc, v, out, err = check(t, stdin, repo, env)
        answers[(t.name, i)] = (rc, v)
        if i is None:
            if rc != 0:
                sys.exit(f"floor {t.name} exited {rc}: {err.decode(errors='replace')}")
            continue
        reason = out.decode(errors="replace").strip() or err.decode(errors="replace").strip()
        print(f"  {t.name:26} {CASES[i][0]:32} {v:16} exit {rc}", file=sys.stderr)
        if a.verbose and reason:
            print("    " + reason[:400].replace("\n", "\n    "), file=sys.stderr)

    load_start = loadavg()
    samples = {(t.name, i): [] for t, i, _ in jobs}
    off = {(t.name, i): 0 for t, i, _ in jobs}  # runs whose exit code differed from the check
    n = len(jobs)
    total = a.warmup + a.runs
    t_start = time.monotonic()
    for it in range(total):
        start = it % n
        for k in range(n):
            t, i, stdin = jobs[(start + k) % n]
            t0 = time.perf_counter_ns()
            p = subprocess.run(t.argv, input=stdin, cwd=repo, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t1 = time.perf_counter_ns()
            if p.returncode != answers[(t.name, i)][0]:
                off[(t.name, i)] += 1
            if it >= a.warmup:
                samples[(t.name, i)].append(t1 - t0)
        if it + 1 in (a.warmup, total) or (it + 1 - a.warmup) % 50 == 0:
            print(f"  iteration {it + 1}/{total} ({time.monotonic() - t_start:.0f} s)",
                  file=sys.stderr)
    load_end = loadavg()

    # The same check after the timing: an answer that depends on state the runs changed
    # (logs, caches, counters) shows here.
    changed = {}
    for t, i, stdin in jobs:
        if i is None:
            continue
        rc, v, _, _ = check(t, stdin, repo, env)
        if (rc, v) != answers[(t.name, i)]:
            changed[(t.name, i)] = v

    p50 = {}
    p90 = {}
    for key, s in samples.items():
        s.sort()
        p50[key] = pct(s, 0.50)
        p90[key] = pct(s, 0.90)
    hello = next((f for f in floors if f.name == HELLO_FLOOR), None)
    hello_p50 = p50[(hello.name, None)] if hello else None

    print(f"| tool | version | case | verdict | p50 ms | p90 ms | × ours (p50) | "
          f"over {HELLO_FLOOR} floor (p50 ms) |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for i, (label, _) in enumerate(CASES):
        for t in tools:
            key = (t.name, i)
            v = answers[key][1]
            if key in changed:
                v += f" → {changed[key]} after timing"
            if off[key]:
                v += f" ({off[key]} runs exited otherwise)"
            ratio = p50[key] / p50[(a.ours, i)]
            over = ms(p50[key] - hello_p50) if hello_p50 is not None else "—"
            print(f"| {t.name} | {t.version} | {label} | {v} | {ms(p50[key])} | "
                  f"{ms(p90[key])} | {ratio:.2f} | {over} |")
    for f in floors:
        key = (f.name, None)
        over = ms(p50[key] - hello_p50) if hello_p50 is not None else "—"
        print(f"| {f.name} (floor) | | (empty stdin) | — | {ms(p50[key])} | {ms(p90[key])} "
              f"| — | {over} |")
    print()
    print(f"Runs: {a.runs} per row after {a.warmup} warm-up, interleaved round-robin. "
          f"Machine: {os.cpu_count()} CPUs, {cpu_model()}; {platform.system()} "
          f"{platform.release()}; python {platform.python_version()}. "
          f"Load average at start {load_start}, at end {load_end}.")
    print()
    print("Commands: " + "; ".join(f"{t.name}: `{shlex.join(t.argv)}`" for t in tools + floors))


if __name__ == "__main__":
    main()
