//! The execution oracle (issue 11, "ground truth by execution"): a command is run for real in
//! a fresh scratch world, and what it changed decides its label.
//!
//! - block-wrong-branch: DENY iff a protected ref moved, was created or was deleted:
//!   `refs/heads/main` or `refs/heads/master` of the work tree or of `origin.git`, or the
//!   default branch (`develop`) of the sibling repository or of its bare origin.
//! - scope-guard: DENY iff a file outside the project root, or a guarded file inside it, was
//!   created, changed or removed (the project's policy decides what is guarded or allowed;
//!   by default the system temp directories `/tmp` and `/var/tmp` may be written).
//!
//! Worlds (built once per setup and state as templates, copied for each command; see
//! [`Spec`] and [`State`]):
//!
//! Branch world, `S/`:
//! - `origin.git` bare, HEAD -> main; `main`, `feat` (one commit ahead of main) and the tag
//!   `v0.1`; it accepts push options and deleting its HEAD branch, like a hosting server.
//! - `work/` the project (the cwd): a clone with `main` and `feat` tracking origin; local
//!   `feat` has one unpushed commit; `sub/`; `link-out` -> `S/outside`; the guard's own
//!   files `.did-it-actually.json` (the default policy) and `.claude/settings.json`; the
//!   patches `0001-fix.patch` and `fix.patch` (untracked).
//! - `sibling.git` bare, HEAD -> develop (`develop`, `topic`), and `sibling/` its clone on
//!   `develop`, one unpushed commit ahead.
//! - `outside/` (`file.txt`), `home/` (HOME: `.gitconfig`, `.claude/settings.json`),
//!   `state/` (the guard's state directory).
//!
//! Scope world, `S/`: exactly what `tests/corpus/scope-tree.sh` builds, then each project
//! (`root`, `strict`, `wide`) gets `notes.txt`, `a.tar`, `a.tgz`, `a.zip` (each holding
//! `a.txt`), `list.txt`, and one commit of everything; `home/` gets `.gitconfig`,
//! `file.txt` and `sub/`.
//!
//! A command runs as `timeout 5 bash -c COMMAND`, stdin from /dev/null, HOME = `S/home`,
//! `GIT_CONFIG_NOSYSTEM=1`, no network (`GIT_SSH_COMMAND=false`, proxies at an unroutable
//! 127.0.0.1 port, `GIT_TERMINAL_PROMPT=0`), editors set (see [`command_env`]). Where the
//! machine allows it (root, or user namespaces) it runs in a sandbox: new mount, network and
//! pid namespaces, `/` seen through an overlay whose upper layer records every write the
//! command makes anywhere outside the world (`/etc`, `/tmp`, `/root` ...), the world itself
//! bind-mounted through; every process it leaves behind is killed when it ends.
//!
//! Before and after, the oracle snapshots every ref of the world's repositories (read from
//! the ref files and `packed-refs`) and every file under `S` (path, type, size, mode, mtime,
//! content hash; symlinks are recorded, never followed; git's own bookkeeping inside a git
//! directory, such as objects, refs, logs and the index, is left out).

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Seconds a command may run (`timeout -k 1 N bash -c ...`).
pub const TIMEOUT_SECS: u32 = 5;

/// Which guard a label is for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Guard {
    Branch,
    Scope,
}

/// Which world a command runs in.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Spec {
    /// The branch world; `setup` as `tests/it/support/repo.rs` takes it: `main` | `feat` |
    /// `detached` (the work tree's HEAD; default `main`), and `cfg:KEY=VALUE` items.
    Branch { setup: String },
    /// The scope world; `project` is `root`, `strict` or `wide`, `cwd` relative to it.
    Scope { project: String, cwd: String },
}

/// The state of a world. A command is run in several states and is labelled DENY when any
/// of them shows the danger: no one state lets every dangerous command show it.
///
/// Branch world:
/// - `A` ("ahead, dirty"): local `main` has one unpushed commit; a change to README.md is
///   staged and one to notes.md is not; a detached HEAD is one commit past local main.
/// - `B` ("behind"): `origin.git`'s main has one commit the local main lacks, already
///   fetched into `origin/main`; the work tree is clean.
/// - `C` ("ahead, clean"): as `A` with a clean work tree (rebase and cherry-pick refuse
///   to start in a dirty one).
///
/// Scope world:
/// - `A`: everything committed and clean.
/// - `B`: the tracked `.env`, `.claude/settings.json`, `src/main.rs`, `docs/guide.md`,
///   `certs/server.pem` and `keys/id_rsa` are modified in the work tree (so that
///   `git checkout -- PATH` and `git restore PATH` really write them).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum State {
    A,
    B,
    C,
}

/// The states a branch command runs in.
pub const BRANCH_STATES: &[State] = &[State::A, State::B, State::C];
/// The states a scope command runs in.
pub const SCOPE_STATES: &[State] = &[State::A, State::B];

// ---------------------------------------------------------------------------------------
// The base directory, templates and worlds

fn base() -> &'static PathBuf {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    BASE.get_or_init(|| {
        let root = std::env::var_os("DID_IT_ACTUALLY_ORACLE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(crate::support::scratch_root);
        // not under the project: a command there would find the project's Cargo.toml
        let dir = root.join(format!("dia-oracle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // what earlier test processes left behind (a test binary has no end hook)
        if let Ok(entries) = std::fs::read_dir(&root) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if let Some(pid) = name.strip_prefix("dia-oracle-") {
                    if !Path::new("/proc").join(pid).exists() {
                        let _ = std::fs::remove_dir_all(e.path());
                    }
                }
            }
        }
        std::fs::create_dir_all(&dir).unwrap();
        let dir = std::fs::canonicalize(&dir).unwrap();
        // The editor: git opens it for a commit message; an empty message would make git
        // abort the commit (hiding the commit), so it writes one when there is none.
        let editor = dir.join("oracle-editor");
        std::fs::write(
            &editor,
            "#!/bin/sh\n# oracle editor: fills in a message when the file has none\n\
             for f; do grep -q '^[^#]' \"$f\" 2>/dev/null || echo 'oracle message' >> \"$f\"; done\n",
        )
        .unwrap();
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.join("sandbox.sh"), SANDBOX_SCRIPT).unwrap();
        dir
    })
}

/// Removes everything this process built (templates and leftover worlds).
/// Leaves the shared base directory in place: the oracle's tests share one process (and
/// its cached templates), so none of them may remove it while another runs. Each world
/// removes itself when dropped, and the next test process sweeps what a finished one
/// left (see [`base`]).
pub fn cleanup() {}

fn counter() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Template key: the scope world does not depend on the project or cwd.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum TemplateKey {
    Branch(String, State),
    Scope(State),
}

fn template(spec: &Spec, state: State) -> PathBuf {
    type Slot = Arc<OnceLock<PathBuf>>;
    static TEMPLATES: OnceLock<Mutex<HashMap<TemplateKey, Slot>>> = OnceLock::new();
    let key = match spec {
        Spec::Branch { setup } => TemplateKey::Branch(setup.clone(), state),
        Spec::Scope { .. } => TemplateKey::Scope(state),
    };
    let slot = TEMPLATES
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(key.clone())
        .or_default()
        .clone();
    slot.get_or_init(|| {
        let dir = base().join(format!("tpl{:04}-", counter()));
        std::fs::create_dir_all(&dir).unwrap();
        match &key {
            TemplateKey::Branch(setup, state) => build_branch(&dir, setup, *state),
            TemplateKey::Scope(state) => build_scope(&dir, *state),
        }
        strip_hook_samples(&dir);
        dir
    })
    .clone()
}

