//! The copilot bed: see [`super`]. (Being written.)

use super::{Bed, Block, Run, Step};
use std::ffi::OsString;

pub fn bed() -> Option<Bed> {
    todo!("copilot bed")
}

pub fn env(_bed: &Bed) -> Vec<(OsString, OsString)> {
    todo!("copilot env")
}

pub fn run(_bed: &Bed, _prompt: &str, _script: Vec<Step>) -> Run {
    todo!("copilot run")
}

pub fn shell(_command: &str) -> Block {
    todo!("copilot shell")
}

pub fn write_file(_path: &str, _content: &str) -> Block {
    todo!("copilot write_file")
}

pub fn edit_file(_path: &str, _old: &str, _new: &str) -> Block {
    todo!("copilot edit_file")
}
