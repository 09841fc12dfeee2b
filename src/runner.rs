//! Runs one hook invocation end to end: stdin bytes -> typed input -> hook -> its state
//! changes applied -> host bytes. Every failure on the way becomes the event's fail-closed
//! answer with a reason; a panic inside a hook becomes one too, never a stack trace.

use crate::hooks::{self, Context, Hook, HookArgs, HookOutcome};
use crate::policy::Policy;
use crate::protocol::claude::ParseFailure;
use crate::protocol::host::{self, Dialect};
use crate::protocol::{Event, HookInput, Output, Response};
use crate::state::{Change, Disk, Unsaved};
use crate::store::SessionId;
use std::ffi::OsString;
use std::io::Read;
use std::panic::{self, AssertUnwindSafe};
use std::time::SystemTime;

/// The process environment, as a function so tests can substitute their own.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<OsString>;

pub fn run_hook(hook: Hook, args: &HookArgs, stdin: impl Read, env: Env) -> Output {
    let dialect = Dialect::of(args.host);
    // Most hosts run the tool when a hook crashes: nothing may escape as a panic, not
    // even from decoding or encoding.
    match panic::catch_unwind(AssertUnwindSafe(|| run_hook_inner(hook, args, stdin, env))) {
        Ok(output) => output,
        Err(payload) => host::encode_failure(
            dialect,
            hook.name(),
            hook.fallback_event(),
            &internal_error(&payload),
        ),
    }
}

fn run_hook_inner(hook: Hook, args: &HookArgs, stdin: impl Read, env: Env) -> Output {
    let name = hook.name();
    let fallback = Dialect::of(args.host);
    let (input, dialect) = match host::decode(args.host, args.event.as_deref(), stdin) {
        Ok(decoded) => decoded,
        Err(ParseFailure { error, event }) => {
            return host::encode_failure(
                fallback,
                name,
                event.or(hook.fallback_event()),
                &error.to_string(),
            )
        }
    };
    let event = input.event;
    if !hook.events().contains(&event) {
        let message = format!(
            "this hook does not handle {} events, so the hook registration is wrong; run `did-it-actually install` again",
            event.name()
        );
        return host::encode_failure(dialect, name, Some(event), &message);
    }
    match contained(|| run_parsed(hook, args, &input, env)) {
        Ok(response) => host::encode(dialect, event, &response),
        Err(message) => {
            // A guard that could not decide refused the call: the ledger says so, like
            // any other denial, so the call is not later read as a lost write. Best
            // effort: when the state cannot be written either, the refusal itself (with
            // its reason) is still what the agent and the user see.
            let text = format!("{name}: {message}");
            if let Some(d) = hooks::denial_record(hook, &input, SystemTime::now(), None, &text) {
                if let Ok(session) = SessionId::parse(&input.common.session_id) {
                    let _ = Disk::new(env, session).apply(vec![Change::Record(d.into())]);
                }
            }
            host::encode_failure(dialect, name, Some(event), &message)
        }
    }
}

fn internal_error(payload: &Box<dyn std::any::Any + Send>) -> String {
    format!(
        "internal error ({}); this is a bug in did-it-actually, please report it",
        panic_message(payload)
    )
}

/// Runs `f`; an error or a panic becomes the reason for the event's fail-closed answer,
/// never a stack trace.
fn contained(f: impl FnOnce() -> Result<Response, String>) -> Result<Response, String> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(internal_error(&payload)),
    }
}

