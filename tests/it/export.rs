//! The ledger to a team's collector over OTLP/HTTP, against a real receiver built on the
//! official protobuf definitions (see `support::otlp`; the OpenTelemetry Collector cannot
//! be installed from the registries this project reaches). The records come from the real
//! hooks of a played session; export is switched on by an organisation policy, as an
//! administrator would. What is checked is what the receiver decoded: every record once,
//! with the documented attributes, across an endpoint that is down, one that answers
//! errors, one that is slow, a flusher killed mid-backlog, and a 10,000-record backlog.
//! The one repeat OTLP cannot rule out (a batch the receiver kept whose answer never came
//! back) is shown too: it carries the same record ids.

use crate::support::fixture::{scratch, Scratch};
use crate::support::otlp::Receiver;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

struct World {
    dir: Scratch,
    project: PathBuf,
    endpoint: String,
    extra: Vec<(String, String)>,
}

impl World {
    fn new(export: Value, endpoint: &str) -> World {
        let dir = scratch("export");
        let project = dir.join("root");
        let out = crate::support::repo::git_command(&project)
            .args(["init", "-q", "-b", "main"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        std::fs::write(
            dir.join("org-policy.json"),
            json!({"version": 1, "export": export}).to_string(),
        )
        .unwrap();
        World {
            dir,
            project,
            endpoint: endpoint.to_owned(),
            extra: Vec::new(),
        }
    }

    fn state(&self) -> PathBuf {
        self.dir.join("state")
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(&self.project)
            .env("HOME", &*self.dir)
            .env("DID_IT_ACTUALLY_STATE_DIR", self.state())
            .env(
                "DID_IT_ACTUALLY_ORG_POLICY",
                self.dir.join("org-policy.json"),
            )
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", &self.endpoint)
            .env_remove("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_PROTOCOL")
            .env_remove("OTEL_EXPORTER_OTLP_TIMEOUT")
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env_remove("XDG_STATE_HOME");
        for (k, v) in &self.extra {
            cmd.env(k, v);
        }
        cmd
    }

    fn hook(&self, hook: &str, session: &str, event: Value) -> Output {
        let mut input = json!({"session_id": session, "cwd": self.project});
        input
            .as_object_mut()
            .unwrap()
            .extend(event.as_object().unwrap().clone());
        crate::support::output_with_stdin(
            &mut self.cmd(&[hook, "--host", "qwen"]),
            input.to_string().as_bytes(),
        )
    }

    /// One turn of session `session`: a write that landed, one that did not, a refused
    /// write outside the project, and the stop. Four ledger records.
    fn play(&self, session: &str) {
        let landed = self.project.join("plan.md");
        std::fs::write(&landed, "step one\n").unwrap();
        self.hook(
            "verify-write",
            session,
            json!({"hook_event_name": "PostToolUse", "tool_name": "write_file",
                "tool_input": {"file_path": landed, "content": "step one\n"},
                "tool_response": {"llmContent": "ok"}}),
        );
        let lost = self.project.join("secret-notes.md");
        self.hook(
            "verify-write",
            session,
            json!({"hook_event_name": "PostToolUse", "tool_name": "write_file",
                "tool_input": {"file_path": lost, "content": "the plan\n"},
                "tool_response": {"llmContent": "ok"}}),
        );
        let refused = self.hook(
            "scope-guard",
            session,
            json!({"hook_event_name": "PreToolUse", "tool_name": "write_file",
                "tool_input": {"file_path": "/srv/elsewhere/x.txt", "content": "x"}}),
        );
        assert!(
            String::from_utf8_lossy(&refused.stdout).contains("deny"),
            "{refused:?}"
        );
        self.hook(
            "audit-turn",
            session,
            json!({"hook_event_name": "Stop", "stop_hook_active": false,
                "last_assistant_message": "I wrote `secret-notes.md` with the plan."}),
        );
    }

    fn flush(&self) -> Output {
        self.cmd(&["export", "flush"]).output().unwrap()
    }

    fn unsent(&self) -> u64 {
        std::fs::read_dir(self.state().join("sessions"))
            .unwrap()
            .flatten()
            .map(|d| {
                let p = d.path();
                let len = p.join("writes.jsonl").metadata().map_or(0, |m| m.len());
                let cursor: Value = std::fs::read(p.join("export.json"))
                    .ok()
                    .and_then(|b| serde_json::from_slice(&b).ok())
                    .unwrap_or(json!({"cursor": 0}));
                len - cursor["cursor"].as_u64().unwrap()
            })
            .sum()
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// How many times each record id arrived.
fn by_id(records: &[Value]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for r in records {
        let id = r["attributes"]["did_it_actually.record.id"]
            .as_str()
            .unwrap_or_else(|| panic!("no record id: {r}"))
            .to_owned();
        *out.entry(id).or_default() += 1;
    }
    out
}

fn event<'a>(records: &'a [Value], name: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["event_name"] == name).collect()
}

#[test]
fn a_hooks_records_reach_the_collector_once_in_the_documented_schema() {
    let dir = scratch("otlp");
    let receiver = Receiver::start(&dir, "ok");
    let w = World::new(json!({"otlp": true}), &receiver.endpoint());
    w.play("s-1");
    // No one ran `export flush`: the hooks' detached flusher delivers.
    let got = receiver.wait_for(4, 20);
    assert_eq!(got.len(), 4, "{got:#?}");
    // Nothing is left, and a flush now sends nothing again.
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("sent 0 records"), "{}", text(&out));
    let got = receiver.records();
    assert!(by_id(&got).values().all(|&n| n == 1), "{got:#?}");
    assert_eq!(w.unsent(), 0);

    for r in &got {
        let a = &r["attributes"];
        assert_eq!(a["did_it_actually.schema_version"], 1, "{r}");
        assert_eq!(a["session.id"], "s-1", "{r}");
        assert_eq!(a["did_it_actually.agent_host"], "qwen", "{r}");
        assert_eq!(a["event.name"], r["event_name"], "{r}");
        assert_eq!(r["resource"]["service.name"], "did-it-actually", "{r}");
        assert_eq!(r["scope"]["name"], "did-it-actually", "{r}");
        assert!(r["time_unix_nano"].as_u64().unwrap() > 1_700_000_000_000_000_000);
        assert_eq!(r["content_type"], "protobuf");
    }
    let writes = event(&got, "did_it_actually.write");
    assert_eq!(writes.len(), 2, "{got:#?}");
    let landed: Vec<_> = writes
        .iter()
        .filter(|r| r["attributes"]["did_it_actually.landed"] == true)
        .collect();
    assert_eq!(landed.len(), 1);
    assert!(landed[0]["attributes"]["did_it_actually.path"]
        .as_str()
        .unwrap()
        .ends_with("plan.md"));
    let lost: Vec<_> = writes
        .iter()
        .filter(|r| r["attributes"]["did_it_actually.landed"] == false)
        .collect();
    assert_eq!(lost[0]["attributes"]["did_it_actually.outcome"], "missing");
    assert_eq!(lost[0]["severity_text"], "ERROR");
    let denial = event(&got, "did_it_actually.denial");
    assert_eq!(denial.len(), 1);
    let a = &denial[0]["attributes"];
    assert_eq!(a["did_it_actually.hook"], "scope-guard");
    assert_eq!(a["did_it_actually.layer"], "static");
    assert_eq!(
        a["did_it_actually.targets"],
        json!(["/srv/elsewhere/x.txt"])
    );
    assert!(denial[0]["body"]
        .as_str()
        .unwrap()
        .contains("outside the project root"));
    let audit = event(&got, "did_it_actually.audit");
    assert_eq!(audit.len(), 1);
    let a = &audit[0]["attributes"];
    // The stop was refused: the write it reports never landed.
    assert_eq!(a["did_it_actually.blocked"], true, "{a}");
    assert_eq!(a["did_it_actually.agent"], "main", "{a}");
    assert_eq!(
        a["did_it_actually.message"],
        "I wrote `secret-notes.md` with the plan."
    );
}

#[test]
fn nothing_is_sent_unless_the_policy_turned_export_on() {
    let dir = scratch("otlp-off");
    let receiver = Receiver::start(&dir, "ok");
    let w = World::new(json!({"otlp": false}), &receiver.endpoint());
    w.play("s-off");
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(receiver.records().is_empty());
    // Not even marked: the exporter never reads a session whose policy had it off.
    assert!(!w.state().join("sessions/s-off/export.json").exists());
}

#[test]
fn an_outage_loses_nothing_and_sends_nothing_twice() {
    let dir = scratch("otlp-outage");
    let receiver = Receiver::start(&dir, "error:503");
    let w = World::new(json!({"otlp": true}), &receiver.endpoint());
    w.play("s-a");
    let out = w.flush();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("HTTP 503"), "{}", text(&out));
    let status = w.cmd(&["export", "status"]).output().unwrap();
    assert!(text(&status).contains("last error:"), "{}", text(&status));
    assert!(w.unsent() > 0, "the records wait in the ledger");

