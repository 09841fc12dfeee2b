//! scope-guard against corpora of paths (`tests/corpus/scope-paths.tsv`, judged as the
//! target of a Write tool call) and of shell commands (`tests/corpus/scope-shell.tsv`,
//! judged as a Bash call), in the scratch tree `tests/corpus/scope-tree.sh` builds.
//!
//! Lines: `verdict<TAB>project<TAB>cwd<TAB>path or command`; verdict `allow` or `deny`;
//! project `root` (default policy) or `strict` (a restrictive policy file); cwd relative
//! to the project; `$S` stands for the scratch directory, `\n` for a newline. `#` starts a
//! comment line.

use crate::support;

use crate::support::oracle;

use std::path::{Path, PathBuf};
use std::process::Command;

struct Tree {
    dir: PathBuf,
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn tree() -> Tree {
    // The tree removes it when dropped.
    let dir = support::fixture::scratch("scope").into_path();
    let dir = std::fs::canonicalize(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/scope-tree.sh");
    let status = Command::new("bash")
        .arg(&script)
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success(), "scope-tree.sh failed");
    // The projects' policies are in force once approved, as their user would.
    for p in ["root", "strict", "wide"] {
        assert!(support::fixture::approve_policy(
            &dir.join(p),
            &dir.join("state")
        ));
    }
    Tree { dir }
}

struct Case {
    line: usize,
    verdict: String,
    project: String,
    cwd: String,
    text: String,
}

fn cases(corpus: &str, s: &Path) -> Vec<Case> {
    corpus
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.splitn(4, '\t').collect();
            assert_eq!(
                f.len(),
                4,
                "line {}: expected verdict<TAB>project<TAB>cwd<TAB>text",
                i + 1
            );
            assert!(
                matches!(f[0], "allow" | "deny"),
                "line {}: verdict {:?}",
                i + 1,
                f[0]
            );
            Case {
                line: i + 1,
                verdict: f[0].into(),
                project: f[1].into(),
                cwd: f[2].into(),
                text: f[3].replace("$S", s.to_str().unwrap()).replace("\\n", "\n"),
            }
        })
        .collect()
}

/// Runs scope-guard on one tool call; returns ("allow" | "deny", reason).
fn judge(t: &Tree, case: &Case, tool: &str, input: serde_json::Value) -> (String, String) {
    let cwd = t.dir.join(&case.project).join(&case.cwd);
    let stdin = serde_json::json!({
        "session_id": "scope", "prompt_id": "p", "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "t",
    });
    let out = crate::support::output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .arg("scope-guard")
            .current_dir(&cwd)
            .env("HOME", t.dir.join("home"))
            .env("DID_IT_ACTUALLY_STATE_DIR", t.dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env_remove("CLAUDE_PROJECT_DIR"),
        stdin.to_string().as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "line {}: {}",
        case.line,
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.is_empty() {
        return ("allow".into(), String::new());
    }
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{stdout}"
    );
    (
        "deny".into(),
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

fn run_corpus(file: &str, min: usize, call: impl Fn(&Case) -> (&'static str, serde_json::Value)) {
    let t = tree();
    let corpus = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/corpus")
            .join(file),
    )
    .unwrap();
    let cases = cases(&corpus, &t.dir);
    assert!(
        cases.len() >= min,
        "{file} has {} cases, expected at least {min}",
        cases.len()
    );
    let mut wrong = Vec::new();
    for case in &cases {
        let (tool, input) = call(case);
        let (verdict, reason) = judge(&t, case, tool, input);
        if verdict != case.verdict {
            wrong.push(format!(
                "line {}: expected {}, got {verdict} [{} {}] {:?}\n    {reason}",
                case.line, case.verdict, case.project, case.cwd, case.text
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn path_corpus() {
    run_corpus("scope-paths.tsv", 120, |c| {
        (
            "Write",
            serde_json::json!({"file_path": c.text, "content": "x"}),
        )
    });
}

/// The shell corpus is judged in the execution oracle's worlds, the very ones its labels
/// come from (`tests/it/support/oracle.rs`): state A (clean) and state B (the guarded files
/// modified, so that a `git checkout -- .` really writes them). A case is denied when the
/// guard denies it in either, as the oracle labels it deny when either shows the danger.
#[test]
fn shell_corpus() {
    use oracle::{Guard, Spec, State, World};
    let corpus = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/scope-shell.tsv"),
    )
    .unwrap();
    let placeholder = Path::new("/$S");
    let cases = cases(&corpus, placeholder);
    assert!(
        cases.len() >= 600,
        "scope-shell.tsv has {} cases",
        cases.len()
    );
    let mut worlds: std::collections::HashMap<(String, String), Vec<World>> = Default::default();
    let mut wrong = Vec::new();
    for case in &cases {
        let ws = worlds
            .entry((case.project.clone(), case.cwd.clone()))
            .or_insert_with(|| {
                let spec = Spec::Scope {
                    project: case.project.clone(),
                    cwd: case.cwd.clone(),
                };
                vec![World::new(&spec, State::A), World::new(&spec, State::B)]
            });
        let mut verdict = "allow".to_owned();
        let mut reason = String::new();
        for w in ws.iter() {
            let command = w.substitute(&case.text.replace("/$S", "$S"));
            let (v, r) = oracle::judge(w, Guard::Scope, &command);
            if v == "deny" {
                verdict = v;
                reason = r;
                break;
            }
        }
        if verdict != case.verdict {
            wrong.push(format!(
                "line {}: expected {}, got {verdict} [{} {}] {:?}\n    {reason}",
                case.line, case.verdict, case.project, case.cwd, case.text
            ));
        }
    }
    drop(worlds);
    oracle::cleanup();
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