/// Everything after parsing. `Err` is a reason to fail closed.
fn run_parsed(
    hook: Hook,
    args: &HookArgs,
    input: &HookInput,
    env: Env,
) -> Result<Response, String> {
    check_cwd(&input.common.cwd)?;
    let session = SessionId::parse(&input.common.session_id).map_err(|e| e.to_string())?;
    let mut notices = Vec::new();
    let policy = match Policy::in_force(&input.common.cwd, env) {
        Ok(p) => p,
        // verify-write and audit-turn must not stop working (or, for a stop hook, keep the
        // agent from stopping) over a broken policy: they use the defaults and say so.
        // The guards fail closed instead.
        Err(e) if hook.spec().broken_policy == hooks::table::BrokenPolicy::UseDefaults => {
            notices.push(format!(
                "{}: {e}; the built-in defaults were used instead.",
                hook.name()
            ));
            Policy::defaults(e.path().to_owned())
        }
        Err(e) => return Err(e.to_string()),
    };
    if let Some(notice) = pending_notice(hook, &policy, &session, env) {
        notices.push(format!("{}: {notice}", hook.name()));
    }
    let now = SystemTime::now();
    let state = Disk::new(env, session);
    let ctx = Context {
        policy: &policy,
        now,
        env,
        end_turn_tools: &args.end_turn_tools,
        state: &state,
    };
    let HookOutcome {
        mut response,
        changes,
        if_unsaved,
    } = (hook.spec().run)(input, &ctx)?;
    if !changes.is_empty() {
        let (unsaved, created) = state.apply(changes);
        if created {
            notices.extend(
                state
                    .prune_others(policy.store.prune_after(), now)
                    .into_iter()
                    .map(|e| format!("{}: could not prune an old session: {e}", hook.name())),
            );
        }
        if let (Some(instead), false) = (if_unsaved, unsaved.is_empty()) {
            response = instead;
        }
        // The ledger grew: with export on, it may be time to send (never waited for).
        let export_root = policy
            .export
            .otlp
            .then(|| crate::store::state_root(env).ok())
            .flatten();
        if let Some(root) = export_root {
            let dir = crate::store::SessionStore::new(&root, state.session())
                .dir()
                .to_owned();
            if let Some(problem) = crate::export::kick(&policy, &root, &dir, env) {
                notices.push(format!("{}: {problem}.", hook.name()));
            }
        }
        notices.extend(unsaved_notices(hook, input.event, &unsaved));
    }
    response.notices.extend(notices);
    Ok(response)
}

/// What to say, once per session and per change, when the policy file is not the one in
/// force (see [`crate::approval`]): a marker in the session's directory remembers that it
/// was said.
fn pending_notice(hook: Hook, policy: &Policy, session: &SessionId, env: Env) -> Option<String> {
    let pending = policy.pending.as_ref()?;
    let root = crate::store::state_root(env).ok()?;
    let dir = crate::store::SessionStore::new(&root, session)
        .dir()
        .to_owned();
    // Once per hook: each says it in its own place (a denial, a stop, a write's check).
    let marker = dir.join(format!("policy-pending-{}-{}", hook.name(), pending.key()));
    let _ = std::fs::create_dir_all(&dir);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&marker)
    {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return None,
        // Created, or not remembered (said every time rather than never).
        _ => {}
    }
    let error = crate::approval::why_not_approvable(&pending.file)
        .map(|e| format!(" It cannot be approved as it is: {e}."))
        .unwrap_or_default();
    Some(format!("{}.{error}", pending.sentence(&policy.source)))
}

/// Every path in the input is judged relative to `cwd`, and the policy is found from it:
/// one that is not an absolute path (empty, `.`, relative, with a NUL byte) would make
/// the guards judge the wrong place, so it is an input error like a mistyped field.
fn check_cwd(cwd: &std::path::Path) -> Result<(), String> {
    let bytes = cwd.as_os_str().as_encoded_bytes();
    if cwd.is_absolute() && !bytes.contains(&0) {
        return Ok(());
    }
    let error = crate::protocol::InputError::WrongType {
        field: "cwd".into(),
        expected: "an absolute path",
    };
    Err(format!(
        "{error} (it is {:?}), so nothing was checked",
        cwd.as_os_str()
    ))
}

