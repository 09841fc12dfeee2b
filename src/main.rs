//! `did-it-actually`: one multicall binary for every hook and subcommand.
//! All logic lives in the library; this file only hands over the process.

fn main() -> std::process::ExitCode {
    did_it_actually::cli::main()
}
