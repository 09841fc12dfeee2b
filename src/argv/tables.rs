//! The grammars of the programs the guards read, one row each. Git's subcommands have
//! their own tables in [`crate::git::grammar`] (they follow the same rules); this holds
//! git's global options and the file writers'.

use super::{attached, flag, separate, value, Grammar, Opt, Unknown};

/// git's global options (before the subcommand), as `git.c` reads them in 2.47: exact
/// names only (no abbreviations), `-C` and `-c` with a separate value, an unknown option
/// refused (git then runs nothing).
pub const GIT_GLOBAL: Grammar = Grammar {
    opts: &[
        separate("C", Some('C')),
        separate("c", Some('c')),
        value("git-dir", None),
        value("work-tree", None),
        value("namespace", None),
        value("config-env", None),
        value("attr-source", None),
        // `--exec-path` prints the path and exits; `--exec-path=DIR` sets it.
        attached("exec-path", None),
        attached("list-cmds", None),
        flag("version", Some('v')),
        flag("help", Some('h')),
        flag("html-path", None),
        flag("man-path", None),
        flag("info-path", None),
        flag("paginate", Some('p')),
        flag("no-pager", Some('P')),
        flag("bare", None),
        flag("no-replace-objects", None),
        flag("no-lazy-fetch", None),
        flag("no-optional-locks", None),
        flag("no-advice", None),
        flag("literal-pathspecs", None),
        flag("glob-pathspecs", None),
        flag("noglob-pathspecs", None),
        flag("icase-pathspecs", None),
    ],
    permute: false,
    abbreviate: false,
    unknown: Unknown::Error,
};

/// Global options after which git prints something and exits without a subcommand.
pub const GIT_GLOBAL_EXITS: &[&str] = &[
    "version",
    "help",
    "html-path",
    "man-path",
    "info-path",
    "list-cmds",
];

/// The options of a copy-like command that name where things land.
const COPY_OPTS: &[Opt] = &[
    value("target-directory", Some('t')),
    value("suffix", Some('S')),
    flag("no-target-directory", Some('T')),
    flag("recursive", Some('r')),
    flag("R", Some('R')),
    flag("archive", Some('a')),
    flag("symbolic", Some('s')),
    flag("link", Some('l')),
    flag("force", Some('f')),
    flag("parents", None),
    flag("remove-destination", None),
    flag("no-dereference", Some('n')),
    flag("directory", Some('d')),
    flag("relative", None),
    // `--backup[=CONTROL]`, `--reflink[=WHEN]`, `--preserve[=ATTRS]`, `--context[=CTX]`:
    // an optional value is attached or absent.
    attached("backup", None),
    attached("reflink", None),
    value("sparse", None),
    attached("preserve", None),
    value("no-preserve", None),
    attached("context", None),
];

const INSTALL_OPTS: &[Opt] = &[
    value("target-directory", Some('t')),
    value("suffix", Some('S')),
    flag("no-target-directory", Some('T')),
    flag("directory", Some('d')),
    flag("D", Some('D')),
    value("mode", Some('m')),
    value("owner", Some('o')),
    value("group", Some('g')),
    value("strip-program", None),
    attached("backup", None),
    attached("context", None),
];

/// Which of a writer's arguments are the files it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// Read by code of its own in [`crate::shell::writes`] (a copy's destination, the
    /// files after `sed -i`'s script, an archive's output).
    Own,
    /// Every positional (`touch a b`); what `xargs` appends too.
    Positionals,
    /// The positional at this index (`uniq IN OUT`).
    Nth(usize),
    /// Every positional from this index on (`chmod MODE FILE…`).
    From(usize),
    /// The values of these options (`sort -o FILE`).
    Options(&'static [&'static str]),
}

/// One file writer: its name, its grammar, and which arguments it writes.
pub struct Writer {
    pub name: &'static str,
    pub grammar: Grammar,
    pub targets: Targets,
    /// Options that make it reach everything under a directory target (`rm -r`).
    pub recursive_with: &'static [&'static str],
    /// Options that make it create every missing parent (`mkdir -p`, `install -D`).
    pub parents_with: &'static [&'static str],
    /// It acts on a final symlink itself, not on what the link points to (`rm link`).
    pub acts_on_link: bool,
}

const fn own(name: &'static str, grammar: Grammar) -> Writer {
    writes(name, grammar, Targets::Own)
}

