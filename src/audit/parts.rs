//! The parts of a project (npm workspaces, cargo workspace members, any folder with a
//! manifest of its own) and which of them a run selects (`npm test -w packages/core`,
//! `cargo test -p calc`, `cargo test --workspace --exclude report`, `pytest libs/textkit`).
//! A write inside a part that the run did not select, and that no selected part depends
//! on, is nothing that run could see: it makes the run no less fresh.
//!
//! Read from the manifests as the turn left them; a dependency is read as the manifest
//! naming the other part (its package name or its folder), which may say too much (a
//! name in a comment) but never too little, so a write is left out only when no
//! manifest of a selected part leads to its part.

use std::path::{Path, PathBuf};

/// The manifests that make a folder a part of its own.
const MANIFESTS: &[&str] = &[
    "package.json",
    "Cargo.toml",
    "pyproject.toml",
    "setup.py",
    "go.mod",
];

/// How many parts a chain of dependencies is followed through.
const DEPTH: usize = 16;

/// The part of the project a path is in: the nearest folder below the root, holding the
/// path, with a manifest. `None` for a path in no part (the root's own files).
pub fn part_of(root: &Path, path: &Path) -> Option<PathBuf> {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) {
            return None;
        }
        if MANIFESTS.iter().any(|m| d.join(m).is_file()) {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// The parts a run selects, when it selects some and not the whole project: `None` for a
/// run of everything, or one whose selection cannot be read.
pub fn selected(argv: &[String], cwd: &Path, root: &Path) -> Option<Vec<PathBuf>> {
    let program = argv.first()?.rsplit('/').next()?;
    let parts = match program {
        "npm" | "pnpm" | "yarn" => node_workspaces(argv, cwd, root)?,
        "cargo" => cargo_packages(argv, root)?,
        _ => selected_by_paths(argv, cwd, root)?,
    };
    (!parts.is_empty()).then_some(parts)
}

/// Whether a write to `path` is nothing a run of the parts `selected` could see: it is in a
/// part that is none of them, and none of them depends on it.
pub fn outside(selected: &[PathBuf], path: &Path, root: &Path) -> bool {
    let Some(part) = part_of(root, path) else {
        return false;
    };
    // The root package selected is its own files, not every part below it.
    if selected
        .iter()
        .any(|s| *s == part || s != root && (part.starts_with(s) || s.starts_with(&part)))
    {
        return false;
    }
    !selected.iter().any(|s| depends_on(s, &part, root))
}

/// Whether the part `from` depends on the part `to`, directly or through other parts: a
/// manifest on the way names `to` by its package name or its folder.
fn depends_on(from: &Path, to: &Path, root: &Path) -> bool {
    let names = names_of(to);
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut pending = vec![from.to_path_buf()];
    let all = all_parts(root);
    while let Some(part) = pending.pop() {
        if seen.contains(&part) || seen.len() > DEPTH {
            continue;
        }
        let text = manifests_text(&part);
        if names.iter().any(|n| mentions(&text, n)) {
            return true;
        }
        // The parts this one names lead further.
        for other in &all {
            if *other != part
                && !seen.contains(other)
                && names_of(other).iter().any(|n| mentions(&text, n))
            {
                pending.push(other.clone());
            }
        }
        seen.push(part);
    }
    false
}

/// Whether a manifest's text names `name` as a whole word (`"@shop/core"`, `units = {`,
/// `path = "../units"`).
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        let edge =
            |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
        edge(before) && edge(after)
    })
}

/// The names a part goes by: its folder's name and its manifests' package names.
pub fn names_of(part: &Path) -> Vec<String> {
    let mut names: Vec<String> = part
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .into_iter()
        .collect();
    for m in MANIFESTS {
        if let Ok(text) = std::fs::read_to_string(part.join(m)) {
            names.extend(package_name(m, &text));
        }
    }
    names.retain(|n| n.len() > 1);
    names.sort();
    names.dedup();
    names
}

/// The package name a manifest gives (`"name": "@shop/core"`, `name = "units"`).
fn package_name(manifest: &str, text: &str) -> Option<String> {
    if manifest == "package.json" {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        return value.get("name")?.as_str().map(str::to_owned);
    }
    text.lines().find_map(|l| {
        let (key, value) = l.split_once('=')?;
        (key.trim() == "name").then(|| value.trim().trim_matches(['"', '\'']).to_owned())
    })
}

