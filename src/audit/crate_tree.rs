//! Which Rust source files a cargo build compiles: the crate roots cargo finds by itself
//! (`src/lib.rs`, `src/main.rs`, `src/bin/`, one integration test per `tests/*.rs` or
//! `tests/*/main.rs`, `examples/`, `benches/`, `build.rs`) and the module files a `mod`
//! line reaches from them. A test in a file no `mod` line reaches (`src/parse.rs` without
//! `mod parse;` in `src/lib.rs`, `tests/api/limits.rs` without a `tests/api.rs` that says
//! `mod limits;`) is never compiled, so `cargo test` never ran it.
//!
//! Read from the files as the turn left them; a `#[path]` attribute or a `[[test]]` or
//! `[lib]` path in `Cargo.toml` puts a file where this reading does not look, so then
//! nothing is said.

use std::path::{Path, PathBuf};

/// How deep a chain of modules is followed before giving up.
const DEPTH: usize = 8;

/// Whether cargo compiles `file` (relative to the package `root`): `Some(false)` only when
/// no crate root or `mod` line reaches it and nothing in the package could place it
/// elsewhere; `None` when that cannot be told.
pub fn compiled(root: &Path, file: &Path) -> Option<bool> {
    if file.extension().is_none_or(|e| e != "rs") || !root.join("Cargo.toml").is_file() {
        return None;
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    // A target with a path of its own may be any file.
    if manifest.contains("path") && manifest.contains(".rs") {
        return None;
    }
    reached(root, file, 0)
}

fn reached(root: &Path, file: &Path, depth: usize) -> Option<bool> {
    if depth > DEPTH {
        return None;
    }
    if is_crate_root(file) {
        return Some(true);
    }
    let dir = file.parent()?;
    // `a/b.rs` and `a/b/mod.rs` are both the module `b` of `a`.
    let (module_dir, name) = if file.file_name()? == "mod.rs" {
        (dir.parent()?, dir.file_name()?.to_str()?)
    } else {
        (dir, file.file_stem()?.to_str()?)
    };
    let parents = parent_files(root, module_dir)?;
    let mut unknown = false;
    for parent in parents {
        let Ok(text) = std::fs::read_to_string(root.join(&parent)) else {
            continue;
        };
        if text.contains("#[path") {
            return None;
        }
        if declares(&text, name) {
            match reached(root, &parent, depth + 1) {
                Some(true) => return Some(true),
                None => unknown = true,
                Some(false) => {}
            }
        }
    }
    if unknown {
        None
    } else {
        Some(false)
    }
}

/// The files cargo builds as crates of their own, by where they stand.
fn is_crate_root(file: &Path) -> bool {
    let parts: Vec<&str> = file.iter().filter_map(|p| p.to_str()).collect();
    matches!(
        parts.as_slice(),
        ["src", "lib.rs" | "main.rs"]
            | ["build.rs"]
            | ["src", "bin", _]
            | ["src", "bin", _, "main.rs"]
            | ["tests" | "examples" | "benches", _]
            | ["tests" | "examples" | "benches", _, "main.rs"]
    )
}

/// The files that may declare the modules of `dir` (relative to `root`): `dir.rs` and
/// `dir/mod.rs` (a module's own file), `src/lib.rs` and `src/main.rs` for `src`, and for
/// `tests` each integration test's root. `None` when the folder is one this reading does
/// not follow (`src/bin`, `examples`).
fn parent_files(root: &Path, dir: &Path) -> Option<Vec<PathBuf>> {
    let parts: Vec<&str> = dir.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        ["src"] => Some(vec!["src/lib.rs".into(), "src/main.rs".into()]),
        ["tests"] => {
            let mut roots: Vec<PathBuf> = std::fs::read_dir(root.join("tests"))
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_path_buf))
                .collect();
            roots.sort();
            Some(roots)
        }
        ["src" | "tests", ..] => Some(vec![dir.with_extension("rs"), dir.join("mod.rs")]),
        _ => None,
    }
}

/// Whether `text` declares the module `name` (`mod name;`, `pub mod name;`, `pub(crate)
/// mod name {`), outside a line comment.
fn declares(text: &str, name: &str) -> bool {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .any(|l| {
            let words: Vec<&str> = l
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            words.windows(2).any(|w| w[0] == "mod" && w[1] == name)
        })
}

