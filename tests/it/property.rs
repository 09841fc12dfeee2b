//! Property test: no input makes a hook panic, hang or answer outside the protocol.
//!
//! Every fixture of every hook is mutated many times over (values swapped for hostile
//! ones, keys dropped, shell commands spliced from dangerous fragments, the JSON text cut
//! or a byte flipped), with a fixed seed so a failure reproduces, and each mutant runs
//! through the same runner the binary uses, in-process. Each must come back within the
//! watchdog's limit, without the runner's panic path, with exit 0 or 2, and with stdout
//! that is empty or one JSON object.

use did_it_actually::hooks::Hook;
use did_it_actually::runner::run_hook;
use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Mutants per fixture. audit-turn may wait for a lagging transcript, so it gets fewer.
const MUTANTS: usize = 150;
const MUTANTS_AUDIT: usize = 30;
/// Not a speed limit: a hook that takes this long on one small input is hung.
const WATCHDOG: Duration = Duration::from_secs(20);

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SHELL_FRAGMENTS: &[&str] = &[
    "git push origin HEAD:main",
    "git -c alias.p=push p origin main",
    "git commit -am x",
    "cd .. && git push",
    "eval \"$(echo git push)\"",
    "bash -c 'git push origin main'",
    "sh <<'EOF'\ngit push\nEOF",
    "$(",
    "`",
    "'",
    "\"",
    "\\",
    "&&",
    "||",
    "|",
    ";",
    "&",
    ">",
    ">>",
    "2>&1",
    "<(",
    "${X:-",
    "$((1+",
    "{",
    "}",
    "(",
    ")",
    "tee /etc/passwd",
    "cp a /tmp/b",
    "sed -i s/a/b/ ../x",
    "rm -rf /",
    "git checkout -- .",
    "git rebase -i main",
    "git update-ref refs/heads/main HEAD",
    "git branch -D main",
    "git -C /nonexistent push",
    "GIT_DIR=/x git push",
    "xargs git push",
    "find . -exec git push \\;",
    "for b in main; do git push origin $b; done",
    "if true; then git push; fi",
    "case x in x) git push;; esac",
    "function f { git push; }; f",
    "~",
    "#",
    "\n",
    "\u{0}",
    "é",
    "\u{202e}",
];

fn hostile_values(rng: &mut Rng, root: &Path) -> Value {
    let long = "a/".repeat(2000 + rng.below(3000));
    let candidates = [
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1e308),
        json!(u64::MAX),
        json!(""),
        json!(" "),
        json!("\u{0}"),
        json!("../../../../etc/passwd"),
        json!("/"),
        json!("//"),
        json!("."),
        json!("~/.claude/settings.json"),
        json!(root.join(".claude/settings.json")),
        json!(root.join(".did-it-actually.json")),
        json!(root.join("a/../../outside")),
        json!(long),
        json!("C:\\Windows\\System32"),
        json!("\\\\server\\share"),
        json!([]),
        json!({}),
        json!([1, "two", null]),
        json!({"command": "git push origin main"}),
        json!("<promise>DONE</promise>"),
        json!("I updated src/a.rs and all 12 tests pass. Pushed to main."),
        json!("mcp__srv__write_file"),
        json!("mcp____"),
    ];
    rng.pick(&candidates).clone()
}

fn leaf_paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                prefix.push(k.clone());
                out.push(prefix.clone());
                leaf_paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                prefix.push(i.to_string());
                out.push(prefix.clone());
                leaf_paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, key| match v {
        Value::Object(m) => m.get_mut(key),
        Value::Array(a) => a.get_mut(key.parse::<usize>().ok()?),
        _ => None,
    })
}

/// One mutant of `base`, as stdin bytes.
fn mutate(base: &Value, rng: &mut Rng, root: &Path) -> Vec<u8> {
    let mut v = base.clone();
    let mut paths = Vec::new();
    leaf_paths(&v, &mut Vec::new(), &mut paths);
    for _ in 0..1 + rng.below(3) {
        match rng.below(5) {
            0 | 1 if !paths.is_empty() => {
                let path = rng.pick(&paths).clone();
                let value = hostile_values(rng, root);
                if let Some(slot) = at_mut(&mut v, &path) {
                    *slot = value;
                }
            }
            2 if !paths.is_empty() => {
                let path = rng.pick(&paths).clone();
                let (last, parent) = path.split_last().unwrap();
                if let Some(Value::Object(m)) = at_mut(&mut v, parent) {
                    m.shift_remove(last);
                }
            }
            _ => {
                // A spliced shell command, where a command goes.
                let n = 1 + rng.below(8);
                let command: Vec<&str> = (0..n).map(|_| *rng.pick(SHELL_FRAGMENTS)).collect();
                let sep = *rng.pick(&[" ", "", " && ", "; ", "\n"]);
                if let Some(input) = v.get_mut("tool_input").and_then(Value::as_object_mut) {
                    input.insert("command".into(), json!(command.join(sep)));
                } else if let Some(m) = v.as_object_mut() {
                    m.insert("last_assistant_message".into(), json!(command.join(sep)));
                }
            }
        }
    }
    let mut bytes = serde_json::to_vec(&v).unwrap();
    match rng.below(10) {
        0 => bytes.truncate(rng.below(bytes.len())),
        1 if !bytes.is_empty() => {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
        }
        _ => {}
    }
    bytes
}