/// What a part's manifests say it depends on, as one text: a `package.json`'s dependency
/// tables, the rest of the others, but a Cargo `[workspace]` table (its members are no
/// dependencies).
fn manifests_text(part: &Path) -> String {
    let mut out = String::new();
    for m in MANIFESTS {
        let Ok(text) = std::fs::read_to_string(part.join(m)) else {
            continue;
        };
        if *m == "package.json" {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
                out.push_str(&text);
                continue;
            };
            for table in [
                "dependencies",
                "devDependencies",
                "peerDependencies",
                "optionalDependencies",
            ] {
                if let Some(deps) = value.get(table).and_then(|d| d.as_object()) {
                    for (name, spec) in deps {
                        out.push_str(&format!("{name} {spec}\n"));
                    }
                }
            }
        } else {
            let mut in_workspace = false;
            for line in text.lines() {
                let t = line.trim_start();
                if t.starts_with('[') {
                    in_workspace = t.starts_with("[workspace");
                }
                if !in_workspace {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// Every part of the project two folders deep (`packages/core`, `crates/units`, `libs/a`)
/// or one (`core`): a folder with a manifest, or a Python package's root. (A write's part,
/// [`part_of`], is by manifest only: Python parts may import each other with nothing to
/// say so.)
pub fn all_parts(root: &Path) -> Vec<PathBuf> {
    let mut parts = Vec::new();
    let children = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .filter(|p| {
                p.file_name().is_some_and(|n| {
                    !n.to_string_lossy().starts_with('.') && n != "node_modules" && n != "target"
                })
            })
            .take(200)
            .collect()
    };
    for d in children(root) {
        if is_part(&d) {
            parts.push(d.clone());
        }
        for e in children(&d) {
            if is_part(&e) {
                parts.push(e);
            }
        }
    }
    parts
}

/// Whether a folder is a part by its own manifest, or a Python package's root without one
/// (`libs/textkit` holding `textkit/__init__.py`, put on the path by the project's config).
fn is_part(dir: &Path) -> bool {
    MANIFESTS.iter().any(|m| dir.join(m).is_file())
        || dir
            .file_name()
            .is_some_and(|n| dir.join(n).join("__init__.py").is_file())
}

/// The workspaces an npm, pnpm or yarn run selects (`-w packages/core`, `--workspace=api`,
/// `--filter web`, `yarn workspace core test`): `None` for `--workspaces`, or none named.
fn node_workspaces(argv: &[String], cwd: &Path, root: &Path) -> Option<Vec<PathBuf>> {
    let mut named: Vec<&str> = Vec::new();
    let mut args = argv.iter().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--workspaces" | "-ws" | "--recursive" | "-r" => return None,
            "-w" | "--workspace" | "--filter" | "-F" => named.push(args.next()?),
            "workspace" if argv[0].ends_with("yarn") => named.push(args.next()?),
            _ => {
                if let Some(v) = a
                    .strip_prefix("--workspace=")
                    .or_else(|| a.strip_prefix("--filter="))
                {
                    named.push(v);
                }
            }
        }
    }
    if named.is_empty() {
        return None;
    }
    named.iter().map(|n| part_named(n, cwd, root)).collect()
}

/// The packages a cargo run selects (`-p calc -p report`, `--workspace --exclude report`):
/// `None` for a run of the whole workspace, or of the package its folder holds.
fn cargo_packages(argv: &[String], root: &Path) -> Option<Vec<PathBuf>> {
    let args = super::named::cargo_args(argv);
    let mut packages: Vec<&str> = Vec::new();
    let mut excluded: Vec<&str> = Vec::new();
    let mut workspace = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match *a {
            "-p" | "--package" => packages.push(it.next()?),
            "--exclude" => excluded.push(it.next()?),
            "--workspace" | "--all" => workspace = true,
            _ => {
                if let Some(v) = a
                    .strip_prefix("--package=")
                    .or_else(|| a.strip_prefix("-p"))
                {
                    if !v.is_empty() {
                        packages.push(v);
                    }
                } else if let Some(v) = a.strip_prefix("--exclude=") {
                    excluded.push(v);
                }
            }
        }
    }
    // Neither packages named nor a workspace less some: the whole, or the folder's own.
    let some_excluded = workspace && !excluded.is_empty();
    if packages.is_empty() && !some_excluded {
        return None;
    }
    let members = cargo_members(root);
    let by_name = |name: &str| {
        members
            .iter()
            .find(|(n, _)| n == name || n.replace('-', "_") == name.replace('-', "_"))
            .map(|(_, d)| d.clone())
    };
    if !packages.is_empty() {
        return packages.iter().map(|p| by_name(p)).collect();
    }
    if some_excluded {
        let out: Vec<&str> = excluded.clone();
        return Some(
            members
                .iter()
                .filter(|(n, _)| !out.contains(&n.as_str()))
                .map(|(_, d)| d.clone())
                .collect(),
        );
    }
    None
}