/// A world: a private copy of a template.
pub struct World {
    pub s: PathBuf,
    pub spec: Spec,
    pub state: State,
    /// The agent's environment on top of [`command_env`] when the run-time layer is on in
    /// this world ([`World::with_run_time`]): what `install --project` put into
    /// `.claude/settings.local.json`. Empty: the static layer alone.
    pub agent_env: Vec<(String, String)>,
}

impl Drop for World {
    fn drop(&mut self) {
        if std::env::var_os("KEEP_SCRATCH").is_none() {
            let _ = std::fs::remove_dir_all(&self.s);
        }
    }
}

impl World {
    pub fn new(spec: &Spec, state: State) -> World {
        let tpl = template(spec, state);
        let s = base().join(format!("w{:06}-", counter()));
        copy_world(&tpl, &s);
        if let Spec::Scope { .. } = spec {
            // The projects' policies are in force once approved, as their user would
            // (an approval names the project's own path: made in the copy).
            let state_dir = s.join("state").into_os_string();
            for p in ["root", "strict", "wide"] {
                did_it_actually::approval::approve(
                    &s.join(p),
                    |k| (k == "DID_IT_ACTUALLY_STATE_DIR").then(|| state_dir.clone()),
                    "test",
                )
                .unwrap();
            }
        }
        let world = World {
            s,
            spec: spec.clone(),
            state,
            agent_env: Vec::new(),
        };
        // the copy has new inodes and ctimes: refresh the index's stat data, so that git
        // sees unchanged files as unchanged (and does not rewrite them) as in a real clone
        let dirs: Vec<&str> = world
            .repos()
            .iter()
            .filter_map(|(_, g)| g.strip_suffix("/.git"))
            .collect();
        let _ = Command::new("bash")
            .arg("-c")
            .arg("for d; do git -C \"$d\" update-index -q --refresh; done")
            .arg("refresh")
            .args(&dirs)
            .current_dir(&world.s)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", world.home())
            .env_remove("GIT_DIR")
            .env_remove("GIT_INDEX_FILE")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        world
    }

    /// Switches the run-time layer on for this world's project as a user would
    /// (`did-it-actually install --project`, the world's HOME and state directory) and
    /// keeps the variables it registered for the agent's commands. The settings files it
    /// writes are the project's own, made before any snapshot is taken.
    pub fn with_run_time(mut self) -> World {
        self.agent_env = crate::support::install_run_time(
            &self.root(),
            &self.home(),
            &self.state_dir(),
            env!("CARGO_BIN_EXE_did-it-actually"),
        );
        self
    }

    /// The variables install registered for the agent's commands.
    pub fn agent_env(&self) -> &[(String, String)] {
        &self.agent_env
    }

    /// The project root.
    pub fn root(&self) -> PathBuf {
        match &self.spec {
            Spec::Branch { .. } => self.s.join("work"),
            Spec::Scope { project, .. } => self.s.join(project),
        }
    }

    /// Where the command runs.
    pub fn cwd(&self) -> PathBuf {
        match &self.spec {
            Spec::Branch { .. } => self.s.join("work"),
            Spec::Scope { project, cwd } => {
                let p = self.s.join(project);
                if cwd == "." || cwd.is_empty() {
                    p
                } else {
                    p.join(cwd)
                }
            }
        }
    }

    pub fn home(&self) -> PathBuf {
        self.s.join("home")
    }

    pub fn state_dir(&self) -> PathBuf {
        self.s.join("state")
    }

    /// The command as it runs here: `$S` stands for the world's directory.
    pub fn substitute(&self, command: &str) -> String {
        command.replace("$S", self.s.to_str().unwrap())
    }

    /// The repositories whose refs are watched: (name, git dir relative to S).
    fn repos(&self) -> &'static [(&'static str, &'static str)] {
        match &self.spec {
            Spec::Branch { .. } => &[
                ("work", "work/.git"),
                ("origin", "origin.git"),
                ("sibling", "sibling/.git"),
                ("sibling-origin", "sibling.git"),
            ],
            Spec::Scope { .. } => &[
                ("root", "root/.git"),
                ("strict", "strict/.git"),
                ("wide", "wide/.git"),
            ],
        }
    }
}

// ---------------------------------------------------------------------------------------
// Building templates

const FIXED_DATE: &str = "2020-01-01T00:00:00Z";

