//! The integration tests: the binary as a user runs it, in one test binary (one link of
//! libgit2 and the crate, instead of one per file). Each module is one area; `support`
//! holds the scratch repositories, fixtures, the mock model API, the real clients'
//! sessions and the execution oracle they share.
//!
//! Run one area with `cargo test --test it <module>::`, e.g. `cargo test --test it
//! oracle_generator::`.

#[macro_use]
mod support;

mod bench_checks;
mod branch_bad_input;
mod branch_corpus;
mod branch_danger;
mod claims_corpus;
mod cli;
mod concurrency;
mod confine_corpus;
mod doctor;
mod e2e_audit_turn;
mod e2e_block_wrong_branch;
mod e2e_confine;
mod e2e_hosts;
mod e2e_install;
mod e2e_managed;
mod e2e_npm;
mod e2e_plugin;
mod e2e_run;
mod e2e_run_unhooked;
mod e2e_runtime;
mod e2e_scope_guard;
mod e2e_sdk;
mod e2e_smoke;
mod e2e_verify_write;
mod export;
mod fault_matrix;
mod fixtures;
mod host_fixtures;
mod install_all;
mod install_script;
mod oracle;
mod oracle_generator;
mod oracle_relabel;
mod paths;
mod property;
mod receipt;
mod report_cmd;
mod run_cmd;
mod run_time_writes;
mod runtime_corpus;
mod runtime_git;
mod scope_corpus;
mod settings_merge;
mod tamper_corpus;
mod team;
mod transcript;
mod turn_corpus;
mod words;
