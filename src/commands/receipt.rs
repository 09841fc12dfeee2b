//! `did-it-actually receipt`: what a turn really did, from the ledger: the files written
//! (landed or not), the commands run with their outcome, the test, build and lint runs
//! with the line that summed them up, the commits and pushes their own output shows, the
//! guards' refusals, and each claim of the final message with its evidence or its
//! absence: of the message given (`--message`, or the transcript it ends), else as
//! audit-turn judged them at the turn's last stop (its record in the ledger). Markdown by default, for
//! a pull request's description; `--json` for tools.

use super::*;
use crate::store::{DenialRecord, LogRead, Outcome, RunRecord, WriteRecord};
use serde_json::json;

pub struct Args {
    pub session: Option<String>,
    pub transcript: Option<PathBuf>,
    pub message: Option<String>,
    pub cwd: Option<PathBuf>,
    pub json: bool,
}

pub fn run(args: Args, env: &Env, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let root = crate::store::state_root(env.as_fn()).map_err(CommandError::new)?;
    let Some((session, id)) = super::log::session_with_log(&root, args.session)? else {
        return Err(CommandError::new(format!(
            "no session has a write log under {} yet: a receipt is made from what the guards recorded in a guarded session",
            root.display()
        )));
    };
    let store = crate::store::SessionStore::new(&root, &id);
    let log = store
        .read_write_log()
        .map_err(|e| CommandError::new(e.to_string()))?;
    let turn = last_turn(log, &store.turn_ends());
    // The ledger is the evidence: say whether it was edited since it was written.
    let ledger = crate::store::chain::verify(&store.write_log_path())
        .map(|c| c.describe())
        .unwrap_or_else(|e| format!("cannot be checked ({e})"));
    let (cwd, policy) = cwd_and_policy(env, args.cwd, "").map_err(CommandError::new)?;
    // Claude Code's transcript, read once: the final message, and the turn's evidence.
    let read = match &args.transcript {
        Some(t) => Some(
            crate::transcript::read_turn(t, None)
                .map_err(|e| CommandError::new(format!("cannot read {}: {e}", t.display())))?,
        ),
        None => None,
    };
    let message = args
        .message
        .clone()
        .or_else(|| read.as_ref().and_then(|r| r.last_assistant_text.clone()));
    // Without a message, the claims as audit-turn judged them at the turn's last stop.
    let recorded = turn.audits.last().filter(|_| message.is_none());
    let claims = message
        .as_deref()
        .map(|m| audit_claims(m, &turn, read.as_ref(), &cwd, &policy))
        .or_else(|| recorded.map(recorded_claims));
    let receipt = Receipt {
        root: crate::policy::repo_root(&cwd).unwrap_or_else(|| cwd.clone()),
        session: &session,
        turn: &turn,
        policy: &policy,
        claims: claims.as_ref(),
        judged_at: recorded.map(|a| a.time.clone()),
        ledger,
    };
    if args.json {
        print_json(out, &receipt.json())?;
    } else {
        write!(out, "{}", receipt.markdown())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The records of the session's last turn: those of the newest record's prompt id where
/// the host names turns (Claude Code); elsewhere those between the turn ends around the
/// newest record (a stop that went through marks each end).
fn last_turn(log: LogRead, ends: &[std::time::SystemTime]) -> LogRead {
    let time = |t: &str| crate::time::parse_rfc3339(t);
    let newest = log
        .records
        .iter()
        .map(|w| (w.time.as_str(), &w.prompt_id))
        .chain(log.denials.iter().map(|d| (d.time.as_str(), &d.prompt_id)))
        .chain(log.runs.iter().map(|r| (r.time.as_str(), &r.prompt_id)))
        .max_by(|a, b| a.0.cmp(b.0))
        .map(|(t, p)| (time(t), p.clone()));
    let Some((newest_at, prompt)) = newest else {
        return log;
    };
    let turn = match (prompt, newest_at) {
        (Some(p), _) => Turn::Prompt(p),
        (None, Some(at)) => Turn::Between(
            ends.iter().rev().find(|e| **e < at).copied(),
            ends.iter().find(|e| **e >= at).copied(),
        ),
        (None, None) => Turn::All,
    };
    let keep = |t: &str, p: &Option<String>| turn.keeps(t, p);

    LogRead {
        records: log
            .records
            .into_iter()
            .filter(|w| keep(&w.time, &w.prompt_id))
            .collect(),
        denials: log
            .denials
            .into_iter()
            .filter(|d| keep(&d.time, &d.prompt_id))
            .collect(),
        runs: log
            .runs
            .into_iter()
            .filter(|r| keep(&r.time, &r.prompt_id))
            .collect(),
        audits: log
            .audits
            .into_iter()
            .filter(|a| keep(&a.time, &a.prompt_id))
            .collect(),
        ..log
    }
}

/// Which records are the turn's.
enum Turn {
    /// A host that names turns: those of this prompt id.
    Prompt(String),
    /// Between the end of the turn before (exclusive) and this turn's end (inclusive).
    Between(Option<std::time::SystemTime>, Option<std::time::SystemTime>),
    All,
}

impl Turn {
    fn keeps(&self, time: &str, prompt: &Option<String>) -> bool {
        match self {
            Turn::Prompt(p) => prompt.as_deref() == Some(p.as_str()),
            Turn::Between(after, until) => crate::time::parse_rfc3339(time)
                .is_some_and(|t| after.is_none_or(|a| t > a) && until.is_none_or(|u| t <= u)),
            Turn::All => true,
        }
    }
}

/// The claims of an audit-turn record, as it judged them.
fn recorded_claims(audit: &crate::store::AuditRecord) -> Vec<(String, Result<String, String>)> {
    audit
        .claims
        .iter()
        .map(|c| {
            let verdict = if c.backed {
                Ok(c.detail.clone())
            } else {
                Err(c.detail.clone())
            };
            (c.sentence.clone(), verdict)
        })
        .collect()
}

/// Each claim of `message` with its evidence (`Ok`) or why it is not backed (`Err`).
fn audit_claims(
    message: &str,
    log: &LogRead,
    transcript: Option<&crate::transcript::Turn>,
    cwd: &Path,
    policy: &Policy,
) -> Vec<(String, Result<String, String>)> {
    let from_log;
    let turn = match transcript {
        Some(t) => t,
        None => {
            from_log = crate::hooks::audit_turn::turn_from_run_log(log, &Default::default());
            &from_log
        }
    };
    let ev = crate::audit::Evidence {
        turn,
        records: &log.records,
        cwd,
        policy: &policy.audit,
        transcript_ok: true,
        from_run_log: transcript.is_none(),
    };
    let audit = crate::audit::audit(message, &ev);
    audit
        .claims
        .into_iter()
        .map(|(claim, verdict)| (claim.sentence, verdict.map_err(|f| f.why)))
        .collect()
}

struct Receipt<'a> {
    /// The project root: paths under it are shown relative to it.
    root: PathBuf,
    session: &'a str,
    turn: &'a LogRead,
    policy: &'a Policy,
    claims: Option<&'a Vec<(String, Result<String, String>)>>,
    /// When the claims are audit-turn's own, from the ledger: when it judged them.
    judged_at: Option<String>,
    /// What the ledger's hash chain says.
    ledger: String,
}

/// What a run was, by the policy's command lists, read as the audit reads them.
fn kind_of(run: &RunRecord, policy: &Policy) -> Option<&'static str> {
    let a = &policy.audit;
    [
        ("tests", &a.test_commands),
        ("lint", &a.lint_commands),
        ("build", &a.build_commands),
    ]
    .into_iter()
    .find(|(_, list)| crate::audit::runs_any(&run.command, list))
    .map(|(kind, _)| kind)
}

