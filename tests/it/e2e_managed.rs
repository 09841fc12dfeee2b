//! A managed install in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`):
//! `did-it-actually install --managed --policy ORG` writes the hooks into
//! `/etc/claude-code/managed-settings.d/` and the organisation's policy into
//! `/etc/did-it-actually/`, and then a project that tries every way it has to switch the
//! guards off (`disableAllHooks` in its settings and in the user's, its own policy with no
//! deny patterns, an `env` that points the guards at a loose organisation policy) is still
//! guarded: the write the organisation forbids never lands, the agent is told which level's
//! rule refused it, and the write it allows is verified.
//!
//! Nothing here touches the machine's `/etc`: each run gets a private mount namespace
//! (`unshare -m`, as root) with an overlay over `/etc` and `/usr/local`, so the install
//! writes where an administrator's would, seen only by that one Claude Code. Claude Code
//! trusts a managed file only when the user running it cannot write it; as root it can.

use crate::support;

use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(a_project_cannot_switch_off_a_managed_install);

/// The script that gives one command a private `/etc` and `/usr/local` (overlays whose
/// changes land under `$1`), runs `install --managed` there, then `exec`s the rest.
const NAMESPACE: &str = r#"set -e
top=$1; bin=$2; org=$3; shift 3
for d in etc usr; do mkdir -p "$top/$d/upper" "$top/$d/work"; done
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$top/etc/upper,workdir=$top/etc/work" /etc
mount -t overlay overlay -o "lowerdir=/usr/local,upperdir=$top/usr/upper,workdir=$top/usr/work" /usr/local
"$bin" install --managed --policy "$org" >"$top/install.out" 2>&1
"$bin" status >"$top/status.out" 2>&1 || true
"$bin" doctor >"$top/doctor.out" 2>&1 || true
"$bin" policy check >"$top/policy.out" 2>&1 || true
exec "$@"
"#;