const fn writes(name: &'static str, grammar: Grammar, targets: Targets) -> Writer {
    Writer {
        name,
        grammar,
        targets,
        recursive_with: &[],
        parents_with: &[],
        acts_on_link: false,
    }
}

const fn deletes(
    name: &'static str,
    grammar: Grammar,
    recursive_with: &'static [&'static str],
) -> Writer {
    Writer {
        recursive_with,
        acts_on_link: true,
        ..writes(name, grammar, Targets::Positionals)
    }
}

const CHMOD_OPTS: &[Opt] = &[
    flag("recursive", Some('R')),
    value("reference", None),
    value("from", None),
    flag("no-dereference", Some('h')),
];

/// vim's options as `vim` reads them: `-s FILE` reads typed keys from FILE.
const EDITOR_OPTS: &[Opt] = &[
    value("s", Some('s')),
    value("c", Some('c')),
    value("cmd", None),
    value("S", Some('S')),
    value("u", Some('u')),
    value("U", Some('U')),
    value("i", Some('i')),
    value("T", Some('T')),
    value("t", Some('t')),
    value("q", Some('q')),
    value("w", Some('w')),
    value("W", Some('W')),
    flag("R", Some('R')),
];

/// vim's options in Ex mode (run as `ex`, or with `-e`/`-E`): `-s` is silent mode, a
/// flag (`ex -sc 'wq' f`).
pub const EDITOR_EX: Grammar = Grammar::gnu(&[
    flag("s", Some('s')),
    value("c", Some('c')),
    value("cmd", None),
    value("S", Some('S')),
    value("u", Some('u')),
    value("U", Some('U')),
    value("i", Some('i')),
    value("T", Some('T')),
    value("t", Some('t')),
    value("q", Some('q')),
    value("w", Some('w')),
    value("W", Some('W')),
    flag("R", Some('R')),
]);

