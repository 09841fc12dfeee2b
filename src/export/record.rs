//! A ledger record as an OpenTelemetry log record: the one schema the export speaks
//! (docs/export.md documents it, versioned by [`SCHEMA_VERSION`]). Pure: bytes of a
//! ledger line in, a [`LogRecord`] out, with the policy's redactions applied.

use crate::store::{AuditRecord, DenialRecord, Record, WriteRecord};

/// The version of the attribute names and meanings below. Bumped on any change a
/// dashboard could notice; attributes are only ever added within one version.
pub const SCHEMA_VERSION: i64 = 1;

/// An attribute value (OTLP `AnyValue`, the kinds the schema uses).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Bool(bool),
    Int(i64),
    Array(Vec<Value>),
    Map(Vec<(String, Value)>),
}

/// One OTLP log record.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRecord {
    pub time_unix_nano: u64,
    pub observed_time_unix_nano: u64,
    /// OTLP's severity numbers: 9 INFO, 13 WARN, 17 ERROR.
    pub severity_number: i32,
    pub severity_text: &'static str,
    /// `did_it_actually.denial`, `did_it_actually.write`, `did_it_actually.audit`.
    pub event_name: &'static str,
    pub body: String,
    pub attributes: Vec<(String, Value)>,
}

/// What the policy says to leave out (`export.redact`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Redact {
    pub message: bool,
    pub paths: bool,
    pub commands: bool,
}

impl Redact {
    /// From `export.redact`'s items.
    pub fn of(items: &[String]) -> Redact {
        let has = |what: &str| items.iter().any(|i| i == what);
        Redact {
            message: has("message"),
            paths: has("paths"),
            commands: has("commands") || has("output"),
        }
    }
}

/// A redacted text: its digest, so equal values still group in the collector.
fn digest(text: &str) -> String {
    format!(
        "sha256:{}",
        &crate::fsutil::sha256_hex(text.as_bytes())[..16]
    )
}

fn maybe(text: &str, redact: bool) -> String {
    if redact {
        digest(text)
    } else {
        text.to_owned()
    }
}

const P: &str = "did_it_actually.";

/// An attribute of ours: `did_it_actually.<key>`.
fn attr(key: &str, v: Value) -> (String, Value) {
    (format!("{P}{key}"), v)
}

/// An attribute under the name other OpenTelemetry sources use (`session.id`,
/// `event.name`), so a query joins both.
fn shared(key: &str, v: Value) -> (String, Value) {
    (key.to_owned(), v)
}

fn s(text: impl Into<String>) -> Value {
    Value::Str(text.into())
}

/// The record's log record, or `None` for the kinds the export leaves out (commands that
/// ran: the turn's evidence, not an event a team watches; their output can hold secrets).
/// `id`: the record's stable id (its chain link), which a collector can deduplicate on.
pub fn log_record(record: &Record, id: &str, observed: u64, redact: Redact) -> Option<LogRecord> {
    let time = crate::time::parse_rfc3339(record.time())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    let (session, host) = match record {
        Record::Denial(d) => (&d.session, &d.host),
        Record::Write(w) => (&w.session, &w.host),
        Record::Audit(a) => (&a.session, &a.host),
        Record::Run(_) => return None,
    };
    let mut attributes = vec![
        attr("schema_version", Value::Int(SCHEMA_VERSION)),
        attr("record.id", s(id)),
        // The names Claude Code's own telemetry uses, so both correlate in one query.
        shared("session.id", s(session.clone())),
        attr(
            "agent_host",
            s(host.clone().unwrap_or_else(|| "claude".to_owned())),
        ),
    ];
    if let Some(p) = record.prompt_id() {
        attributes.push(shared("prompt.id", s(p)));
    }
    let (severity_number, severity_text, event_name, body) = match record {
        Record::Denial(d) => denial(d, redact, &mut attributes),
        Record::Write(w) => write(w, redact, &mut attributes),
        Record::Audit(a) => audit(a, redact, &mut attributes),
        Record::Run(_) => return None,
    };
    Some(LogRecord {
        time_unix_nano: time,
        observed_time_unix_nano: observed,
        severity_number,
        severity_text,
        event_name,
        body,
        attributes: {
            attributes.push(shared("event.name", s(event_name)));
            attributes
        },
    })
}

