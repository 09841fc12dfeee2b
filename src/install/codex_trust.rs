//! Codex CLI's hook trust (observed on 0.171.0, shared/docs/hosts.md §4): a hook added to
//! `hooks.json` does nothing until trusted, and `codex exec` skips an untrusted one
//! without a word. Codex itself says what it would run: `codex app-server` (JSON-RPC, one
//! object per line on stdin/stdout) answers `hooks/list` with each hook's `key`,
//! `currentHash` and `trustStatus`; trusting one is `hooks.state."<key>".trusted_hash =
//! "<currentHash>"` in `~/.codex/config.toml`, which the app-server writes itself
//! (`config/batchWrite`). The hash covers the event, matcher and handler, so any edit of
//! an entry untrusts it until install runs again.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long `codex app-server` may take to answer.
const APP_SERVER_LIMIT: Duration = Duration::from_secs(30);

/// One hook as Codex lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedHook {
    /// `<source file>:<event>:<group>:<handler>`.
    pub key: String,
    pub command: String,
    pub current_hash: String,
    /// `trusted`, `untrusted`, `modified` or `managed`.
    pub trust_status: String,
}

impl ListedHook {
    /// The hooks file the entry comes from (the key's part before the event).
    pub fn source_path(&self) -> String {
        let mut parts: Vec<&str> = self.key.rsplitn(4, ':').collect();
        parts.pop().unwrap_or_default().to_owned()
    }
}

/// The `codex` on PATH (`DID_IT_ACTUALLY_CODEX` first).
pub fn find_codex(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    if let Some(p) = env("DID_IT_ACTUALLY_CODEX").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = env("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("codex"))
        .find(|p| p.is_file())
}

/// A running `codex app-server`: JSON-RPC, one object per line.
struct AppServer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    answers: mpsc::Receiver<serde_json::Value>,
}

impl AppServer {
    fn start(codex: &Path, cwd: &Path, home: Option<&Path>) -> Result<AppServer, String> {
        let mut cmd = Command::new(codex);
        cmd.arg("app-server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(h) = home {
            cmd.env("HOME", h);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run {} app-server: {e}", codex.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
                    if v.get("id").is_some() && tx.send(v).is_err() {
                        break;
                    }
                }
            }
        });
        let mut server = AppServer {
            child,
            stdin,
            answers,
        };
        server.call(
            1,
            "initialize",
            serde_json::json!({"clientInfo": {"name": "did-it-actually", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        server.send(&serde_json::json!({"jsonrpc": "2.0", "method": "initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &serde_json::Value) -> Result<(), String> {
        writeln!(self.stdin, "{message}")
            .map_err(|e| format!("cannot talk to codex app-server: {e}"))
    }

    fn call(
        &mut self,
        id: u64,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, String> {
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )?;
        let deadline = std::time::Instant::now() + APP_SERVER_LIMIT;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let answer = self.answers.recv_timeout(left).map_err(|_| {
                format!(
                    "codex app-server gave no answer to {method} within {} s",
                    APP_SERVER_LIMIT.as_secs()
                )
            })?;
            if answer.get("id").and_then(serde_json::Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(e) = answer.get("error") {
                return Err(format!("codex app-server refused {method}: {e}"));
            }
            return Ok(answer["result"].clone());
        }
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn listed(result: &serde_json::Value) -> Vec<ListedHook> {
    let mut out = Vec::new();
    for entry in result["data"].as_array().into_iter().flatten() {
        for h in entry["hooks"].as_array().into_iter().flatten() {
            let s = |k: &str| {
                h.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_owned()
            };
            out.push(ListedHook {
                key: s("key"),
                command: s("command"),
                current_hash: s("currentHash"),
                trust_status: s("trustStatus"),
            });
        }
    }
    out
}

/// Every hook Codex sees for `cwd`, by asking `codex app-server`.
pub fn list(codex: &Path, cwd: &Path, home: Option<&Path>) -> Result<Vec<ListedHook>, String> {
    let mut server = AppServer::start(codex, cwd, home)?;
    let result = server.call(2, "hooks/list", serde_json::json!({"cwds": [cwd]}))?;
    Ok(listed(&result))
}

/// Trusts every hook of ours in `hooks_file` that Codex does not trust yet, by having
/// Codex record their current hashes itself (`config/batchWrite` into `hooks.state`, so
/// `config.toml` stays Codex's to format); returns how many were trusted, after checking
/// that Codex now lists them as trusted.
pub fn trust_ours(
    codex: &Path,
    cwd: &Path,
    home: &Path,
    hooks_file: &Path,
) -> Result<usize, String> {
    let mut server = AppServer::start(codex, cwd, Some(home))?;
    let cwds = serde_json::json!({"cwds": [cwd]});
    let file = hooks_file.to_string_lossy().into_owned();
    let pending = |hooks: Vec<ListedHook>| -> Vec<ListedHook> {
        hooks
            .into_iter()
            .filter(|h| h.source_path() == file)
            .filter(|h| super::our_hook(&serde_json::json!({"command": h.command})).is_some())
            .filter(|h| h.trust_status != "trusted" && h.trust_status != "managed")
            .collect()
    };
    let wanted = pending(listed(&server.call(2, "hooks/list", cwds.clone())?));
    if wanted.is_empty() {
        return Ok(0);
    }
    let state: serde_json::Map<String, serde_json::Value> = wanted
        .iter()
        .map(|h| {
            (
                h.key.clone(),
                serde_json::json!({"trusted_hash": h.current_hash}),
            )
        })
        .collect();
    server.call(
        3,
        "config/batchWrite",
        serde_json::json!({"edits": [{"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state}]}),
    )?;
    let still = pending(listed(&server.call(4, "hooks/list", cwds)?));
    if !still.is_empty() {
        let keys: Vec<String> = still
            .iter()
            .map(|h| format!("{} ({})", h.key, h.trust_status))
            .collect();
        return Err(format!("Codex still does not trust {}", keys.join(", ")));
    }
    Ok(wanted.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_names_its_source_file() {
        let h = ListedHook {
            key: "/h/.codex/hooks.json:pre_tool_use:0:1".into(),
            command: "x".into(),
            current_hash: "sha256:aa".into(),
            trust_status: "untrusted".into(),
        };
        assert_eq!(h.source_path(), "/h/.codex/hooks.json");
    }
}
