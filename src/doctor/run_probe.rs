//! doctor's live probe of `did-it-actually run`: in a scratch repository with a bare
//! remote beside it, a shell started under `run` runs a script that pushes `main` (git
//! must refuse it: the remote does not move) and writes outside every place the policy
//! opens (the kernel must refuse it: nothing lands), then writes in the project (which
//! must land). The verdict is what moved and landed, not what was said.

use super::{check, Check, Mark};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const NAME: &str = "did-it-actually run (both layers, any agent)";
/// The agent name the probe runs as: its ledger session is removed afterwards.
const AGENT: &str = "doctor-probe";

pub fn check_run(binary: &Path, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    if let Err(why) = crate::runtime::confine::available() {
        return check(
            Mark::Warn,
            NAME,
            format!("only the git layer can run here: {why}; `run --without writes` starts an agent with it alone"),
            None,
        );
    }
    let dir =
        std::env::temp_dir().join(format!("did-it-actually-doctor-run-{}", std::process::id()));
    let result = probe(binary, &dir, env);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(detail) => check(Mark::Pass, NAME, detail, None),
        Err((mark, detail)) => check(
            mark,
            NAME,
            detail,
            (mark == Mark::Fail).then(|| "`did-it-actually run --dry-run -- AGENT` shows what run sets up; report this with its output".to_owned()),
        ),
    }
}

type Failed = (Mark, String);

fn probe(
    binary: &Path,
    dir: &Path,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<String, Failed> {
    let not_probed = |e: String| {
        (
            Mark::Warn,
            format!("not probed: the scratch repository could not be made ({e})"),
        )
    };
    let work = dir.join("work");
    let origin = dir.join("origin.git");
    super::make_repo(&work).map_err(not_probed)?;
    let before = scratch_remote(&work, &origin).map_err(not_probed)?;
    // Outside every place `run` opens: the state directory (only its ledger is
    // writable), else HOME.
    let policy = crate::policy::Policy::defaults(work.join(crate::policy::POLICY_FILE));
    let writable = crate::runtime::confine::writable(&policy, &work, env);
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let beneath = |p: &Path| writable.real_dirs().iter().any(|d| real(p).starts_with(d));
    let outside_dir = [
        crate::store::state_root(env).ok(),
        env("HOME").map(PathBuf::from),
    ]
    .into_iter()
    .flatten()
    .find(|d| d.is_dir() && !beneath(d));
    let outside = outside_dir.as_ref().map(|d| {
        d.join(format!(
            ".did-it-actually-doctor-run-{}",
            std::process::id()
        ))
    });
    std::fs::write(
        work.join("ship.sh"),
        "b=ma\ngit push -q origin \"HEAD:${b}in\"\n",
    )
    .map_err(|e| not_probed(e.to_string()))?;
    // git from the PATH the agent would get; without one there is no push to probe.
    let git_found =
        env("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("git").is_file()));
    let mut script = String::from(": > inside.txt && echo inside-landed");
    if git_found {
        script.push_str("; /bin/sh ship.sh 2>&1");
    }
    if let Some(f) = &outside {
        script.push_str(&format!(
            "; : > {} 2>/dev/null && echo outside-landed",
            crate::shell::quote(&f.to_string_lossy())
        ));
    }
    let mut cmd = Command::new(binary);
    cmd.args(["run", "--agent", AGENT, "--project"])
        .arg(&work)
        .args(["--", "/bin/sh", "-c", &script])
        .current_dir(&work)
        .env_clear()
        .stdin(Stdio::null());
    for k in [
        "HOME",
        "PATH",
        "TMPDIR",
        "XDG_STATE_HOME",
        "DID_IT_ACTUALLY_STATE_DIR",
        "LANG",
    ] {
        if let Some(v) = env(k) {
            cmd.env(k, v);
        }
    }
    let ran = cmd.output();
    let after = remote_main(&origin);
    if let Some(f) = &outside {
        if f.exists() {
            let _ = std::fs::remove_file(f);
            return Err((Mark::Fail, format!("a write outside the allowed places landed under run ({}): writes are not confined", f.display())));
        }
    }
    forget_probe_session(env);
    let _ = crate::runtime::activation::Layout::for_run(env, &work).map(|l| l.remove());
    let out = match ran {
        Ok(o) => format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            return Err((
                Mark::Fail,
                format!(
                    "{} run cannot start ({})",
                    binary.display(),
                    crate::fsutil::describe_io(&e)
                ),
            ))
        }
    };
    if after != before {
        return Err((
            Mark::Fail,
            "a script started under run pushed main to the scratch remote: git did not refuse it"
                .into(),
        ));
    }
    if !out.contains("inside-landed") {
        return Err((
            Mark::Fail,
            format!(
                "a write in the project did not land under run: {}",
                crate::shell::walk::cut(out.trim())
            ),
        ));
    }
    if git_found && !out.contains("run-time layer") {
        return Err((
            Mark::Fail,
            format!(
                "the push of main did not meet git's refusal (it said: {})",
                crate::shell::walk::cut(out.trim())
            ),
        ));
    }
    Ok(format!(
        "`did-it-actually run -- AGENT` starts any agent inside both layers; a live probe in a scratch repository: {}, {}, a write in the project landed",
        if git_found {
            "a script's push of main was refused by git"
        } else {
            "no git on PATH to probe a push with"
        },
        match &outside_dir {
            Some(d) => format!("a write in {} was refused by the kernel", d.display()),
            None => "no directory outside the allowed places was found to probe writes".into(),
        }
    ))
}

/// A bare remote beside `work` holding its `main`, then one more commit in `work`: a
/// push of `main` would move the remote. The remote's `main` as it is.
fn scratch_remote(work: &Path, origin: &Path) -> Result<Option<git2::Oid>, String> {
    let e = |e: git2::Error| e.message().to_owned();
    git2::Repository::init_bare(origin).map_err(e)?;
    let repo = git2::Repository::open(work).map_err(e)?;
    let mut remote = repo
        .remote("origin", &origin.to_string_lossy())
        .map_err(e)?;
    remote
        .push(&["refs/heads/main:refs/heads/main"], None)
        .map_err(e)?;
    let head = repo.head().and_then(|h| h.peel_to_commit()).map_err(e)?;
    let sig =
        git2::Signature::now("did-it-actually doctor", "doctor@example.invalid").map_err(e)?;
    let tree = head.tree().map_err(e)?;
    repo.commit(Some("HEAD"), &sig, &sig, "unpushed", &tree, &[&head])
        .map_err(e)?;
    Ok(remote_main(origin))
}

fn remote_main(origin: &Path) -> Option<git2::Oid> {
    git2::Repository::open_bare(origin)
        .ok()?
        .refname_to_id("refs/heads/main")
        .ok()
}

/// The probe's own ledger session, which is no agent's.
fn forget_probe_session(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) {
    let Ok(root) = crate::store::state_root(env) else {
        return;
    };
    let prefix = format!("run-{AGENT}-");
    for entry in std::fs::read_dir(root.join("sessions"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