type Head = (i32, &'static str, &'static str, String);

fn denial(d: &DenialRecord, redact: Redact, a: &mut Vec<(String, Value)>) -> Head {
    let layer = if d.by.as_deref() == Some(crate::store::BY_RUN_TIME) {
        "run-time"
    } else {
        "static"
    };
    let shell = crate::tools::is_shell(&d.tool);
    let hide = if shell { redact.commands } else { redact.paths };
    a.push(attr("hook", s(d.hook.clone())));
    a.push(attr("layer", s(layer)));
    a.push(attr("tool", s(d.tool.clone())));
    if let Some(rule) = &d.rule {
        a.push(attr("rule", s(rule.clone())));
    }
    a.push(attr(
        "targets",
        Value::Array(d.targets.iter().map(|t| s(maybe(t, hide))).collect()),
    ));
    if let Some(cwd) = &d.cwd {
        a.push(attr("cwd", s(maybe(cwd, redact.paths))));
    }
    // The reason quotes the targets: redacted with them.
    let body = maybe(&d.reason, hide || redact.paths);
    (13, "WARN", "did_it_actually.denial", body)
}

fn write(w: &WriteRecord, redact: Redact, a: &mut Vec<(String, Value)>) -> Head {
    let landed = w.outcome.is_verified();
    a.push(attr("tool", s(w.tool.clone())));
    a.push(attr("path", s(maybe(&w.path, redact.paths))));
    a.push(attr("outcome", s(w.outcome.name())));
    a.push(attr("landed", Value::Bool(landed)));
    a.push(attr(
        "agent_was_told",
        Value::Bool(w.outcome.agent_was_told()),
    ));
    let (sev, text) = if landed || w.outcome.agent_was_told() {
        (9, "INFO")
    } else {
        (17, "ERROR")
    };
    let path = maybe(&w.path, redact.paths);
    let body = match &w.reason {
        Some(r) if !landed => format!("{path}: {}", maybe(r, redact.paths)),
        _ => format!("{path}: {}", w.outcome.name()),
    };
    (sev, text, "did_it_actually.write", body)
}

fn audit(r: &AuditRecord, redact: Redact, a: &mut Vec<(String, Value)>) -> Head {
    let backed = r.claims.iter().filter(|c| c.backed).count() as i64;
    let total = r.claims.len() as i64;
    a.push(attr("agent", s(r.agent.clone())));
    a.push(attr("blocked", Value::Bool(r.blocked)));
    a.push(attr("claims.total", Value::Int(total)));
    a.push(attr("claims.backed", Value::Int(backed)));
    a.push(attr("claims.unbacked", Value::Int(total - backed)));
    a.push(attr(
        "claims",
        Value::Array(
            r.claims
                .iter()
                .map(|c| {
                    Value::Map(vec![
                        ("claim".into(), s(maybe(&c.claim, redact.paths))),
                        (
                            "class".into(),
                            s(crate::audit::vocab::ClaimClass::of_text(&c.claim).id()),
                        ),
                        ("backed".into(), Value::Bool(c.backed)),
                        ("blocks".into(), Value::Bool(c.blocks)),
                        ("sentence".into(), s(maybe(&c.sentence, redact.message))),
                        ("detail".into(), s(maybe(&c.detail, redact.paths))),
                    ])
                })
                .collect(),
        ),
    ));
    a.push(attr("message", s(maybe(&r.message, redact.message))));
    let (sev, text) = if r.blocked { (13, "WARN") } else { (9, "INFO") };
    let body = format!(
        "{}: {backed} of {total} claims backed{}",
        r.agent,
        if r.blocked {
            "; the stop was refused"
        } else {
            ""
        }
    );
    (sev, text, "did_it_actually.audit", body)
}