/// The line of a run's output that sums it up: the last one that speaks of passing or
/// failing, else the last one.
fn summary(output: &str) -> String {
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Exit Code:"))
        .collect();
    let said = lines
        .iter()
        .rev()
        .find(|l| {
            let l = l.to_ascii_lowercase();
            ["pass", "fail", "error", "ok", "finished"]
                .iter()
                .any(|w| l.contains(w))
        })
        .or(lines.last());
    said.map(|l| crate::shell::walk::cut(l).to_string())
        .unwrap_or_default()
}

/// What git's own output shows a run committed (`[main 1a2b3c4] message`) and pushed
/// (`old..new  src -> dst`, `[rejected]`).
fn git_lines(run: &RunRecord) -> Vec<String> {
    use crate::audit::{commit_lines, runs_git};
    let mut out = Vec::new();
    if runs_git(&run.command, "commit") || runs_git(&run.command, "merge") {
        out.extend(commit_lines(&run.output).map(|l| format!("committed: {l}")));
    }
    if runs_git(&run.command, "push") {
        out.extend(run.output.lines().filter(|l| l.contains(" -> ")).map(|l| {
            let l = l.trim();
            if l.contains("[rejected]") || l.contains("[remote rejected]") {
                format!("push REJECTED: {l}")
            } else {
                format!("pushed: {l}")
            }
        }));
    }
    out
}

