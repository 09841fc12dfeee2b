//! The codex bed: see [`super`]. (Being written.)

use super::{Bed, Block, Run, Step};
use std::ffi::OsString;

pub fn bed() -> Option<Bed> {
    todo!("codex bed")
}

pub fn env(_bed: &Bed) -> Vec<(OsString, OsString)> {
    todo!("codex env")
}

pub fn run(_bed: &Bed, _prompt: &str, _script: Vec<Step>) -> Run {
    todo!("codex run")
}

pub fn shell(_command: &str) -> Block {
    todo!("codex shell")
}

pub fn write_file(_path: &str, _content: &str) -> Block {
    todo!("codex write_file")
}

pub fn edit_file(_path: &str, _old: &str, _new: &str) -> Block {
    todo!("codex edit_file")
}
