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
