//! The generator (issue 11): commands composed from parts, each labelled by the execution
//! oracle (`tests/it/support/oracle.rs`) and judged by the built guard in the same world.
//!
//! - block-wrong-branch: wrappers (env, env -S, nice, timeout, nohup, time, command, exec,
//!   stdbuf, setsid, xargs, strace, sh -c, bash -c, eval, subshells, ...) x git invocations
//!   (push, commit, merge, reset, branch, update-ref, rebase, cherry-pick, pull, fetch,
//!   checkout -B, switch -C, and the sibling repository through -C) x refspecs (HEAD:main,
//!   feat:main, +x:main, :main, main, refs/heads/main, heads/main, @:main, ...) x config
//!   sources (-c alias, --config-env, GIT_CONFIG_COUNT/KEY/VALUE, a repository alias,
//!   remote.origin.push, push.default).
//!   Git's no-ops are in the mix (`merge main` on main, `switch -C main`, a fetch into the
//!   checked-out branch, a lease to a path remote): each moves nothing.
//! - scope-guard: wrappers x writers (redirections, tee, cp, mv, install, ln, sed -i,
//!   perl -pi, dd of=, touch, mkdir, sort -o, uniq, split, truncate, rm, chmod, tar -cf,
//!   python3 -c, awk print >, sed w, a link made first and written through, a for loop, a
//!   brace expansion, ...) x path spellings (../outside/x, absolute, through the outgoing
//!   symlink, ~/, $HOME, $PWD/../, "$(pwd)"/.., src/../../, braces, a cd first, ...) x
//!   targets (outside, inside, guarded files that exist, guarded names that do not). Each
//!   command is spelled so that it succeeds when run (its sources exist, a target it must
//!   not find is absent): a write that fails for an incidental reason would label nothing.
//!
//! Seeded xorshift: `DID_IT_ACTUALLY_GENERATOR_SEED` (default 0x110ac1e) and
//! `DID_IT_ACTUALLY_GENERATOR_COUNT` (default 400, half for each guard) pick the batch; the
//! same seed always generates the same commands, a larger count extends the batch.
//!
//! The test FAILS on every disagreement: `guard-false-allow` (the oracle saw the danger,
//! the guard allowed) and `guard-false-deny` (denied; running it changed nothing
//! dangerous). `conservative-deny` (denied with a reason that says the guard cannot read
//! the command, and running it changed nothing dangerous) is the guard's design for what
//! is only known at run time: counted, and failing the run above 5% of the batch.
//! `sync-allow` (allowed, and the only protected move fast-forwarded local main to
//! origin's) is allowed by design. `DID_IT_ACTUALLY_GENERATOR_REPORT=FILE` writes every
//! command with its labels as TSV. The large run: `tests/oracle/run-large.sh`.

use crate::support::oracle;

use oracle::{examine, Guard, Label, Spec, State, BRANCH_STATES, SCOPE_STATES};
use std::collections::{BTreeMap, BTreeSet};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Single-quotes a string for the shell.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn installed(p: &str) -> bool {
    !oracle::missing_programs().contains(p)
        && std::process::Command::new("bash")
            .args(["-c", &format!("command -v {p}")])
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// Programs that run their arguments as a command (prefixes of a simple command).
fn external_wrappers() -> Vec<&'static str> {
    let mut w = vec![
        "env ",
        "env -u GIT_DIR ",
        "nice ",
        "nice -n 5 ",
        "timeout 5 ",
        "nohup ",
        "stdbuf -oL ",
        "setsid -w ",
        "xargs ",
        "/usr/bin/env ",
    ];
    for (p, wrapper) in [
        ("strace", "strace -f -qq -o /dev/null "),
        ("ltrace", "ltrace -f -o /dev/null "),
        ("sudo", "sudo -u root "),
        ("doas", "doas "),
    ] {
        if installed(p) {
            w.push(wrapper);
        }
    }
    w
}

/// Shell builtins and keywords that run a simple command.
const BUILTIN_WRAPPERS: &[&str] = &["command ", "exec ", "time ", "builtin command "];