    // The endpoint is gone altogether (nothing listens there).
    let mut down = World::new(json!({"otlp": true}), "http://127.0.0.1:9");
    down.extra
        .push(("OTEL_EXPORTER_OTLP_TIMEOUT".into(), "500".into()));
    down.play("s-down");
    let out = down.flush();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(down.unsent() > 0);

    // More work while it is out, then it comes back.
    w.play("s-b");
    receiver.set_mode("ok");
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    let got = receiver.records();
    assert_eq!(got.len(), 8, "{got:#?}");
    assert!(by_id(&got).values().all(|&n| n == 1), "{got:#?}");
    assert_eq!(w.unsent(), 0);
}

#[test]
fn a_slow_receiver_times_out_and_only_the_unanswered_batch_repeats() {
    let dir = scratch("otlp-slow");
    let receiver = Receiver::start(&dir, "slow:2");
    let mut w = World::new(json!({"otlp": true, "redact": []}), &receiver.endpoint());
    w.extra
        .push(("OTEL_EXPORTER_OTLP_TIMEOUT".into(), "500".into()));
    w.play("s-slow");
    let out = w.flush();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(w.unsent() > 0, "an unanswered batch is not counted as sent");
    // The receiver kept it after all (its answer came too late): the one window where a
    // batch arrives twice, with the same record ids.
    receiver.wait_for(4, 10);
    receiver.set_mode("ok");
    // Wait out any background flusher's backoff: send now.
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    let got = receiver.records();
    let ids = by_id(&got);
    assert_eq!(ids.len(), 4, "every record arrived: {got:#?}");
    assert!(
        ids.values().any(|&n| n > 1),
        "the batches the receiver kept without answering in time arrive again"
    );
    assert_eq!(w.unsent(), 0);
    // Once answered, nothing is sent again.
    let before = receiver.records().len();
    let out = w.flush();
    assert!(text(&out).contains("sent 0 records"), "{}", text(&out));
    assert_eq!(receiver.records().len(), before);
}