/// The programs whose arguments name files they write. What the `Own` rows' arguments
/// mean is in [`crate::shell::writes`].
pub const WRITERS: &[Writer] = &[
    writes(
        "tee",
        Grammar::gnu(&[value("output-error", None)]),
        Targets::Positionals,
    ),
    own("cp", Grammar::gnu(COPY_OPTS)),
    own("mv", Grammar::gnu(COPY_OPTS)),
    own("ln", Grammar::gnu(COPY_OPTS)),
    own("install", Grammar::gnu(INSTALL_OPTS)),
    writes(
        "truncate",
        Grammar::gnu(&[value("size", Some('s')), value("reference", Some('r'))]),
        Targets::Positionals,
    ),
    writes(
        "touch",
        Grammar::gnu(&[
            value("date", Some('d')),
            value("t", Some('t')),
            value("reference", Some('r')),
            value("time", None),
        ]),
        Targets::Positionals,
    ),
    Writer {
        parents_with: &["parents"],
        ..writes(
            "mkdir",
            Grammar::gnu(&[
                value("mode", Some('m')),
                attached("context", None),
                flag("parents", Some('p')),
            ]),
            Targets::Positionals,
        )
    },
    deletes(
        "rm",
        Grammar::gnu(&[
            flag("recursive", Some('r')),
            flag("R", Some('R')),
            attached("interactive", None),
            attached("preserve-root", None),
        ]),
        &["recursive", "R"],
    ),
    deletes("rmdir", Grammar::gnu(&[flag("parents", Some('p'))]), &[]),
    deletes("unlink", Grammar::gnu(&[]), &[]),
    writes(
        "shred",
        Grammar::gnu(&[
            value("iterations", Some('n')),
            value("size", Some('s')),
            value("random-source", None),
            attached("remove", None),
        ]),
        Targets::Positionals,
    ),
    own(
        "sed",
        Grammar::gnu(&[
            value("expression", Some('e')),
            value("file", Some('f')),
            value("line-length", Some('l')),
            // `-i[SUFFIX]`, `--in-place[=SUFFIX]`: the suffix is attached or absent.
            attached("in-place", Some('i')),
            flag("follow-symlinks", None),
        ]),
    ),
    own(
        "curl",
        Grammar::gnu(&[
            value("output", Some('o')),
            value("output-dir", None),
            flag("remote-name", Some('O')),
            flag("remote-name-all", None),
            value("data", Some('d')),
            value("header", Some('H')),
            value("request", Some('X')),
            value("user", Some('u')),
            value("user-agent", Some('A')),
            value("referer", Some('e')),
            value("cookie", Some('b')),
            value("cookie-jar", Some('c')),
            value("form", Some('F')),
            value("upload-file", Some('T')),
            value("proxy", Some('x')),
            value("max-time", Some('m')),
            value("write-out", Some('w')),
            value("config", Some('K')),
            value("connect-timeout", None),
            value("retry", None),
            value("range", Some('r')),
            value("cert", Some('E')),
            value("key", None),
            value("cacert", None),
            value("data-raw", None),
            value("data-binary", None),
            value("data-urlencode", None),
            value("dump-header", Some('D')),
            value("trace", None),
            value("trace-ascii", None),
            value("stderr", None),
        ]),
    ),
    own(
        "wget",
        Grammar::gnu(&[
            value("output-document", Some('O')),
            value("directory-prefix", Some('P')),
            value("output-file", Some('o')),
            value("append-output", Some('a')),
            value("tries", Some('t')),
            value("timeout", Some('T')),
            value("user-agent", Some('U')),
            value("header", None),
            value("execute", Some('e')),
            value("input-file", Some('i')),
            value("user", None),
            value("password", None),
        ]),
    ),
    own(
        "unzip",
        Grammar::gnu(&[value("d", Some('d')), value("x", Some('x'))]),
    ),
    writes(
        "sort",
        Grammar::gnu(&[
            value("output", Some('o')),
            value("key", Some('k')),
            value("field-separator", Some('t')),
            value("buffer-size", Some('S')),
            value("temporary-directory", Some('T')),
            value("parallel", None),
            value("batch-size", None),
            value("files0-from", None),
            value("compress-program", None),
            value("random-source", None),
            value("sort", None),
        ]),
        Targets::Options(&["output"]),
    ),
    writes(
        "uniq",
        Grammar::gnu(&[
            value("skip-fields", Some('f')),
            value("skip-chars", Some('s')),
            value("check-chars", Some('w')),
            value("all-repeated", None),
            value("group", None),
        ]),
        Targets::Nth(1),
    ),
    Writer {
        recursive_with: &["recursive"],
        ..own("chmod", Grammar::gnu(CHMOD_OPTS))
    },
    Writer {
        recursive_with: &["recursive"],
        ..own("chown", Grammar::gnu(CHMOD_OPTS))
    },
    Writer {
        recursive_with: &["recursive"],
        ..own("chgrp", Grammar::gnu(CHMOD_OPTS))
    },
    own(
        "split",
        Grammar::gnu(&[
            value("lines", Some('l')),
            value("bytes", Some('b')),
            value("line-bytes", Some('C')),
            value("number", Some('n')),
            value("suffix-length", Some('a')),
            value("additional-suffix", None),
            value("filter", None),
            value("separator", Some('t')),
            flag("d", Some('d')),
            flag("x", Some('x')),
            attached("numeric-suffixes", None),
            attached("hex-suffixes", None),
        ]),
    ),
    own(
        "csplit",
        Grammar::gnu(&[
            value("prefix", Some('f')),
            value("suffix-format", Some('b')),
            value("digits", Some('n')),
        ]),
    ),
    own(
        "mktemp",
        Grammar::gnu(&[
            flag("directory", Some('d')),
            flag("dry-run", Some('u')),
            flag("quiet", Some('q')),
            flag("t", Some('t')),
            value("p", Some('p')),
            attached("tmpdir", None),
            value("suffix", None),
        ]),
    ),
    own(
        "ssh-keygen",
        Grammar {
            opts: &[
                value("f", Some('f')),
                value("C", Some('C')),
                value("N", Some('N')),
                value("P", Some('P')),
                value("t", Some('t')),
                value("b", Some('b')),
                value("m", Some('m')),
                value("O", Some('O')),
                value("I", Some('I')),
                value("n", Some('n')),
                value("V", Some('V')),
                value("z", Some('z')),
                value("Z", Some('Z')),
                value("a", Some('a')),
                value("D", Some('D')),
                value("E", Some('E')),
                value("F", Some('F')),
                value("R", Some('R')),
                value("s", Some('s')),
                value("Y", Some('Y')),
                value("r", Some('r')),
                value("w", Some('w')),
                value("G", Some('G')),
                value("T", Some('T')),
                value("M", Some('M')),
                value("S", Some('S')),
                value("J", Some('J')),
                value("j", Some('j')),
                value("K", Some('K')),
            ],
            permute: false,
            abbreviate: false,
            unknown: Unknown::Flag,
        },
    ),
    own(
        "zip",
        Grammar::gnu(&[
            value("output-file", Some('O')),
            flag("move", Some('m')),
            value("temp-path", Some('b')),
            value("suffixes", Some('n')),
            value("password", Some('P')),
            value("split-size", Some('s')),
            value("compression-method", Some('Z')),
            value("archive-comment", None),
        ]),
    ),
    own(
        "rsync",
        Grammar::gnu(&[
            value("backup-dir", None),
            value("log-file", None),
            value("write-batch", None),
            value("only-write-batch", None),
            value("read-batch", None),
            value("partial-dir", None),
            value("temp-dir", Some('T')),
            value("rsh", Some('e')),
            value("rsync-path", None),
            value("exclude", None),
            value("include", None),
            value("filter", Some('f')),
            value("files-from", None),
            value("exclude-from", None),
            value("include-from", None),
            value("suffix", None),
            value("chmod", None),
            value("chown", None),
            value("usermap", None),
            value("groupmap", None),
            value("timeout", None),
            value("contimeout", None),
            value("bwlimit", None),
            value("max-size", None),
            value("min-size", None),
            value("max-delete", None),
            value("compare-dest", None),
            value("copy-dest", None),
            value("link-dest", None),
            value("password-file", None),
            value("port", None),
            value("out-format", None),
            value("log-file-format", None),
            value("info", None),
            value("debug", None),
            value("modify-window", Some('@')),
            value("block-size", Some('B')),
            value("checksum-choice", None),
            value("compress-choice", None),
            value("compress-level", None),
            value("skip-compress", None),
            value("iconv", None),
            value("sockopts", None),
            value("protocol", None),
            value("address", None),
            flag("remove-source-files", None),
            flag("dry-run", Some('n')),
            flag("list-only", None),
        ]),
    ),
    own(
        "patch",
        Grammar::gnu(&[
            value("output", Some('o')),
            value("directory", Some('d')),
            value("strip", Some('p')),
            value("input", Some('i')),
            value("reject-file", Some('r')),
            value("prefix", Some('B')),
            value("suffix", Some('z')),
            value("basename-prefix", Some('Y')),
            value("fuzz", Some('F')),
            value("define", Some('D')),
            value("version-control", Some('V')),
            value("get", Some('g')),
            value("quoting-style", None),
            value("reject-format", None),
            value("read-only", None),
            flag("dry-run", None),
            flag("help", None),
            flag("version", Some('v')),
        ]),
    ),
    own("vi", Grammar::gnu(EDITOR_OPTS)),
    own("vim", Grammar::gnu(EDITOR_OPTS)),
    own("nvim", Grammar::gnu(EDITOR_OPTS)),
    own("ex", Grammar::gnu(EDITOR_OPTS)),
    own("view", Grammar::gnu(EDITOR_OPTS)),
    own("vimdiff", Grammar::gnu(EDITOR_OPTS)),
    own(
        "cargo",
        Grammar::gnu(&[
            value("target-dir", None),
            value("artifact-dir", None),
            value("manifest-path", None),
            value("package", Some('p')),
            value("features", Some('F')),
            value("target", None),
            value("jobs", Some('j')),
            value("profile", None),
            value("bin", None),
            value("example", None),
            value("test", None),
            value("bench", None),
            value("message-format", None),
            value("color", None),
            value("config", None),
            value("exclude", None),
            value("lockfile-path", None),
            value("Z", Some('Z')),
            value("C", Some('C')),
            value("root", None),
            value("vcs", None),
            value("name", None),
            value("edition", None),
            value("registry", None),
            value("index", None),
            value("git", None),
            value("branch", None),
            value("tag", None),
            value("rev", None),
            value("path", None),
            value("version", None),
        ]),
    ),
    // sqlite3 and openssl take single-dash long options: read by code of their own.
    own("sqlite3", Grammar::gnu(&[])),
    own("openssl", Grammar::gnu(&[])),
];

