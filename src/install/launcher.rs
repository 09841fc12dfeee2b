//! The launcher a project install commits with the project (`.claude/did-it-actually`):
//! the shared `.claude/settings.json` names it (`${CLAUDE_PROJECT_DIR}/.claude/
//! did-it-actually`), never an absolute path of one machine. It runs the binary it was
//! installed with, else `did-it-actually` from PATH, `~/.local/bin` or `~/.cargo/bin`.
//! On a machine without any, it refuses the tool call with what to install and how
//! (exit 2 and the reason on stderr, which Claude Code reads as a refusal), instead of a
//! spawn error; for audit-turn it lets the stop go through with a notice (a stop hook
//! that cannot run must not trap the agent).

/// The launcher's path under the project.
pub const LAUNCHER: &str = ".claude/did-it-actually";

/// The command the shared settings run: the launcher, found from the project root.
pub const LAUNCHER_COMMAND: &str = "${CLAUDE_PROJECT_DIR}/.claude/did-it-actually";

/// What a launcher says where no binary is found.
pub const MISSING: &str = "did-it-actually is not installed on this machine, so this project's guards cannot run. Install it for this project (git clone the did-it-actually repository, then run install/install.sh --project ${CLAUDE_PROJECT_DIR:-<this project>} from it: the hooks are registered here already, so that adds the binary and this machine's files and registers nothing twice; or put did-it-actually on PATH), then run: did-it-actually doctor";

/// The first line after the shebang, by which a launcher of ours is recognised.
pub const MARKER: &str = "# did-it-actually launcher";

/// Where a launcher looks for the binary after the one it names, besides PATH: under
/// HOME, where install.sh and `cargo install` put it.
pub const HOME_BIN_DIRS: [&str; 2] = [".local/bin", ".cargo/bin"];

/// The words a launcher's `for` loop tries, in order: `named` (already quoted for the
/// shell) when given, then `did-it-actually` from PATH, then each of [`HOME_BIN_DIRS`].
pub fn candidates(named: Option<&str>) -> String {
    let name = crate::BINARY_NAME;
    let mut words: Vec<String> = named.map(str::to_owned).into_iter().collect();
    words.push(format!("\"$(command -v {name} 2>/dev/null)\""));
    words.extend(
        HOME_BIN_DIRS
            .iter()
            .map(|d| format!("\"$HOME/{d}/{name}\"")),
    );
    words.join(" ")
}

/// The launcher's text, trying `named` (the binary that wrote it, where the search would
/// not find it) first. Without it the launcher names no path of this machine.
pub fn script(named: Option<&str>) -> String {
    let quoted = named.map(|n| {
        shlex::try_quote(n)
            .map(|q| q.into_owned())
            .unwrap_or_else(|_| "''".into())
    });
    let candidates = candidates(quoted.as_deref());
    format!(
        r#"#!/bin/sh
{MARKER} (written by `did-it-actually install --project`; commit it with .claude/settings.json).
# It runs the did-it-actually binary of whoever runs the agent, and refuses, saying what to
# install, where there is none.
for bin in {candidates}; do
  if [ -n "$bin" ] && [ -x "$bin" ] && [ "$bin" != "$0" ]; then exec "$bin" "$@"; fi
done
msg="{MISSING}"
case "$1" in
  audit-turn) printf '{{"systemMessage":"%s (the stop went through unaudited)"}}\n' "$msg"; exit 0 ;;
esac
printf '%s\n' "$1: $msg; the call was refused" >&2
exit 2
"#
    )
}

/// Whether `text` is a launcher of ours.
pub fn is_ours(text: &str) -> bool {
    text.lines().nth(1).is_some_and(|l| l.starts_with(MARKER))
}
