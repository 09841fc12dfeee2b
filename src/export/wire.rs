//! `ExportLogsServiceRequest` on the wire, in both OTLP/HTTP encodings: binary protobuf
//! (`http/protobuf`, the default) and OTLP's JSON (`http/json`). The protobuf is written
//! by hand: a handful of messages from opentelemetry-proto's `logs/v1`, `common/v1` and
//! `resource/v1` (field numbers cited beside each), checked in the tests against a
//! receiver built on the official definitions.

use super::record::{LogRecord, Value};

/// The resource and scope every batch carries.
#[derive(Clone, Debug)]
pub struct Origin {
    pub resource: Vec<(String, Value)>,
    pub scope_name: &'static str,
    pub scope_version: &'static str,
}

// ---- protobuf ----

fn varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn key(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

fn bytes_field(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    key(out, field, 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

fn message(out: &mut Vec<u8>, field: u32, f: impl FnOnce(&mut Vec<u8>)) {
    let mut inner = Vec::new();
    f(&mut inner);
    bytes_field(out, field, &inner);
}

fn fixed64(out: &mut Vec<u8>, field: u32, v: u64) {
    key(out, field, 1);
    out.extend_from_slice(&v.to_le_bytes());
}

/// `AnyValue`: string_value 1, bool_value 2, int_value 3, array_value 5, kvlist_value 6.
fn any_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Str(s) => bytes_field(out, 1, s.as_bytes()),
        Value::Bool(b) => {
            key(out, 2, 0);
            varint(out, u64::from(*b));
        }
        Value::Int(i) => {
            key(out, 3, 0);
            varint(out, *i as u64);
        }
        // ArrayValue { values 1 }
        Value::Array(items) => message(out, 5, |a| {
            for item in items {
                message(a, 1, |m| any_value(m, item));
            }
        }),
        // KeyValueList { values 1 }
        Value::Map(pairs) => message(out, 6, |l| {
            for (k, v) in pairs {
                message(l, 1, |m| key_value(m, k, v));
            }
        }),
    }
}

/// `KeyValue`: key 1, value 2.
fn key_value(out: &mut Vec<u8>, k: &str, v: &Value) {
    bytes_field(out, 1, k.as_bytes());
    message(out, 2, |m| any_value(m, v));
}

/// `LogRecord`: time_unix_nano 1 (fixed64), severity_number 2, severity_text 3, body 5,
/// attributes 6, observed_time_unix_nano 11 (fixed64), event_name 12.
fn log_record(out: &mut Vec<u8>, r: &LogRecord) {
    fixed64(out, 1, r.time_unix_nano);
    key(out, 2, 0);
    varint(out, r.severity_number as u64);
    bytes_field(out, 3, r.severity_text.as_bytes());
    message(out, 5, |m| any_value(m, &Value::Str(r.body.clone())));
    for (k, v) in &r.attributes {
        message(out, 6, |m| key_value(m, k, v));
    }
    fixed64(out, 11, r.observed_time_unix_nano);
    bytes_field(out, 12, r.event_name.as_bytes());
}

/// `ExportLogsServiceRequest { resource_logs 1 }`, `ResourceLogs { resource 1,
/// scope_logs 2 }`, `Resource { attributes 1 }`, `ScopeLogs { scope 1, log_records 2 }`,
/// `InstrumentationScope { name 1, version 2 }`.
pub fn protobuf(origin: &Origin, records: &[LogRecord]) -> Vec<u8> {
    let mut out = Vec::with_capacity(records.len() * 512);
    message(&mut out, 1, |rl| {
        message(rl, 1, |res| {
            for (k, v) in &origin.resource {
                message(res, 1, |m| key_value(m, k, v));
            }
        });
        message(rl, 2, |sl| {
            message(sl, 1, |scope| {
                bytes_field(scope, 1, origin.scope_name.as_bytes());
                bytes_field(scope, 2, origin.scope_version.as_bytes());
            });
            for r in records {
                message(sl, 2, |m| log_record(m, r));
            }
        });
    });
    out
}

// ---- JSON (OTLP's mapping: lowerCamelCase, 64-bit integers as strings) ----

fn json_value(v: &Value) -> serde_json::Value {
    use serde_json::json;
    match v {
        Value::Str(s) => json!({ "stringValue": s }),
        Value::Bool(b) => json!({ "boolValue": b }),
        Value::Int(i) => json!({ "intValue": i.to_string() }),
        Value::Array(items) => {
            json!({ "arrayValue": { "values": items.iter().map(json_value).collect::<Vec<_>>() } })
        }
        Value::Map(pairs) => json!({ "kvlistValue": { "values": json_pairs(pairs) } }),
    }
}

fn json_pairs(pairs: &[(String, Value)]) -> Vec<serde_json::Value> {
    pairs
        .iter()
        .map(|(k, v)| serde_json::json!({ "key": k, "value": json_value(v) }))
        .collect()
}

pub fn json(origin: &Origin, records: &[LogRecord]) -> Vec<u8> {
    use serde_json::json;
    let logs: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            json!({
                "timeUnixNano": r.time_unix_nano.to_string(),
                "observedTimeUnixNano": r.observed_time_unix_nano.to_string(),
                "severityNumber": r.severity_number,
                "severityText": r.severity_text,
                "body": { "stringValue": r.body },
                "attributes": json_pairs(&r.attributes),
                "eventName": r.event_name,
            })
        })
        .collect();
    let body = json!({
        "resourceLogs": [{
            "resource": { "attributes": json_pairs(&origin.resource) },
            "scopeLogs": [{
                "scope": { "name": origin.scope_name, "version": origin.scope_version },
                "logRecords": logs,
            }]
        }]
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_little_endian_groups_of_seven_bits() {
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        out.clear();
        varint(&mut out, -1i64 as u64);
        assert_eq!(out.len(), 10, "a negative int64 takes ten bytes");
    }

    #[test]
    fn a_string_attribute_is_a_key_value_message() {
        let mut out = Vec::new();
        key_value(&mut out, "a", &Value::Str("b".into()));
        // key: field 1 "a"; value: field 2 { string_value: field 1 "b" }
        assert_eq!(out, [0x0a, 1, b'a', 0x12, 3, 0x0a, 1, b'b']);
    }
}
