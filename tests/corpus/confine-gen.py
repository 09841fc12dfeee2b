#!/usr/bin/env python3
"""Writes tests/corpus/confine-generated.tsv: file writes (some land outside the project,
some inside it or in the temp directory) reached through the habits the static reading
cannot follow (a script written then run, a make recipe, an npm script, an interpreter,
find/xargs, a path computed when the command runs), plus programs that write their own
files elsewhere (git making repositories and worktrees, venvs, tools' configuration in the
home directory). No labels: tests/it/confine_corpus.rs runs every row without a guard to
learn what it does.

    python3 tests/corpus/confine-gen.py > tests/corpus/confine-generated.tsv
"""

# (name, shell action): each writes one file; $T is replaced by the target path.
OUTSIDE = [
    ("outside dir", "$S/outside/new.txt"),
    ("outside existing", "$S/outside/file.txt"),
    ("outside deep", "$S/outside/a/b/c.txt"),
    ("new dir beside the project", "$S/elsewhere/out.txt"),
    ("parent of project", "$S/stray.txt"),
    ("through ..", "$S/work/../outside/dotdot.txt"),
    ("home dotfile", "$HOME/.bashrc"),
    ("home rc", "$HOME/.npmrc"),
    ("home config", "$HOME/.config/tool/config.json"),
    ("home file", "$HOME/notes.txt"),
    ("home ssh", "$HOME/.ssh/config"),
    ("home bin", "$HOME/.local/bin/tool"),
    ("sibling repo", "$S/sibling/NOTES.md"),
    ("sibling hooks", "$S/sibling/.git/hooks/post-checkout"),
    ("origin work", "$S/outside/origin-notes.md"),
]
INSIDE = [
    ("project file", "out.txt"),
    ("project subdir", "build/out.txt"),
    ("project existing", "notes.txt"),
    ("project deep", "src/gen/a/b.py"),
    ("project dotdir", ".cache/out.txt"),
    ("project logs", "logs/run.log"),
    ("absolute inside", "$S/work/dist/out.txt"),
    ("inside through ..", "src/../build/up.txt"),
    ("temp dir", "$TMPDIR/scratch.txt"),
    ("temp deep", "$TMPDIR/a/b/c.txt"),
    ("temp logs", "$TMPDIR/logs/out.log"),
    ("project src edit", "src/app.py"),
    ("project docs", "docs/guide.md"),
    ("project hidden", ".env.example"),
    ("project coverage", "coverage/lcov.info"),
]


def mkdir_for(target):
    d = target.rsplit("/", 1)[0] if "/" in target else "."
    return f'mkdir -p "{d}"'


def habits(target):
    """Each habit writes `target` (a path, possibly with $S/$HOME/$TMPDIR in it)."""
    t = target
    yield "script", f"cat > w.sh <<'EOF'\\n{mkdir_for(t)}\\necho data > \"$1\"\\nEOF\\nbash w.sh \"{t}\""
    yield "script", f"echo '#!/bin/sh' > w2.sh && echo '{mkdir_for(t)}' >> w2.sh && echo 'echo data >> \"{t}\"' >> w2.sh && chmod +x w2.sh && ./w2.sh"
    m = t.replace("$HOME", "$$HOME").replace("$TMPDIR", "$$TMPDIR")
    yield "recipe", f"cat > Makefile <<'EOF'\\nout:\\n\\t@{mkdir_for(m)} && echo data > \"{m}\"\\nEOF\\nmake -s out"
    yield "recipe", f"echo '{{\"scripts\":{{\"gen\":\"{mkdir_for(t).replace(chr(34), '')} && echo data > {t}\"}}}}' > package.json && npm run -s gen"
    yield "interpreter", f"python3 -c 'import os,sys; p=os.path.expandvars(sys.argv[1]); os.makedirs(os.path.dirname(os.path.abspath(p)), exist_ok=True); open(p,\"w\").write(\"data\")' \"{t}\""
    yield "interpreter", f"node -e 'const fs=require(\"fs\"),p=require(\"path\");const f=p.resolve(process.argv[1]);fs.mkdirSync(p.dirname(f),{{recursive:true}});fs.writeFileSync(f,\"data\")' \"{t}\""
    yield "interpreter", f"{mkdir_for(t)} && perl -e 'open(my $f, \">\", $ARGV[0]) or die; print $f \"data\"' \"{t}\""
    yield "runtime", f"f=\"{t}\"; {mkdir_for(t).replace(t, '$f')} && echo data | tee \"$f\" >/dev/null"
    yield "runtime", f"{mkdir_for(t)} && echo \"{t}\" | xargs -I{{}} sh -c 'echo data > \"$1\"' _ {{}}"
    yield "runtime", f"d=$(dirname \"{t}\"); mkdir -p \"$d\" && cp README.md \"$d/$(basename \"{t}\")\""


rows = []
for name, target in OUTSIDE + INSIDE:
    for category, command in habits(target):
        rows.append((category, command))

# Programs that write their own files elsewhere, and their honest counterparts.
PROGRAMS = [
    ("git", "git init -q \"$S/outside/newrepo\""),
    ("git", "git clone -q . \"$S/outside/copy\""),
    ("git", "git worktree add -q ../wt -b wt-branch"),
    ("git", "git worktree add -q \"$S/outside/wt\" -b wt2"),
    ("git", "git -C \"$S/sibling\" commit -q --allow-empty -m from-agent"),
    ("git", "git bundle create -q \"$S/outside/repo.bundle\" HEAD"),
    ("git", "git archive -o \"$S/outside/src.tar\" HEAD"),
    ("git", "git format-patch -q -1 -o \"$S/outside/patches\" HEAD"),
    ("git", "git worktree add -q .worktrees/topic -b topic"),
    ("git", "git archive -o build.tar HEAD"),
    ("git", "git format-patch -q -1 -o patches HEAD"),
    ("git", "git stash -q -u 2>/dev/null; git stash list >/dev/null; echo ok"),
    ("git", "git switch -q -c topic/x && echo x >> notes.txt && git commit -qam x && git push -q origin topic/x"),
    ("git", "git config user.name agent2 && git config push.default current && git branch -m feat feat2"),
    ("home", "git config --global alias.st status"),
    ("home", "git config --global user.name someone"),
    ("home", "npm config set fund false"),
    ("home", "mkdir -p ~/.ssh && echo 'Host x' >> ~/.ssh/config"),
    ("home", "mkdir -p ~/.local/bin && echo '#!/bin/sh' > ~/.local/bin/helper && chmod +x ~/.local/bin/helper"),
    ("home", "echo 'export PATH=$PATH:/opt/x' >> ~/.profile"),
    ("home", "git config --get user.name; cat ~/.gitconfig >/dev/null; echo read-only"),
    ("home", "git config user.email agent@example.invalid"),
    ("envmgr", "python3 -m venv \"$S/outside/venv\""),
    ("envmgr", "python3 -m venv ~/.venvs/proj"),
    ("envmgr", "python3 -m venv .venv"),
    ("envmgr", "npm init -y >/dev/null"),
    ("envmgr", "python3 -m venv \"$TMPDIR/venv\""),
]
rows.extend(PROGRAMS)

print("# run-time write layer corpus, generated by tests/corpus/confine-gen.py: category<TAB>command.")
print("# Labels come from running each command (tests/it/confine_corpus.rs), never from this file.")
print("# $S is the world's directory; the cwd is $S/work, HOME is $S/home, TMPDIR is $S/tmp.")
for category, command in rows:
    print(f"{category}\t{command}")
