//! The run-time layer for writes on commands in the habits the static reading cannot
//! follow (`tests/corpus/confine-generated.tsv`, from `confine-gen.py`: programs writing their own configuration in the
//! home directory, git making repositories and worktrees elsewhere, environment
//! managers, interpreters, build recipes, scripts written then run, targets known only at
//! run time). Each command is labelled by running it: once in a fresh world with no
//! guard (did anything land outside the project?), once in a fresh world through
//! `did-it-actually confine`, as the agent's shell tool runs it once install has set the
//! shell prefix, with the default policy.
//!
//! What must hold, on every row: through the layer nothing lands outside the places the
//! policy allows (the project, the temp directories, the repository's local remote, the
//! caches of `scope.run_time_writable`); a command that writes only there on its own runs
//! as it ran without the layer (same exit status, same files changed in the project).
//!
//! The worlds live under `target/` (`CARGO_TARGET_TMPDIR`), not in `/dev/shm` where the
//! other scratch worlds are: the default policy leaves `/dev/shm` writable (POSIX
//! semaphores live there), so a world inside it would be writable whole.
//! `CONFINE_CORPUS_REPORT=DIR` also writes the report to `DIR/<corpus>.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const GENERATED: (&str, &str) = (
    "confine-generated.tsv",
    include_str!("../corpus/confine-generated.tsv"),
);
const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

struct Row {
    line: usize,
    category: String,
    command: String,
}

fn rows((file, corpus): (&str, &str)) -> Vec<Row> {
    crate::support::corpus_rows(file, corpus, 2)
        .into_iter()
        .map(|(line, mut f)| Row {
            line,
            command: f.pop().unwrap_or_default(),
            category: f.pop().unwrap_or_default(),
        })
        .collect()
}

fn sh(cwd: &Path, script: &str) {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .env("HOME", cwd.join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The world template: `work/` (the project, on `feat`, remote `origin` = `../origin.git`),
/// `origin.git`, `sibling/`, `outside/file.txt`, `home/` (HOME), `tmp/` (TMPDIR).
fn template(base: &Path) -> PathBuf {
    let t = base.join("template");
    std::fs::create_dir_all(&t).unwrap();
    sh(
        &t,
        r#"set -e
mkdir -p work/src outside home tmp
printf '[user]\n\tname = agent\n\temail = agent@example.invalid\n[init]\n\tdefaultBranch = main\n' > home/.gitconfig
echo 'the outside' > outside/file.txt
cd work
git init -q -b main
printf '# demo\n' > README.md
printf 'print("app")\n' > src/app.py
printf 'module.exports = 1\n' > src/util.js
printf 'notes\n' > notes.txt
git add -A && git commit -q -m initial
git clone -q --no-local --bare . ../origin.git
git remote add origin ../origin.git
git fetch -q origin
git switch -q -c feat
cd ..
git clone -q --no-local origin.git sibling
git -C sibling remote set-url origin ../origin.git
"#,
    );
    t
}

/// A file's state, enough to see that it was written.
type Entry = (char, u64, i128, u32);

fn snapshot(dir: &Path, skip: &dyn Fn(&Path) -> bool, out: &mut BTreeMap<PathBuf, Entry>) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if skip(&path) {
            continue;
        }
        let Ok(m) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = if m.is_dir() {
            'd'
        } else if m.file_type().is_symlink() {
            'l'
        } else {
            'f'
        };
        let mtime = m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128;
        let len = if kind == 'd' { 0 } else { m.len() };
        let mtime = if kind == 'd' { 0 } else { mtime };
        out.insert(path.clone(), (kind, len, mtime, m.mode()));
        if kind == 'd' {
            snapshot(&path, skip, out);
        }
    }
}

fn changes(
    before: &BTreeMap<PathBuf, Entry>,
    after: &BTreeMap<PathBuf, Entry>,
    s: &Path,
) -> Vec<String> {
    let mut out = Vec::new();
    for (p, b) in before {
        match after.get(p) {
            None => out.push(format!("-{}", p.strip_prefix(s).unwrap().display())),
            Some(a) if a != b => out.push(format!("~{}", p.strip_prefix(s).unwrap().display())),
            _ => {}
        }
    }
    for p in after.keys().filter(|p| !before.contains_key(*p)) {
        out.push(format!("+{}", p.strip_prefix(s).unwrap().display()));
    }
    out
}

struct Ran {
    code: Option<i32>,
    output: String,
    /// What changed outside the places the policy allows.
    outside: Vec<String>,
    /// What changed in the project, outside its `.git`.
    inside: Vec<String>,
}

/// One world copied from the template, with what is watched in it.
struct World {
    s: PathBuf,
    work: PathBuf,
    home: PathBuf,
    /// Allowed outside the project: the temp directory, the local remote, the caches.
    allowed: Vec<PathBuf>,
    /// Not the command's: what the host writes for itself (Claude Code's own files in
    /// HOME) and the guard's state directory, which its hooks write.
    hosts_own: Vec<PathBuf>,
}

