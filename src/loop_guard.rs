//! The loop guard: consecutive stop blocks per session, turn and agent, kept in the store
//! (hosts have sent `stop_hook_active` wrong; the counter is ours). Every stop path goes
//! through it, so no hook keeps an agent from stopping forever.
//!
//! The counter file is read and rewritten under an exclusive lock on a lock file beside
//! it, so a Stop and a SubagentStop of the same session at once cannot lose an update.

use crate::store::{SessionStore, StoreError};
use serde::{Deserialize, Serialize};
use std::fs::{self, OpenOptions};
use std::path::PathBuf;

const STATE_FILE: &str = "stop-blocks.json";
const LOCK_FILE: &str = "stop-blocks.lock";

#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    /// (turn, agent) -> consecutive blocks.
    entries: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    prompt_id: String,
    agent: String,
    blocks: u32,
    /// The final message of the last blocked stop (a host that sends every answer of the
    /// turn in its next stop's message, Gemini's `prompt_response`, repeats it there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// What the guard allows.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// Block, as block number `n` (1-based) of this turn.
    Block(u32),
    /// The cap is reached: let the stop through (and say why).
    CapReached(u32),
}

/// What a stop does to its turn's counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// One more block in a row.
    Block,
    /// The count starts over: a clean stop, or the cap reached.
    Reset,
}

/// Whether a stop with unbacked claims may be blocked, after `so_far` blocks in a row,
/// and what that does to the counter. Pure: the hook decides, the runner applies.
pub fn decide(so_far: u32, max: u32) -> (Decision, Count) {
    if so_far >= max {
        (Decision::CapReached(so_far), Count::Reset)
    } else {
        (Decision::Block(so_far + 1), Count::Block)
    }
}

pub struct LoopGuard {
    dir: PathBuf,
}

impl LoopGuard {
    pub fn new(store: &SessionStore) -> LoopGuard {
        LoopGuard {
            dir: store.dir().to_owned(),
        }
    }

    /// Applies what a stop did to the turn's counter, under the lock.
    pub fn apply(
        &self,
        prompt_id: &str,
        agent: &str,
        count: Count,
        message: Option<&str>,
    ) -> Result<(), StoreError> {
        match count {
            Count::Block => self.update(|state| {
                match state
                    .entries
                    .iter_mut()
                    .find(|e| e.prompt_id == prompt_id && e.agent == agent)
                {
                    Some(entry) => {
                        entry.blocks += 1;
                        entry.message = message.map(str::to_owned);
                    }
                    None => {
                        // A new turn for this agent: the old turns' counters are done.
                        state.entries.retain(|e| e.agent != agent);
                        state.entries.push(Entry {
                            prompt_id: prompt_id.to_owned(),
                            agent: agent.to_owned(),
                            blocks: 1,
                            message: message.map(str::to_owned),
                        });
                    }
                }
            }),
            // Most stops have no counter to reset, and then nothing is locked or written
            // (an agent's stops do not race each other).
            Count::Reset if self.count(prompt_id, agent) == 0 => Ok(()),
            Count::Reset => self.update(|state| {
                state
                    .entries
                    .retain(|e| !(e.prompt_id == prompt_id && e.agent == agent))
            }),
        }
    }

    /// The final message of the turn's last blocked stop.
    pub fn blocked_message(&self, prompt_id: &str, agent: &str) -> Option<String> {
        self.read()
            .entries
            .into_iter()
            .find(|e| e.prompt_id == prompt_id && e.agent == agent)
            .and_then(|e| e.message)
    }

    /// The consecutive blocks so far.
    pub fn count(&self, prompt_id: &str, agent: &str) -> u32 {
        self.read()
            .entries
            .iter()
            .find(|e| e.prompt_id == prompt_id && e.agent == agent)
            .map_or(0, |e| e.blocks)
    }

    fn read(&self) -> State {
        crate::fsutil::read_regular(&self.dir.join(STATE_FILE), 1024 * 1024)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn update<T>(&self, f: impl FnOnce(&mut State) -> T) -> Result<T, StoreError> {
        let io = |action: &'static str, path: PathBuf| {
            move |source| StoreError::Io {
                path,
                action,
                source,
            }
        };
        fs::create_dir_all(&self.dir)
            .map_err(io("create the state directory", self.dir.clone()))?;
        let lock_path = self.dir.join(LOCK_FILE);
        let lock = crate::fsutil::open_checked(
            &lock_path,
            OpenOptions::new().create(true).truncate(false).write(true),
        )
        .map_err(io("open", lock_path.clone()))?;
        lock.lock().map_err(io("lock", lock_path))?;
        let mut state = self.read();
        let out = f(&mut state);
        let path = self.dir.join(STATE_FILE);
        let bytes = serde_json::to_vec(&state).expect("the state serializes");
        crate::fsutil::write_atomically(&path, &bytes).map_err(io("write", path))?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SessionId;

    fn guard(name: &str) -> (LoopGuard, PathBuf) {
        let root = std::env::temp_dir().join(format!("dia-guard-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let store = SessionStore::new(&root, &SessionId::parse("s").unwrap());
        (LoopGuard::new(&store), root)
    }

    /// A stop with unbacked claims, as the hook and the runner take it.
    fn block(g: &LoopGuard, prompt: &str, agent: &str, max: u32) -> Decision {
        let (decision, count) = decide(g.count(prompt, agent), max);
        g.apply(prompt, agent, count, None).unwrap();
        decision
    }

    #[test]
    fn blocks_up_to_the_cap_then_lets_through() {
        let (g, root) = guard("cap");
        assert_eq!(block(&g, "p", "main", 3), Decision::Block(1));
        assert_eq!(block(&g, "p", "main", 3), Decision::Block(2));
        assert_eq!(block(&g, "p", "main", 3), Decision::Block(3));
        assert_eq!(block(&g, "p", "main", 3), Decision::CapReached(3));
        // The cap starts over, as do a clean audit and a new prompt.
        assert_eq!(block(&g, "p", "main", 3), Decision::Block(1));
        g.apply("p", "main", Count::Reset, None).unwrap();
        assert_eq!(g.count("p", "main"), 0);
        block(&g, "p", "main", 3);
        assert_eq!(block(&g, "p2", "main", 3), Decision::Block(1));
        assert_eq!(g.count("p", "main"), 0);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn concurrent_agents_do_not_lose_counts() {
        let (g, root) = guard("concurrent");
        let dir = g.dir.clone();
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let dir = dir.clone();
                std::thread::spawn(move || {
                    let g = LoopGuard { dir };
                    let agent = if i % 2 == 0 { "main" } else { "sub" };
                    g.apply("p", agent, Count::Block, None).unwrap();
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!((g.count("p", "main"), g.count("p", "sub")), (4, 4));
        fs::remove_dir_all(&root).unwrap();
    }
}
