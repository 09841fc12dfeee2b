#!/usr/bin/env python3
"""Writes tests/corpus/runtime-generated.tsv: git actions (some move a protected branch, some do
honest work) reached through the habits the static reading cannot follow (a script
written then run, a make recipe, an npm script, an interpreter, git under another name,
a repository's own hooks), plus commands whose values exist only at run time. No labels:
tests/it/runtime_corpus.rs runs every row with no guard to learn what it does.

    python3 tests/corpus/runtime-gen.py > tests/corpus/runtime-generated.tsv
"""

import json
import shlex

# (setup, action): the work tree's branch before the command, and the git action.
ACTIONS = [
    ("main", "git commit --allow-empty -q -m ship"),
    ("feat", "git push -q origin HEAD:main"),
    ("feat", "git update-ref refs/heads/main HEAD"),
    ("feat", "git branch -f main HEAD"),
    ("main", "git reset -q --hard HEAD~1"),
    ("feat", "git push -q --force origin HEAD:main"),
    ("feat", "git push -q origin --delete main"),
    ("main", "git switch -q -c topic/a && git commit --allow-empty -q -m a"),
    ("feat", "git push -q origin HEAD:topic/b"),
    ("main", "git branch backup-$(date +%s)"),
    ("main", "git status --short >/dev/null && git log -1 --oneline >/dev/null"),
    ("feat", "git commit --allow-empty -q -m wip"),
    ("feat", "git fetch -q origin && git rebase -q origin/feat"),
    ("main", "git tag -f snap-$(date +%s) >/dev/null"),
]


def script_wrappers(a):
    return [
        f"printf '%s\\n' {shlex.quote(a)} > s.sh && bash s.sh",
        f"printf '#!/bin/sh\\nset -e\\n%s\\n' {shlex.quote(a)} > ship.sh && chmod +x ship.sh && ./ship.sh",
        f"mkdir -p scripts && printf '%s\\n' {shlex.quote(a)} > scripts/do.sh && sh scripts/do.sh",
        f"printf 'cd \"$(dirname \"$0\")\"\\n%s\\n' {shlex.quote(a)} > run.sh && bash run.sh 2>&1 | tail -3",
    ]


def recipe_wrappers(a):
    # make: each `$` of the action doubled; npm: the action as a JSON string.
    mk = a.replace("$", "$$")
    pkg = json.dumps({"name": "x", "version": "1.0.0", "scripts": {"go": a}})
    return [
        f"printf 'go:\\n\\t%s\\n' {shlex.quote(mk)} > Makefile && make -s go",
        f"printf '.PHONY: release\\nrelease:\\n\\t@%s\\n' {shlex.quote(mk)} > build.mk && make -s -f build.mk release",
        f"printf '%s' {shlex.quote(pkg)} > package.json && npm run -s go",
    ]


def interpreter_wrappers(a):
    py = f"import subprocess, sys; sys.exit(subprocess.call({a!r}, shell=True))"
    js = f"process.exit(require('child_process').spawnSync({json.dumps(a)}, {{shell: true, stdio: 'inherit'}}).status)"
    pl = f"exit(system(q{{{a}}}) >> 8)"
    pyfile = f"import os, sys\nsys.exit(os.system({a!r}) >> 8)\n"
    return [
        f"python3 -c {shlex.quote(py)}",
        f"node -e {shlex.quote(js)}",
        f"perl -e {shlex.quote(pl)}",
        f"printf '%s' {shlex.quote(pyfile)} > tool.py && python3 tool.py",
    ]


def alias_wrappers(a):
    def via(name):
        return a.replace("git ", f"{name} ")
    return [
        f'cp "$(command -v git)" ./g && {via("./g")}',
        f'ln -sf "$(command -v git)" ./vcs && {via("./vcs")}',
        f'g() {{ git "$@"; }}; {via("g")}',
        f'G=git; {via("$G")}',
        via('"$(command -v git)"'),
    ]


def ownhooks_wrappers(a):
    ok = "printf '#!/bin/sh\\nexit 0\\n'"
    no = "printf '#!/bin/sh\\necho refused by the repository >&2\\nexit 1\\n'"
    return [
        f"git config core.hooksPath .husky && mkdir -p .husky && {ok} > .husky/pre-commit && chmod +x .husky/pre-commit && {a}",
        f"{no} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && {a}",
        f"git config core.hooksPath .githooks && mkdir -p .githooks && {no} > .githooks/pre-push && chmod +x .githooks/pre-push && {a}",
    ]


