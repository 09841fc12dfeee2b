#!/usr/bin/env python3
"""The cost a git process pays for the run-time layer: each case is one git command timed
as a whole process (fork to exit), with the agent's environment from `install --project`
(the layer on) and without it (the user's own git), interleaved, in one run. Prints a
markdown table (p50, p90 in ms, and the difference of the p50s).

    bench/runtime_git.py BINARY [--runs N]

BINARY: the did-it-actually to install (bench/run.sh builds the release one). Needs git.
Every world is a scratch directory under /dev/shm (else the system temp directory),
removed at the end."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def git(cwd, *args, env=None):
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def world(binary):
    root = tempfile.mkdtemp(prefix="dia-rt-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    base = {
        "PATH": os.environ["PATH"],
        "HOME": os.path.join(root, "home"),
        "DID_IT_ACTUALLY_STATE_DIR": os.path.join(root, "state"),
        "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    os.makedirs(base["HOME"])
    work = os.path.join(root, "work")
    git(root, "init", "-q", "--bare", "origin.git", env=base)
    git(root, "init", "-q", "-b", "main", "work", env=base)
    git(work, "commit", "-q", "--allow-empty", "-m", "seed", env=base)
    git(work, "remote", "add", "origin", "../origin.git", env=base)
    git(work, "push", "-q", "origin", "main", env=base)
    git(work, "switch", "-q", "-c", "feat", env=base)
    subprocess.run([binary, "install", "--project", work], env=base, check=True, capture_output=True)
    with open(os.path.join(work, ".claude", "settings.local.json")) as f:
        agent = dict(base, **json.load(f)["env"], CLAUDE_CODE_SESSION_ID="bench")
    # The floor of a design built on git's hooks: the same hook names as the layer's
    # directory holds (ours, and the names the repository has hooks for: none here), each
    # an empty shell script, reached the same way; and the floor of the design before
    # (every one of the 25 names).
    def empty_hooks(name, names):
        d = os.path.join(root, name)
        os.makedirs(d)
        for n in names:
            path = os.path.join(d, n)
            with open(path, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(path, 0o755)
        return dict(base, GIT_CONFIG_PARAMETERS=f"'core.hooksPath'='{d}'")
    floor = empty_hooks("empty-hooks", os.listdir(agent["DID_IT_ACTUALLY_GIT_HOOKS"]))
    floor_all = empty_hooks("empty-all", ALL_NAMES)
    return root, work, base, agent, floor, floor_all


# Every name the layer's directory held before it held only the needed ones.
ALL_NAMES = [
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
    "post-merge", "pre-push", "pre-receive", "update", "post-receive", "post-update",
    "reference-transaction", "pre-auto-gc", "post-rewrite", "sendemail-validate",
    "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
    "post-index-change",
]


CASES = [
    ("commit on a feature branch", ["commit", "-q", "--allow-empty", "-m", "x"]),
    ("update-ref of a feature branch", ["update-ref", "refs/heads/feat", "HEAD"]),
    ("status (no ref update)", ["status", "--short"]),
    ("push of a feature branch (local remote)", ["push", "-q", "origin", "HEAD:feat"]),
    ("commit on main, refused", ["commit", "-q", "--allow-empty", "-m", "m"]),
]


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(args[0])
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 200
    root, work, base, agent, floor, floor_all = world(binary)
    try:
        modes = (("off", base), ("all", floor_all), ("floor", floor), ("on", agent))
        times = {(name, mode): [] for name, _ in CASES for mode, _ in modes}
        for _ in range(runs):
            for name, cmd in CASES:
                for mode, env in modes:
                    refused = name.endswith("refused")
                    if refused:
                        git(work, "switch", "-q", "main", env=base)
                    t = time.perf_counter()
                    p = subprocess.run(["git", *cmd], cwd=work, env=env, capture_output=True)
                    times[(name, mode)].append((time.perf_counter() - t) * 1000)
                    if refused:
                        if mode != "on":
                            git(work, "reset", "-q", "--hard", "HEAD~1", env=base)
                        elif p.returncode == 0:
                            raise SystemExit("the run-time layer let a commit on main through")
                        git(work, "switch", "-q", "feat", env=base)
        print(f"run-time layer cost per git process, {runs} runs each, interleaved (ms)")
        print("off: no hooks; all: the 25 hook names as empty shell scripts (the floor of the design before);")
        print("floor: the names the layer's directory holds, as empty shell scripts; on: the run-time layer\n")
        print("| git command | off p50 | all p50 | floor p50 | on p50 | on - off | on - floor | on p90 |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for name, _ in CASES:
            off, al, fl, on = (statistics.median(times[(name, m)]) for m in ("off", "all", "floor", "on"))
            p90 = statistics.quantiles(times[(name, "on")], n=10)[8]
            print(f"| {name} | {off:.2f} | {al:.2f} | {fl:.2f} | {on:.2f} | {on - off:+.2f} | {on - fl:+.2f} | {p90:.2f} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