/// Whether this machine lets a test make a private mount namespace with overlays (root,
/// util-linux `unshare`, overlayfs): if not, the test fails, or skips when e2e tests are
/// optional.
fn namespaces_work(scratch: &Path) -> Result<(), String> {
    let top = scratch.join("probe");
    std::fs::create_dir_all(&top).map_err(|e| e.to_string())?;
    let out = Command::new("unshare")
        .args(["-m", "sh", "-c"])
        .arg(format!(
            "mkdir -p {t}/u {t}/w && mount -t overlay overlay -o lowerdir=/etc,upperdir={t}/u,workdir={t}/w /etc && mkdir /etc/did-it-actually-probe",
            t = top.display()
        ))
        .output()
        .map_err(|e| format!("unshare: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "unshare -m with an overlay over /etc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if Path::new("/etc/did-it-actually-probe").exists() {
        return Err("the overlay leaked into the machine's /etc".into());
    }
    Ok(())
}

fn a_project_cannot_switch_off_a_managed_install(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let scratch = session.scratch_dir("managed");
    if let Err(why) = namespaces_work(&scratch) {
        if support::claude::optional() {
            eprintln!("SKIPPED: {why}");
            return;
        }
        panic!("{why} (set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip)");
    }
    // The organisation forbids writes under secrets/.
    let org = scratch.join("org-policy.json");
    std::fs::write(&org, r#"{"version": 1, "scope": {"deny": ["secrets/**"]}}"#).unwrap();
    // Everything the project and the user can do to switch the guards off.
    let loose = session.path("loose-policy.json");
    std::fs::write(&loose, r#"{"version": 1}"#).unwrap();
    session.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&json!({
            "disableAllHooks": true,
            "env": {"DID_IT_ACTUALLY_ORG_POLICY": loose}
        }))
        .unwrap(),
    );
    session.write(
        ".did-it-actually.json",
        r#"{"version": 1, "scope": {"deny": []}}"#,
    );
    let user_settings = session.home().join(".claude/settings.json");
    std::fs::create_dir_all(user_settings.parent().unwrap()).unwrap();
    std::fs::write(&user_settings, r#"{"disableAllHooks": true}"#).unwrap();

    let state = session.scratch_dir("state");
    session.env("DID_IT_ACTUALLY_STATE_DIR", &state);
    let prefix: Vec<OsString> = vec![
        "unshare".into(),
        "-m".into(),
        "sh".into(),
        "-c".into(),
        NAMESPACE.into(),
        "sh".into(),
        scratch.clone().into(),
        env!("CARGO_BIN_EXE_did-it-actually").into(),
        org.clone().into(),
    ];
    session.prefix(prefix);

    let forbidden = session.path("secrets/token.txt");
    let allowed = session.path("notes.txt");
    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": forbidden, "content": "s3cret\n"}),
        ),
        Step::tool("Write", json!({"file_path": allowed, "content": "fine\n"})),
        Step::text("Done."),
    ]);
    let out = session.run("Write two files", &api);
    let install = std::fs::read_to_string(scratch.join("install.out")).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\ninstall --managed said:\n{install}",
        out.describe()
    );
    assert!(
        install.contains("/etc/claude-code/managed-settings.d/did-it-actually.json"),
        "{install}"
    );
    // The managed file landed in the overlay, never in the machine's /etc.
    assert!(scratch
        .join("etc/upper/claude-code/managed-settings.d/did-it-actually.json")
        .is_file());
    assert!(!Path::new("/etc/claude-code/managed-settings.d/did-it-actually.json").exists());

    // What the user sees of it, in the same namespace, from the project.
    let read = |name: &str| std::fs::read_to_string(scratch.join(name)).unwrap_or_default();
    let status = read("status.out");
    assert!(
        status.contains("Claude Code, managed (no project or user setting can switch it off), /etc/claude-code/managed-settings.d/did-it-actually.json: verify-write, block-wrong-branch, scope-guard, audit-turn"),
        "{status}"
    );
    assert!(
        status.contains("and the organisation policy /etc/did-it-actually/policy.json"),
        "{status}"
    );
    let doctor = read("doctor.out");
    assert!(doctor.contains("register verify-write"), "{doctor}");
    assert!(
        doctor.contains("the managed hooks still run"),
        "doctor names the project's attempt to switch them off: {doctor}"
    );
    let policy = read("policy.out");
    assert!(
        policy.contains("scope.deny: the organisation policy /etc/did-it-actually/policy.json"),
        "{policy}"
    );

    let requests = api.requests();
    assert_eq!(requests.len(), 3, "{}", out.describe());
    let denied = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied.text.contains("scope-guard")
            && denied.text.contains("secrets/**")
            && denied
                .text
                .contains("the organisation policy /etc/did-it-actually/policy.json"),
        "the agent is told the organisation's rule refused it: {}",
        denied.text
    );
    assert!(!forbidden.exists(), "the forbidden write must not land");

    let ok = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(!ok.is_error, "{ok:?}");
    assert_eq!(session.read("notes.txt").as_deref(), Some("fine\n"));
    // verify-write ran too: the write is in the ledger, landed.
    let records: Vec<Value> = std::fs::read_dir(state.join("sessions"))
        .unwrap()
        .flatten()
        .flat_map(|d| {
            std::fs::read_to_string(d.path().join("writes.jsonl"))
                .unwrap_or_default()
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect::<Vec<Value>>()
        })
        .collect();
    assert!(
        records.iter().any(
            |r| r["path"].as_str().is_some_and(|p| p.ends_with("notes.txt"))
                && r["outcome"] == "landed"
        ),
        "{records:#?}"
    );
    assert!(
        records.iter().any(|r| r["kind"] == "denial"
            && r["reason"]
                .as_str()
                .is_some_and(|s| s.contains("organisation policy"))),
        "{records:#?}"
    );
}