impl World {
    fn new(base: &Path, template: &Path, name: &str) -> World {
        let s = base.join(name);
        let status = Command::new("cp")
            .arg("-a")
            .arg(template)
            .arg(&s)
            .status()
            .unwrap();
        assert!(status.success());
        let home = s.join("home");
        let allowed = [s.join("tmp"), s.join("origin.git")]
            .into_iter()
            .chain(
                did_it_actually::policy::RUN_TIME_WRITABLE
                    .iter()
                    .filter_map(|p| p.strip_prefix("~/"))
                    .map(|p| home.join(p)),
            )
            .collect();
        World {
            work: s.join("work"),
            hosts_own: vec![
                s.join("state"),
                home.join(".claude"),
                home.join(".claude.json"),
            ],
            home,
            allowed,
            s,
        }
    }

    /// (outside the allowed places, inside the project but for its `.git`)
    fn snapshot(&self) -> (BTreeMap<PathBuf, Entry>, BTreeMap<PathBuf, Entry>) {
        let outside_skip = |p: &Path| {
            p == self.work
                || self.allowed.iter().any(|a| p.starts_with(a))
                || self.hosts_own.iter().any(|o| {
                    p.starts_with(o)
                        || p.file_name().zip(o.file_name()).is_some_and(|(f, n)| {
                            // Claude Code's backups of its own file beside it.
                            p.parent() == o.parent()
                                && f.to_string_lossy().starts_with(&*n.to_string_lossy())
                        })
                })
        };
        let inside_skip = |p: &Path| p == self.work.join(".git");
        let (mut outside, mut inside) = (BTreeMap::new(), BTreeMap::new());
        snapshot(&self.s, &outside_skip, &mut outside);
        // A cache's parent directory in HOME (`~/.npm` for `~/.npm/_logs`), which the
        // guard makes with the cache before a command that names its program: not the
        // command's (what lands in it beside the cache still counts).
        outside.retain(|p, _| {
            !(p.starts_with(&self.home)
                && p != &self.home
                && self.allowed.iter().any(|a| a.starts_with(p) && a != p))
        });
        snapshot(&self.work, &inside_skip, &mut inside);
        (outside, inside)
    }

    /// What `run` changed, as a [`Ran`] with its exit code and output.
    fn observe(&self, run: impl FnOnce() -> (Option<i32>, String)) -> Ran {
        let (out_before, in_before) = self.snapshot();
        let (code, output) = run();
        let (out_after, in_after) = self.snapshot();
        Ran {
            code,
            output,
            outside: changes(&out_before, &out_after, &self.s),
            // Names computed from the clock (`log-$(date +%s)`) differ between two runs:
            // digits are not compared.
            inside: changes(&in_before, &in_after, &self.s)
                .into_iter()
                .map(|c| {
                    c.chars()
                        .map(|ch| if ch.is_ascii_digit() { '#' } else { ch })
                        .collect()
                })
                .collect(),
        }
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.s);
    }
}

fn run(base: &Path, template: &Path, n: usize, command: &str, confined: bool) -> Ran {
    let w = World::new(
        base,
        template,
        &format!("w{n:05}-{}", if confined { "c" } else { "u" }),
    );
    let text = command.replace("$S", w.s.to_str().unwrap());
    let mut c = if confined {
        let mut c = Command::new(BIN);
        c.arg("confine").arg(&text);
        c
    } else {
        let mut c = Command::new("bash");
        c.arg("-c").arg(&text);
        c
    };
    c.current_dir(&w.work)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &w.home)
        .env("TMPDIR", w.s.join("tmp"))
        .env("USER", "agent")
        .env("LANG", "C.UTF-8")
        .env("SHELL", "/bin/bash")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("npm_config_update_notifier", "false")
        .env("DID_IT_ACTUALLY_PROJECT", &w.work)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    w.observe(|| {
        let child = c.spawn().unwrap();
        let out = wait_with_deadline(child, Duration::from_secs(30));
        (
            out.as_ref().and_then(|o| o.status.code()),
            out.map(|o| {
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                )
            })
            .unwrap_or_else(|| "(timed out)".into()),
        )
    })
}