#[test]
fn redaction_keeps_paths_and_messages_on_the_machine() {
    let dir = scratch("otlp-redact");
    let receiver = Receiver::start(&dir, "ok");
    let mut w = World::new(
        json!({"otlp": true, "redact": ["message", "paths"]}),
        &receiver.endpoint(),
    );
    w.extra
        .push(("OTEL_EXPORTER_OTLP_PROTOCOL".into(), "http/json".into()));
    w.play("s-r");
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    let got = receiver.wait_for(4, 10);
    assert_eq!(got.len(), 4);
    let all = serde_json::to_string(&got).unwrap();
    for secret in ["plan.md", "secret-notes", "/srv/elsewhere", "with the plan"] {
        assert!(!all.contains(secret), "{secret} left the machine: {all}");
    }
    assert!(got.iter().all(|r| r["content_type"] == "json"));
    let audit = event(&got, "did_it_actually.audit");
    assert!(audit[0]["attributes"]["did_it_actually.message"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
}

#[test]
fn a_ten_thousand_record_backlog_arrives_whole_across_a_killed_flusher() {
    use did_it_actually::store::{DenialKind, DenialRecord, SessionId, SessionStore};
    let dir = scratch("otlp-backlog");
    let receiver = Receiver::start(&dir, "ok");
    let w = World::new(json!({"otlp": true}), &receiver.endpoint());
    // One real turn marks the session for export; then a backlog, as an offline week
    // would leave it.
    w.play("s-big");
    let store = SessionStore::new(&w.state(), &SessionId::parse("s-big").unwrap());
    let records: Vec<_> = (0..9_996)
        .map(|i| {
            DenialRecord {
                v: 1,
                kind: DenialKind::Denial,
                time: "2026-12-05T00:00:00.000Z".into(),
                session: "s-big".into(),
                prompt_id: Some(format!("p-{}", i / 100)),
                tool_use_id: Some(format!("t-{i}")),
                event: "PreToolUse".into(),
                hook: "scope-guard".into(),
                tool: "write_file".into(),
                targets: vec![format!("/srv/x/{i}.txt")],
                rule: None,
                reason: format!(
                    "scope-guard: the write to /srv/x/{i}.txt is outside the project root"
                ),
                host: Some("qwen".into()),
                by: None,
                cwd: None,
            }
            .into()
        })
        .collect();
    store.append(&records).unwrap();
    // A flusher killed part-way (as a machine that sleeps or crashes would stop it).
    let mut first = w.cmd(&["export", "flush"]).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    let _ = first.kill();
    let _ = first.wait();
    let out = w.flush();
    assert!(out.status.success(), "{}", text(&out));
    let got = receiver.wait_for(10_000, 20);
    let ids = by_id(&got);
    assert_eq!(ids.len(), 10_000);
    // The only repeats: the one batch that was in flight when the flusher was killed
    // (the receiver may have kept it; its answer never came back). They carry the same
    // record ids, by which the collector can drop them.
    let twice: Vec<_> = ids.iter().filter(|(_, &n)| n > 1).collect();
    assert!(
        twice.len() <= did_it_actually::export::BATCH && ids.values().all(|&n| n <= 2),
        "sent twice: {} records",
        twice.len()
    );
    assert_eq!(w.unsent(), 0);
}