/// Without root, `install --managed` writes nothing outside the state directory: it
/// stages the files and prints the one command an administrator runs. That command
/// deploys them (here inside a private namespace), and refuses to deploy anything when a
/// staged file was changed after it was printed (the staging directory belongs to the
/// user, and so to an agent running as the user).
#[test]
fn without_root_the_files_are_staged_and_the_printed_command_checks_them() {
    let guard = support::fixture::scratch("managed-staged");
    let scratch = guard.to_path_buf();
    if let Err(why) = namespaces_work(&scratch) {
        if support::claude::optional() {
            eprintln!("SKIPPED: {why}");
            return;
        }
        panic!("{why} (set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip)");
    }
    use std::os::unix::fs::PermissionsExt;
    let open = |p: &Path| {
        std::fs::create_dir_all(p).unwrap();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
    };
    let state = scratch.join("state");
    open(&scratch);
    open(&state);
    let org = scratch.join("org.json");
    std::fs::write(
        &org,
        r#"{"version": 1, "branches": {"protected": ["release/*"]}}"#,
    )
    .unwrap();
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["install", "--managed", "--policy"])
        .arg(&org)
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .env("HOME", &scratch)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("needs root, and this command never escalates"),
        "{stdout}"
    );
    let command = stdout
        .lines()
        .find(|l| l.starts_with("sudo sh -c "))
        .unwrap_or_else(|| panic!("no command in {stdout}"))
        .trim_start_matches("sudo ")
        .to_owned();
    let staged = state.join("managed/etc/claude-code/managed-settings.d/did-it-actually.json");
    assert!(staged.is_file(), "{stdout}");
    assert!(state
        .join("managed/etc/did-it-actually/policy.json")
        .is_file());
    assert!(!Path::new("/etc/claude-code/managed-settings.d/did-it-actually.json").exists());

    // The administrator runs it (as root, in a private /etc): the files land as staged.
    let deploy = |script: &str, top: &Path| {
        std::fs::create_dir_all(top).unwrap();
        Command::new("unshare")
            .args(["-m", "sh", "-c"])
            .arg(format!(
                "set -e; mkdir -p {t}/u {t}/w; mount -t overlay overlay -o lowerdir=/etc,upperdir={t}/u,workdir={t}/w /etc; {script}",
                t = top.display()
            ))
            .output()
            .unwrap()
    };
    let done = deploy(&command, &scratch.join("ns1"));
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let landed = scratch.join("ns1/u/claude-code/managed-settings.d/did-it-actually.json");
    assert_eq!(
        std::fs::read(&landed).unwrap(),
        std::fs::read(&staged).unwrap()
    );
    let meta = std::fs::metadata(&landed).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o644);
    assert_eq!(
        std::fs::read(scratch.join("ns1/u/did-it-actually/policy.json")).unwrap(),
        std::fs::read(&org).unwrap()
    );

    // A staged file changed after the command was printed: nothing is installed.
    std::fs::write(&staged, r#"{"disableAllHooks": true}"#).unwrap();
    let refused = deploy(&command, &scratch.join("ns2"));
    assert!(
        !refused.status.success(),
        "a tampered file must not be deployed"
    );
    assert!(
        !scratch.join("ns2/u/claude-code").exists()
            && !scratch.join("ns2/u/did-it-actually").exists(),
        "nothing of the deployment may land"
    );
}

/// The managed level of the other hosts that have one (Gemini CLI, Qwen Code, droid,
/// Codex, opencode), in their real binaries: the user's settings switch hooks off the way
/// each host allows (Gemini `hooksConfig.enabled: false`, Qwen `disableAllHooks: true`,
/// droid `hooks.hooksDisabled: true`, Codex `[features] hooks = false`, opencode
/// `"plugin": []`), and a push to main is still refused, because the
/// administrator's file (written by `install --managed` in a private `/etc`) holds the
/// hooks and the key that keeps them on.
fn a_user_cannot_switch_off_the_hosts_managed_hooks(host: crate::support::hosts::HostKind) {
    use crate::support::hosts::{Bed, Step};
    let Some(mut bed) = Bed::new(host) else {
        return;
    };
    let top = bed.repo.work().parent().unwrap().join("managed");
    std::fs::create_dir_all(&top).unwrap();
    if let Err(why) = namespaces_work(&top) {
        if support::claude::optional() {
            eprintln!("SKIPPED: {why}");
            return;
        }
        panic!("{why} (set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip)");
    }
    crate::support::repo::git(
        &bed.work,
        &["commit", "-q", "--allow-empty", "-m", "unpushed"],
    );
    // The user's own settings file, with the switch that turns this host's hooks off.
    if host.name() == "codex" {
        let config = bed.home.join(".codex/config.toml");
        let mut text = std::fs::read_to_string(&config).unwrap_or_default();
        assert!(!text.contains("[features]"), "{text}");
        text.push_str("\n[features]\nhooks = false\n");
        std::fs::write(&config, text).unwrap();
    }
    let (file, switch): (&str, Value) = match host.name() {
        "codex" => (".codex/did-it-actually-unused.json", json!({})),
        "gemini" => (
            ".gemini/settings.json",
            json!({"hooksConfig": {"enabled": false}}),
        ),
        "qwen" => (".qwen/settings.json", json!({"disableAllHooks": true})),
        "droid" => (
            ".factory/settings.json",
            json!({"hooks": {"hooksDisabled": true}}),
        ),
        "opencode" => (".config/opencode/opencode.json", json!({"plugin": []})),
        other => panic!("no switch known for {other}"),
    };
    let user = bed.home.join(file);
    let mut settings: serde_json::Map<String, Value> = std::fs::read_to_string(&user)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    for (k, v) in switch.as_object().unwrap() {
        match (settings.get_mut(k), v) {
            (Some(Value::Object(have)), Value::Object(add)) => have.extend(add.clone()),
            _ => {
                settings.insert(k.clone(), v.clone());
            }
        }
    }
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, serde_json::to_string_pretty(&settings).unwrap()).unwrap();

    let script = r#"set -e