/// `command` as the real Claude Code runs it in a world set up by `install --project`
/// (the default policy, the state directory beside the world): the model asks for it
/// through the Bash tool, Claude Code runs the hooks, and the command through the shell
/// prefix install registered. Exit code 1 when the tool result is an error.
fn run_live(base: &Path, template: &Path, n: usize, command: &str, claude: &Path) -> Ran {
    use crate::support::claude::Session;
    use crate::support::mock_api::{tool_result, tool_use_id, MockApi, Step};
    let w = World::new(base, template, &format!("w{n:05}-live"));
    let state = w.s.join("state");
    let install = Command::new(BIN)
        .args(["install", "--project"])
        .arg(&w.work)
        .env("HOME", &w.home)
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );
    let text = command.replace("$S", w.s.to_str().unwrap());
    let mut session = Session::in_world(claude, &w.work, &w.home);
    session
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TMPDIR", w.s.join("tmp"))
        .env("USER", "agent")
        .env("LANG", "C.UTF-8")
        .env("SHELL", "/bin/bash")
        .env("npm_config_update_notifier", "false")
        .env("DID_IT_ACTUALLY_STATE_DIR", &state);
    let api = MockApi::start(vec![
        Step::tool(
            "Bash",
            serde_json::json!({"command": text, "description": "run it", "timeout": 35_000}),
        ),
        Step::text("Done."),
    ]);
    w.observe(|| {
        let out = session.run("run it", &api);
        let requests = api.requests();
        match requests
            .get(1)
            .and_then(|r| tool_result(r, &tool_use_id(0, 0)))
        {
            Some(r) => (Some(i32::from(r.is_error)), r.text),
            None => (None, format!("no tool result: {}", out.describe())),
        }
    })
}

fn wait_with_deadline(
    mut child: std::process::Child,
    limit: Duration,
) -> Option<std::process::Output> {
    let start = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return child.wait_with_output().ok(),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

#[derive(Default)]
struct Tally {
    rows: usize,
    lands_outside: usize,
    honest: usize,
    refused: usize,
    /// Wrote outside unguarded, yet exited the same through the layer (a tool whose write
    /// outside was incidental: npm's `~/.npm`, a tool's settings file).
    same_exit: usize,
    landed_under_layer: usize,
    honest_changed: usize,
}

#[test]
fn generated_nothing_lands_outside_the_scope_and_honest_commands_run_untouched() {
    run_corpus(GENERATED);
}

fn run_corpus(corpus: (&str, &str)) {
    if let Err(why) = did_it_actually::runtime::confine::available() {
        eprintln!(
            "confine_corpus: the kernel cannot confine writes here ({why}); nothing to measure"
        );
        return;
    }
    let file = corpus.0;
    let rows = rows(corpus);
    assert!(rows.len() >= 300, "the corpus has {} rows", rows.len());
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "confine-corpus-{}-{}",
        std::process::id(),
        file.trim_end_matches(".tsv")
    ));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let template = template(&base);

    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<(Ran, Ran)>>> =
        rows.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(row) = rows.get(i) else { break };
                let plain = run(&base, &template, i, &row.command, false);
                let confined = run(&base, &template, i, &row.command, true);
                *results[i].lock().unwrap() = Some((plain, confined));
            });
        }
    });
    let _ = std::fs::remove_dir_all(&base);

    let mut by_category: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (row, r) in rows.iter().zip(results) {
        let (plain, confined) = r.into_inner().unwrap().unwrap();
        let t = by_category.entry(&row.category).or_default();
        t.rows += 1;
        let lands = !plain.outside.is_empty();
        if std::env::var_os("CONFINE_CORPUS_VERBOSE").is_some() {
            eprintln!(
                "{file}:{} [{}] unguarded: exit {:?} outside {:?}; through the layer: exit {:?} outside {:?}",
                row.line, row.category, plain.code, plain.outside, confined.code, confined.outside
            );
        }
        t.lands_outside += lands as usize;
        t.honest += !lands as usize;
        t.refused +=
            (lands && confined.output.to_lowercase().contains("permission denied")) as usize;
        t.same_exit += (lands && confined.code == plain.code) as usize;
        if !confined.outside.is_empty() {
            t.landed_under_layer += 1;
            failures.push(format!(
                "{file}:{} [{}] landed outside under the layer ({}): {}",
                row.line,
                row.category,
                confined.outside.join(", "),
                row.command
            ));
        }
        if !lands && (plain.code != confined.code || plain.inside != confined.inside) {
            t.honest_changed += 1;
            failures.push(format!(
                "{file}:{} [{}] an honest command ran differently: without the layer exit {:?}, changed {:?}; through it exit {:?}, changed {:?}; output: {}\n    command: {}",
                row.line,
                row.category,
                plain.code,
                plain.inside,
                confined.code,
                confined.inside,
                confined.output.chars().take(400).collect::<String>(),
                row.command
            ));
        }
    }
    let mut report = String::from(
        "| category | rows | write outside unguarded | write only where allowed | of those, the program said permission denied | of those, same exit status through the layer | landed outside under the layer | honest, but ran differently |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = Tally::default();
    for (c, t) in &by_category {
        report.push_str(&format!(
            "| {c} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.rows,
            t.lands_outside,
            t.honest,
            t.refused,
            t.same_exit,
            t.landed_under_layer,
            t.honest_changed
        ));
        total.same_exit += t.same_exit;
        total.rows += t.rows;
        total.lands_outside += t.lands_outside;
        total.honest += t.honest;
        total.refused += t.refused;
        total.landed_under_layer += t.landed_under_layer;
        total.honest_changed += t.honest_changed;
    }
    report.push_str(&format!(
        "| all | {} | {} | {} | {} | {} | {} | {} |\n",
        total.rows,
        total.lands_outside,
        total.honest,
        total.refused,
        total.same_exit,
        total.landed_under_layer,
        total.honest_changed
    ));
    for f in &failures {
        report.push_str(&format!("\n{f}"));
    }
    eprintln!("{report}");
    if let Some(dir) = std::env::var_os("CONFINE_CORPUS_REPORT") {
        std::fs::write(Path::new(&dir).join(format!("{file}.md")), &report).unwrap();
    }
    assert!(
        total.lands_outside * 10 >= total.rows * 4 && total.honest * 10 >= total.rows * 4,
        "the corpus must be about half each: {report}"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{report}",
        failures.len()
    );
}