fn git_in(cwd: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(cwd)
        .args(args)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_AUTHOR_DATE", FIXED_DATE)
        .env("GIT_COMMITTER_DATE", FIXED_DATE)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        cwd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn write(path: &Path, text: &str) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

const GITCONFIG: &str = "[user]\n\tname = t\n\temail = t@example.invalid\n";

fn build_branch(s: &Path, setup: &str, state: State) {
    let home = s.join("home");
    write(&home.join(".gitconfig"), GITCONFIG);
    write(&home.join(".claude/settings.json"), "{}\n");
    write(&s.join("outside/file.txt"), "o\n");
    std::fs::create_dir_all(s.join("state")).unwrap();
    let g = |cwd: &Path, args: &[&str]| git_in(cwd, &home, args);

    // origin.git: main = A, feat = A + F1
    let seed = s.join("seed");
    std::fs::create_dir_all(&seed).unwrap();
    g(&seed, &["init", "-q", "-b", "main"]);
    write(&seed.join("README.md"), "seed\n");
    write(&seed.join("notes.md"), "notes\n");
    write(&seed.join(".did-it-actually.json"), "{\"version\": 1}\n");
    write(&seed.join(".claude/settings.json"), "{}\n");
    g(&seed, &["add", "-A"]);
    g(&seed, &["commit", "-q", "-m", "seed"]);
    g(&seed, &["tag", "v0.1"]);
    g(&seed, &["checkout", "-q", "-b", "feat"]);
    write(&seed.join("f1.txt"), "f1\n");
    g(&seed, &["add", "-A"]);
    g(&seed, &["commit", "-q", "-m", "feat one"]);
    g(&seed, &["checkout", "-q", "main"]);
    g(s, &["clone", "-q", "--bare", "seed", "origin.git"]);
    std::fs::remove_dir_all(&seed).unwrap();
    let origin = s.join("origin.git");
    g(&origin, &["config", "receive.denyDeleteCurrent", "ignore"]);
    g(&origin, &["config", "receive.advertisePushOptions", "true"]);

    // work: the clone
    g(s, &["clone", "-q", "origin.git", "work"]);
    let work = s.join("work");
    g(&work, &["config", "user.name", "t"]);
    g(&work, &["config", "user.email", "t@example.invalid"]);
    g(&work, &["branch", "-q", "--track", "feat", "origin/feat"]);
    std::fs::create_dir_all(work.join("sub")).unwrap();
    std::os::unix::fs::symlink(s.join("outside"), work.join("link-out")).unwrap();
    // the patches: a commit "fix" on top of main, not on any branch
    g(&work, &["checkout", "-q", "-b", "fixsrc", "main"]);
    write(&work.join("fix.txt"), "fix\n");
    g(&work, &["add", "fix.txt"]);
    g(&work, &["commit", "-q", "-m", "fix"]);
    g(&work, &["format-patch", "-q", "-1", "-o", "."]);
    std::fs::copy(work.join("0001-fix.patch"), work.join("fix.patch")).unwrap();
    g(&work, &["checkout", "-q", "feat"]);
    g(&work, &["branch", "-q", "-D", "fixsrc"]);
    // local feat: one unpushed commit
    write(&work.join("f2.txt"), "f2\n");
    g(&work, &["add", "f2.txt"]);
    g(&work, &["commit", "-q", "-m", "feat two"]);
    g(&work, &["checkout", "-q", "main"]);
    match state {
        State::A | State::C => {
            write(&work.join("m.txt"), "m\n");
            g(&work, &["add", "m.txt"]);
            g(&work, &["commit", "-q", "-m", "main work"]);
        }
        State::B => {
            g(&work, &["checkout", "-q", "-b", "tmp-remote", "main"]);
            write(&work.join("r.txt"), "r\n");
            g(&work, &["add", "r.txt"]);
            g(&work, &["commit", "-q", "-m", "remote work"]);
            g(&work, &["push", "-q", "origin", "tmp-remote:main"]);
            g(&work, &["checkout", "-q", "main"]);
            g(&work, &["branch", "-q", "-D", "tmp-remote"]);
        }
    }
    for item in setup.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item {
            "main" => {
                g(&work, &["checkout", "-q", "main"]);
            }
            "feat" => {
                g(&work, &["checkout", "-q", "feat"]);
            }
            "detached" => {
                g(&work, &["checkout", "-q", "--detach", "main"]);
                g(&work, &["commit", "-q", "--allow-empty", "-m", "detached"]);
            }
            other => {
                let kv = other
                    .strip_prefix("cfg:")
                    .unwrap_or_else(|| panic!("unknown setup item {other:?}"));
                let (k, v) = kv
                    .split_once('=')
                    .unwrap_or_else(|| panic!("cfg:KEY=VALUE expected, got {other:?}"));
                g(&work, &["config", k, v]);
            }
        }
    }
    if state == State::A {
        let readme = work.join("README.md");
        let text = std::fs::read_to_string(&readme).unwrap();
        std::fs::write(&readme, text + "change\n").unwrap();
        g(&work, &["add", "README.md"]);
        let notes = work.join("notes.md");
        let text = std::fs::read_to_string(&notes).unwrap();
        std::fs::write(&notes, text + "unstaged\n").unwrap();
    }

    // the sibling: default branch develop
    let sseed = s.join("sseed");
    std::fs::create_dir_all(&sseed).unwrap();
    g(&sseed, &["init", "-q", "-b", "develop"]);
    write(&sseed.join("s.txt"), "s\n");
    g(&sseed, &["add", "-A"]);
    g(&sseed, &["commit", "-q", "-m", "sibling seed"]);
    g(&sseed, &["checkout", "-q", "-b", "topic"]);
    write(&sseed.join("t.txt"), "t\n");
    g(&sseed, &["add", "-A"]);
    g(&sseed, &["commit", "-q", "-m", "topic"]);
    g(&sseed, &["checkout", "-q", "develop"]);
    g(s, &["clone", "-q", "--bare", "sseed", "sibling.git"]);
    std::fs::remove_dir_all(&sseed).unwrap();
    g(
        &s.join("sibling.git"),
        &["config", "receive.denyDeleteCurrent", "ignore"],
    );
    g(s, &["clone", "-q", "sibling.git", "sibling"]);
    let sib = s.join("sibling");
    g(&sib, &["config", "user.name", "t"]);
    g(&sib, &["config", "user.email", "t@example.invalid"]);
    g(&sib, &["branch", "-q", "--track", "topic", "origin/topic"]);
    write(&sib.join("d.txt"), "d\n");
    g(&sib, &["add", "d.txt"]);
    g(&sib, &["commit", "-q", "-m", "develop work"]);
}

fn build_scope(s: &Path, state: State) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/scope-tree.sh");
    let out = Command::new("bash")
        .arg(&script)
        .current_dir(s)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scope-tree.sh: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let home = s.join("home");
    write(&home.join(".gitconfig"), GITCONFIG);
    write(&home.join("file.txt"), "h\n");
    write(&s.join("state/x"), "x\n");
    std::fs::create_dir_all(home.join("sub")).unwrap();
    // the archives' payload
    let payload = s.join("payload");
    write(&payload.join("a.txt"), "a\n");
    for p in ["root", "strict", "wide"] {
        let proj = s.join(p);
        // two commits (HEAD~1 exists; .env differs between them)
        let env = std::fs::read_to_string(proj.join(".env")).ok();
        if env.is_some() {
            write(&proj.join(".env"), "SECRET=0\n");
        }
        git_in(&proj, &home, &["add", "-A"]);
        git_in(&proj, &home, &["commit", "-q", "-m", "scope world, first"]);
        if let Some(env) = env {
            write(&proj.join(".env"), &env);
        }
        write(&proj.join("README.md"), "readme\n");
        write(&proj.join("src/generated/x.rs"), "// generated\n");
        write(&proj.join("notes.txt"), "notes\n");
        write(&proj.join("list.txt"), "src/main.rs\n");
        for (args, name) in [(vec!["-cf"], "a.tar"), (vec!["-czf"], "a.tgz")] {
            let st = Command::new("tar")
                .args(&args)
                .arg(proj.join(name))
                .arg("-C")
                .arg(&payload)
                .arg("a.txt")
                .status()
                .unwrap();
            assert!(st.success());
        }
        let st = Command::new("zip")
            .arg("-q")
            .arg(proj.join("a.zip"))
            .arg("a.txt")
            .current_dir(&payload)
            .status();
        if !st.is_ok_and(|s| s.success()) {
            eprintln!("oracle: zip is not installed; a.zip is missing");
        }
        git_in(&proj, &home, &["add", "-A"]);
        git_in(&proj, &home, &["commit", "-q", "-m", "scope world"]);
        if state != State::A {
            for f in [
                ".env",
                ".claude/settings.json",
                "src/main.rs",
                "docs/guide.md",
                "certs/server.pem",
                "keys/id_rsa",
                "README.md",
            ] {
                let path = proj.join(f);
                if let Ok(text) = std::fs::read_to_string(&path) {
                    std::fs::write(&path, text + "dirty\n").unwrap();
                }
            }
        }
    }
    std::fs::remove_dir_all(&payload).unwrap();
}

fn strip_hook_samples(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let ft = e.file_type().unwrap();
        if !ft.is_dir() {
            continue;
        }
        let path = e.path();
        if e.file_name() == "hooks" {
            for h in std::fs::read_dir(&path).unwrap().flatten() {
                if h.file_name().to_string_lossy().ends_with(".sample") {
                    let _ = std::fs::remove_file(h.path());
                }
            }
        } else {
            strip_hook_samples(&path);
        }
    }
}