top=$1; bin=$2; host=$3; shift 3
mkdir -p "$top/upper" "$top/work"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$top/upper,workdir=$top/work" /etc
"$bin" install --managed --host "$host" >"$top/install.out" 2>&1
"$bin" doctor >"$top/doctor.out" 2>&1 || true
# The beds point the hosts' system settings into their scratch HOME: here the host must
# read the administrator's file, at its real path.
unset QWEN_CODE_SYSTEM_SETTINGS_PATH QWEN_CODE_SYSTEM_DEFAULTS_PATH GEMINI_CLI_SYSTEM_SETTINGS_PATH GEMINI_CLI_SYSTEM_DEFAULTS_PATH FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH
exec "$@"
"#;
    bed.wrap = vec![
        "unshare".into(),
        "-m".into(),
        "sh".into(),
        "-c".into(),
        script.into(),
        "sh".into(),
        top.clone().into(),
        env!("CARGO_BIN_EXE_did-it-actually").into(),
        host.name().into(),
    ];
    let before = bed.repo.origin_ref("main");
    let run = bed.run(
        "push it",
        vec![
            Step::new(vec![bed.shell("git push origin main")]),
            Step::text("Pushed."),
        ],
    );
    let install = std::fs::read_to_string(top.join("install.out")).unwrap_or_default();
    assert!(
        install.contains("wrote /etc/"),
        "install --managed said: {install}"
    );
    assert_eq!(
        bed.repo.origin_ref("main"),
        before,
        "the push went through although the hooks are managed\ninstall: {install}\n{}",
        crate::e2e_hosts::explain(&run)
    );
    assert!(
        run.told().contains("block-wrong-branch"),
        "the agent is told why\n{}",
        crate::e2e_hosts::explain(&run)
    );
    // doctor, in the same namespace, sees the managed file and the user's attempt.
    let doctor = std::fs::read_to_string(top.join("doctor.out")).unwrap_or_default();
    let (file, said) = match host.name() {
        "gemini" => (
            "/etc/gemini-cli/settings.json",
            "the managed file's true wins",
        ),
        "qwen" => (
            "/etc/qwen-code/settings.json",
            "the managed file's false wins",
        ),
        "droid" => (
            "/etc/factory/settings.json",
            "the managed file's false wins",
        ),
        "opencode" => ("/etc/opencode/did-it-actually.js", "opencode plugin"),
        _ => (
            "/etc/codex/hooks.json",
            "the administrator's requirements pin it on",
        ),
    };
    assert!(doctor.contains(file), "{doctor}");
    assert!(doctor.contains(said), "{doctor}");
}

mod hosts_managed {
    use crate::support::hosts::HostKind;

    #[test]
    fn gemini() {
        super::a_user_cannot_switch_off_the_hosts_managed_hooks(HostKind::Gemini);
    }

    #[test]
    fn qwen() {
        super::a_user_cannot_switch_off_the_hosts_managed_hooks(HostKind::Qwen);
    }

    #[test]
    fn droid() {
        super::a_user_cannot_switch_off_the_hosts_managed_hooks(HostKind::Droid);
    }

    #[test]
    fn opencode() {
        super::a_user_cannot_switch_off_the_hosts_managed_hooks(HostKind::Opencode);
    }

    #[test]
    fn codex() {
        super::a_user_cannot_switch_off_the_hosts_managed_hooks(HostKind::Codex);
    }
}