fn outcome_word(w: &WriteRecord) -> &'static str {
    match w.outcome {
        Outcome::Landed => "landed",
        Outcome::ChangedAfter => "landed, then changed",
        _ => "did NOT land",
    }
}

fn denial_line(d: &DenialRecord) -> String {
    // The reason names its hook already.
    let reason = crate::shell::walk::cut(&d.reason);
    if reason.starts_with(&format!("{}:", d.hook)) {
        reason.to_string()
    } else {
        format!("{}: {reason}", d.hook)
    }
}

impl Receipt<'_> {
    /// `path` relative to the project root when it is under it.
    fn shown(&self, path: &str) -> String {
        Path::new(path)
            .strip_prefix(&self.root)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| path.to_owned())
    }

    fn span(&self) -> String {
        let times: Vec<&str> = self
            .turn
            .records
            .iter()
            .map(|w| w.time.as_str())
            .chain(self.turn.denials.iter().map(|d| d.time.as_str()))
            .chain(self.turn.runs.iter().map(|r| r.time.as_str()))
            .collect();
        match (times.iter().min(), times.iter().max()) {
            (Some(a), Some(b)) => format!("{a} to {b}"),
            _ => "nothing recorded".into(),
        }
    }

    fn host(&self) -> String {
        let named = self
            .turn
            .runs
            .iter()
            .filter_map(|r| r.host.clone())
            .chain(self.turn.records.iter().filter_map(|w| w.host.clone()))
            .chain(self.turn.denials.iter().filter_map(|d| d.host.clone()))
            .next();
        named.unwrap_or_else(|| "claude".into())
    }

    fn markdown(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let t = self.turn;
        let list = |items: Vec<String>, none: &str| {
            if items.is_empty() {
                none.to_owned()
            } else {
                items.join("\n")
            }
        };
        let _ = writeln!(s, "## What the turn did\n");
        let _ = writeln!(
            s,
            "Session `{}` ({}), {}. From did-it-actually's ledger: what the guards saw, not what the agent said (ledger: {}).\n",
            self.session,
            self.host(),
            self.span(),
            self.ledger
        );
        let _ = writeln!(s, "### Files written ({})\n", t.records.len());
        if t.records.is_empty() {
            let _ = writeln!(s, "None.\n");
        } else {
            let _ = writeln!(s, "| file | tool | outcome |\n|---|---|---|");
            for w in &t.records {
                let _ = writeln!(
                    s,
                    "| `{}` | {} | {} |",
                    self.shown(&w.path),
                    w.tool,
                    outcome_word(w)
                );
            }
            s.push('\n');
        }
        let _ = writeln!(s, "### Commands run ({})\n", t.runs.len());
        if t.runs.is_empty() {
            let _ = writeln!(s, "None recorded.\n");
        } else {
            let _ = writeln!(s, "| command | result | what it said last |\n|---|---|---|");
            for r in &t.runs {
                let _ = writeln!(
                    s,
                    "| `{}` | {} | {} |",
                    crate::shell::walk::cut(&r.command).replace('|', "\\|"),
                    if r.failed { "failed" } else { "ok" },
                    summary(&r.output).replace('|', "\\|")
                );
            }
            s.push('\n');
        }
        let checks: Vec<String> = t
            .runs
            .iter()
            .filter_map(|r| {
                kind_of(r, self.policy).map(|k| {
                    format!(
                        "- {k}: `{}` {}: {}",
                        crate::shell::walk::cut(&r.command),
                        if r.failed { "failed" } else { "passed" },
                        summary(&r.output)
                    )
                })
            })
            .collect();
        let _ = writeln!(s, "### Tests, builds, lint ({})\n", checks.len());
        let _ = writeln!(s, "{}\n", list(checks, "None ran."));
        let git: Vec<String> = t
            .runs
            .iter()
            .flat_map(git_lines)
            .map(|l| format!("- {l}"))
            .collect();
        let _ = writeln!(s, "### Commits and pushes ({})\n", git.len());
        let _ = writeln!(s, "{}\n", list(git, "None."));
        let _ = writeln!(s, "### Refused by the guards ({})\n", t.denials.len());
        let refused: Vec<String> = t
            .denials
            .iter()
            .map(|d| format!("- {}", denial_line(d)))
            .collect();
        let _ = writeln!(s, "{}\n", list(refused, "None."));
        let _ = writeln!(s, "### Claims of the final message\n");
        if let Some(at) = &self.judged_at {
            let _ = writeln!(s, "As audit-turn judged them when the turn ended ({at}):\n");
        }
        match self.claims {
            None => {
                let _ = writeln!(s, "Not checked: audit-turn recorded no audit of this turn, and no final message was given (`--message TEXT`, or `--transcript FILE` for Claude Code).");
            }
            Some(c) if c.is_empty() => {
                let _ = writeln!(s, "The message makes no claim that can be checked.");
            }
            Some(c) => {
                for (sentence, verdict) in c {
                    let sentence = crate::shell::walk::cut(sentence);
                    let _ = match verdict {
                        Ok(evidence) => writeln!(s, "- backed: \"{sentence}\": {evidence}"),
                        Err(why) => writeln!(s, "- **NOT backed**: \"{sentence}\": {why}"),
                    };
                }
            }
        }
        s
    }

    fn json(&self) -> serde_json::Value {
        let t = self.turn;
        json!({
            "session": self.session,
            "host": self.host(),
            "span": self.span(),
            "writes": t.records.iter().map(|w| json!({"path": self.shown(&w.path), "tool": w.tool, "outcome": outcome_word(w)})).collect::<Vec<_>>(),
            "commands": t.runs.iter().map(|r| json!({"command": r.command, "failed": r.failed, "summary": summary(&r.output), "kind": kind_of(r, self.policy)})).collect::<Vec<_>>(),
            "git": t.runs.iter().flat_map(git_lines).collect::<Vec<_>>(),
            "refusals": t.denials.iter().map(|d| json!({"hook": d.hook, "reason": d.reason})).collect::<Vec<_>>(),
            "claims_judged_at": self.judged_at,
            "ledger": self.ledger,
            "claims": self.claims.map(|c| c.iter().map(|(sentence, v)| match v {
                Ok(e) => json!({"sentence": sentence, "backed": true, "evidence": e}),
                Err(w) => json!({"sentence": sentence, "backed": false, "why": w}),
            }).collect::<Vec<_>>()),
        })
    }
}
