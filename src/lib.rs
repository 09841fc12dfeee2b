//! did-it-actually checks what an AI coding agent did and says against the disk and git.
//!
//! Data flows one way: host bytes ([`protocol`]) -> typed input -> a hook in [`hooks`]
//! (a function from input and [`hooks::Context`] to a [`protocol::Response`]) -> host bytes.
//! The shared services ([`policy`], [`store`], [`tools`]) sit beside the hooks.

/// The binary's name: what the installer links and registers, and what the guards
/// recognise as their own program in a command.
pub const BINARY_NAME: &str = "did-it-actually";

pub mod approval;
pub mod args;
pub mod argv;
pub mod audit;
pub mod cli;
pub mod commands;
pub mod diff;
pub mod doctor;
pub mod export;
pub mod fsutil;
pub mod git;
pub mod hooks;
pub mod install;
pub mod json;
pub mod loop_guard;
pub mod loops;
pub mod policy;
pub mod protocol;
pub mod runner;
pub mod runtime;
pub mod scope;
pub mod shell;
pub mod state;
pub mod store;
pub mod time;
pub mod tools;
pub mod transcript;
pub mod words;