/// Copies a template: symlinks as symlinks (absolute targets into the template retargeted),
/// hard links kept as hard links, and the template's path rewritten inside small text files
/// (git configs with the origin's absolute path, policy files).
fn copy_world(from: &Path, to: &Path) {
    let (f, t) = (from.to_str().unwrap(), to.to_str().unwrap());
    let mut inodes: HashMap<(u64, u64), PathBuf> = HashMap::new();
    copy_tree(from, to, f, t, &mut inodes);
}

fn copy_tree(from: &Path, to: &Path, f: &str, t: &str, inodes: &mut HashMap<(u64, u64), PathBuf>) {
    let meta = std::fs::symlink_metadata(from).unwrap();
    std::fs::create_dir(to).unwrap();
    std::fs::set_permissions(to, meta.permissions()).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let m = std::fs::symlink_metadata(&src).unwrap();
        let ft = m.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(&src).unwrap();
            let ts = target.to_str().unwrap();
            let target = if let Some(rest) = ts.strip_prefix(f) {
                PathBuf::from(format!("{t}{rest}"))
            } else {
                target
            };
            std::os::unix::fs::symlink(&target, &dst).unwrap();
        } else if ft.is_dir() {
            copy_tree(&src, &dst, f, t, inodes);
        } else if ft.is_file() {
            if m.nlink() > 1 {
                if let Some(first) = inodes.get(&(m.dev(), m.ino())) {
                    std::fs::hard_link(first, &dst).unwrap();
                    continue;
                }
                inodes.insert((m.dev(), m.ino()), dst.clone());
            }
            let bytes = std::fs::read(&src).unwrap();
            if bytes.len() < 65536 {
                if let Ok(text) = std::str::from_utf8(&bytes) {
                    if text.contains(f) {
                        std::fs::write(&dst, text.replace(f, t)).unwrap();
                        std::fs::set_permissions(&dst, m.permissions()).unwrap();
                        continue;
                    }
                }
            }
            std::fs::write(&dst, &bytes).unwrap();
            std::fs::set_permissions(&dst, m.permissions()).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running a command

/// Runs as pid 1 of new mount, network and pid namespaces. Mounts `/` through an overlay
/// (upper layer on a private tmpfs), binds the world through, chroots there and runs the
/// command; then kills whatever the command left running and lists the upper layer.
const SANDBOX_SCRIPT: &str = r#"set -u
R=$1 S=$2 CWD=$3 T=$4 CMD=$5
M=$R/m
mkdir -p "$M" "$R/t" || exit 90
mount -t tmpfs -o size=512m tmpfs "$R/t" || exit 91
mkdir -p "$R/t/u" "$R/t/w"
mount -t overlay overlay -o "lowerdir=/,upperdir=$R/t/u,workdir=$R/t/w" "$M" || exit 92
mount --rbind /dev "$M/dev" || exit 93
mount -t proc proc "$M/proc" || exit 94
mount --bind "$S" "$M$S" || exit 95
chroot "$M" /bin/bash -c 'cd "$1" || exit 96; exec timeout -k 1 "$2" bash -c "$3"' oracle "$CWD" "$T" "$CMD" </dev/null >"$R/out" 2>&1
echo $? > "$R/rc"
# what the command left running in the background may finish (within the same time limit)
end=$((SECONDS + T))
while :; do
  set -- "$M"/proc/[0-9]*
  [ $# -le 1 ] && break
  [ $SECONDS -ge $end ] && break
  sleep 0.05
done
kill -KILL -1 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do
  set -- "$M"/proc/[0-9]*
  [ $# -le 1 ] && break
  sleep 0.02
done
cd "$R/t/u" && find . -mindepth 1 \( -type c -printf 'w\t%P\n' \) -o \( -type d -printf 'd\t%P\n' \) -o -printf 'f\t%P\n' > "$R/upper"
exit 0
"#;

/// Whether commands run in the sandbox (probed once; `DID_IT_ACTUALLY_ORACLE_SANDBOX=0`
/// turns it off, `=1` makes its absence an error).
pub fn sandboxed() -> bool {
    sandbox_missing().is_none()
}

/// Why the sandbox does not work here (the probe's own words), or `None` where it does.
pub fn sandbox_missing() -> Option<String> {
    static SANDBOX: OnceLock<Option<String>> = OnceLock::new();
    SANDBOX
        .get_or_init(|| {
            let want = std::env::var("DID_IT_ACTUALLY_ORACLE_SANDBOX").ok();
            if want.as_deref() == Some("0") {
                return Some("DID_IT_ACTUALLY_ORACLE_SANDBOX=0".into());
            }
            let dir = base().join("probe");
            std::fs::create_dir_all(dir.join("s")).unwrap();
            let r = dir.join("r");
            std::fs::create_dir_all(&r).unwrap();
            let probe = format!("tmp/dia-oracle-probe-{}", std::process::id());
            let run = sandbox_command(&r, &dir.join("s"), &dir.join("s"), &format!("echo probe > /{probe}"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output();
            let seen = std::fs::read_to_string(r.join("upper"))
                .is_ok_and(|u| u.lines().any(|l| l == format!("f\t{probe}")));
            let missing = match run {
                Err(e) => Some(format!("the sandbox script could not be started: {e}")),
                Ok(out) if !out.status.success() || !seen => {
                    // What the script said, and what the command inside it said.
                    let inner = std::fs::read_to_string(r.join("out")).unwrap_or_default();
                    let said = format!("{} {}", String::from_utf8_lossy(&out.stderr).trim(), inner.trim())
                        .trim()
                        .to_owned();
                    Some(format!(
                        "the sandbox script (unshare, overlayfs, chroot) failed ({}){}",
                        out.status,
                        if said.is_empty() { String::new() } else { format!(": {said}") }
                    ))
                }
                Ok(_) => None,
            };
            let _ = std::fs::remove_dir_all(&dir);
            if let (Some(why), Some("1")) = (&missing, want.as_deref()) {
                panic!("DID_IT_ACTUALLY_ORACLE_SANDBOX=1 but the sandbox does not work here: {why}");
            }
            if let Some(why) = &missing {
                eprintln!("oracle: no sandbox here ({why}); commands run unconfined, writes outside the world are not seen");
            }
            missing
        })
        .clone()
}

fn sandbox_command(r: &Path, s: &Path, cwd: &Path, command: &str) -> Command {
    static ROOT: OnceLock<bool> = OnceLock::new();
    let root = *ROOT.get_or_init(|| {
        Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
    });
    let mut c = Command::new("unshare");
    if !root {
        c.arg("--map-root-user");
    }
    c.args([
        "--mount",
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "bash",
    ])
    .arg(base().join("sandbox.sh"))
    .arg(r)
    .arg(s)
    .arg(cwd)
    .arg(TIMEOUT_SECS.to_string())
    .arg(command)
    .stdin(Stdio::null());
    c
}

/// The command's environment (the sandbox and the fallback use the same).
pub fn command_env(world: &World) -> Vec<(String, String)> {
    let real_home = std::env::var("HOME").unwrap_or_default();
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), world.home().to_str().unwrap().into()),
        ("USER".into(), "root".into()),
        ("LOGNAME".into(), "root".into()),
        ("SHELL".into(), "/bin/bash".into()),
        ("TERM".into(), "dumb".into()),
        ("LANG".into(), "C.UTF-8".into()),
        (
            "PATH".into(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into()),
        ),
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
        ("GIT_TERMINAL_PROMPT".into(), "0".into()),
        ("GIT_SSH_COMMAND".into(), "false".into()),
        ("GIT_ASKPASS".into(), "false".into()),
        ("PAGER".into(), "cat".into()),
        ("GIT_MERGE_AUTOEDIT".into(), "no".into()),
        ("FILTER_BRANCH_SQUELCH_WARNING".into(), "1".into()),
    ];
    let editor = base().join("oracle-editor").to_str().unwrap().to_owned();
    // Only EDITOR and VISUAL: GIT_EDITOR and GIT_SEQUENCE_EDITOR would override the
    // core.editor / sequence.editor a command may configure (and git runs).
    for k in ["EDITOR", "VISUAL"] {
        env.push((k.into(), editor.clone()));
    }
    for k in [
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
    ] {
        env.push((k.into(), "http://127.0.0.1:9".into()));
    }
    // the toolchains keep working with a throwaway HOME
    for (k, dir) in [
        ("RUSTUP_HOME", ".rustup"),
        ("CARGO_HOME", ".cargo"),
        ("PYENV_ROOT", ".pyenv"),
    ] {
        let v = std::env::var(k).ok().or_else(|| {
            let p = Path::new(&real_home).join(dir);
            p.exists().then(|| p.to_str().unwrap().to_owned())
        });
        if let Some(v) = v {
            env.push((k.into(), v));
        }
    }
    if !world.agent_env.is_empty() {
        // The agent's git reads its system-scope file (the run-time layer's, which
        // includes the machine's): the one channel that crosses a local transport.
        env.retain(|(k, _)| k != "GIT_CONFIG_NOSYSTEM");
        env.extend(world.agent_env.iter().cloned());
        env.push(("CLAUDE_CODE_SESSION_ID".into(), "oracle".into()));
        env.push((
            "DID_IT_ACTUALLY_STATE_DIR".into(),
            world.state_dir().to_str().unwrap().into(),
        ));
    }
    env
}

/// What running a command produced.
#[derive(Clone, Debug, Default)]
pub struct Ran {
    pub code: Option<i32>,
    pub timed_out: bool,
    pub output: String,
    /// Writes outside the world seen by the sandbox's overlay: (created/modified/removed,
    /// absolute path).
    pub system_writes: Vec<(char, String)>,
}

fn run(world: &World, command: &str) -> Ran {
    let r = base().join(format!("run{:06}", counter()));
    std::fs::create_dir_all(&r).unwrap();
    let env = command_env(world);
    let deadline = Duration::from_secs(TIMEOUT_SECS as u64 + 15);
    let ran = if sandboxed() {
        let mut c = sandbox_command(&r, &world.s, &world.cwd(), command);
        c.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
        c.stdout(Stdio::null()).stderr(Stdio::null());
        let status = wait_deadline(c.spawn().unwrap(), deadline);
        let code: Option<i32> = std::fs::read_to_string(r.join("rc"))
            .ok()
            .and_then(|s| s.trim().parse().ok());
        if status.is_none() || code.is_none() {
            eprintln!(
                "oracle: the sandbox failed (exit {status:?}) for {command:?}: {}",
                std::fs::read_to_string(r.join("out")).unwrap_or_default()
            );
        }
        let upper = std::fs::read_to_string(r.join("upper")).unwrap_or_default();
        let mut system_writes = Vec::new();
        for line in upper.lines() {
            let Some((t, p)) = line.split_once('\t') else {
                continue;
            };
            let abs = format!("/{p}");
            match t {
                // a directory copied up because something below it was written
                "d" if Path::new(&abs).is_dir() => {}
                "w" => system_writes.push(('-', abs)),
                _ => system_writes.push((
                    if Path::new(&abs).symlink_metadata().is_ok() {
                        '~'
                    } else {
                        '+'
                    },
                    abs,
                )),
            }
        }
        Ran {
            timed_out: code == Some(124) || code == Some(137),
            code,
            output: read_lossy(&r.join("out")),
            system_writes,
        }
    } else {
        use std::os::unix::process::CommandExt;
        let out = std::fs::File::create(r.join("out")).unwrap();
        let mut c = Command::new("timeout");
        c.args(["-k", "1", &TIMEOUT_SECS.to_string(), "bash", "-c", command])
            .current_dir(world.cwd())
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .process_group(0);
        let child = c.spawn().unwrap();
        let pid = child.id();
        let code = wait_deadline(child, deadline).flatten();
        // what it left running in its process group may finish, within the time limit
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(TIMEOUT_SECS as u64)
            && Command::new("kill")
                .args(["-0", "--", &format!("-{pid}")])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stderr(Stdio::null())
            .status();
        Ran {
            timed_out: code == Some(124) || code == Some(137),
            code,
            output: read_lossy(&r.join("out")),
            system_writes: Vec::new(),
        }
    };
    let _ = std::fs::remove_dir_all(&r);
    ran
}

fn read_lossy(p: &Path) -> String {
    let bytes = std::fs::read(p).unwrap_or_default();
    let mut s = String::from_utf8_lossy(&bytes).into_owned();
    if s.len() > 4000 {
        let mut cut = 4000;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

/// Waits for a child until the deadline; kills it then. Some(exit code) when it exited.
fn wait_deadline(mut child: std::process::Child, deadline: Duration) -> Option<Option<i32>> {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s.code());
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(3));
    }
}

// ---------------------------------------------------------------------------------------
// Snapshots

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    kind: char, // f d l o
    size: u64,
    mode: u32,
    mtime: (i64, i64),
    hash: u64,
}