/// The library crates of a workspace's member packages (`members = ["crates/units"]`,
/// globs ending in `/*` read from the folder), by the name cargo gives their test binary
/// and doc tests (`units`, `my_lib` for `my-lib`): only members with a `src/lib.rs` or
/// `src/main.rs`, whose unit tests run as `deps/<name>-…`. Empty outside a workspace.
pub fn workspace_members(root: &Path) -> Vec<String> {
    let Ok(manifest) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return Vec::new();
    };
    let Some(list) = manifest
        .find("members")
        .and_then(|at| manifest[at..].split_once('[').map(|(_, rest)| rest))
        .and_then(|rest| rest.split_once(']').map(|(list, _)| list))
    else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = Vec::new();
    for quoted in list.split(',').map(|m| m.trim().trim_matches('"')) {
        match quoted.strip_suffix("/*") {
            Some(parent) => dirs.extend(
                std::fs::read_dir(root.join(parent))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            ),
            None if !quoted.is_empty() && !quoted.contains(['*', '?', '[']) => {
                dirs.push(root.join(quoted))
            }
            None => {}
        }
    }
    let mut names: Vec<String> = dirs
        .iter()
        .filter(|d| d.join("src/lib.rs").is_file() || d.join("src/main.rs").is_file())
        .filter_map(|d| package_name(&std::fs::read_to_string(d.join("Cargo.toml")).ok()?))
        .map(|n| n.replace('-', "_"))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The `name = "…"` of a manifest's `[package]` table.
fn package_name(manifest: &str) -> Option<String> {
    let package = manifest.split("[package]").nth(1)?;
    let table = package.split("\n[").next()?;
    table.lines().find_map(|l| {
        let (key, value) = l.split_once('=')?;
        (key.trim() == "name").then(|| value.trim().trim_matches('"').to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch package, removed when dropped.
    struct Package(PathBuf);

    impl Package {
        fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Package {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn package(files: &[(&str, &str)]) -> Package {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "dia-crate-tree-{}-{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Package(dir)
    }

    #[test]
    fn a_module_no_mod_line_reaches_is_not_compiled() {
        let p = package(&[
            ("src/lib.rs", "pub fn add() {}\n// mod parse;\n"),
            ("src/parse.rs", "#[test] fn parses_pair() {}"),
            ("src/util/mod.rs", "mod deep;"),
            ("src/util/deep.rs", ""),
        ]);
        let c = |f: &str| compiled(p.path(), Path::new(f));
        assert_eq!(c("src/parse.rs"), Some(false));
        assert_eq!(c("src/lib.rs"), Some(true));
        assert_eq!(c("src/util/deep.rs"), Some(false), "util is not declared");
        std::fs::write(p.path().join("src/lib.rs"), "pub mod parse;\nmod util;\n").unwrap();
        assert_eq!(c("src/parse.rs"), Some(true));
        assert_eq!(c("src/util/deep.rs"), Some(true));
    }

    #[test]
    fn an_integration_tests_subfolder_needs_a_mod_line() {
        let p = package(&[
            ("src/lib.rs", ""),
            ("tests/integration.rs", "#[test] fn t() {}"),
            ("tests/api/limits.rs", "#[test] fn clamps_above() {}"),
        ]);
        let c = |f: &str| compiled(p.path(), Path::new(f));
        assert_eq!(c("tests/integration.rs"), Some(true));
        assert_eq!(c("tests/api/limits.rs"), Some(false));
        std::fs::write(p.path().join("tests/api.rs"), "mod limits;").unwrap();
        assert_eq!(c("tests/api/limits.rs"), Some(true));
    }

    #[test]
    fn workspace_members_are_read_by_their_crate_names() {
        let p = package(&[
            ("src/lib.rs", ""),
            (
                "crates/units/Cargo.toml",
                "[package]\nname = \"units\"\nversion = \"0.1.0\"\n",
            ),
            ("crates/units/src/lib.rs", ""),
            (
                "crates/my-fmt/Cargo.toml",
                "[package]\nname = \"my-fmt\"\n[dependencies]\nname = \"x\"\n",
            ),
            ("crates/my-fmt/src/main.rs", ""),
            (
                "crates/only-tests/Cargo.toml",
                "[package]\nname = \"only-tests\"\n",
            ),
            ("tools/gen/Cargo.toml", "[package]\nname = \"gen\"\n"),
            ("tools/gen/src/lib.rs", ""),
        ]);
        let manifest = "[package]\nname = \"p\"\n[workspace]\nmembers = [\n  \"crates/*\",\n  \"tools/gen\",\n]\n";
        std::fs::write(p.path().join("Cargo.toml"), manifest).unwrap();
        assert_eq!(workspace_members(p.path()), ["gen", "my_fmt", "units"]);
        std::fs::write(p.path().join("Cargo.toml"), "[package]\nname = \"p\"\n").unwrap();
        assert!(workspace_members(p.path()).is_empty());
    }

    #[test]
    fn a_path_attribute_or_a_target_path_leaves_it_unknown() {
        let p = package(&[
            ("src/lib.rs", "#[path = \"other/parse.rs\"]\nmod parse;"),
            ("src/parse.rs", ""),
        ]);
        assert_eq!(compiled(p.path(), Path::new("src/parse.rs")), None);
        let p = package(&[("src/lib.rs", ""), ("tests/api/limits.rs", "")]);
        std::fs::write(
            p.path().join("Cargo.toml"),
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\n[[test]]\nname = \"limits\"\npath = \"tests/api/limits.rs\"\n",
        )
        .unwrap();
        assert_eq!(compiled(p.path(), Path::new("tests/api/limits.rs")), None);
    }
}