// ---------------------------------------------------------------------------------------
// The same rows through the real Claude Code

per_claude_code_version!(a_sample_runs_through_the_real_claude_code_as_through_the_layer);

/// Rows per Claude Code release, an even spread, each release taking other rows
/// (`DID_IT_ACTUALLY_LIVE_ROWS` sets it).
fn live_rows() -> usize {
    std::env::var("DID_IT_ACTUALLY_LIVE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

/// What must hold through the real client: nothing lands outside the places the policy
/// allows, and a command that writes only there on its own changes the same files in the
/// project with the same success, but where scope-guard refuses it before it runs (a
/// literal target outside, listed) or Claude Code's own check does.
fn a_sample_runs_through_the_real_claude_code_as_through_the_layer(version: &str) {
    if crate::support::confine_unavailable() {
        return;
    }
    let Some(claude) = crate::support::claude::claude_or_skip_version(version) else {
        return;
    };
    let all = rows(GENERATED);
    let n = live_rows().clamp(1, all.len());
    let stride = (all.len() / n).max(1);
    let versions = crate::support::claude::CLAUDE_CODE_VERSIONS;
    let release = versions.iter().position(|v| *v == version).unwrap_or(0);
    let offset = (stride * release / versions.len()).min(stride - 1);
    // Where the stride is 1, the releases take the two halves' worth by parity instead.
    let sample: Vec<&Row> = if stride == 1 && n * versions.len() <= all.len() * 2 {
        all.iter()
            .skip(release)
            .step_by(versions.len())
            .take(n)
            .collect()
    } else {
        all.iter().skip(offset).step_by(stride).take(n).collect()
    };
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("confine-live-{}-{version}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let template = template(&base);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new((Vec::new(), Vec::new(), 0usize));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(row) = sample.get(i) else { break };
                let plain = run(&base, &template, i, &row.command, false);
                let live = run_live(&base, &template, i, &row.command, &claude);
                let place = format!("{}:{} [{}] {}", GENERATED.0, row.line, row.category, row.command);
                let mut f = found.lock().unwrap();
                f.2 += !plain.outside.is_empty() as usize;
                let Some(code) = live.code else {
                    f.0.push(format!("{place}\n    {}", live.output));
                    continue;
                };
                if !live.outside.is_empty() {
                    f.0.push(format!(
                        "{place}\n    landed outside through Claude Code: {}",
                        live.outside.join(", ")
                    ));
                    continue;
                }
                if !plain.outside.is_empty() {
                    continue;
                }
                let refused = live.output.starts_with("PreToolUse:Bash hook error: scope-guard:")
                    || live.output.starts_with("Claude Code can't be sure");
                if refused && live.inside.is_empty() {
                    f.1.push(format!("{place}\n    {}", live.output.chars().take(300).collect::<String>()));
                } else if live.inside != plain.inside || (code == 0) != (plain.code == Some(0)) {
                    f.0.push(format!(
                        "{place}\n    without a guard: exit {:?}, changed {:?}; through Claude Code: {}, changed {:?}: {}",
                        plain.code,
                        plain.inside,
                        if code == 0 { "ok" } else { "failed" },
                        live.inside,
                        live.output.chars().take(400).collect::<String>()
                    ));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&base);
    let (failures, listed, outside) = found.into_inner().unwrap();
    eprintln!(
        "Claude Code {version}: {} rows of {} run through the real client ({outside} write outside without a guard; nothing landed, or it is a failure below); {} honest ones differ; {} honest ones refused before running by scope-guard or Claude Code's own check:\n{}",
        sample.len(),
        all.len(),
        failures.len(),
        listed.len(),
        listed.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
