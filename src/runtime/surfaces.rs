//! Where the guard defends itself: one table of the surfaces an agent's command could use
//! to weaken, redirect or switch off a layer, each with why it is protected, which layer
//! protects it, and how the user changes it. `check-path` and `explain` answer from it,
//! `docs/run-time-layers.md` shows it (a test keeps the page equal to [`markdown`]), and
//! `tests/it/run_time_writes.rs` holds each row's words to what a confined command
//! really meets.

use std::path::Path;

/// How the run-time layers hold a surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Bound read-only in the command's own view where it exists; created where none was,
    /// moved to the state directory's quarantine when the command ends.
    ReadOnly,
    /// Read-only where it exists; a new or changed file is never in force until the user
    /// approves it.
    Approved,
    /// Written by git in everyday work, so writable; what plants code is taken out when
    /// the command ends.
    CheckedAfter,
    /// Outside every directory the kernel lets the command write.
    Outside,
}

pub struct Surface {
    /// The path (relative to the project root, `~` the home directory, `<state>` the
    /// state directory) or the key.
    pub name: &'static str,
    pub why: &'static str,
    pub hold: Hold,
    /// Which layers protect it, in words.
    pub layers: &'static str,
    /// How the user changes it.
    pub change: &'static str,
}

pub const SURFACES: &[Surface] = &[
    Surface {
        name: ".did-it-actually.json",
        why: "the policy every guard applies",
        hold: Hold::Approved,
        layers: "scope-guard refuses the write tools and the writes it can read; read-only to the agent's commands; a new or changed file is not in force until approved",
        change: "edit it, then `did-it-actually policy approve` at your terminal",
    },
    Surface {
        name: ".claude/settings.json",
        why: "Claude Code's project settings, where the hooks are registered",
        hold: Hold::ReadOnly,
        layers: "scope-guard refuses the write tools; read-only to the agent's commands; created by one, moved away after it",
        change: "`did-it-actually install` / `uninstall`, or edit it yourself",
    },
    Surface {
        name: ".claude/settings.local.json",
        why: "this machine's settings, which carry the run-time layers' variables",
        hold: Hold::ReadOnly,
        layers: "scope-guard refuses the write tools; read-only to the agent's commands; created by one, moved away after it",
        change: "`did-it-actually install` / `uninstall`, or edit it yourself",
    },
    Surface {
        name: ".claude/did-it-actually",
        why: "the launcher the project's settings run the hooks through",
        hold: Hold::ReadOnly,
        layers: "scope-guard refuses the write tools; read-only to the agent's commands; created by one, moved away after it",
        change: "`did-it-actually install`",
    },
    Surface {
        name: ".claude",
        why: "the directory of the settings above",
        hold: Hold::ReadOnly,
        layers: "pinned in the agent's commands' view: it cannot be moved aside (the rest of it stays writable)",
        change: "move it yourself",
    },
    Surface {
        name: ".env (and every literal scope.deny path)",
        why: "secrets, and what the policy denies by name",
        hold: Hold::ReadOnly,
        layers: "scope-guard refuses the writes it can read; read-only to the agent's commands; created by one, moved away after it",
        change: "edit it yourself, or narrow scope.deny",
    },
    Surface {
        name: ".git/hooks",
        why: "programs your own git runs later",
        hold: Hold::ReadOnly,
        layers: "read-only to the agent's commands (a local remote's hooks too); a hook made where there was no hooks directory is moved away after the command",
        change: "install hooks yourself (husky, lefthook, pre-commit run at your terminal)",
    },
    Surface {
        name: ".git/info/attributes",
        why: "chooses the filter and diff programs git runs on files",
        hold: Hold::ReadOnly,
        layers: "read-only to the agent's commands; created by one, moved away after it",
        change: "edit it yourself",
    },
    Surface {
        name: ".git/config (keys that run code: core.fsmonitor, core.hooksPath, core.pager, alias.* = !…, filter.*, diff.*.textconv, include.path, credential.helper, …)",
        why: "programs your own git runs later",
        hold: Hold::CheckedAfter,
        layers: "writable (git writes it); such a key the command adds, here or in a local remote's config, is removed when it ends; scope-guard refuses `git -c`/`GIT_CONFIG_*` that move the hooks path",
        change: "`git config` at your terminal",
    },
    Surface {
        name: ".git/refs/heads/<protected>, packed-refs (and a local remote's)",
        why: "the protected branches",
        hold: Hold::CheckedAfter,
        layers: "git's own reference-transaction and pre-push hooks refuse a move; a move made without them (a file written by hand, hooks taken out) is put back when the command ends",
        change: "move it yourself, outside the agent",
    },
    Surface {
        name: "<state> (approved policy, ledger, hook scripts, shell prefix)",
        why: "what the guards read and record",
        hold: Hold::Outside,
        layers: "outside every directory the kernel lets the agent's commands write; scope-guard refuses the write tools there",
        change: "`did-it-actually install`, `policy approve`",
    },
    Surface {
        name: "~/.claude/settings.json",
        why: "Claude Code's user settings",
        hold: Hold::Outside,
        layers: "outside every directory the kernel lets the agent's commands write (the home directory is not, but for its caches); scope-guard refuses the write tools there",
        change: "edit it yourself",
    },
    Surface {
        name: "DID_IT_ACTUALLY_POLICY, DID_IT_ACTUALLY_STATE_DIR, DID_IT_ACTUALLY_PROJECT",
        why: "what the guards read",
        hold: Hold::CheckedAfter,
        layers: "the hook scripts and the shell prefix fix them (a command that sets them changes nothing); the policy variable never puts a file in force",
        change: "set them in your environment, then `install` and `policy approve`",
    },
    Surface {
        name: "GIT_CONFIG_* (the git activation)",
        why: "switches git's run-time hooks on in the agent's commands",
        hold: Hold::CheckedAfter,
        layers: "scope-guard refuses the settings it can read; a git run without them is judged when the command ends (protected refs put back, planted keys removed)",
        change: "`did-it-actually install` / `uninstall`",
    },
    Surface {
        name: "claude --bare / --settings / --setting-sources / CLAUDE_CONFIG_DIR, CODEX_HOME, …",
        why: "an agent started without the guards",
        hold: Hold::CheckedAfter,
        layers: "scope-guard refuses them; what such a run starts stays confined, and is judged when the command ends",
        change: "run it yourself, outside the agent",
    },
];

