# Builds the scratch tree the scope corpora run against. Run with cwd = the scratch dir S.
#   S/root    a git repository, default policy (no policy file)
#   S/strict  a git repository whose policy allows only src/** and docs/*.md, denies
#             src/generated/**, and allows writes outside the root only under S/scratch/**
#   S/outside a directory outside both roots; S/scratch the allowed outside directory
#   S/state   the state directory (DID_IT_ACTUALLY_STATE_DIR); S/home is HOME
set -eu
S=$(pwd)
mkdir -p outside scratch state home/.claude
printf '{}\n' > home/.claude/settings.json
for p in root strict; do
  mkdir -p "$p"
  git init -q "$p"
  mkdir -p "$p/src/lib" "$p/src/generated" "$p/docs" "$p/certs" "$p/keys" "$p/.claude" "$p/deep/a/b/c"
  printf 'fn main() {}\n' > "$p/src/main.rs"
  printf 'x\n' > "$p/docs/guide.md"
  printf 'SECRET=1\n' > "$p/.env"
  printf 'pem\n' > "$p/certs/server.pem"
  printf 'key\n' > "$p/keys/id_rsa"
  printf '{}\n' > "$p/.claude/settings.json"
  ln -s "$S/outside" "$p/link-out"
  ln -s src "$p/link-in"
  ln -s "$S/outside/new.txt" "$p/dangling-out"
  ln -s src/new.txt "$p/dangling-in"
  ln -s ../../outside "$p/src/rel-out"
  ln -s "$S/$p/.git" "$p/git-link"
  mkdir -p "$p/$(printf 'caf\303\251')"
  printf 'nfd\n' > "$p/$(printf 'cafe\314\201').txt"
done
cat > strict/.did-it-actually.json <<JSON
{"version": 1, "scope": {"allow": ["src/**", "docs/*.md"], "deny": ["src/generated/**"],
 "outside_root": {"allow": ["$S/scratch/**"]}}}
JSON

# Added for the corpora's symlink, guarded-file and policy cases.
#   S/wide        a git repository whose policy allows everything: deny is empty and
#                 outside_root allows S/**, so only the guard's own files stay denied
#   S/alias-root, S/alias-strict  symlinks to the projects (the root reached through a
#                 symlinked parent directory)
#   S/outside/file.txt an existing file outside; S/outside/sub an existing directory
mkdir -p outside/sub wide/src wide/.claude
printf 'o\n' > outside/file.txt
git init -q wide
printf 'fn main() {}\n' > wide/src/main.rs
printf '{}\n' > wide/.claude/settings.json
cat > wide/.did-it-actually.json <<JSON
{"version": 1, "scope": {"deny": [], "outside_root": {"allow": ["$S/**"]}}}
JSON
ln -s "$S/root" alias-root
ln -s "$S/strict" alias-strict
for p in root strict; do
  ln -s link-out "$p/chain"                                  # -> link-out -> S/outside
  ln -s loop "$p/loop"                                       # a symlink loop
  ln -s .. "$p/up"                                           # -> S
  ln -s "$S/outside/file.txt" "$p/file-out"                  # -> an existing file outside
  ln -s "$S/scratch" "$p/link-scratch"
  ln -s "$S/state" "$p/link-state"
  ln -s .did-it-actually.json "$p/link-policy"               # dangling in root (no policy file)
  ln -s .claude/settings.json "$p/link-settings"
  ln -s "$S/home/.claude/settings.json" "$p/link-home-settings"
  ln -s .env "$p/link-env"
  ln -s .git/hooks/pre-commit "$p/link-hook"                 # dangling, into .git
  ln -s dangling-out "$p/dangle-chain"                       # -> dangling-out -> S/outside/new.txt
  ln -s src/newdir/x.rs "$p/dangling-deep"                   # dangling, into a missing directory inside
  ln -s src/generated/new.rs "$p/dangling-gen"
  mkdir -p "$p/src"
  ln -s ../../outside/new2.txt "$p/src/dangling-up"
  ln -s ../docs "$p/src/docs-link"                           # a symlinked directory inside, elsewhere in the root
  ln "$S/outside/file.txt" "$p/hard-out"                     # a hard link to a file outside
done
ln -s "$S/state" wide/link-state
ln -s .did-it-actually.json wide/link-policy
ln -s .claude/settings.json wide/link-settings
ln -s "$S/home/.claude/settings.json" wide/link-home-settings