/// A simple command: leading assignments, then the words.
struct Simple {
    assigns: String,
    words: String,
}

impl Simple {
    fn wrapped(&self, rng: &mut Rng, external: &[&'static str]) -> String {
        let mut words = self.words.clone();
        let n = if rng.chance(35) {
            0
        } else if rng.chance(75) {
            1
        } else {
            2
        };
        let mut used: Vec<&str> = Vec::new();
        for _ in 0..n {
            let w = *rng.pick(external);
            // A tracer cannot trace a tracer (ptrace is taken): the same wrapper twice
            // would make the command fail for a reason of its own.
            if used.contains(&w) {
                continue;
            }
            used.push(w);
            words = format!("{w}{words}");
        }
        if rng.chance(8) && self.assigns.is_empty() && !words.contains('\'') {
            // env -S splits one string into the command
            words = format!("env -S {}", sq(&words));
        }
        // a builtin runs only where the shell sees it: outermost
        if rng.chance(20) {
            words = format!("{}{words}", rng.pick(BUILTIN_WRAPPERS));
        }
        format!("{}{words}", self.assigns)
    }
}

/// Wraps a whole command line in a shell, eval, a subshell or a group.
fn shell_wrap(rng: &mut Rng, line: &str) -> String {
    // `builtin` and the `time` keyword are bash's: `sh` (dash here) has neither.
    // Brace expansion too: dash leaves `{a,b}` as it is.
    let bash_only = line.contains("builtin ")
        || line.starts_with("time ")
        || line.contains(" time ")
        || (line.contains('{') && line.contains(','));
    match rng.below(10) {
        0 => format!("bash -c {}", sq(line)),
        1 if bash_only => format!("bash -c {}", sq(line)),
        1 => format!("sh -c {}", sq(line)),
        2 => format!("bash -lc {}", sq(line)),
        3 => format!("eval {}", sq(line)),
        4 => format!("( {line} )"),
        5 => format!("{{ {line}; }}"),
        6 => format!("if true; then {line}; fi"),
        7 => format!("echo {} | bash", sq(line)),
        8 => format!("bash <<'EOF'\n{line}\nEOF"),
        _ => format!("true && {line}"),
    }
}

// ---------------------------------------------------------------------------------------
// block-wrong-branch

const PUSH_OPTS: &[&str] = &[
    "",
    "",
    "-f ",
    "--force ",
    "-q ",
    "--no-verify ",
    "-u ",
    "--force-with-lease ",
    "-fu ",
    "--atomic ",
];
const REMOTES: &[&str] = &["origin", "origin", "../origin.git"];
const DANGEROUS_REFSPECS: &[&str] = &[
    "HEAD:main",
    "feat:main",
    "+feat:main",
    "+HEAD:main",
    ":main",
    "main",
    "refs/heads/main",
    "HEAD:refs/heads/main",
    "heads/main",
    "HEAD:heads/main",
    "@:main",
    "HEAD:master",
    "main:main",
    "+main",
    "HEAD~0:main",
    "feat:refs/heads/main",
    "'refs/heads/*:refs/heads/*'",
    ":",
    "feat main",
    "--all",
    "--mirror",
    "--delete main",
    "-d main",
    "main --force",
    "HEAD:main -f",
];
const SAFE_REFSPECS: &[&str] = &[
    "HEAD:feat",
    "feat",
    "HEAD:feat-x",
    "HEAD:main-backup",
    "HEAD:refs/tags/main",
    "HEAD:refs/heads/feat",
    "--tags",
    "-n HEAD:main",
    "--dry-run main",
    "feat:mainline",
];

/// (verb, arguments) of a git invocation on the work tree.
fn git_core(rng: &mut Rng) -> (&'static str, String) {
    let pick = |rng: &mut Rng, v: &[&str]| rng.pick(v).to_string();
    match rng.below(20) {
        0..=6 => {
            let spec = if rng.chance(75) {
                rng.pick(DANGEROUS_REFSPECS)
            } else {
                rng.pick(SAFE_REFSPECS)
            };
            (
                "push",
                format!("{}{} {spec}", rng.pick(PUSH_OPTS), rng.pick(REMOTES)),
            )
        }
        7 | 8 => (
            "commit",
            pick(
                rng,
                &[
                    "-m x",
                    "--allow-empty -m x",
                    "-am x",
                    "--amend --no-edit",
                    "-qam y",
                    "--no-verify -m x",
                ],
            ),
        ),
        9 => (
            "merge",
            pick(
                rng,
                &[
                    "feat",
                    "--ff-only feat",
                    "origin/feat",
                    "--no-ff -m m feat",
                    "main",
                    "origin/main",
                ],
            ),
        ),
        10 => (
            "reset",
            pick(
                rng,
                &[
                    "--hard origin/feat",
                    "--soft feat",
                    "--hard HEAD~1",
                    "--keep feat",
                    "-q HEAD~1",
                    "--hard",
                    "feat",
                ],
            ),
        ),
        11 | 12 => (
            "branch",
            pick(
                rng,
                &[
                    "-f main feat",
                    "-f main HEAD",
                    "-D main",
                    "-M feat main",
                    "-m main trunk",
                    "-f feat main",
                    "-c main backup",
                    "topic main",
                    "-f master HEAD",
                    "--force main origin/feat",
                ],
            ),
        ),
        13 => (
            "update-ref",
            pick(
                rng,
                &[
                    "refs/heads/main feat",
                    "-d refs/heads/main",
                    "refs/heads/main HEAD",
                    "refs/heads/feat main",
                    "main HEAD",
                    "refs/heads/master HEAD",
                    "--no-deref refs/heads/main origin/feat",
                ],
            ),
        ),
        14 => (
            "rebase",
            pick(
                rng,
                &[
                    "feat main",
                    "origin/feat",
                    "main",
                    "--onto feat HEAD",
                    "origin/main",
                ],
            ),
        ),
        15 => ("cherry-pick", pick(rng, &["feat", "origin/feat", "main"])),
        16 => (
            "pull",
            pick(
                rng,
                &[
                    "",
                    "origin feat",
                    "--rebase",
                    "--no-rebase origin feat",
                    "--ff-only",
                    "-q",
                ],
            ),
        ),
        17 => (
            "fetch",
            pick(
                rng,
                &[
                    ". feat:main",
                    "origin feat:main",
                    ". +HEAD:main",
                    "origin main:tmp",
                    "-q . +feat:refs/heads/main",
                    "origin",
                ],
            ),
        ),
        18 => (
            "checkout",
            pick(
                rng,
                &["-B main", "-B main feat", "-B main origin/feat", "-b topic"],
            ),
        ),
        _ => (
            "switch",
            pick(
                rng,
                &[
                    "-C main feat",
                    "-C main",
                    "--force-create main HEAD",
                    "-c topic",
                ],
            ),
        ),
    }
}

/// How the verb is named: plainly, or through configuration the command itself brings.
fn spell_git(rng: &mut Rng, pre: &str, verb: &str, args: &str) -> (Simple, Option<String>) {
    let plain = |pre: &str| Simple {
        assigns: String::new(),
        words: format!("git {pre}{verb} {args}").trim_end().to_owned(),
    };
    match rng.below(12) {
        0 => (
            Simple {
                assigns: String::new(),
                words: format!("git {pre}-c alias.zz={verb} zz {args}")
                    .trim_end()
                    .to_owned(),
            },
            None,
        ),
        1 => (
            Simple {
                assigns: format!(
                    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.zz GIT_CONFIG_VALUE_0={verb} "
                ),
                words: format!("git {pre}zz {args}").trim_end().to_owned(),
            },
            None,
        ),
        2 => (
            Simple {
                assigns: format!("ZV={verb} "),
                words: format!("git {pre}--config-env=alias.zz=ZV zz {args}")
                    .trim_end()
                    .to_owned(),
            },
            None,
        ),
        // a repository alias defined earlier in the same command
        3 => (
            Simple {
                assigns: String::new(),
                words: format!("git {pre}zz {args}").trim_end().to_owned(),
            },
            Some(format!("git {pre}config alias.zz {verb}")),
        ),
        4 if !args.contains('\'') => (
            Simple {
                assigns: String::new(),
                words: format!(
                    "git {pre}-c {} zz",
                    sq(&format!("alias.zz=!git {verb} {args}"))
                ),
            },
            None,
        ),
        _ => (plain(pre), None),
    }
}

/// Push commands whose destination comes from configuration.
fn config_push(rng: &mut Rng) -> Simple {
    let s = |a: &str, w: &str| Simple {
        assigns: a.into(),
        words: w.into(),
    };
    match rng.below(7) {
        0 => s("", "git -c remote.origin.push=HEAD:refs/heads/main push"),
        1 => s("", "git -c push.default=matching push"),
        2 => s("", "git -c remote.origin.mirror=true push"),
        3 => s(
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=refs/heads/feat:refs/heads/main ",
            "git push origin",
        ),
        4 => s("GIT_CONFIG_PARAMETERS=\"'push.default'='matching'\" ", "git push"),
        5 => s("", "git -c push.default=current push"),
        _ => s("", "git -c push.default=upstream -c branch.feat.merge=refs/heads/main push"),
    }
}

/// The sibling repository (default branch develop) through -C or cd.
fn sibling(rng: &mut Rng) -> (String, &'static str, String) {
    let how = rng.pick(&[
        "-C ../sibling ",
        "-C ../outside -C ../sibling ",
        "--git-dir=../sibling/.git --work-tree=../sibling ",
        "cd",
    ]);
    let (verb, args) = *rng.pick(&[
        ("commit", "--allow-empty -m x"),
        ("push", "origin HEAD:develop"),
        ("push", "origin develop"),
        ("push", "origin +topic:develop"),
        ("branch", "-f develop topic"),
        ("reset", "--hard origin/topic"),
        ("push", "origin HEAD:topic"),
        ("branch", "-f topic develop"),
        ("merge", "origin/topic"),
    ]);
    (how.to_string(), verb, args.to_string())
}

fn gen_branch(rng: &mut Rng, external: &[&'static str]) -> (String, String) {
    let setup = rng
        .pick(&["feat", "feat", "feat", "main", "main", "detached"])
        .to_string();
    let mut prefix: Option<String> = None;
    let simple = match rng.below(12) {
        0 => config_push(rng),
        1 => {
            let (how, verb, args) = sibling(rng);
            if how == "cd" {
                prefix = Some("cd ../sibling".into());
                spell_git(rng, "", verb, &args).0
            } else {
                let (s, p) = spell_git(rng, &how, verb, &args);
                prefix = p;
                s
            }
        }
        _ => {
            let (verb, args) = git_core(rng);
            let (s, p) = spell_git(rng, "", verb, &args);
            prefix = p;
            if matches!(
                verb,
                "commit" | "merge" | "reset" | "rebase" | "cherry-pick" | "pull"
            ) && prefix.is_none()
                && rng.chance(30)
            {
                prefix = Some(
                    rng.pick(&[
                        "git switch -q main",
                        "git checkout -q main",
                        "git checkout -q feat",
                        "cd sub",
                        "cd ../outside",
                        "git switch -q -",
                    ])
                    .to_string(),
                );
            }
            s
        }
    };
    let mut line = simple.wrapped(rng, external);
    if let Some(p) = prefix {
        line = format!("{p}{}{line}", rng.pick(&[" && ", "; ", " && "]));
    }
    if rng.chance(20) {
        line = shell_wrap(rng, &line);
    }
    (setup, line)
}

// ---------------------------------------------------------------------------------------
// scope-guard

/// What a writer needs of its target for the write to happen (a write that fails for an
/// incidental reason labels nothing: the generator spells commands that succeed).
#[derive(Clone, Copy, PartialEq)]
enum Need {
    /// Any file (made when missing, replaced when present).
    New,
    /// A file that exists.
    Existing,
    /// A name that does not exist yet (`ln`, `mkdir`, `ssh-keygen -f`).
    Absent,
    /// A directory, made when missing.
    Dir,
    /// A directory that exists (`cp -t DIR`).
    ExistingDir,
}

/// (pipeline before the command, command with {P}, what the target must be). Sources are
/// `@/…` (the project's files, spelled absolute after a `cd` away).
const WRITERS: &[(&str, &str, Need)] = &[
    ("", "echo x > {P}", Need::New),
    ("", "echo x >> {P}", Need::Existing),
    ("", "printf x >| {P}", Need::New),
    ("", "echo x 2>&1 1> {P}", Need::New),
    ("echo x | ", "tee {P}", Need::New),
    ("echo x | ", "tee -a {P}", Need::Existing),
    ("", "cp @/src/main.rs {P}", Need::New),
    ("", "cp -r @/src {P}", Need::Dir),
    ("", "cp -vt {P} @/src/main.rs", Need::ExistingDir),
    ("", "mv @/notes.txt {P}", Need::New),
    ("", "install -m 644 @/src/main.rs {P}", Need::New),
    ("", "install -d {P}", Need::Dir),
    ("", "install -vDt {P} @/src/main.rs", Need::Dir),
    ("", "ln -s @/src/main.rs {P}", Need::Absent),
    ("", "ln @/src/main.rs {P}", Need::Absent),
    ("", "sed -i s/a/b/ {P}", Need::Existing),
    ("", "perl -pi -e s/o/0/ {P}", Need::Existing),
    ("", "dd if=@/src/main.rs of={P} status=none", Need::New),
    ("", "touch {P}", Need::New),
    ("", "touch {P}", Need::Existing),
    ("", "mkdir {P}", Need::Absent),
    ("", "mkdir -p {P}/sub", Need::Absent),
    ("", "sort -o {P} @/src/main.rs", Need::New),
    ("", "uniq @/src/main.rs {P}", Need::New),
    ("", "split -l 1 @/src/main.rs {P}", Need::Absent),
    ("", "truncate -s 0 {P}", Need::Existing),
    ("", "rm -f {P}", Need::Existing),
    ("", "rm -rf {P}", Need::Existing),
    ("", "chmod 600 {P}", Need::Existing),
    ("", "git diff HEAD > {P}", Need::New),
    ("", "cat > {P} <<'EOF'\nx\nEOF", Need::New),
    ("", "tar -cf {P} -C @ src", Need::New),
    (
        "",
        "python3 -c 'open(\"{P}\", \"w\").write(\"x\")'",
        Need::New,
    ),
    ("", "awk '{print > \"{P}\"}' @/src/main.rs", Need::New),
    ("", "sed -n 'w {P}' @/src/main.rs", Need::New),
    ("", "cat @/src/main.rs | tee {P} > /dev/null", Need::New),
    ("", "exec 3> {P}", Need::New),
    ("", "ln -s {D} lnk && echo x > lnk/{N}", Need::New),
    ("", "for n in one two; do echo x > {P}.$n; done", Need::New),
    ("", "touch {P}.{a,b}", Need::New),
];

/// Programs a writer needs besides coreutils, bash and git.
fn writer_runs_here(writer: &str) -> bool {
    ["python3", "perl", "awk"]
        .iter()
        .all(|p| !writer.starts_with(p) && !writer.contains(&format!(" {p} ")) || installed(p))
}

/// Outside the root (the cwd is the project `root`; `$S` is the scratch dir).
const OUTSIDE: &[&str] = &[
    "../outside/{N}",
    "$S/outside/{N}",
    "\"$S/outside/{N}\"",
    "link-out/{N}",
    "chain/{N}",
    "~/{N}",
    "$HOME/{N}",
    "\"$HOME\"/{N}",
    "${HOME}/{N}",
    "$PWD/../outside/{N}",
    "\"$(pwd)\"/../outside/{N}",
    "./../outside/{N}",
    "src/../../outside/{N}",
    "up/outside/{N}",
    "src/rel-out/{N}",
    "$S/root/../outside/{N}",
    "link-out/../outside/{N}",
    "../root/../outside/{N}",
    "$S/alias-root/../outside/{N}",
    "{../outside,src}/{N}",
];
const INSIDE: &[&str] = &[
    "{N}",
    "./{N}",
    "src/{N}",
    "$PWD/{N}",
    "\"$PWD\"/src/{N}",
    "link-in/{N}",
    "$S/root/{N}",
    "$S/alias-root/{N}",
    "docs/{N}",
    "../root/{N}",
    "{src,docs}/{N}",
];
/// Guarded files that exist in the world, and guarded names that do not.
const GUARDED_EXISTING: &[&str] = &[
    ".env",
    ".claude/settings.json",
    ".git/config",
    "certs/server.pem",
    "keys/id_rsa",
    "link-env",
    "link-settings",
    "$PWD/.env",
    "./.claude/settings.json",
    "../root/.env",
    "$S/root/.claude/settings.json",
    "link-home-settings",
    "~/.claude/settings.json",
    "$S/state/x",
    "link-state/x",
];
const GUARDED_ABSENT: &[&str] = &[
    ".env.local",
    ".claude/settings.local.json",
    ".did-it-actually.json",
    ".git/hooks/pre-commit",
    "src/x.pem",
    "keys/id_rsa2",
    "link-state/new",
    "$S/state/new",
];
/// Directories that exist: outside, inside, guarded.
const DIRS_OUTSIDE: &[&str] = &[
    "../outside/sub",
    "$S/outside",
    "link-out",
    "~/sub",
    "$HOME/sub",
    "src/rel-out",
];
const DIRS_INSIDE: &[&str] = &["src", "docs", "src/lib", "$PWD/src", "link-in", "."];
const DIRS_GUARDED: &[&str] = &[".git", ".claude", "$S/state", "link-state", "certs"];

/// Directories a link can point at: outside, inside, guarded.
const LINK_DIRS: &[&str] = &[
    "../outside",
    "$S/outside",
    "src",
    "$S/root/docs",
    ".git",
    "$S/state",
    "..",
];
/// cd somewhere, then write to a bare name.
const CD: &[(&str, bool)] = &[
    ("cd ../outside", true),
    ("cd link-out", true),
    ("cd $S/outside", true),
    ("cd ~", true),
    ("cd src", false),
    ("cd link-out/..", false),
    ("cd -P link-out/..", true),
    ("pushd ../outside >/dev/null", true),
    ("cd ../outside/sub && cd ..", true),
];

fn gen_scope(rng: &mut Rng, external: &[&'static str]) -> (String, String) {
    let (pipe, writer, need) = loop {
        let w = *rng.pick(WRITERS);
        if writer_runs_here(w.1) {
            break w;
        }
    };
    let name = |outside: bool| match need {
        Need::New | Need::Absent => "gen.txt",
        Need::Dir => "gendir",
        Need::Existing if outside => "file.txt",
        Need::Existing => "notes.txt",
        Need::ExistingDir => ".",
    };
    let mut cd = None;
    let link = writer.contains("{D}");
    let target = if need == Need::ExistingDir {
        match rng.below(10) {
            0..=4 => rng.pick(DIRS_OUTSIDE).to_string(),
            5 | 6 => rng.pick(DIRS_GUARDED).to_string(),
            _ => rng.pick(DIRS_INSIDE).to_string(),
        }
    } else if link {
        // The link names the directory; the write goes through it.
        String::new()
    } else {
        match rng.below(10) {
            0..=4 => rng.pick(OUTSIDE).replace("{N}", name(true)),
            5 | 6 => match need {
                Need::Existing => rng.pick(GUARDED_EXISTING).to_string(),
                Need::Absent | Need::Dir | Need::ExistingDir => {
                    rng.pick(GUARDED_ABSENT).to_string()
                }
                Need::New => {
                    if rng.chance(50) {
                        rng.pick(GUARDED_EXISTING).to_string()
                    } else {
                        rng.pick(GUARDED_ABSENT).to_string()
                    }
                }
            },
            7 => {
                let &(dir, outside) = rng.pick(CD);
                cd = Some(dir);
                name(outside).to_string()
            }
            _ => rng.pick(INSIDE).replace("{N}", name(false)),
        }
    };
    // Code in quotes keeps the path as text: no shell expansion happens there.
    let quoted_code =
        writer.starts_with("python3") || writer.starts_with("awk") || writer.starts_with("sed -n");
    if quoted_code && target.contains(['$', '~', '"', '{']) {
        return gen_scope(rng, external);
    }
    // A brace or loop suffix needs a plain file name.
    if (writer.contains("{P}.") || writer.contains("{P}/")) && target.contains(['{', '"']) {
        return gen_scope(rng, external);
    }
    // The project's files: relative in the project, absolute after a cd away.
    let project = if cd.is_some() { "$S/root" } else { "." };
    let link_dir = rng.pick(LINK_DIRS);
    let cmd = writer
        .replace("{P}", &target)
        .replace("{D}", link_dir)
        .replace("{N}", "gen.txt")
        .replace("@/", &format!("{project}/"))
        .replace(" -C @ ", &format!(" -C {project} "));
    let (assigns, words) = (String::new(), cmd);
    let simple = Simple { assigns, words };
    let compound = writer.starts_with("exec ")
        || writer.contains("<<")
        || writer.contains('|')
        || writer.contains("&&")
        || writer.starts_with("for ");
    // A writer fed by a pipe reads it itself: behind xargs it would read nothing.
    let external: Vec<&'static str> = external
        .iter()
        .copied()
        .filter(|w| pipe.is_empty() || !w.starts_with("xargs"))
        .collect();
    let wrapped = if compound {
        simple.words.clone()
    } else {
        simple.wrapped(rng, &external)
    };
    let mut line = format!("{pipe}{wrapped}");
    if let Some(dir) = cd {
        line = format!("{dir} && {line}");
    }
    if rng.chance(20) && !line.contains("<<") {
        line = shell_wrap(rng, &line);
    }
    ("root".into(), line)
}

// ---------------------------------------------------------------------------------------

struct Generated {
    guard: Guard,
    setup: String,
    command: String,
}

fn generate(seed: u64, count: usize) -> Vec<Generated> {
    let mut rng = Rng(seed.max(1));
    let external = external_wrappers();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < count * 20 {
        attempts += 1;
        let guard = if out.len() % 2 == 0 {
            Guard::Branch
        } else {
            Guard::Scope
        };
        let (setup, command) = match guard {
            Guard::Branch => gen_branch(&mut rng, &external),
            Guard::Scope => gen_scope(&mut rng, &external),
        };
        if seen.insert((guard_name(guard), setup.clone(), command.clone())) {
            out.push(Generated {
                guard,
                setup,
                command,
            });
        }
    }
    out
}

fn guard_name(g: Guard) -> &'static str {
    match g {
        Guard::Branch => "block-wrong-branch",
        Guard::Scope => "scope-guard",
    }
}

fn encode(command: &str) -> String {
    command.replace('\n', "\\n").replace('\t', "\\t")
}

struct Row {
    guard: &'static str,
    setup: String,
    command: String,
    oracle: String,
    judged: String,
    class: Option<&'static str>,
    changes: String,
    reason: String,
}

#[test]
fn generated_commands_agree_with_the_oracle() {
    let start = std::time::Instant::now();
    let seed = std::env::var("DID_IT_ACTUALLY_GENERATOR_SEED")
        .ok()
        .map(|s| {
            let s = s.trim();
            s.strip_prefix("0x")
                .map(|h| u64::from_str_radix(h, 16).unwrap())
                .unwrap_or_else(|| s.parse().unwrap())
        })
        .unwrap_or(0x110ac1e);
    let count: usize = std::env::var("DID_IT_ACTUALLY_GENERATOR_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let threads: usize = std::env::var("DID_IT_ACTUALLY_ORACLE_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let batch = generate(seed, count);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let rows = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(g) = batch.get(i) else { break };
                let (spec, states): (Spec, &[State]) = match g.guard {
                    Guard::Branch => (
                        Spec::Branch {
                            setup: g.setup.clone(),
                        },
                        BRANCH_STATES,
                    ),
                    Guard::Scope => (
                        Spec::Scope {
                            project: g.setup.clone(),
                            cwd: ".".into(),
                        },
                        SCOPE_STATES,
                    ),
                };
                let v = examine(g.guard, &spec, states, &g.command, true);
                let (judged, reason) = v.guard.clone().unwrap();
                let class = match (&v.label, judged.as_str()) {
                    (Label::Deny, "allow") if v.sync_only => Some("sync-allow"),
                    (Label::Deny, "allow") => Some("guard-false-allow"),
                    // Denied in one state but allowed in another where it did harm.
                    (Label::Deny, _) if v.allowed_danger && !v.sync_only => {
                        Some("guard-false-allow")
                    }
                    (Label::Allow, "deny") if oracle::unresolvable_reason(&reason) => {
                        Some("conservative-deny")
                    }
                    (Label::Allow, "deny") => Some("guard-false-deny"),
                    _ => None,
                };
                rows.lock().unwrap().push((
                    i,
                    Row {
                        guard: guard_name(g.guard),
                        setup: g.setup.clone(),
                        command: encode(&g.command),
                        oracle: v.label.as_str().to_owned(),
                        judged,
                        class,
                        changes: v.summary(g.guard),
                        reason: reason.chars().take(200).collect(),
                    },
                ));
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|(i, _)| *i);
    let rows: Vec<Row> = rows.into_iter().map(|(_, r)| r).collect();
    oracle::cleanup();

    let mut by_class: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        if let Some(class) = r.class {
            *by_class.entry(class).or_default() += 1;
        }
    }
    let unrunnable = rows.iter().filter(|r| r.oracle == "unrunnable").count();
    let line = |r: &Row| {
        format!(
            "{}\t{}\t{}\t{}\n    oracle {}, guard {}: {}\n    {}",
            r.class.unwrap_or("agree"),
            r.guard,
            r.setup,
            r.command,
            r.oracle,
            r.judged,
            r.changes,
            r.reason
        )
    };
    for r in rows.iter().filter(|r| r.class.is_some()) {
        eprintln!("{}", line(r));
    }
    let conservative = by_class.get("conservative-deny").copied().unwrap_or(0);
    eprintln!(
        "\ngenerator: seed {seed:#x}, {} commands ({} unrunnable) in {:.1?} with {threads} threads, sandboxed: {}\n\
         by class: {by_class:?}",
        rows.len(),
        unrunnable,
        start.elapsed(),
        oracle::sandboxed(),
    );
    if let Ok(path) = std::env::var("DID_IT_ACTUALLY_GENERATOR_REPORT") {
        let mut text =
            String::from("# class\tguard\tsetup\tcommand\toracle\tjudged\tchanges\treason\n");
        for r in &rows {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                r.class.unwrap_or("agree"),
                r.guard,
                r.setup,
                r.command,
                r.oracle,
                r.judged,
                r.changes.replace('\t', " "),
                r.reason.replace(['\t', '\n'], " ")
            ));
        }
        std::fs::write(&path, text).unwrap();
        eprintln!("wrote {path}");
    }
    // A deny the guard explains as "cannot tell" is its design for what it cannot read
    // (a word only known when it runs, xargs's appended arguments); it is counted, and
    // must stay rare. Every other disagreement fails the run.
    let wrong: Vec<&Row> = rows
        .iter()
        .filter(|r| matches!(r.class, Some("guard-false-allow" | "guard-false-deny")))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} disagreement(s) with the oracle:\n{}",
        wrong.len(),
        wrong.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n")
    );
    assert!(
        conservative * 20 <= rows.len(),
        "{conservative} of {} commands denied as unreadable (more than 5%)",
        rows.len()
    );
}