/// A file writer's row, by program name.
pub fn writer_row(name: &str) -> Option<&'static Writer> {
    WRITERS.iter().find(|w| w.name == name)
}

/// The grammar of a file writer, by program name.
pub fn writer(name: &str) -> Option<&'static Grammar> {
    writer_row(name).map(|w| &w.grammar)
}

/// `git checkout`'s options that matter for the files it writes: branch creation and
/// `--detach` switch branches instead of restoring paths.
pub const GIT_CHECKOUT_PATHS: Grammar = Grammar::gnu(&[
    value("b", Some('b')),
    value("B", Some('B')),
    value("orphan", None),
    value("conflict", None),
    value("pathspec-from-file", None),
    flag("detach", None),
]);

/// `git switch`: the options that move the work tree to another commit.
pub const GIT_SWITCH_TREE: Grammar = Grammar::gnu(&[
    value("create", Some('c')),
    value("force-create", Some('C')),
    value("orphan", None),
    value("conflict", None),
    flag("detach", Some('d')),
]);

/// `git reset`: the modes that rewrite the work tree.
pub const GIT_RESET_TREE: Grammar = Grammar::gnu(&[
    flag("hard", None),
    flag("merge", None),
    flag("keep", None),
    flag("soft", None),
    flag("mixed", None),
    value("pathspec-from-file", None),
]);

