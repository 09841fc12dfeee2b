#!/usr/bin/env python3
"""The cost a Bash tool call pays for the run-time layer for writes: each case is one
shell command timed as a whole process (fork to exit), run as Claude Code's Bash tool
runs it once `install --project` has set the shell prefix (`did-it-actually-confine
'COMMAND'`: the prefix script, the binary reading the policy and the repository,
Landlock, then bash) and without it (`bash -c 'COMMAND'`), interleaved, in one run.
Prints a markdown table (p50, p90 in ms, and the difference of the p50s).

    bench/confine.py BINARY [--runs N]

BINARY: the did-it-actually to install (bench/run.sh builds the release one). Needs git
and a Linux kernel with Landlock. The world is a scratch directory under the system temp
directory, removed at the end."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    binary = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 200
    root = tempfile.mkdtemp(prefix="dia-confine-bench-", dir="/var/tmp")
    try:
        base = {
            "PATH": os.environ["PATH"],
            "HOME": os.path.join(root, "home"),
            "DID_IT_ACTUALLY_STATE_DIR": os.path.join(root, "state"),
            "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_GLOBAL": "/dev/null", "SHELL": "/bin/bash",
        }
        os.makedirs(base["HOME"])
        work = os.path.join(root, "work")
        subprocess.run(["git", "init", "-q", "-b", "main", work], env=base, check=True)
        subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "seed"], cwd=work, env=base, check=True)
        subprocess.run([binary, "install", "--project", work], env=base, check=True, capture_output=True)
        with open(os.path.join(work, ".claude", "settings.local.json")) as f:
            env = json.load(f)["env"]
        prefix = env["CLAUDE_CODE_SHELL_PREFIX"]
        agent = dict(base, DID_IT_ACTUALLY_PROJECT=env["DID_IT_ACTUALLY_PROJECT"])
        cases = [
            ("true", "true"),
            ("echo to a file in the project", "echo x > out.txt"),
            ("git status", "git status --short"),
            ("a write outside, refused", "echo x > $HOME/x 2>/dev/null; true"),
        ]
        print(f"| command | bash -c p50 | through the prefix p50 | difference | prefix p90 |")
        print("|---|---:|---:|---:|---:|")
        for label, command in cases:
            plain, confined = [], []
            for _ in range(runs):
                for out, argv in ((plain, ["bash", "-c", command]), (confined, [prefix, command])):
                    t = time.perf_counter()
                    subprocess.run(argv, cwd=work, env=agent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    out.append((time.perf_counter() - t) * 1000)
            p = lambda xs, q: statistics.quantiles(xs, n=100)[q - 1]
            print(f"| {label} | {p(plain, 50):.2f} | {p(confined, 50):.2f} | "
                  f"{p(confined, 50) - p(plain, 50):+.2f} | {p(confined, 90):.2f} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