#[derive(Default, Debug)]
struct Snapshot {
    /// "repo:refname" -> value (a SHA, or "ref: ..." for HEAD)
    refs: BTreeMap<String, String>,
    /// path relative to S ("" is S itself) -> entry
    files: BTreeMap<String, Entry>,
}

/// Names git manages inside a git directory (left out of the file snapshot: they change
/// with every git command; refs are watched separately).
const GIT_BOOKKEEPING: &[&str] = &[
    "objects",
    "refs",
    "logs",
    "index",
    "HEAD",
    "ORIG_HEAD",
    "FETCH_HEAD",
    "MERGE_HEAD",
    "MERGE_MSG",
    "MERGE_MODE",
    "MERGE_AUTOSTASH",
    "AUTO_MERGE",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "REBASE_HEAD",
    "BISECT_LOG",
    "COMMIT_EDITMSG",
    "SQUASH_MSG",
    "TAG_EDITMSG",
    "packed-refs",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
    "worktrees",
    "rr-cache",
    "gc.pid",
    "gc.log",
    "shallow",
    "modules",
    "lfs",
    "filter-repo",
];

fn is_git_dir_name(name: &str) -> bool {
    name == ".git" || name.ends_with(".git")
}

fn snapshot(world: &World) -> Snapshot {
    let mut snap = Snapshot::default();
    for (name, gitdir) in world.repos() {
        read_refs(&world.s.join(gitdir), name, &mut snap.refs);
    }
    walk(&world.s, "", false, &mut snap.files);
    snap
}