/// `git stash`'s options for `push` (and the bare `git stash`), and `apply`/`pop`.
pub const GIT_STASH: Grammar = Grammar::gnu(&[
    value("message", Some('m')),
    value("pathspec-from-file", None),
    flag("include-untracked", Some('u')),
    flag("all", Some('a')),
    flag("keep-index", Some('k')),
    flag("staged", Some('S')),
    flag("patch", Some('p')),
    flag("index", None),
    flag("quiet", Some('q')),
]);

/// `git clean`: `-f` (given twice to reach nested repositories), `-n`, and which files.
pub const GIT_CLEAN: Grammar = Grammar::gnu(&[
    flag("force", Some('f')),
    flag("dry-run", Some('n')),
    flag("interactive", Some('i')),
    flag("x", Some('x')),
    flag("X", Some('X')),
    flag("d", Some('d')),
    value("exclude", Some('e')),
]);

/// `git restore`, `git rm`, `git mv`: which options take a value, and which keep the
/// work tree untouched.
pub const GIT_RESTORE_RM_MV: Grammar = Grammar::gnu(&[
    value("source", Some('s')),
    value("pathspec-from-file", None),
    flag("staged", Some('S')),
    flag("worktree", Some('W')),
    flag("cached", None),
]);

/// `tar`: its modes and the options that name where it writes.
pub const TAR: Grammar = Grammar::gnu(&[
    flag("extract", Some('x')),
    flag("get", None),
    flag("create", Some('c')),
    flag("append", Some('r')),
    flag("update", Some('u')),
    value("file", Some('f')),
    value("directory", Some('C')),
    value("exclude", None),
    value("files-from", Some('T')),
    value("exclude-from", Some('X')),
    value("use-compress-program", Some('I')),
    value("transform", None),
    value("checkpoint-action", None),
    value("owner", None),
    value("group", None),
    value("mode", None),
    value("blocking-factor", Some('b')),
    flag("to-stdout", Some('O')),
    value("to-command", None),
]);

/// A program that runs the command after its own options (and `operands` more words).
pub struct Wrapper {
    pub name: &'static str,
    pub grammar: Grammar,
    /// Words between the options and the command (`timeout DURATION cmd`).
    pub operands: usize,
    /// The wrapped command's arguments are extended at run time (`xargs`).
    pub appends: bool,
}

const fn wrapper(name: &'static str, opts: &'static [Opt]) -> Wrapper {
    Wrapper {
        name,
        grammar: Grammar::runner(opts),
        operands: 0,
        appends: false,
    }
}