/// What the user is told about changes that could not be made: records once (audit-turn
/// will miss them), every other change with its own error.
fn unsaved_notices(hook: Hook, event: Event, unsaved: &[Unsaved]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(u) = unsaved
        .iter()
        .find(|u| matches!(u.change, Change::Record(_)))
    {
        out.push(unrecorded(hook, event, &u.error));
    }
    out.extend(
        unsaved
            .iter()
            .filter(|u| !matches!(u.change, Change::Record(_)))
            .map(|u| format!("{}: {}", hook.name(), u.error)),
    );
    out
}

fn unrecorded(hook: Hook, event: Event, why: &str) -> String {
    format!(
        "{}: the {} check ran but its result could not be recorded ({why}); audit-turn will not see these writes.",
        hook.name(),
        event.name()
    )
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Silences the default panic printer: a panic is reported once, cleanly, by whoever
/// catches it (the hook runner, or `cli::main`).
pub fn quiet_panics() {
    panic::set_hook(Box::new(|_| {}));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::claude;

    #[test]
    fn a_panic_becomes_a_clean_block() {
        let failed = contained(|| panic!("index out of bounds")).unwrap_err();
        let out = claude::render_failure("verify-write", Some(Event::PostToolUse), &failed);
        assert_eq!(out.exit_code, 0);
        assert_eq!(
            out.stdout,
            r#"{"decision":"block","reason":"verify-write: internal error (index out of bounds); this is a bug in did-it-actually, please report it","systemMessage":"verify-write: internal error (index out of bounds); this is a bug in did-it-actually, please report it"}"#
        );
        let failed = contained(|| Err("state dir unwritable".into())).unwrap_err();
        let out = claude::render_failure("verify-write", Some(Event::PostToolBatch), &failed);
        assert!(
            out.stdout
                .contains(r#""additionalContext":"verify-write: state dir unwritable""#),
            "{}",
            out.stdout
        );
    }

    #[test]
    fn a_cwd_that_is_not_an_absolute_path_is_an_input_error() {
        let env = |_: &str| None;
        for (cwd, shown) in [
            ("", r#""""#),
            (".", r#"".""#),
            ("src", r#""src""#),
            ("\\u0001 x", r#""\u{1} x""#),
            ("/tmp/a\\u0000b", r#""/tmp/a\0b""#),
        ] {
            let input = format!(
                r#"{{"session_id": "s", "cwd": "{cwd}", "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {{"command": "git push origin HEAD:main"}}}}"#
            );
            let out = run_hook(
                Hook::BlockWrongBranch,
                &HookArgs::default(),
                input.as_bytes(),
                &env,
            );
            let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            assert_eq!(
                v["hookSpecificOutput"]["permissionDecision"], "deny",
                "{cwd:?}"
            );
            assert_eq!(
                v["hookSpecificOutput"]["permissionDecisionReason"],
                format!("block-wrong-branch: the hook input field `cwd` should be an absolute path (it is {shown}), so nothing was checked"),
            );
        }
    }

    #[test]
    fn an_unwritable_state_dir_is_reported_not_silent() {
        let dir = std::env::temp_dir().join(format!("dia-runner-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        std::fs::write(&file, "x").unwrap();
        // The state "directory" is a regular file: nothing can be created under it.
        let blocker = dir.join("state-is-a-file");
        std::fs::write(&blocker, "").unwrap();
        let input = serde_json::json!({"session_id": "s", "cwd": dir, "hook_event_name": "PostToolUse",
            "tool_name": "Write", "tool_input": {"file_path": file, "content": "x"}});
        let env =
            |k: &str| (k == "DID_IT_ACTUALLY_STATE_DIR").then(|| blocker.clone().into_os_string());
        let out = run_hook(
            Hook::VerifyWrite,
            &HookArgs::default(),
            input.to_string().as_bytes(),
            &env,
        );
        assert_eq!(out.exit_code, 0);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let msg = v["systemMessage"].as_str().unwrap();
        assert!(msg.starts_with("verify-write: the PostToolUse check ran but its result could not be recorded (could not create the state directory"), "{msg}");
        assert!(
            msg.ends_with("audit-turn will not see these writes."),
            "{msg}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
