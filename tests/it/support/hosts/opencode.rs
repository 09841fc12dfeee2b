//! The opencode bed: see [`super`]. opencode **1.18.33** (npm `opencode-ai@1.18.33` plus
//! `opencode-linux-x64@1.18.33`, pinned explicitly; the bed runs the platform package's
//! native binary), driven with `opencode run --auto PROMPT` against [`MockApi`] (Anthropic
//! Messages SSE, unchanged), the provider being `provider.anthropic.options.baseURL` in
//! `$XDG_CONFIG_HOME/opencode/opencode.json` (shared/docs/hosts.md §3.6).
//!
//! opencode has no command hooks: it loads JS plugins from
//! `$XDG_CONFIG_HOME/opencode/plugins/*.js` and the project's `.opencode/plugins/*.js`;
//! `did-it-actually install --host opencode` writes one there.
//!
//! Set-up choices: `OPENCODE_DISABLE_AUTOUPDATE`, `OPENCODE_DISABLE_MODELS_FETCH`,
//! `OPENCODE_DISABLE_LSP_DOWNLOAD` (hosts.md §3.6); the mock's port is known only per
//! run, so [`run`] rewrites `opencode.json` (keeping every other key).

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::super::mock_api::MockApi;
use super::copilot::{
    anthropic_run, anthropic_tool_ids, base_env, mkdir, new_bed, npm_native, or_skip, run_host,
};
use super::{Bed, Block, HostKind, Run, Step};

/// The opencode release the bed pins.
pub const VERSION: &str = "1.18.33";

/// The native platform binary, installed on first use.
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            npm_native(
                &format!("opencode-{VERSION}"),
                &[
                    &format!("opencode-ai@{VERSION}"),
                    &format!("opencode-linux-x64@{VERSION}"),
                ],
                "node_modules/opencode-linux-x64/bin/opencode",
                "~180 MB",
                VERSION,
            )
        })
        .clone()
}

/// `$XDG_CONFIG_HOME/opencode`, where opencode reads its config and user plugins.
pub fn config_dir(bed: &Bed) -> PathBuf {
    bed.home.join(".config/opencode")
}

fn config_path(bed: &Bed) -> PathBuf {
    config_dir(bed).join("opencode.json")
}

/// Points the anthropic provider at `base_url`, keeping every other key of the file.
fn set_base_url(bed: &Bed, base_url: &str) {
    let path = config_path(bed);
    let mut config: Value = fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| json!({}));
    if !config.is_object() {
        config = json!({});
    }
    config["autoupdate"] = json!(false);
    config["share"] = json!("disabled");
    config["model"] = json!("anthropic/claude-sonnet-4-5");
    config["provider"] =
        json!({"anthropic": {"options": {"baseURL": format!("{base_url}/v1"), "apiKey": "mock"}}});
    fs::write(&path, serde_json::to_string_pretty(&config).unwrap())
        .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

pub fn bed() -> Option<Bed> {
    let binary = or_skip("opencode", VERSION, binary())?;
    let bed = new_bed(HostKind::Opencode, "opencode", binary);
    mkdir(&config_dir(&bed));
    set_base_url(&bed, "http://127.0.0.1:9");
    Some(bed)
}

pub fn env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let mut env = base_env(bed);
    env.extend([
        ("OPENCODE_DISABLE_AUTOUPDATE".into(), "true".into()),
        ("OPENCODE_DISABLE_MODELS_FETCH".into(), "true".into()),
        ("OPENCODE_DISABLE_LSP_DOWNLOAD".into(), "true".into()),
    ]);
    env
}

pub fn run(bed: &Bed, prompt: &str, script: Vec<Step>) -> Run {
    let ids = anthropic_tool_ids(&script);
    let api = MockApi::start(script);
    set_base_url(bed, &api.base_url());
    let mut cmd = bed.command(&bed.binary);
    cmd.args(["run", "--auto", prompt])
        .env_clear()
        .envs(env(bed));
    let (status, stdout, stderr) = run_host(cmd, &bed.work, "opencode run", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    anthropic_run(&api, &ids, status, stdout, stderr)
}

pub fn shell(command: &str) -> Block {
    Block::tool(
        "bash",
        json!({"command": command, "description": "run a command"}),
    )
}

/// opencode's `write` (`filePath` absolute, as opencode's own calls are).
pub fn write_file(path: &str, content: &str) -> Block {
    Block::tool("write", json!({"filePath": path, "content": content}))
}

/// opencode's `edit`.
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    Block::tool(
        "edit",
        json!({"filePath": path, "oldString": old, "newString": new}),
    )
}

