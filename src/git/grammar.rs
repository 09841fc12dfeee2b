//! Git's command-line grammar as data (shared/docs/git-grammar.md, verified on git 2.47):
//! the global options, and per subcommand which options take a value and how.
//!
//! [`parse_args`] follows parse-options: unique prefixes of long options, bundled short
//! flags with an attached value for the last one (`-ofoo` is `-o foo`), options after
//! positionals, `--` ending options, `--no-<option>` negations.

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A flag.
    Nothing,
    /// The rest of the word (`-mmsg`, `--message=msg`) or else the next word.
    Value,
    /// Only an attached value (`--force-with-lease=main`, `-S<key>`); never the next word.
    Attached,
}

/// One option of a command: its long name (the canonical name), its short letter.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub long: &'static str,
    pub short: Option<char>,
    pub takes: Takes,
}

const fn flag(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Nothing,
    }
}

const fn value(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Value,
    }
}

const fn attached(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Attached,
    }
}

/// Global options that take a separate value (or `=value` for the long ones).
pub const GLOBAL_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--attr-source",
];
/// Global options whose separate value is not allowed (`-C.` and `-cx=y` are rejected by git).
pub const GLOBAL_SEPARATE_ONLY: &[&str] = &["-C", "-c"];
/// Global flags that make git print something and exit without running a subcommand.
pub const GLOBAL_EXITS: &[&str] = &[
    "-v",
    "--version",
    "-h",
    "--help",
    "--html-path",
    "--man-path",
    "--info-path",
    "--exec-path",
];
/// Global flags that change nothing the guard cares about.
pub const GLOBAL_FLAGS: &[&str] = &[
    "-p",
    "--paginate",
    "-P",
    "--no-pager",
    "--bare",
    "--no-replace-objects",
    "--no-lazy-fetch",
    "--no-optional-locks",
    "--no-advice",
    "--literal-pathspecs",
    "--glob-pathspecs",
    "--noglob-pathspecs",
    "--icase-pathspecs",
];

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

/// Arguments after option parsing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Options in order, by canonical long name (`no-<name>` for a negation), with their
    /// value when they took one.
    pub opts: Vec<(String, Option<String>)>,
    pub positionals: Vec<String>,
    /// How many positionals came before a `--`, when there was one.
    pub dashdash: Option<usize>,
    /// Options git would reject (unknown or ambiguous): git then does nothing.
    pub errors: Vec<String>,
}

impl Parsed {
    pub fn has(&self, long: &str) -> bool {
        self.opts.iter().any(|(n, _)| n == long)
    }

    /// Whether the flag is on: set, and not negated by a later `--no-<long>`.
    pub fn on(&self, long: &str) -> bool {
        let negated = format!("no-{long}");
        self.opts
            .iter()
            .rev()
            .find(|(n, _)| n == long || *n == negated)
            .is_some_and(|(n, _)| n == long)
    }

    /// Every value given to an option, in order.
    pub fn values(&self, long: &str) -> Vec<&str> {
        self.opts
            .iter()
            .filter(|(n, _)| n == long)
            .filter_map(|(_, v)| v.as_deref())
            .collect()
    }

    /// The last value of an option.
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values(long).pop()
    }
}

/// Parses a subcommand's arguments with `table`.
pub fn parse_args(table: &[Opt], args: &[String]) -> Parsed {
    let mut out = Parsed::default();
    let mut k = 0;
    while let Some(arg) = args.get(k) {
        k += 1;
        if arg == "--" {
            out.dashdash = Some(out.positionals.len());
            out.positionals.extend(args[k..].iter().cloned());
            break;
        }
        if let Some(body) = arg.strip_prefix("--") {
            let (name, attached_value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            match long_option(table, name) {
                Ok((canonical, opt)) => {
                    let v = match (opt.map(|o| o.takes), attached_value) {
                        (Some(Takes::Value), None) => {
                            k += 1;
                            args.get(k - 1).cloned()
                        }
                        (_, v) => v,
                    };
                    out.opts.push((canonical, v));
                }
                Err(e) => out.errors.push(e),
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let chars: Vec<(usize, char)> = arg.char_indices().skip(1).collect();
            for (idx, c) in chars {
                match table.iter().find(|o| o.short == Some(c)) {
                    Some(opt) if opt.takes == Takes::Nothing => {
                        out.opts.push((opt.long.to_owned(), None))
                    }
                    Some(opt) => {
                        let rest = &arg[idx + c.len_utf8()..];
                        let v = if !rest.is_empty() {
                            Some(rest.to_owned())
                        } else if opt.takes == Takes::Value {
                            k += 1;
                            args.get(k - 1).cloned()
                        } else {
                            None
                        };
                        out.opts.push((opt.long.to_owned(), v));
                        break;
                    }
                    None => {
                        out.errors.push(format!("unknown switch `{c}`"));
                        break;
                    }
                }
            }
            continue;
        }
        out.positionals.push(arg.clone());
    }
    out
}

/// Resolves a long option name: exact, else a unique prefix; `no-<name>` negates.
fn long_option(table: &[Opt], name: &str) -> Result<(String, Option<Opt>), String> {
    if let Some(o) = table.iter().find(|o| o.long == name) {
        return Ok((o.long.to_owned(), Some(*o)));
    }
    let prefixed: Vec<&Opt> = table.iter().filter(|o| o.long.starts_with(name)).collect();
    if let [o] = prefixed.as_slice() {
        return Ok((o.long.to_owned(), Some(**o)));
    }
    if let Some(positive) = name.strip_prefix("no-") {
        if let Ok((canonical, _)) = long_option(table, positive) {
            return Ok((format!("no-{canonical}"), None));
        }
    }
    if prefixed.len() > 1 {
        return Err(format!("ambiguous option `--{name}`"));
    }
    Err(format!("unknown option `--{name}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(table: &[Opt], args: &str) -> Parsed {
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