/// Programs that run the command they are given, by their option grammars. An unknown
/// option is taken as a flag; those that take a value must be listed, or their value
/// would be read as the command.
pub const WRAPPERS: &[Wrapper] = &[
    wrapper(
        "sudo",
        &[
            value("user", Some('u')),
            value("group", Some('g')),
            value("host", Some('h')),
            value("prompt", Some('p')),
            value("close-from", Some('C')),
            value("chdir", Some('D')),
            value("role", Some('r')),
            value("type", Some('t')),
            value("other-user", Some('U')),
            value("command-timeout", Some('T')),
        ],
    ),
    wrapper("doas", &[value("u", Some('u')), value("C", Some('C'))]),
    wrapper("command", &[]),
    wrapper("builtin", &[]),
    wrapper("exec", &[value("a", Some('a'))]),
    wrapper("nohup", &[]),
    wrapper(
        "time",
        &[value("format", Some('f')), value("output", Some('o'))],
    ),
    wrapper("nice", &[value("adjustment", Some('n'))]),
    wrapper(
        "ionice",
        &[
            value("class", Some('c')),
            value("classdata", Some('n')),
            value("pid", Some('p')),
            value("pgid", Some('P')),
            value("uid", Some('u')),
        ],
    ),
    Wrapper {
        operands: 1,
        ..wrapper(
            "timeout",
            &[value("signal", Some('s')), value("kill-after", Some('k'))],
        )
    },
    wrapper(
        "stdbuf",
        &[
            value("input", Some('i')),
            value("output", Some('o')),
            value("error", Some('e')),
        ],
    ),
    wrapper("setsid", &[]),
    Wrapper {
        operands: 1,
        ..wrapper("taskset", &[])
    },
    wrapper("unbuffer", &[]),
    wrapper("chronic", &[]),
    wrapper(
        "caffeinate",
        &[value("t", Some('t')), value("w", Some('w'))],
    ),
    Wrapper {
        appends: true,
        ..wrapper(
            "xargs",
            &[
                value("replace", Some('I')),
                value("max-args", Some('n')),
                value("max-lines", Some('L')),
                value("max-procs", Some('P')),
                value("max-chars", Some('s')),
                value("delimiter", Some('d')),
                value("eof", Some('E')),
                value("arg-file", Some('a')),
                value("process-slot-var", None),
            ],
        )
    },
    Wrapper {
        appends: true,
        ..wrapper(
            "parallel",
            &[
                value("jobs", Some('j')),
                value("sshlogin", Some('S')),
                value("joblog", None),
                value("results", None),
                value("I", Some('I')),
                value("delay", None),
                value("timeout", None),
            ],
        )
    },
    wrapper("busybox", &[]),
    // Tracers and debuggers run the program they are given.
    wrapper(
        "strace",
        &[
            value("output", Some('o')),
            value("expr", Some('e')),
            value("attach", Some('p')),
            value("string-limit", Some('s')),
            value("user", Some('u')),
            value("env", Some('E')),
            value("columns", Some('a')),
            value("trace-path", Some('P')),
            value("summary-sort-by", Some('S')),
            value("const-print-style", Some('X')),
            value("interruptible", Some('I')),
            value("detach-on", Some('b')),
            value("status", None),
            value("trace", None),
            value("signal", None),
        ],
    ),
    wrapper(
        "ltrace",
        &[
            value("output", Some('o')),
            value("e", Some('e')),
            value("p", Some('p')),
            value("s", Some('s')),
            value("u", Some('u')),
            value("n", Some('n')),
            value("l", Some('l')),
            value("a", Some('a')),
            value("A", Some('A')),
            value("D", Some('D')),
            value("F", Some('F')),
            value("x", Some('x')),
        ],
    ),
    // valgrind's own options are all `--name=value`.
    wrapper("valgrind", &[]),
    // Namespaces, privileges, limits and scheduling.
    wrapper(
        "nsenter",
        &[
            value("target", Some('t')),
            value("setuid", Some('S')),
            value("setgid", Some('G')),
            attached("root", Some('r')),
            attached("wd", Some('w')),
            attached("mount", Some('m')),
            attached("uts", Some('u')),
            attached("ipc", Some('i')),
            attached("net", Some('n')),
            attached("pid", Some('p')),
            attached("cgroup", Some('C')),
            attached("user", Some('U')),
            attached("time", Some('T')),
        ],
    ),
    wrapper(
        "unshare",
        &[
            value("setuid", Some('S')),
            value("setgid", Some('G')),
            value("root", Some('R')),
            value("wd", Some('w')),
            value("propagation", None),
            value("setgroups", None),
            value("map-user", None),
            value("map-group", None),
            value("map-users", None),
            value("map-groups", None),
            attached("mount", Some('m')),
            attached("uts", Some('u')),
            attached("ipc", Some('i')),
            attached("net", Some('n')),
            attached("pid", Some('p')),
            attached("cgroup", Some('C')),
            attached("user", Some('U')),
            attached("time", Some('T')),
            attached("kill-child", None),
        ],
    ),
    Wrapper {
        operands: 1,
        ..wrapper(
            "chrt",
            &[
                value("sched-runtime", Some('T')),
                value("sched-period", Some('P')),
                value("sched-deadline", Some('D')),
            ],
        )
    },
    wrapper(
        "setpriv",
        &[
            value("reuid", None),
            value("regid", None),
            value("ruid", None),
            value("euid", None),
            value("rgid", None),
            value("egid", None),
            value("groups", None),
            value("inh-caps", None),
            value("ambient-caps", None),
            value("bounding-set", None),
            value("securebits", None),
            value("pdeathsig", None),
            value("selinux-label", None),
            value("apparmor-profile", None),
            value("landlock-access", None),
            value("landlock-rule", None),
        ],
    ),
    // prlimit's limits take optional attached values (`--nofile=1024`, `-n1024`).
    wrapper(
        "prlimit",
        &[value("pid", Some('p')), value("output", Some('o'))],
    ),
    wrapper(
        "numactl",
        &[
            value("interleave", Some('i')),
            value("preferred", Some('p')),
            value("membind", Some('m')),
            value("cpunodebind", Some('N')),
            value("physcpubind", Some('C')),
            value("weighted-interleave", Some('w')),
        ],
    ),
    wrapper("cgexec", &[value("g", Some('g'))]),
    wrapper("firejail", &[]),
    wrapper(
        "systemd-run",
        &[
            value("unit", Some('u')),
            value("property", Some('p')),
            value("description", None),
            value("slice", None),
            value("uid", None),
            value("gid", None),
            value("nice", None),
            value("working-directory", None),
            value("setenv", Some('E')),
            value("machine", Some('M')),
            value("host", Some('H')),
            value("on-calendar", None),
            value("on-active", None),
        ],
    ),
    Wrapper {
        operands: 1,
        ..wrapper("chroot", &[value("userspec", None), value("groups", None)])
    },
    wrapper("dotenv", &[value("e", Some('e')), value("v", Some('v'))]),
    // Package runners: `bunx cmd`, `npx cmd` run a package's binary (or a program).
    wrapper(
        "npx",
        &[value("package", Some('p')), value("call", Some('c'))],
    ),
    wrapper("bunx", &[value("package", Some('p'))]),
];