/// The surface a resolved path is, inside the project `root` or the state directory.
pub fn of_path(path: &Path, root: &Path, state: Option<&Path>) -> Option<&'static Surface> {
    if state.is_some_and(|s| path.starts_with(s)) {
        return SURFACES.iter().find(|s| s.name.starts_with("<state>"));
    }
    let rel = path.strip_prefix(root).ok()?;
    let rel = rel.to_string_lossy();
    let first = |prefix: &str| {
        SURFACES
            .iter()
            .find(|s| s.name == prefix)
            .or_else(|| SURFACES.iter().find(|s| s.name.starts_with(prefix)))
    };
    match rel.as_ref() {
        ".did-it-actually.json" => first(".did-it-actually.json"),
        ".claude/settings.json" => first(".claude/settings.json"),
        ".claude/settings.local.json" => first(".claude/settings.local.json"),
        ".claude/did-it-actually" => first(".claude/did-it-actually"),
        ".claude" => first(".claude"),
        ".env" => first(".env"),
        ".git/config" | ".git/config.worktree" => first(".git/config"),
        ".git/info/attributes" => first(".git/info/attributes"),
        ".git/packed-refs" => first(".git/refs"),
        r if r.starts_with(".git/hooks") => first(".git/hooks"),
        r if r.starts_with(".git/refs/heads/") => first(".git/refs"),
        _ => None,
    }
}

/// The table as `docs/run-time-layers.md` shows it.
pub fn markdown() -> String {
    let mut out =
        String::from("| surface | why | how it is held | how you change it |\n|---|---|---|---|\n");
    for s in SURFACES {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            s.name, s.why, s.layers, s.change
        ));
    }
    out
}