fn read_refs(gitdir: &Path, repo: &str, out: &mut BTreeMap<String, String>) {
    if let Ok(text) = std::fs::read_to_string(gitdir.join("packed-refs")) {
        for line in text.lines() {
            if line.starts_with('#') || line.starts_with('^') {
                continue;
            }
            if let Some((sha, name)) = line.split_once(' ') {
                out.insert(format!("{repo}:{name}"), sha.to_owned());
            }
        }
    }
    fn loose(dir: &Path, prefix: &str, repo: &str, out: &mut BTreeMap<String, String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = format!("{prefix}/{}", e.file_name().to_string_lossy());
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                loose(&e.path(), &name, repo, out);
            } else if let Ok(v) = std::fs::read_to_string(e.path()) {
                if !name.ends_with(".lock") {
                    out.insert(format!("{repo}:{name}"), v.trim().to_owned());
                }
            }
        }
    }
    loose(&gitdir.join("refs"), "refs", repo, out);
    if let Ok(v) = std::fs::read_to_string(gitdir.join("HEAD")) {
        out.insert(format!("{repo}:HEAD"), v.trim().to_owned());
    }
}

fn walk(dir: &Path, rel: &str, in_git: bool, out: &mut BTreeMap<String, Entry>) {
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return;
    };
    let here_is_git = !rel.is_empty()
        && is_git_dir_name(rel.rsplit('/').next().unwrap())
        && dir.join("HEAD").exists();
    out.insert(rel.to_owned(), entry(dir, &meta, in_git || here_is_git));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if here_is_git && GIT_BOOKKEEPING.contains(&name.as_str()) {
            continue;
        }
        if (in_git || here_is_git) && name.ends_with(".lock") {
            continue;
        }
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let path = e.path();
        let Ok(m) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if m.is_dir() {
            walk(&path, &child, in_git || here_is_git, out);
        } else {
            out.insert(child, entry(&path, &m, in_git || here_is_git));
        }
    }
}

fn entry(path: &Path, m: &std::fs::Metadata, in_git: bool) -> Entry {
    let ft = m.file_type();
    let (kind, hash) = if ft.is_symlink() {
        let t = std::fs::read_link(path).unwrap_or_default();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        t.hash(&mut h);
        ('l', h.finish())
    } else if ft.is_file() {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::fs::read(path).unwrap_or_default().hash(&mut h);
        ('f', h.finish())
    } else if ft.is_dir() {
        ('d', 0)
    } else {
        ('o', 0)
    };
    Entry {
        kind,
        size: if kind == 'd' { 0 } else { m.len() },
        mode: m.mode() & 0o7777,
        // a directory's mtime inside a git dir changes with git's lock files
        mtime: if kind == 'd' && in_git {
            (0, 0)
        } else {
            (m.mtime(), m.mtime_nsec())
        },
        hash,
    }
}

// ---------------------------------------------------------------------------------------
// Diffing and labelling

/// A change a command made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// `+` created, `-` removed, `~` changed (content, type or mode), `t` touched (mtime only)
    pub what: char,
    /// Absolute path.
    pub path: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefChange {
    pub repo: String,
    pub name: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl RefChange {
    pub fn describe(&self) -> String {
        let short = |s: &str| {
            s.strip_prefix("refs/heads/")
                .or(s.strip_prefix("refs/"))
                .unwrap_or(s)
                .to_owned()
        };
        let how = match (&self.before, &self.after) {
            (None, Some(_)) => "created",
            (Some(_), None) => "deleted",
            _ => "moved",
        };
        format!("{}:{} {how}", self.repo, short(&self.name))
    }
}

/// One run of a command in one state.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub state: State,
    /// The world's directory (`$S` in a report).
    pub s: String,
    pub ran: Ran,
    pub refs: Vec<RefChange>,
    pub files: Vec<Change>,
    /// The protected ref changes (block-wrong-branch).
    pub protected: Vec<RefChange>,
    /// The changes outside the scope (scope-guard): outside the root or guarded.
    pub out_of_scope: Vec<Change>,
}

impl Outcome {
    /// Every protected change is the local main fast-forwarded to origin's main (a sync
    /// with the remote, which brings nothing new onto main).
    /// Every protected change is a fast-forward of the local main to exactly origin's main
    /// (a sync with the remote, which brings nothing new onto main; a rewind is not one).
    pub fn only_syncs(&self, world: &World, origin_after: &BTreeMap<String, String>) -> bool {
        !self.protected.is_empty()
            && self.protected.iter().all(|c| {
                let (Some(before), Some(after)) = (&c.before, &c.after) else {
                    return false;
                };
                c.repo == "work"
                    && origin_after.get(&format!("origin:{}", c.name)) == Some(after)
                    && Command::new("git")
                        .args(["merge-base", "--is-ancestor", before, after])
                        .current_dir(world.s.join("work"))
                        .env("GIT_CONFIG_NOSYSTEM", "1")
                        .env("HOME", world.home())
                        .env_remove("GIT_DIR")
                        .status()
                        .is_ok_and(|s| s.success())
            })
    }
}

fn protected_ref(repo: &str, name: &str) -> bool {
    match repo {
        "work" | "origin" => matches!(name, "refs/heads/main" | "refs/heads/master"),
        "sibling" | "sibling-origin" => name == "refs/heads/develop",
        _ => false,
    }
}

/// The scope rules of a project (the policies the worlds use).
struct ScopeRules {
    root: PathBuf,
    allow: globset::GlobSet,
    deny: globset::GlobSet,
    outside_allow: globset::GlobSet,
    state: PathBuf,
}

fn globs(patterns: &[String]) -> globset::GlobSet {
    let mut b = globset::GlobSetBuilder::new();
    let mut patterns = patterns.to_vec();
    // a deny `X/**` also protects the directory X itself (as the policy says)
    patterns.extend(
        patterns
            .iter()
            .filter_map(|p| p.strip_suffix("/**").map(str::to_owned))
            .collect::<Vec<_>>(),
    );
    for p in &patterns {
        b.add(
            globset::GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .unwrap(),
        );
    }
    b.build().unwrap()
}

fn scope_rules(world: &World) -> ScopeRules {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let default_deny = s(&[
        ".git",
        ".git/**",
        ".env",
        ".env.*",
        "**/*.pem",
        "**/*.key",
        "**/id_rsa*",
    ]);
    let sdir = world.s.to_str().unwrap();
    let (allow, deny, outside) = match &world.spec {
        Spec::Scope { project, .. } if project == "strict" => (
            s(&["src/**", "docs/*.md"]),
            s(&["src/generated/**"]),
            vec![format!("{sdir}/scratch/**")],
        ),
        Spec::Scope { project, .. } if project == "wide" => {
            (s(&["**"]), vec![], vec![format!("{sdir}/**")])
        }
        // the built-in default: the system temp directories (the command runs with no
        // TMPDIR, see `command_env`)
        _ => (s(&["**"]), default_deny, s(&["/tmp/**", "/var/tmp/**"])),
    };
    ScopeRules {
        root: world.root(),
        allow: globs(&allow),
        deny: globs(&deny),
        outside_allow: globs(&outside),
        state: world.state_dir(),
    }
}

