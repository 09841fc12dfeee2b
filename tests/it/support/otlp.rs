//! A real OTLP/HTTP receiver for the export tests: `tests/support/otlp_receiver.py`, built
//! on the official protobuf definitions (PyPI `opentelemetry-proto`, pinned in
//! `tests/support/otlp-receiver.sh`). The OpenTelemetry Collector itself cannot be
//! installed from the registries this project reaches (it ships as Go binaries and
//! container images), so this is the receiver, and it decodes every request with the
//! official generated code: a malformed body is a 400, as the Collector would answer.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub struct Receiver {
    child: Child,
    pub port: u16,
    out: PathBuf,
}

impl Receiver {
    /// Starts one on a free port in `mode` (`ok`, `error:503`, `slow:2`, ...), recording
    /// into `dir/received.jsonl`.
    pub fn start(dir: &Path, mode: &str) -> Receiver {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/otlp-receiver.sh");
        let out = dir.join(format!("received-{}.jsonl", std::process::id()));
        let mut child = Command::new(script)
            .args(["--port", "0", "--mode", mode, "--out"])
            .arg(&out)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tests/support/otlp-receiver.sh");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .strip_prefix("PORT ")
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or_else(|| panic!("the receiver did not start: {line:?}"));
        Receiver { child, port, out }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every log record received, in order.
    pub fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.out)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// Switches the mode of the running receiver.
    pub fn set_mode(&self, mode: &str) {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "POST /control/mode HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{mode}",
            mode.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        assert!(
            answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200"),
            "{answer}"
        );
    }

    /// Waits up to `secs` for at least `n` records.
    pub fn wait_for(&self, n: usize, secs: u64) -> Vec<Value> {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let got = self.records();
            if got.len() >= n || std::time::Instant::now() > until {
                return got;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