#[cfg(test)]
mod bed_tests {
    use super::super::copilot::smoke_script;
    use super::*;
    use crate::support::hosts::{assert_smoke_turn, json_lines};

    /// A plugin that logs every hook's arguments as one JSON line, throws on a bash
    /// command containing `DENY`, and appends `CONTEXT` to every bash result.
    fn logging_plugin(dir: &Path, log: &Path) {
        mkdir(dir);
        let body = format!(
            r#"import {{ appendFileSync }} from "node:fs";
const log = (o) => appendFileSync({log:?}, JSON.stringify(o) + "\n");
export const Probe = async (ctx) => ({{
  "tool.execute.before": async (input, output) => {{
    log({{ hook: "before", input, output, directory: ctx.directory, worktree: ctx.worktree }});
    if ((output.args?.command ?? "").includes("DENY")) throw new Error("NOPE from the plugin");
  }},
  "tool.execute.after": async (input, output) => {{
    log({{ hook: "after", input, output }});
    if (input.tool === "bash") output.output += "\nCONTEXT-FROM-PLUGIN";
  }},
  event: async ({{ event }}) => {{
    if (event.type !== "session.idle") return;
    const id = event.properties.sessionID;
    let last = null;
    try {{
      const r = await ctx.client.session.messages({{ path: {{ id }} }});
      const msgs = r.data ?? r;
      for (const m of msgs) if (m.info?.role === "assistant") last = m.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
    }} catch (e) {{ last = "ERROR " + e; }}
    log({{ hook: "idle", event, last }});
  }},
}});
"#,
            log = log.display().to_string()
        );
        fs::write(dir.join("probe.js"), body).unwrap();
    }

    #[test]
    fn opencode_bed_runs_a_scripted_turn_with_a_plugin() {
        let Some(bed) = Bed::new(HostKind::Opencode) else {
            return;
        };
        let log = bed.repo.dir.join("plugin.log");
        logging_plugin(&config_dir(&bed).join("plugins"), &log);
        let run = bed.run("write files", smoke_script(&bed));
        let describe = format!("{}\nlog: {:#?}", run.describe(), json_lines(&log));
        assert_smoke_turn(&bed, &run, &describe);
        let hooks: Vec<String> = json_lines(&log)
            .iter()
            .map(|l| {
                format!(
                    "{} {}",
                    l["hook"].as_str().unwrap_or(""),
                    l["input"]["tool"].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(
            hooks,
            [
                "before bash",
                "after bash",
                "before write",
                "after write",
                "before edit",
                "after edit",
                "idle "
            ],
            "{describe}"
        );
        assert!(
            run.tool_result(0)
                .unwrap_or_default()
                .contains("CONTEXT-FROM-PLUGIN"),
            "{describe}"
        );
        let idle = json_lines(&log).pop().unwrap();
        assert_eq!(idle["last"], "Done: wrote a.txt and b.txt.", "{describe}");
    }

    #[test]
    fn opencode_bed_plugin_throw_reaches_the_model_and_project_plugins_load() {
        let Some(bed) = Bed::new(HostKind::Opencode) else {
            return;
        };
        let log = bed.repo.dir.join("plugin.log");
        logging_plugin(&bed.work.join(".opencode/plugins"), &log);
        let script = vec![
            Step::new(vec![bed.shell("echo DENY > a.txt")]),
            Step::text("Done."),
        ];
        let run = bed.run("write a", script);
        let describe = format!("{}\nlog: {:#?}", run.describe(), json_lines(&log));
        eprintln!("opencode deny: the model was told {:?}", run.tool_result(0));
        assert!(!bed.work.join("a.txt").exists(), "{describe}");
        assert!(
            run.tool_result(0)
                .unwrap_or_default()
                .contains("NOPE from the plugin"),
            "{describe}"
        );
    }
}