/// Programs that run a command after a subcommand word: `uv run git …`, `pnpm exec git …`,
/// `direnv exec DIR git …`. The subcommand's own options come between.
pub struct SubWrapper {
    pub program: &'static str,
    pub subcommands: &'static [&'static str],
    pub grammar: Grammar,
    /// Words after the options before the command (`direnv exec DIR`).
    pub operands: usize,
}

pub const SUB_WRAPPERS: &[SubWrapper] = &[
    SubWrapper {
        program: "npm",
        subcommands: &["exec", "x"],
        grammar: Grammar::runner(&[value("package", None), value("workspace", Some('w'))]),
        operands: 0,
    },
    SubWrapper {
        program: "pnpm",
        subcommands: &["exec", "dlx"],
        grammar: Grammar::runner(&[value("package", None), value("filter", Some('F'))]),
        operands: 0,
    },
    SubWrapper {
        program: "yarn",
        subcommands: &["exec", "dlx"],
        grammar: Grammar::runner(&[value("package", Some('p'))]),
        operands: 0,
    },
    SubWrapper {
        program: "bun",
        subcommands: &["x", "exec"],
        grammar: Grammar::runner(&[]),
        operands: 0,
    },
    SubWrapper {
        program: "uv",
        subcommands: &["run"],
        grammar: Grammar::runner(&[
            value("with", Some('w')),
            value("python", Some('p')),
            value("package", None),
            value("extra", None),
            value("group", None),
            value("directory", None),
            value("project", None),
            value("env-file", None),
            value("with-requirements", None),
            value("index", None),
        ]),
        operands: 0,
    },
    SubWrapper {
        program: "uvx",
        subcommands: &[],
        grammar: Grammar::runner(&[value("with", Some('w')), value("from", None)]),
        operands: 0,
    },
    SubWrapper {
        program: "poetry",
        subcommands: &["run"],
        grammar: Grammar::runner(&[value("directory", Some('C')), value("project", Some('P'))]),
        operands: 0,
    },
    SubWrapper {
        program: "pipenv",
        subcommands: &["run"],
        grammar: Grammar::runner(&[]),
        operands: 0,
    },
    SubWrapper {
        program: "hatch",
        subcommands: &["run"],
        grammar: Grammar::runner(&[value("env", Some('e'))]),
        operands: 0,
    },
    SubWrapper {
        program: "pdm",
        subcommands: &["run"],
        grammar: Grammar::runner(&[value("project", Some('p'))]),
        operands: 0,
    },
    SubWrapper {
        program: "rye",
        subcommands: &["run"],
        grammar: Grammar::runner(&[]),
        operands: 0,
    },
    SubWrapper {
        program: "conda",
        subcommands: &["run"],
        grammar: Grammar::runner(&[value("name", Some('n')), value("prefix", Some('p'))]),
        operands: 0,
    },
    SubWrapper {
        program: "mamba",
        subcommands: &["run"],
        grammar: Grammar::runner(&[value("name", Some('n')), value("prefix", Some('p'))]),
        operands: 0,
    },
    SubWrapper {
        program: "mise",
        subcommands: &["exec", "x"],
        grammar: Grammar::runner(&[value("cd", Some('C')), value("jobs", Some('j'))]),
        operands: 0,
    },
    SubWrapper {
        program: "asdf",
        subcommands: &["exec"],
        grammar: Grammar::runner(&[]),
        operands: 0,
    },
    SubWrapper {
        program: "direnv",
        subcommands: &["exec"],
        grammar: Grammar::runner(&[]),
        operands: 1,
    },
    SubWrapper {
        program: "devbox",
        subcommands: &["run"],
        grammar: Grammar::runner(&[]),
        operands: 0,
    },
];