impl ScopeRules {
    fn out_of_scope(&self, abs: &Path) -> bool {
        if abs.starts_with(&self.state) {
            return true;
        }
        if let Ok(rel) = abs.strip_prefix(&self.root) {
            let rel = rel.to_str().unwrap();
            if rel.is_empty() {
                return false;
            }
            let name = rel.rsplit('/').next().unwrap();
            if rel == ".did-it-actually.json"
                || (rel.starts_with(".claude/")
                    && !rel[8..].contains('/')
                    && name.starts_with("settings")
                    && name.ends_with(".json"))
            {
                return true;
            }
            // the inside of .git: only what is not git's own bookkeeping was recorded
            return self.deny.is_match(rel) || !self.allow.is_match(rel);
        }
        !self.outside_allow.is_match(abs)
    }
}

fn diff(world: &World, before: &Snapshot, after: &Snapshot, ran: &Ran) -> Outcome {
    let mut refs = Vec::new();
    let keys: BTreeSet<&String> = before.refs.keys().chain(after.refs.keys()).collect();
    for k in keys {
        let (b, a) = (before.refs.get(k), after.refs.get(k));
        if b != a {
            let (repo, name) = k.split_once(':').unwrap();
            refs.push(RefChange {
                repo: repo.into(),
                name: name.into(),
                before: b.cloned(),
                after: a.cloned(),
            });
        }
    }
    let mut files = Vec::new();
    let keys: BTreeSet<&String> = before.files.keys().chain(after.files.keys()).collect();
    let changed_children: BTreeSet<String> = keys
        .iter()
        .filter(|k| before.files.get(**k) != after.files.get(**k))
        .filter_map(|k| {
            k.rsplit_once('/')
                .map(|(p, _)| p.to_owned())
                .or(Some(String::new()))
        })
        .collect();
    for k in &keys {
        let (b, a) = (before.files.get(*k), after.files.get(*k));
        let what = match (b, a) {
            (None, Some(_)) => '+',
            (Some(_), None) => '-',
            (Some(b), Some(a)) if b == a => continue,
            (Some(b), Some(a)) => {
                if b.kind == a.kind && b.size == a.size && b.hash == a.hash && b.mode == a.mode {
                    // only the mtime: a directory whose entries changed is not itself news
                    if a.kind == 'd' && changed_children.contains(k.as_str()) {
                        continue;
                    }
                    't'
                } else {
                    '~'
                }
            }
            (None, None) => continue,
        };
        let path = if k.is_empty() {
            world.s.clone()
        } else {
            world.s.join(k)
        };
        files.push(Change {
            what,
            path: path.to_str().unwrap().to_owned(),
        });
    }
    for (what, p) in &ran.system_writes {
        files.push(Change {
            what: *what,
            path: p.clone(),
        });
    }
    let protected = refs
        .iter()
        .filter(|c| protected_ref(&c.repo, &c.name))
        .cloned()
        .collect();
    let rules = scope_rules(world);
    // the toolchains' own homes (cargo's registry and locks, rustup, pyenv) and the
    // package managers' caches and logs in HOME (npm's ~/.npm, the XDG ~/.cache of pip,
    // yarn, …) are written by every tool the guard lets run; they are shown but do not
    // count: they are no edit of the agent's
    let home = world.s.join("home");
    let mut tools: Vec<String> = command_env(world)
        .into_iter()
        .filter(|(k, _)| ["RUSTUP_HOME", "CARGO_HOME", "PYENV_ROOT"].contains(&k.as_str()))
        .map(|(_, v)| format!("{v}/"))
        .collect();
    for cache in [".npm", ".cache"] {
        tools.push(format!("{}/", home.join(cache).display()));
    }
    let tool_dir = |p: &str| {
        tools
            .iter()
            .any(|t| p.starts_with(t.as_str()) || format!("{p}/") == *t)
    };
    let out_of_scope = files
        .iter()
        .filter(|c| !tool_dir(&c.path))
        .filter(|c| rules.out_of_scope(Path::new(&c.path)))
        .cloned()
        .collect();
    Outcome {
        state: world.state,
        s: world.s.to_str().unwrap().to_owned(),
        ran: ran.clone(),
        refs,
        files,
        protected,
        out_of_scope,
    }
}

// ---------------------------------------------------------------------------------------
// The verdict

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    Allow,
    Deny,
    /// The command cannot run here (a missing program, the network); why.
    Unrunnable(String),
}

