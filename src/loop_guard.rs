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
}

/// What the guard allows.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// Block, as block number `n` (1-based) of this turn.
    Block(u32),
    /// The cap is reached: let the stop through (and say why).
    CapReached(u32),
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

    /// Counts a block for the turn, unless `max` blocks already happened in a row.
    pub fn block(&self, prompt_id: &str, agent: &str, max: u32) -> Result<Decision, StoreError> {
        self.update(|state| {
            let entry = match state
                .entries
                .iter_mut()
                .position(|e| e.prompt_id == prompt_id && e.agent == agent)
            {
                Some(i) => &mut state.entries[i],
                None => {
                    // A new turn for this agent: the old turns' counters are done.
                    state.entries.retain(|e| e.agent != agent);
                    state.entries.push(Entry {
                        prompt_id: prompt_id.to_owned(),
                        agent: agent.to_owned(),
                        blocks: 0,
                    });
                    state.entries.last_mut().expect("just pushed")
                }
            };
            if entry.blocks >= max {
                let n = entry.blocks;
                entry.blocks = 0;
                Decision::CapReached(n)
            } else {
                entry.blocks += 1;
                Decision::Block(entry.blocks)
            }
        })
    }

    /// A clean stop: the counter starts over. Most stops have no counter to reset, and
    /// then nothing is locked or written (an agent's stops do not race each other).
    pub fn reset(&self, prompt_id: &str, agent: &str) -> Result<(), StoreError> {
        if self.count(prompt_id, agent) == 0 {
            return Ok(());
        }
        self.update(|state| {
            state
                .entries
                .retain(|e| !(e.prompt_id == prompt_id && e.agent == agent))
        })
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

    #[test]
    fn blocks_up_to_the_cap_then_lets_through() {
        let (g, root) = guard("cap");
        assert_eq!(g.block("p", "main", 3).unwrap(), Decision::Block(1));
        assert_eq!(g.block("p", "main", 3).unwrap(), Decision::Block(2));
        assert_eq!(g.block("p", "main", 3).unwrap(), Decision::Block(3));
        assert_eq!(g.block("p", "main", 3).unwrap(), Decision::CapReached(3));
        // A clean audit and a new prompt both start over.
        g.block("p", "main", 3).unwrap();
        g.reset("p", "main").unwrap();
        assert_eq!(g.count("p", "main"), 0);
        g.block("p", "main", 3).unwrap();
        assert_eq!(g.block("p2", "main", 3).unwrap(), Decision::Block(1));
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
                    g.block("p", agent, 7).unwrap();
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
