//! Runs `install/install.sh` as a user would, in a scratch HOME, building into its own
//! target directory (the test run holds the main one; `target/install-test` is shared by
//! the tests that need it, so only the first one builds from scratch).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn run(args: &[&str], home: &Path, path_var: &str, cwd: &Path) -> Output {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Found on the test's own PATH: the script's PATH may leave bash out on purpose.
    Command::new(which("bash"))
        .arg(repo.join("install/install.sh"))
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("PATH", path_var)
        .env_remove("PREFIX")
        .env("CARGO_TARGET_DIR", repo.join("target/install-test"))
        // cargo and rustup find their homes through HOME unless told otherwise.
        .env("CARGO_HOME", tool_home("CARGO_HOME", ".cargo"))
        .env("RUSTUP_HOME", tool_home("RUSTUP_HOME", ".rustup"))
        .output()
        .unwrap()
}

/// A program on the test process's PATH.
pub fn which(program: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}

fn tool_home(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| "/root".into())
            .join(default)
    })
}

/// The directory of the `cargo` running the tests, to put on a scratch PATH.
pub fn cargo_dir() -> PathBuf {
    Path::new(env!("CARGO")).parent().unwrap().to_owned()
}

pub fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
