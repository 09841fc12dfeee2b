//! The gemini bed: see [`super`]. (Being written.)

use super::{Bed, Block, Run, Step};
use std::ffi::OsString;

pub fn bed() -> Option<Bed> {
    todo!("gemini bed")
}

pub fn env(_bed: &Bed) -> Vec<(OsString, OsString)> {
    todo!("gemini env")
}

pub fn run(_bed: &Bed, _prompt: &str, _script: Vec<Step>) -> Run {
    todo!("gemini run")
}

pub fn shell(_command: &str) -> Block {
    todo!("gemini shell")
}

pub fn write_file(_path: &str, _content: &str) -> Block {
    todo!("gemini write_file")
}

pub fn edit_file(_path: &str, _old: &str, _new: &str) -> Block {
    todo!("gemini edit_file")
}