/// A cargo workspace's packages by name, with their folders (the root package too).
fn cargo_members(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    if let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) {
        if let Some(name) = cargo_package_name(&text) {
            out.push((name, root.to_path_buf()));
        }
    }
    for part in all_parts(root) {
        if let Ok(text) = std::fs::read_to_string(part.join("Cargo.toml")) {
            if let Some(name) = cargo_package_name(&text) {
                out.push((name, part));
            }
        }
    }
    out
}

/// The `name` of a manifest's `[package]` table.
fn cargo_package_name(text: &str) -> Option<String> {
    let package = text.split("[package]").nth(1)?;
    let table = package.split("\n[").next()?;
    table.lines().find_map(|l| {
        let (key, value) = l.split_once('=')?;
        (key.trim() == "name").then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The parts a test runner's path arguments select (`pytest libs/textkit`, `jest
/// packages/core packages/api`): each path's part; `None` when a path is in none.
fn selected_by_paths(argv: &[String], cwd: &Path, root: &Path) -> Option<Vec<PathBuf>> {
    let runner = super::summary::runner_of(argv);
    if runner == super::summary::Runner::Other {
        return None;
    }
    let paths = super::named::selection_paths(runner, argv);
    if paths.is_empty() {
        return None;
    }
    let mut parts: Vec<PathBuf> = paths
        .iter()
        .map(|p| {
            let path = cwd.join(p);
            // A path that is a part itself, or in one.
            if MANIFESTS.iter().any(|m| path.join(m).is_file()) && path != root {
                Some(path)
            } else {
                part_of(root, &path)
            }
        })
        .collect::<Option<_>>()?;
    parts.sort();
    parts.dedup();
    Some(parts)
}

/// The part a workspace argument names: a folder (`packages/core`), or a part whose folder
/// or package name it is (`core`, `@shop/core`).
fn part_named(name: &str, cwd: &Path, root: &Path) -> Option<PathBuf> {
    let as_dir = cwd.join(name);
    if as_dir.is_dir() && as_dir != root {
        return Some(as_dir);
    }
    all_parts(root)
        .into_iter()
        .find(|p| names_of(p).iter().any(|n| n == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch project, removed when dropped.
    struct Project(PathBuf);

    impl Drop for Project {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn project(files: &[(&str, &str)]) -> Project {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "dia-parts-{}-{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Project(dir)
    }

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_write_in_a_part_the_run_did_not_select_and_does_not_depend_on_is_outside() {
        let p = project(&[
            (
                "package.json",
                r#"{"name":"shop","workspaces":["packages/*"]}"#,
            ),
            ("packages/core/package.json", r#"{"name":"@shop/core"}"#),
            (
                "packages/api/package.json",
                r#"{"name":"@shop/api","dependencies":{"@shop/core":"*"}}"#,
            ),
            (
                "packages/web/package.json",
                r#"{"name":"@shop/web","dependencies":{"@shop/api":"*"}}"#,
            ),
            ("packages/web/src/badge.js", ""),
            ("packages/core/src/money.js", ""),
            ("scripts/build.js", ""),
        ]);
        let root = &p.0;
        let core = selected(&argv("npm test -w packages/core"), root, root).unwrap();
        assert!(outside(
            &core,
            &root.join("packages/web/src/badge.js"),
            root
        ));
        // A root file is in no part: it may matter to any.
        assert!(!outside(&core, &root.join("scripts/build.js"), root));
        // web depends on core through api.
        let web = selected(&argv("npm test --workspace=@shop/web"), root, root).unwrap();
        assert!(!outside(
            &web,
            &root.join("packages/core/src/money.js"),
            root
        ));
        assert!(selected(&argv("npm test --workspaces"), root, root).is_none());
    }

    #[test]
    fn cargo_selections_by_package_and_by_exclusion() {
        let p = project(&[
            (
                "Cargo.toml",
                "[package]\nname = \"calc\"\n[workspace]\nmembers = [\"crates/*\"]\n",
            ),
            ("crates/units/Cargo.toml", "[package]\nname = \"units\"\n"),
            (
                "crates/report/Cargo.toml",
                "[package]\nname = \"report\"\n[dependencies]\nunits = { path = \"../units\" }\n",
            ),
            ("crates/report/src/lib.rs", ""),
            ("crates/units/src/lib.rs", ""),
        ]);
        let root = &p.0;
        let sel = selected(&argv("cargo test --workspace --exclude report"), root, root).unwrap();
        assert!(outside(&sel, &root.join("crates/report/src/lib.rs"), root));
        let report = selected(&argv("cargo test -p report"), root, root).unwrap();
        assert!(!outside(
            &report,
            &root.join("crates/units/src/lib.rs"),
            root
        ));
        assert!(selected(&argv("cargo test --workspace"), root, root).is_none());
    }
}