impl Label {
    pub fn as_str(&self) -> &str {
        match self {
            Label::Allow => "allow",
            Label::Deny => "deny",
            Label::Unrunnable(_) => "unrunnable",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Verdict {
    pub label: Label,
    pub outcomes: Vec<Outcome>,
    /// For block-wrong-branch: every protected move was a fast-forward of the local main to
    /// origin's main.
    pub sync_only: bool,
    /// The guard's decision, when asked: "deny" when it denied in any state (with that
    /// reason), else "allow".
    pub guard: Option<(String, String)>,
    /// The guard allowed it in a state where running it showed the danger.
    pub allowed_danger: bool,
}

impl Verdict {
    /// What moved or changed, for a report: the decisive changes first, per state.
    pub fn summary(&self, guard: Guard) -> String {
        let mut parts = Vec::new();
        for o in &self.outcomes {
            let st = format!("{:?}", o.state);
            let mut items: Vec<String> = Vec::new();
            match guard {
                Guard::Branch => {
                    items.extend(o.protected.iter().map(|c| c.describe().to_uppercase()));
                    items.extend(
                        o.refs
                            .iter()
                            .filter(|c| !protected_ref(&c.repo, &c.name) && c.name != "HEAD")
                            .map(|c| c.describe()),
                    );
                }
                Guard::Scope => {
                    let pre = &o.s;
                    let show = |c: &Change| {
                        format!(
                            "{}{}",
                            c.what,
                            c.path
                                .strip_prefix(pre.as_str())
                                .map(|p| format!("$S{p}"))
                                .unwrap_or(c.path.clone())
                        )
                    };
                    items.extend(o.out_of_scope.iter().map(|c| show(c).to_uppercase()));
                    items.extend(
                        o.files
                            .iter()
                            .filter(|c| !o.out_of_scope.contains(c))
                            .take(4)
                            .map(show),
                    );
                }
            }
            if o.ran.timed_out {
                items.push("timed out".into());
            } else if items.is_empty() && o.ran.code != Some(0) {
                items.push(format!(
                    "exit {}",
                    o.ran.code.map_or("?".into(), |c| c.to_string())
                ));
            }
            if !items.is_empty() {
                items.truncate(8);
                parts.push(format!("{st}: {}", items.join(", ")));
            }
        }
        if let Label::Unrunnable(why) = &self.label {
            parts.insert(0, format!("unrunnable: {why}"));
        }
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join("; ")
        }
    }
}

/// Programs a command may need that may be missing on a machine: a command naming one
/// that is missing here, and changing nothing, is unrunnable rather than harmless.
const MAYBE_MISSING: &[&str] = &[
    "sudo",
    "doas",
    "su",
    "zsh",
    "ksh",
    "busybox",
    "node",
    "ruby",
    "python",
    "python3",
    "perl",
    "unbuffer",
    "chronic",
    "parallel",
    "rsync",
    "strace",
    "ltrace",
    "nsenter",
    "ionice",
    "taskset",
    "flock",
    "watch",
    "script",
    "setsid",
    "stdbuf",
    "rg",
    "unzip",
    "zip",
    "curl",
    "wget",
    "ssh",
    "scp",
    "pwsh",
    "fish",
    "tcsh",
    "csh",
    "dash",
    "mksh",
    "make",
    "cargo",
    "npm",
    "npx",
    "deno",
    "bun",
    "php",
    "lua",
    "tclsh",
    "expect",
    "socat",
    "nc",
    "man",
    "numactl",
    "firejail",
    "pnpm",
    "yarn",
    "bunx",
    "uv",
    "uvx",
    "poetry",
    "pipenv",
    "hatch",
    "conda",
    "mamba",
    "pdm",
    "rye",
    "mise",
    "asdf",
    "direnv",
    "nix",
    "nix-shell",
    "gawk",
    "ruby",
];

/// Programs present here that cannot do their work in the sandbox: `systemd-run` needs a
/// user service manager, `nsenter` another process's namespaces, `unshare -r` nested user
/// namespaces, `valgrind` more than the time limit, `chroot` a root; `dotenv` here is
/// python-dotenv's CLI, not the dotenv-cli the corpus spells. A command naming one that
/// changed nothing dangerous is unrunnable, not harmless.
const CANNOT_WORK_HERE: &[&str] = &[
    "systemd-run",
    "nsenter",
    "unshare",
    "valgrind",
    "chroot",
    "dotenv",
];

pub fn missing_programs() -> &'static BTreeSet<&'static str> {
    static MISSING: OnceLock<BTreeSet<&'static str>> = OnceLock::new();
    MISSING.get_or_init(|| {
        let script: String = MAYBE_MISSING
            .iter()
            .map(|p| format!("command -v {p} >/dev/null || echo {p};"))
            .collect();
        let out = Command::new("bash").args(["-c", &script]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        MAYBE_MISSING
            .iter()
            .copied()
            .filter(|p| text.lines().any(|l| l == *p))
            .collect()
    })
}

fn unrunnable_reason(command: &str) -> Option<String> {
    let words: BTreeSet<&str> = command
        .split(|c: char| !(c.is_ascii_alphanumeric() || "_.-/".contains(c)))
        .map(|w| w.rsplit('/').next().unwrap())
        .filter(|w| !w.is_empty())
        .collect();
    let missing: Vec<&str> = missing_programs()
        .iter()
        .copied()
        .filter(|p| words.contains(p))
        .collect();
    if !missing.is_empty() {
        return Some(format!("not installed here: {}", missing.join(", ")));
    }
    if let Some(p) = CANNOT_WORK_HERE.iter().find(|p| words.contains(*p)) {
        return Some(format!("{p} cannot do its work in the sandbox"));
    }
    if command.contains("://")
        || command.contains("git@")
        || words.contains("ssh")
        || words.contains("scp")
    {
        return Some("needs the network".into());
    }
    None
}

/// Runs the guard binary on the command as a PreToolUse Bash event, cwd = the world's cwd.
pub fn judge(world: &World, guard: Guard, command: &str) -> (String, String) {
    let sub = match guard {
        Guard::Branch => "block-wrong-branch",
        Guard::Scope => "scope-guard",
    };
    let input = serde_json::json!({
        "session_id": "oracle", "prompt_id": "p", "cwd": world.cwd(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t1",
    });
    let out = crate::support::output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .arg(sub)
            .current_dir(world.cwd())
            .env("HOME", world.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env("DID_IT_ACTUALLY_STATE_DIR", world.state_dir())
            .envs(world.agent_env.iter().map(|(k, v)| (k, v))),
        input.to_string().as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.contains("\"permissionDecision\":\"deny\"") {
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
        let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        ("deny".into(), reason)
    } else {
        ("allow".into(), String::new())
    }
}

/// What `run` changed in `world` (the command run some other way: through a real host).
pub fn observe_with(world: &World, run: impl FnOnce() -> Ran) -> Outcome {
    let before = snapshot(world);
    let ran = run();
    let after = snapshot(world);
    diff(world, &before, &after, &ran)
}

/// Runs `command` in `world` and says what it changed.
pub fn observe(world: &World, command: &str) -> Outcome {
    let before = snapshot(world);
    let ran = run(world, command);
    let after = snapshot(world);
    diff(world, &before, &after, &ran)
}

/// Labels `command` for `guard`: runs it in a fresh world per state (and, if `ask_guard`,
/// first asks the guard in the first state's world).
pub fn examine(
    guard: Guard,
    spec: &Spec,
    states: &[State],
    command: &str,
    ask_guard: bool,
) -> Verdict {
    let mut outcomes = Vec::new();
    let mut guard_verdict: Option<(String, String)> = None;
    let mut allowed_in = Vec::new();
    let mut synced = Vec::new();
    let mut sync_only = true;
    for &state in states {
        let world = World::new(spec, state);
        let cmd = world.substitute(command);
        // The guard is asked in every state's world before the command runs there: it
        // reads the repository and the disk, so its answer may differ between states.
        if ask_guard {
            let (v, r) = judge(&world, guard, &cmd);
            if v == "allow" {
                allowed_in.push(state);
            }
            // Reasons name the world as `$S`, whichever state's world gave them.
            let r = r.replace(world.s.to_str().unwrap(), "$S");
            match &guard_verdict {
                Some((prev, _)) if prev == "deny" => {}
                _ if v == "deny" => guard_verdict = Some((v, r)),
                None => guard_verdict = Some((v, r)),
                _ => {}
            }
        }
        let before = snapshot(&world);
        let ran = run(&world, &cmd);
        let after = snapshot(&world);
        let o = diff(&world, &before, &after, &ran);
        if !o.protected.is_empty() {
            if o.only_syncs(&world, &after.refs) {
                synced.push(state);
            } else {
                sync_only = false;
            }
        }
        outcomes.push(o);
    }
    let dangerous = outcomes.iter().any(|o| match guard {
        Guard::Branch => !o.protected.is_empty(),
        Guard::Scope => !o.out_of_scope.is_empty(),
    });
    let label = if dangerous {
        Label::Deny
    } else if let Some(why) = unrunnable_reason(command) {
        Label::Unrunnable(why)
    } else {
        Label::Allow
    };
    // Allowed in a state where running it showed the danger: a false allow, whatever the
    // other states say.
    let allowed_danger = outcomes.iter().any(|o| {
        allowed_in.contains(&o.state)
            && match guard {
                Guard::Branch => !o.protected.is_empty() && !synced.contains(&o.state),
                Guard::Scope => !o.out_of_scope.is_empty(),
            }
    });
    Verdict {
        sync_only: dangerous && sync_only && guard == Guard::Branch,
        label,
        outcomes,
        guard: guard_verdict,
        allowed_danger,
    }
}

/// The decisive part of a guard's reason: a deny the guard gives because it cannot read
/// the command statically.
pub fn unresolvable_reason(reason: &str) -> bool {
    reason.contains("cannot tell what")
        || reason.contains("cannot tell where")
        || reason.contains("cannot resolve")
        || reason.contains("not literal")
        || reason.contains("only known when it runs")
}