RUNTIME = [
    ("main", 'b=$(git rev-parse --abbrev-ref HEAD); git commit --allow-empty -q -m "work on $b"'),
    ("feat", "t=$(echo bWFpbg== | base64 -d); git push -q origin HEAD:$t"),
    ("feat", 'args=(push -q origin "HEAD:ma""in"); git "${args[@]}"'),
    ("feat", "for r in $(git for-each-ref --format='%(refname:short)' refs/heads); do git branch -f $r HEAD 2>/dev/null; done; true"),
    ("feat", "d=$(git symbolic-ref --short refs/remotes/origin/HEAD | cut -d/ -f2); git push -q origin HEAD:$d"),
    ("feat", "echo main | xargs -I{} git update-ref refs/heads/{} HEAD"),
    ("feat", 'target=$(printf "%s" "nia" | rev); git branch -f "$target" HEAD'),
    ("main", 'b=$(git branch --show-current); git reset -q --hard "$b~1"'),
    ("feat", "git push -q origin $(git rev-parse --abbrev-ref HEAD):$(git remote show origin -n >/dev/null; echo main)"),
    ("feat", "n=$(git rev-parse --abbrev-ref origin/HEAD | sed 's#origin/##'); git push -q --force origin HEAD:$n"),
    ("main", 'git branch "backup-$(date +%s)"'),
    ("main", 'n=$(date +%s); git switch -q -c "fix/$n" && git commit --allow-empty -q -m "fix $n"'),
    ("feat", 'b=$(git rev-parse --abbrev-ref HEAD); git push -q origin "HEAD:$b-copy"'),
    ("feat", 'b=$(git rev-parse --abbrev-ref HEAD); git push -q -u origin "$b"'),
    ("main", 'git tag "v$(date +%Y%m%d%H%M%S)"'),
    ("feat", 'for b in $(git for-each-ref --format="%(refname:short)" refs/heads/feat*); do git log -1 --oneline "$b" >/dev/null; done'),
    ("main", 'name=$(echo "topic/$(whoami)" | tr "[:upper:]" "[:lower:]"); git switch -q -c "$name" && git commit --allow-empty -q -m x'),
    ("feat", 'args=(push -q origin "HEAD:topic/$(date +%s)"); git "${args[@]}"'),
    ("feat", 'msg=$(git log -1 --format=%s); git commit --allow-empty -q -m "$msg (again)"'),
    ("main", 'git stash -q -u 2>/dev/null; git switch -q -c "wip-$(date +%s)" && git stash pop -q 2>/dev/null; true'),
    ("feat", 'up=$(git rev-parse --abbrev-ref --symbolic-full-name @{u}); git fetch -q origin && git rebase -q "$up"'),
    ("main", 'ts=$(date +%s); git worktree add -q -b "wt-$ts" "../wt-$ts" && git -C "../wt-$ts" commit --allow-empty -q -m w'),
    ("feat", 'n=$(git rev-list --count HEAD); git tag "build-$n"'),
    ("main", 'git branch -q "$(git rev-parse --abbrev-ref HEAD)-backup-$(date +%s)"'),
]

PLAIN = [
    ("main", "git commit --allow-empty -q -m direct"),
    ("feat", "git push -q origin feat:main"),
    ("feat", "git checkout -q -B main HEAD"),
    ("main", "git merge -q --no-edit feat"),
    ("main", "git commit --amend -q --allow-empty -m amended"),
    ("feat", "git push -q origin :main"),
    ("main", "git pull -q --rebase origin main"),
    ("main", "git switch -q -c topic/p && git commit --allow-empty -q -m p && git push -q -u origin topic/p"),
    ("feat", "git push -q --no-verify origin HEAD:topic/nv"),
    ("feat", "git cherry-pick -n main >/dev/null 2>&1; git status --short >/dev/null"),
    ("main", "git worktree add -q -b topic/wt .worktrees/wt && git -C .worktrees/wt commit --allow-empty -q -m w"),
    ("feat", "git branch -m feat topic/renamed"),
    ("main", "git gc -q && git pack-refs --all"),
    ("feat", "git stash -q -u 2>/dev/null; git stash list >/dev/null"),
]

CATEGORIES = [
    ("script", script_wrappers),
    ("recipe", recipe_wrappers),
    ("interpreter", interpreter_wrappers),
    ("alias", alias_wrappers),
    ("ownhooks", ownhooks_wrappers),
]


def main():
    print("# run-time layer corpus: category<TAB>setup<TAB>command; labels come from running")
    print("# each command (tests/it/runtime_corpus.rs), never from this file. Written by")
    print("# tests/corpus/runtime-gen.py; \\n in a command stands for a newline.")
    rows = []
    for category, wrap in CATEGORIES:
        for setup, action in ACTIONS:
            for command in wrap(action):
                rows.append((category, setup, command))
    rows += [("runtime", s, c) for s, c in RUNTIME]
    rows += [("plain", s, c) for s, c in PLAIN]
    seen = set()
    for category, setup, command in rows:
        assert "\t" not in command and command not in seen, command
        seen.add(command)
        print(f"{category}\t{setup}\t{command.replace(chr(10), chr(92) + 'n')}")


if __name__ == "__main__":
    main()
