//! Git's subcommand grammars as data (shared/docs/git-grammar.md, verified on git 2.47):
//! per subcommand, which options take a value and how. The rules (parse-options: unique
//! prefixes of long options, bundles, options after positionals, `--`, `--no-<option>`)
//! are [`crate::argv`]'s; git's global options are a row of [`crate::argv::tables`].

use crate::argv::{self, attached, flag, value, Grammar, Opt};

pub const PUSH: &[Opt] = &[
    flag("all", None),
    flag("branches", None),
    flag("prune", None),
    flag("mirror", None),
    flag("dry-run", Some('n')),
    flag("porcelain", None),
    flag("delete", Some('d')),
    flag("tags", None),
    flag("follow-tags", None),
    attached("signed", None),
    flag("atomic", None),
    value("push-option", Some('o')),
    value("receive-pack", None),
    value("exec", None),
    attached("force-with-lease", None),
    flag("force-if-includes", None),
    flag("force", Some('f')),
    value("repo", None),
    flag("set-upstream", Some('u')),
    flag("thin", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    value("recurse-submodules", None),
    flag("verify", None),
    flag("no-verify", None),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
];

pub const COMMIT: &[Opt] = &[
    flag("all", Some('a')),
    flag("patch", Some('p')),
    value("reuse-message", Some('C')),
    value("reedit-message", Some('c')),
    value("fixup", None),
    value("squash", None),
    flag("reset-author", None),
    flag("short", None),
    flag("branch", None),
    flag("porcelain", None),
    flag("long", None),
    flag("null", Some('z')),
    value("file", Some('F')),
    value("author", None),
    value("date", None),
    value("message", Some('m')),
    value("template", Some('t')),
    flag("signoff", Some('s')),
    value("trailer", None),
    flag("no-verify", Some('n')),
    flag("verify", None),
    flag("allow-empty", None),
    flag("allow-empty-message", None),
    value("cleanup", None),
    flag("edit", Some('e')),
    flag("amend", None),
    flag("no-post-rewrite", None),
    flag("include", Some('i')),
    flag("only", Some('o')),
    value("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
    attached("untracked-files", Some('u')),
    flag("verbose", Some('v')),
    flag("quiet", Some('q')),
    flag("dry-run", None),
    flag("status", None),
    attached("gpg-sign", Some('S')),
];

pub const MERGE: &[Opt] = &[
    flag("commit", None),
    flag("edit", Some('e')),
    value("cleanup", None),
    flag("ff", None),
    flag("ff-only", None),
    attached("gpg-sign", Some('S')),
    attached("log", None),
    flag("signoff", None),
    flag("stat", None),
    flag("no-stat", Some('n')),
    flag("squash", None),
    flag("verify", None),
    flag("no-verify", None),
    value("strategy", Some('s')),
    value("strategy-option", Some('X')),
    flag("verify-signatures", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    flag("autostash", None),
    flag("allow-unrelated-histories", None),
    value("message", Some('m')),
    value("into-name", None),
    value("file", Some('F')),
    flag("rerere-autoupdate", None),
    flag("overwrite-ignore", None),
    flag("abort", None),
    flag("quit", None),
    flag("continue", None),
];

pub const REBASE: &[Opt] = &[
    value("onto", None),
    flag("keep-base", None),
    flag("continue", None),
    flag("abort", None),
    flag("quit", None),
    flag("skip", None),
    flag("edit-todo", None),
    flag("show-current-patch", None),
    flag("merge", Some('m')),
    value("strategy", Some('s')),
    value("strategy-option", Some('X')),
    attached("gpg-sign", Some('S')),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("stat", None),
    flag("no-stat", Some('n')),
    flag("no-verify", None),
    flag("verify", None),
    value("context", Some('C')),
    flag("ignore-whitespace", None),
    value("whitespace", None),
    flag("committer-date-is-author-date", None),
    flag("ignore-date", None),
    flag("reset-author-date", None),
    flag("signoff", None),
    flag("force-rebase", Some('f')),
    flag("no-ff", None),
    flag("fork-point", None),
    flag("apply", None),
    value("empty", None),
    flag("interactive", Some('i')),
    attached("rebase-merges", Some('r')),
    value("exec", Some('x')),
    flag("root", None),
    flag("autosquash", None),
    flag("autostash", None),
    flag("reschedule-failed-exec", None),
    flag("update-refs", None),
    flag("reapply-cherry-picks", None),
    flag("allow-empty-message", None),
    flag("keep-empty", None),
    value("trailer", None),
];

pub const PICK: &[Opt] = &[
    flag("continue", None),
    flag("skip", None),
    flag("abort", None),
    flag("quit", None),
    flag("edit", Some('e')),
    value("cleanup", None),
    flag("x", Some('x')),
    flag("r", Some('r')),
    value("mainline", Some('m')),
    flag("no-commit", Some('n')),
    flag("signoff", Some('s')),
    flag("ff", None),
    flag("allow-empty", None),
    flag("allow-empty-message", None),
    flag("keep-redundant-commits", None),
    value("empty", None),
    value("strategy", None),
    value("strategy-option", Some('X')),
    attached("gpg-sign", Some('S')),
    flag("rerere-autoupdate", None),
    flag("reference", None),
];

pub const AM: &[Opt] = &[
    flag("signoff", Some('s')),
    flag("keep", Some('k')),
    flag("keep-non-patch", None),
    flag("keep-cr", None),
    flag("scissors", Some('c')),
    value("quoted-cr", None),
    value("empty", None),
    flag("message-id", Some('m')),
    flag("quiet", Some('q')),
    flag("utf8", Some('u')),
    flag("3way", Some('3')),
    flag("rerere-autoupdate", None),
    flag("ignore-space-change", None),
    flag("ignore-whitespace", None),
    value("whitespace", None),
    value("context", Some('C')),
    value("p", Some('p')),
    value("directory", None),
    value("exclude", None),
    value("include", None),
    flag("reject", None),
    value("patch-format", None),
    flag("interactive", Some('i')),
    flag("committer-date-is-author-date", None),
    flag("ignore-date", None),
    flag("skip", None),
    attached("gpg-sign", Some('S')),
    flag("continue", Some('r')),
    flag("resolved", None),
    value("resolvemsg", None),
    flag("abort", None),
    flag("quit", None),
    attached("show-current-patch", None),
    flag("allow-empty", None),
];

pub const FETCH: &[Opt] = &[
    flag("all", None),
    flag("append", Some('a')),
    flag("atomic", None),
    value("depth", None),
    value("deepen", None),
    value("shallow-since", None),
    value("shallow-exclude", None),
    flag("unshallow", None),
    flag("update-shallow", None),
    value("negotiation-tip", None),
    flag("negotiate-only", None),
    flag("dry-run", None),
    flag("porcelain", None),
    flag("write-fetch-head", None),
    flag("force", Some('f')),
    flag("keep", Some('k')),
    flag("multiple", None),
    flag("auto-maintenance", None),
    flag("auto-gc", None),
    flag("write-commit-graph", None),
    flag("prefetch", None),
    flag("prune", Some('p')),
    flag("prune-tags", Some('P')),
    flag("no-tags", Some('n')),
    flag("refetch", None),
    value("refmap", None),
    flag("tags", Some('t')),
    attached("recurse-submodules", None),
    value("jobs", Some('j')),
    flag("set-upstream", None),
    value("submodule-prefix", None),
    value("recurse-submodules-default", None),
    flag("update-head-ok", Some('u')),
    value("upload-pack", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    value("server-option", Some('o')),
    flag("show-forced-updates", None),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
    flag("stdin", None),
];

/// `git pull`: its own options plus merge's, rebase's and fetch's.
pub const PULL: &[Opt] = &[
    attached("rebase", Some('r')),
    flag("ff-only", None),
    flag("ff", None),
    flag("commit", None),
    flag("edit", Some('e')),
    value("cleanup", None),
    attached("log", None),
    flag("signoff", None),
    flag("stat", None),
    flag("no-stat", Some('n')),
    flag("squash", None),
    value("strategy", Some('s')),
    value("strategy-option", Some('X')),
    flag("verify-signatures", None),
    flag("autostash", None),
    flag("allow-unrelated-histories", None),
    flag("verify", None),
    flag("no-verify", None),
    attached("gpg-sign", Some('S')),
    flag("all", None),
    flag("append", Some('a')),
    value("depth", None),
    value("deepen", None),
    value("shallow-since", None),
    value("shallow-exclude", None),
    flag("unshallow", None),
    flag("update-shallow", None),
    flag("force", Some('f')),
    flag("keep", Some('k')),
    flag("no-tags", None),
    flag("tags", Some('t')),
    value("jobs", Some('j')),
    flag("update-head-ok", Some('u')),
    value("upload-pack", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    value("server-option", Some('o')),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
    flag("dry-run", None),
    flag("set-upstream", None),
    attached("recurse-submodules", None),
    flag("prune", Some('p')),
];

pub const RESET: &[Opt] = &[
    flag("soft", None),
    flag("mixed", None),
    flag("hard", None),
    flag("merge", None),
    flag("keep", None),
    attached("recurse-submodules", None),
    flag("quiet", Some('q')),
    flag("refresh", None),
    flag("patch", Some('p')),
    flag("intent-to-add", Some('N')),
    value("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
];

pub const BRANCH: &[Opt] = &[
    flag("delete", Some('d')),
    flag("D", Some('D')),
    flag("move", Some('m')),
    flag("M", Some('M')),
    flag("copy", Some('c')),
    flag("C", Some('C')),
    flag("force", Some('f')),
    value("set-upstream-to", Some('u')),
    flag("unset-upstream", None),
    flag("edit-description", None),
    flag("list", Some('l')),
    flag("all", Some('a')),
    flag("remotes", Some('r')),
    flag("verbose", Some('v')),
    value("contains", None),
    value("no-contains", None),
    value("merged", None),
    value("no-merged", None),
    value("points-at", None),
    value("sort", None),
    value("format", None),
    attached("color", None),
    attached("column", None),
    flag("show-current", None),
    attached("track", Some('t')),
    flag("recurse-submodules", None),
    flag("create-reflog", None),
    flag("quiet", Some('q')),
    flag("ignore-case", Some('i')),
    flag("omit-empty", None),
    attached("abbrev", None),
];

pub const CHECKOUT: &[Opt] = &[
    value("b", Some('b')),
    value("B", Some('B')),
    value("orphan", None),
    flag("detach", None),
    flag("force", Some('f')),
    flag("merge", Some('m')),
    flag("ours", Some('2')),
    flag("theirs", Some('3')),
    attached("track", Some('t')),
    flag("l", Some('l')),
    flag("guess", None),
    flag("patch", Some('p')),
    flag("quiet", Some('q')),
    flag("progress", None),
    attached("conflict", None),
    flag("overlay", None),
    value("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
    attached("recurse-submodules", None),
    flag("ignore-skip-worktree-bits", None),
    flag("ignore-other-worktrees", None),
    flag("overwrite-ignore", None),
];

pub const SWITCH: &[Opt] = &[
    value("create", Some('c')),
    value("force-create", Some('C')),
    value("orphan", None),
    flag("detach", Some('d')),
    flag("guess", None),
    flag("discard-changes", Some('f')),
    flag("force", None),
    flag("merge", Some('m')),
    attached("conflict", None),
    flag("quiet", Some('q')),
    flag("progress", None),
    attached("track", Some('t')),
    attached("recurse-submodules", None),
    flag("ignore-other-worktrees", None),
];

pub const WORKTREE_ADD: &[Opt] = &[
    flag("force", Some('f')),
    flag("detach", None),
    flag("checkout", None),
    flag("lock", None),
    value("reason", None),
    flag("orphan", None),
    value("b", Some('b')),
    value("B", Some('B')),
    flag("quiet", Some('q')),
    attached("track", None),
    flag("guess-remote", None),
    flag("relative-paths", None),
];

pub const UPDATE_REF: &[Opt] = &[
    value("m", Some('m')),
    flag("no-deref", None),
    flag("d", Some('d')),
    flag("create-reflog", None),
    flag("stdin", None),
    flag("z", Some('z')),
    flag("batch-updates", None),
];

/// A subcommand's arguments after option parsing.
pub type Parsed = argv::Parsed<String>;

/// Parses a subcommand's arguments with `table`, by git's parse-options rules (see
/// [`crate::argv`]).
pub fn parse_args(table: &'static [Opt], args: &[String]) -> Parsed {
    argv::parse(&Grammar::git(table), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(table: &'static [Opt], args: &str) -> Parsed {
        parse_args(
            table,
            &args
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn push_grammar_from_the_docs() {
        // Unique prefixes; an ambiguous one is an error.
        assert!(p(PUSH, "--mir origin").on("mirror"));
        assert!(p(PUSH, "--del origin main").on("delete"));
        assert_eq!(p(PUSH, "--force-w origin").opts[0].0, "force-with-lease");
        assert_eq!(
            p(PUSH, "--forc origin").errors,
            ["ambiguous option `--forc`"]
        );
        // Short bundles; a value option takes the rest of the word.
        let b = p(PUSH, "-fu origin feat");
        assert!(b.on("force") && b.on("set-upstream"));
        let o = p(PUSH, "-ofoo origin feat");
        assert_eq!(o.value("push-option"), Some("foo"));
        assert!(!o.on("force"));
        assert_eq!(o.positionals, ["origin", "feat"]);
        // Options after positionals, and `--`.
        assert!(p(PUSH, "origin main --force").on("force"));
        let d = p(PUSH, "origin -- main");
        assert_eq!(
            (d.positionals.clone(), d.dashdash),
            (vec!["origin".to_owned(), "main".to_owned()], Some(1))
        );
        // Values: separate for --repo, attached only for --force-with-lease.
        assert_eq!(p(PUSH, "--repo origin main").value("repo"), Some("origin"));
        let l = p(PUSH, "--force-with-lease origin main");
        assert_eq!(l.positionals, ["origin", "main"]);
        assert_eq!(
            p(PUSH, "--force-with-lease=main:abc origin").value("force-with-lease"),
            Some("main:abc")
        );
        // Negation.
        let n = p(PUSH, "--force-with-lease --no-force-with-lease origin");
        assert!(!n.on("force-with-lease"));
        assert!(p(PUSH, "--no-verify").on("no-verify"));
    }

    #[test]
    fn commit_values_do_not_become_positionals() {
        let c = p(COMMIT, "-am msg --author x -Skey file");
        assert_eq!(c.value("message"), Some("msg"));
        assert_eq!(c.value("gpg-sign"), Some("key"));
        assert_eq!(c.positionals, ["file"]);
    }
}
