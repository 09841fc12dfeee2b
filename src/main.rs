//! `did-it-actually`: one multicall binary for every hook and subcommand.
//! All logic lives in the library; this file only hands over the process.
//!
//! The C `main` is ours (`no_main`): the host starts this binary once per tool call, and
//! Rust's runtime start-up (finding the main thread's stack guard by reading
//! `/proc/self/maps`, installing the stack-overflow signal handlers on an alternate
//! stack) is about 15 system calls and 0.1 ms of every call that nothing here needs.
//! [`did_it_actually::cli::process_main`] does what of it matters: the standard
//! descriptors open, SIGPIPE ignored, stdout flushed, no panic out of `main`.
// (Not for `cargo test`, whose harness brings its own `main`.)
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    did_it_actually::cli::process_main()
}
