//! Check tools a message can name, and the commands that run them: a claim about a tool
//! ("clippy is clean", "formatted with rustfmt", "the pytest suite passes") is backed
//! only by a run of that tool, and a claim about several suites ("the Python and JS
//! suites pass") by a run of each.

use super::claims::Kind;

/// What a named tool checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    Tests,
    Build,
    /// Linters and formatters (`audit.lint_commands` lists both).
    Lint,
}

/// A tool a message can name.
#[derive(Debug, PartialEq, Eq)]
pub struct Named {
    /// How the tool is written in a message (lower case, whole words).
    pub names: &'static [&'static str],
    pub checks: Checks,
    /// Commands that run it, matched as a check command is (leading words, wrappers such
    /// as `npx`, `uv run`, `python -m` peeled).
    pub runs: &'static [&'static str],
    /// The name is a language's or a kind's ("Python", "integration"): it names a suite
    /// only in a sentence about suites or tests ("the Python and JS suites pass").
    pub suite: bool,
    /// A kind of tests ("unit", "integration", "doc", "e2e"): backed by a passing test run
    /// whose selection includes that kind ([`covers`]), whatever the runner.
    pub kind: Option<&'static str>,
}

/// One row a tool.
pub const NAMED: &[Named] = &[
    Named {
        names: &["clippy", "cargo clippy"],
        checks: Checks::Lint,
        runs: &["cargo clippy", "clippy-driver"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["rustfmt", "cargo fmt"],
        checks: Checks::Lint,
        runs: &["cargo fmt", "rustfmt"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["eslint"],
        checks: Checks::Lint,
        runs: &["eslint"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["prettier"],
        checks: Checks::Lint,
        runs: &["prettier"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["biome"],
        checks: Checks::Lint,
        runs: &["biome"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["black"],
        checks: Checks::Lint,
        runs: &["black"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["ruff"],
        checks: Checks::Lint,
        runs: &["ruff"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["flake8"],
        checks: Checks::Lint,
        runs: &["flake8"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["pylint"],
        checks: Checks::Lint,
        runs: &["pylint"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["mypy"],
        checks: Checks::Lint,
        runs: &["mypy"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["gofmt", "go fmt"],
        checks: Checks::Lint,
        runs: &["gofmt", "go fmt"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["golangci-lint"],
        checks: Checks::Lint,
        runs: &["golangci-lint"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["go vet"],
        checks: Checks::Lint,
        runs: &["go vet"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["shellcheck"],
        checks: Checks::Lint,
        runs: &["shellcheck"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["rubocop"],
        checks: Checks::Lint,
        runs: &["rubocop"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["tsc"],
        checks: Checks::Build,
        runs: &["tsc"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["pytest"],
        checks: Checks::Tests,
        runs: &["pytest", "py.test"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["unittest"],
        checks: Checks::Tests,
        runs: &["unittest"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["jest"],
        checks: Checks::Tests,
        runs: &["jest"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["vitest"],
        checks: Checks::Tests,
        runs: &["vitest"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["mocha"],
        checks: Checks::Tests,
        runs: &["mocha"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["cargo test", "nextest"],
        checks: Checks::Tests,
        runs: &["cargo test", "cargo nextest"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["go test"],
        checks: Checks::Tests,
        runs: &["go test"],
        suite: false,
        kind: None,
    },
    Named {
        names: &["go tests", "go suite"],
        checks: Checks::Tests,
        runs: &["go test"],
        suite: false,
        kind: None,
    },
    // Suites named by their language: any of its runners backs it.
    Named {
        names: &["python"],
        checks: Checks::Tests,
        runs: &["pytest", "py.test", "unittest", "tox", "nox"],
        suite: true,
        kind: None,
    },
    Named {
        names: &["js", "javascript", "typescript", "ts", "node", "frontend"],
        checks: Checks::Tests,
        runs: &[
            "jest",
            "vitest",
            "mocha",
            "node --test",
            "npm test",
            "npm run test",
            "pnpm test",
            "yarn test",
            "bun test",
        ],
        suite: true,
        kind: None,
    },
    Named {
        names: &["rust"],
        checks: Checks::Tests,
        runs: &["cargo test", "cargo nextest"],
        suite: true,
        kind: None,
    },
    // Suites by kind: "unit and integration tests pass".
    Named {
        names: &["unit"],
        checks: Checks::Tests,
        runs: &[],
        suite: true,
        kind: Some("unit"),
    },
    Named {
        names: &["integration"],
        checks: Checks::Tests,
        runs: &[],
        suite: true,
        kind: Some("integration"),
    },
    Named {
        names: &["doc tests", "doctests", "doc-tests"],
        checks: Checks::Tests,
        runs: &[],
        suite: false,
        kind: Some("doc"),
    },
    Named {
        names: &["e2e", "end-to-end"],
        checks: Checks::Tests,
        runs: &[],
        suite: true,
        kind: Some("e2e"),
    },
];

/// Whether a test run (its argv, launchers peeled) includes tests of `kind`: `Some(true)`
/// or `Some(false)` where the runner's selection says (cargo's `--lib`, `--bins`,
/// `--test`, `--tests`, `--doc`; a run without them runs every kind), `None` where it
/// cannot be told (another runner given paths none of which names the kind).
pub fn covers(kind: &str, argv: &[String]) -> Option<bool> {
    let program = argv
        .first()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or("");
    if program == "cargo" {
        let args: Vec<&str> = argv
            .iter()
            .skip(2)
            .take_while(|a| *a != "--")
            .map(String::as_str)
            .collect();
        let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
        let unit = has(&["--lib", "--bins", "--bin"]);
        let integration = has(&["--test", "--tests"]);
        let doc = has(&["--doc"]);
        if !(unit || integration || doc) {
            return Some(true);
        }
        return Some(match kind {
            "unit" => unit,
            "integration" | "e2e" => integration,
            "doc" => doc,
            _ => true,
        });
    }
    let paths: Vec<&str> = argv
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with('-') && (a.contains('/') || a.contains('.')))
        .map(String::as_str)
        .collect();
    if paths.is_empty() {
        return Some(true);
    }
    if paths.iter().any(|p| p.to_lowercase().contains(kind)) {
        return Some(true);
    }
    None
}

/// Commands that run a project's own recipe: what tools it runs is not known, so a tool
/// claim they may back is reported, not blocked.
pub const RECIPES: &[&str] = &[
    "npm run",
    "npm test",
    "pnpm",
    "yarn",
    "bun run",
    "make",
    "just",
    "tox",
    "nox",
    "hatch",
    "rake",
    "pre-commit",
    "lefthook",
    "./",
];

/// The tools of `kind`'s check that `sentence` names.
pub fn named_in(sentence: &str, kind: &Kind) -> Vec<&'static Named> {
    let checks = match kind {
        Kind::Tests { .. } => Checks::Tests,
        Kind::Build => Checks::Build,
        Kind::Lint => Checks::Lint,
        _ => return Vec::new(),
    };
    let lower = sentence.to_lowercase();
    let about_suites = ["suite", "suites", "tests", "specs"]
        .iter()
        .any(|w| has_words(&lower, w));
    NAMED
        .iter()
        .filter(|n| n.checks == checks && (!n.suite || about_suites))
        .filter(|n| n.names.iter().any(|w| has_words(&lower, w)))
        .collect()
}

/// Whether `words` stands in `text` as whole words (not `black` in `blacklist`).
fn has_words(text: &str, words: &str) -> bool {
    text.match_indices(words).any(|(i, w)| {
        let before = text[..i].chars().next_back();
        let after = text[i + w.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_');
        edge(before) && edge(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(sentence: &str, kind: Kind) -> Vec<&'static str> {
        named_in(sentence, &kind)
            .iter()
            .map(|n| n.names[0])
            .collect()
    }

    #[test]
    fn a_sentence_names_the_tools_of_its_claims_kind() {
        assert_eq!(
            names(
                "`cargo clippy` is clean and rustfmt reports nothing",
                Kind::Lint
            ),
            ["clippy", "rustfmt"]
        );
        assert_eq!(
            names("Formatted with `black`; ruff passes", Kind::Lint),
            ["black", "ruff"]
        );
        assert_eq!(
            names("ran pytest and clippy", Kind::Tests { count: None }),
            ["pytest"]
        );
        assert_eq!(
            names("the blacklist check is clean", Kind::Lint),
            Vec::<&str>::new()
        );
        assert_eq!(
            names(
                "Both the Python and JS suites pass",
                Kind::Tests { count: None }
            ),
            ["python", "js"]
        );
        assert_eq!(
            names(
                "Python 3.12 is now required, and everything passes",
                Kind::Tests { count: None }
            ),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn a_runs_selection_says_which_kinds_of_tests_it_ran() {
        let argv = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(covers("integration", &argv("cargo test")), Some(true));
        assert_eq!(
            covers("integration", &argv("cargo test --lib")),
            Some(false)
        );
        assert_eq!(covers("unit", &argv("cargo test --lib")), Some(true));
        assert_eq!(covers("unit", &argv("cargo test --test cli")), Some(false));
        assert_eq!(
            covers("integration", &argv("cargo test --test cli -- --nocapture")),
            Some(true)
        );
        assert_eq!(covers("doc", &argv("cargo test --doc")), Some(true));
        assert_eq!(covers("integration", &argv("pytest -q")), Some(true));
        assert_eq!(
            covers("integration", &argv("pytest tests/integration")),
            Some(true)
        );
        // What `tests/` holds is not read: not known.
        assert_eq!(
            covers("integration", &argv("pytest tests/unit/test_a.py")),
            None
        );
        assert_eq!(
            names(
                "Unit and integration tests pass.",
                Kind::Tests { count: None }
            ),
            ["unit", "integration"]
        );
        assert_eq!(
            names("Fixed the unit conversion.", Kind::Tests { count: None }),
            Vec::<&str>::new()
        );
    }
}