/// The sub-wrapper row of a program, by name.
pub fn sub_wrapper_row(name: &str) -> Option<&'static SubWrapper> {
    SUB_WRAPPERS.iter().find(|w| w.program == name)
}

/// The wrapper row of a program, by name.
pub fn wrapper_row(name: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// `su` and `runuser`: `-c CMD` runs a command string; options may follow the user name
/// (util-linux permutes).
pub const SU: Grammar = Grammar::gnu(&[
    value("command", Some('c')),
    value("shell", Some('s')),
    value("group", Some('g')),
    value("supp-group", Some('G')),
    value("whitelist-environment", Some('w')),
    value("user", Some('u')),
]);

/// `flock [options] FILE cmd…`, `flock [options] FILE -c CMD` or `flock -c CMD FILE`
/// (options stop at the file: util-linux's `+` getopt string).
pub const FLOCK: Grammar = Grammar::runner(&[
    value("command", Some('c')),
    value("timeout", Some('w')),
    value("conflict-exit-code", Some('E')),
]);

/// `watch [options] cmd…`.
pub const WATCH: Grammar = Grammar::runner(&[
    value("interval", Some('n')),
    attached("differences", Some('d')),
]);

/// `script -c CMD [file]`.
pub const SCRIPT: Grammar = Grammar::gnu(&[
    value("command", Some('c')),
    value("log-out", Some('O')),
    value("log-in", Some('I')),
    value("log-io", Some('B')),
    value("log-timing", Some('T')),
    value("output-limit", None),
]);

/// `env`: options end at the first word that is not one (an assignment or the command).
pub const ENV: Grammar = Grammar {
    opts: &[
        flag("ignore-environment", Some('i')),
        flag("null", Some('0')),
        value("unset", Some('u')),
        value("chdir", Some('C')),
        value("split-string", Some('S')),
        flag("debug", Some('v')),
        value("default-signal", None),
        value("ignore-signal", None),
        value("block-signal", None),
        flag("list-signal-handling", None),
    ],
    permute: false,
    abbreviate: true,
    unknown: Unknown::Flag,
};

/// `nix-shell`: `--run CMD` and `--command CMD` are command lines.
pub const NIX_SHELL: Grammar = Grammar::gnu(&[
    value("run", None),
    value("command", None),
    value("packages", Some('p')),
    value("attr", Some('A')),
    value("expr", Some('E')),
    value("arg", None),
    value("argstr", None),
    value("include", Some('I')),
]);
