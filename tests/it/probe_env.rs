//! SCRATCH (not committed): which environment carrier of each host reaches its shell tool.
use crate::support::hosts::{Bed, HostKind, Step};
use std::io::Write;

fn append(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

fn probe(host: HostKind) {
    let Some(bed) = Bed::new(host) else { return };
    match host {
        HostKind::Codex => append(&bed.home.join(".codex/config.toml"), "\n[shell_environment_policy]\nset = { DIA_PROBE = \"codex-set\", GIT_CONFIG_COUNT = \"7\" }\n"),
        HostKind::Gemini => append(&bed.home.join(".gemini/.env"), "DIA_PROBE=gemini-env\nGIT_CONFIG_COUNT=7\n"),
        HostKind::Qwen => append(&bed.home.join(".qwen/.env"), "DIA_PROBE=qwen-env\nGIT_CONFIG_COUNT=7\n"),
        HostKind::Opencode => append(&bed.home.join(".config/opencode/plugins/probe.js"), "process.env.DIA_PROBE = 'opencode-plugin'; process.env.GIT_CONFIG_COUNT='7';\nexport const Probe = async () => ({});\n"),
        _ => {}
    }
    let run = bed.run(
        "probe",
        vec![
            Step::new(vec![
                bed.shell("echo probe=$DIA_PROBE; env | grep ^GIT_ | sort")
            ]),
            Step::text("done"),
        ],
    );
    eprintln!(
        "PROBE {}: {:?}\nstderr tail: {}",
        host.name(),
        run.tool_result(0),
        crate::support::hosts::tail(&run.stderr, 400)
    );
}

#[test]
fn codex() {
    probe(HostKind::Codex)
}
#[test]
fn gemini() {
    probe(HostKind::Gemini)
}
#[test]
fn qwen() {
    probe(HostKind::Qwen)
}
#[test]
fn opencode() {
    probe(HostKind::Opencode)
}
