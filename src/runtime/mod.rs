//! The run-time layer: what is decided at the point of effect, by git itself, for every
//! git process the agent starts, whoever starts it (a script it wrote, a build recipe, an
//! interpreter, git under another name). The static layer (the PreToolUse hooks) reads a
//! command before it runs and cannot know everything it will start or compute; this
//! layer sees the ref changes themselves.
//!
//! - [`activation`]: how the layer is switched on for the agent's commands only (the
//!   host's environment settings), the hook scripts and the configuration it installs,
//!   and how the static layer knows it is active.
//! - [`refs`]: the decisions, pure (the same policy and words as the static layer).
//! - [`hook`]: the process git runs (`did-it-actually git-hook NAME`): decide, record,
//!   hand over to the repository's own hooks.
//! - [`confine`]: the run-time layer for writes: the shell prefix every command of the
//!   agent's shell tool runs through, confined by the kernel (Landlock) to where the
//!   policy lets the agent write.
//! - [`protect`]: inside those places, the guard's own files read-only in the view of
//!   the file system the agent's commands get.
//! - [`run`]: both layers around an agent's whole process tree (`did-it-actually run --
//!   AGENT`), for agents whose host carries neither.
//! - [`sentinel`]: what no kernel rule can keep (a guarded path created where none was,
//!   a protected branch moved without git's hooks, a key that plants code for the user's
//!   own git), looked at before and after each command, put back and reported.
//! - [`surfaces`]: the one table of what the guard protects of itself, why, by which
//!   layer, and how the user changes it.

pub mod activation;
pub mod confine;
pub mod hook;
pub mod protect;
pub mod refs;
pub mod run;
pub mod sentinel;
pub mod surfaces;
