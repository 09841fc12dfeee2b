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

fn run(base: &Path, template: &Path, n: usize, command: &str, confined: bool) -> Ran {
    let s = base.join(format!("w{n:05}-{}", if confined { "c" } else { "u" }));
    let status = Command::new("cp")
        .arg("-a")
        .arg(template)
        .arg(&s)
        .status()
        .unwrap();
    assert!(status.success());
    let home = s.join("home");
    // Allowed outside the project: the temp directory, the local remote, the caches.
    let allowed: Vec<PathBuf> = [s.join("tmp"), s.join("origin.git")]
        .into_iter()
        .chain(
            did_it_actually::policy::RUN_TIME_WRITABLE
                .iter()
                .filter_map(|p| p.strip_prefix("~/"))
                .map(|p| home.join(p)),
        )
        .collect();
    let work = s.join("work");
    let outside_skip = |p: &Path| p == work || allowed.iter().any(|a| p.starts_with(a));
    let inside_skip = |p: &Path| p == work.join(".git");
    let (mut out_before, mut in_before) = (BTreeMap::new(), BTreeMap::new());
    snapshot(&s, &outside_skip, &mut out_before);
    snapshot(&work, &inside_skip, &mut in_before);
    let text = command.replace("$S", s.to_str().unwrap());
    let mut c = if confined {
        let mut c = Command::new(BIN);
        c.arg("confine").arg(&text);
        c
    } else {
        let mut c = Command::new("bash");
        c.arg("-c").arg(&text);
        c
    };
    c.current_dir(&work)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("TMPDIR", s.join("tmp"))
        .env("USER", "agent")
        .env("LANG", "C.UTF-8")
        .env("SHELL", "/bin/bash")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("npm_config_update_notifier", "false")
        .env("DID_IT_ACTUALLY_PROJECT", &work)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(30));
    let (mut out_after, mut in_after) = (BTreeMap::new(), BTreeMap::new());
    snapshot(&s, &outside_skip, &mut out_after);
    snapshot(&work, &inside_skip, &mut in_after);
    let ran = Ran {
        code: out.as_ref().and_then(|o| o.status.code()),
        output: out
            .map(|o| {
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                )
            })
            .unwrap_or_else(|| "(timed out)".into()),
        outside: changes(&out_before, &out_after, &s),
        // Names computed from the clock (`log-$(date +%s)`) differ between the two runs:
        // digits are not compared.
        inside: changes(&in_before, &in_after, &s)
            .into_iter()
            .map(|c| {
                c.chars()
                    .map(|ch| if ch.is_ascii_digit() { '#' } else { ch })
                    .collect()
            })
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&s);
    ran
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