/// The fixture texts of a hook, with `@ROOT@` filled in and file-content placeholders
/// emptied (the content does not matter to a mutant).
fn fixtures(hook: &str, root: &Path) -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(hook);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    names
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|t| {
            let mut t = t.replace("@ROOT@", root.to_str().unwrap());
            while let Some(start) = t.find("@CONTENT:") {
                let end = start + 9 + t[start + 9..].find('@').unwrap();
                t.replace_range(start..=end, "");
            }
            t
        })
        .filter_map(|t| serde_json::from_str(&t).ok())
        .collect()
}

fn scratch() -> PathBuf {
    let dir = crate::support::scratch_root().join(format!("dia-property-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn main() {}\n").unwrap();
    let repo = git2::Repository::init_opts(
        &root,
        git2::RepositoryInitOptions::new().initial_head("main"),
    )
    .unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("src/a.rs")).unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "seed", &tree, &[])
        .unwrap();
    dir
}

#[test]
fn no_mutant_input_makes_a_hook_panic_hang_or_break_the_protocol() {
    let dir = scratch();
    let root = dir.join("root");
    // A fixed seed, so a failure reproduces; another one explores further:
    // DID_IT_ACTUALLY_PROPERTY_SEED=<n> cargo test --test it property::
    let seed = std::env::var("DID_IT_ACTUALLY_PROPERTY_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&s| s != 0)
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut runs = 0;
    for hook in Hook::ALL {
        let started = std::time::Instant::now();
        let mutants = if hook == Hook::AuditTurn {
            MUTANTS_AUDIT
        } else {
            MUTANTS
        };
        let bases = fixtures(hook.name(), &root);
        assert!(!bases.is_empty(), "no fixtures for {}", hook.name());
        for base in &bases {
            for _ in 0..mutants {
                let stdin = mutate(base, &mut rng, &root);
                let (tx, rx) = mpsc::channel();
                let state = dir.join("state");
                let home = dir.join("home");
                let input = stdin.clone();
                std::thread::spawn(move || {
                    let env = move |name: &str| -> Option<OsString> {
                        match name {
                            "DID_IT_ACTUALLY_STATE_DIR" => Some(state.clone().into()),
                            "HOME" => Some(home.clone().into()),
                            _ => None,
                        }
                    };
                    let _ = tx.send(run_hook(hook, &Default::default(), input.as_slice(), &env));
                });
                runs += 1;
                let shown = String::from_utf8_lossy(&stdin)
                    .chars()
                    .take(400)
                    .collect::<String>();
                let out = match rx.recv_timeout(WATCHDOG) {
                    Ok(out) => out,
                    Err(_) => {
                        failures.push(format!(
                            "{}: no answer in {WATCHDOG:?} for {shown}",
                            hook.name()
                        ));
                        continue;
                    }
                };
                if out.stdout.contains("internal error (")
                    || out.stderr.contains("internal error (")
                {
                    failures.push(format!(
                        "{}: panicked on {shown}: {}{}",
                        hook.name(),
                        out.stdout,
                        out.stderr
                    ));
                }
                if out.exit_code != 0 && out.exit_code != 2 {
                    failures.push(format!(
                        "{}: exit {} on {shown}",
                        hook.name(),
                        out.exit_code
                    ));
                }
                let stdout = out.stdout.trim();
                if !stdout.is_empty()
                    && !serde_json::from_str::<Value>(stdout).is_ok_and(|v| v.is_object())
                {
                    failures.push(format!(
                        "{}: stdout is not one JSON object on {shown}: {stdout}",
                        hook.name()
                    ));
                }
                if out.exit_code == 2 && out.stderr.trim().is_empty() {
                    failures.push(format!(
                        "{}: exit 2 without a reason on {shown}",
                        hook.name()
                    ));
                }
            }
        }
        eprintln!(
            "{}: {} fixtures x {mutants} mutants in {:?}",
            hook.name(),
            bases.len(),
            started.elapsed()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(runs > 1000, "only {runs} runs");
    assert!(
        failures.is_empty(),
        "seed {seed}: {} of {runs} mutants failed:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}
