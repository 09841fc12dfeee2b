//! What a test runner's own closing lines say: how many tests passed and failed, per
//! suite where the runner reports suites. The runner's verdict is read from these lines,
//! never from what the tests printed (a passing `cargo test -- --nocapture` whose tests
//! print `error: …` passed).

/// The runners whose summaries are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runner {
    Cargo,
    Nextest,
    Pytest,
    Go,
    Jest,
    Vitest,
    NodeTest,
    Unittest,
    Mocha,
    Rspec,
    PhpUnit,
    /// A wrapper (`npm test`, `make test`): every parser is tried.
    Other,
}

/// A runner's summary of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: u64,
    pub failed: u64,
    /// Passed counts of the suites the runner reports one by one (cargo's test binaries,
    /// go's packages), when it does.
    pub suites: Vec<u64>,
    /// Whether a count of passed tests was printed (go test without -v prints none).
    pub counted: bool,
    /// Tests the runner skipped, where it counts them apart from `passed` (unittest's `OK
    /// (skipped=2)`): "Ran 5 tests" is then not five passed.
    /// Only unittest's are read: its `Ran 5 tests` counts them, and an agent quotes it as
    /// what ran. Elsewhere passed and skipped together are no pass count ("all 5 pass"
    /// after node's `# pass 4`, `# todo 1`).
    pub skipped: u64,
}

impl Summary {
    pub fn ok(&self) -> bool {
        self.failed == 0
    }
}

/// The runner an argv runs (after launchers such as `uv run`, `npx` are peeled off).
pub fn runner_of(argv: &[String]) -> Runner {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_owned();
    let w: Vec<String> = argv.iter().map(|a| base(a)).collect();
    let has = |s: &str| w.iter().any(|x| x == s);
    let first = w.first().map(String::as_str).unwrap_or("");
    let second = w.get(1).map(String::as_str).unwrap_or("");
    match (first, second) {
        ("cargo", "nextest") => Runner::Nextest,
        ("cargo", _) => Runner::Cargo,
        ("pytest" | "py.test", _) => Runner::Pytest,
        ("unittest", _) => Runner::Unittest,
        ("go", "test") | ("gotestsum", _) => Runner::Go,
        ("jest", _) => Runner::Jest,
        ("vitest", _) => Runner::Vitest,
        ("mocha", _) => Runner::Mocha,
        ("rspec", _) => Runner::Rspec,
        ("phpunit", _) => Runner::PhpUnit,
        ("node" | "bun" | "deno", _) if has("--test") => Runner::NodeTest,
        (p, "-m") if p.starts_with("python") => match w.get(2).map(String::as_str) {
            Some("pytest") => Runner::Pytest,
            Some("unittest") => Runner::Unittest,
            _ => Runner::Other,
        },
        _ => Runner::Other,
    }
}

/// Reads the summary of `runner` from `output`; for [`Runner::Other`], the first runner
/// whose summary is there.
pub fn parse(runner: Runner, output: &str) -> Option<Summary> {
    let all = [
        Runner::Cargo,
        Runner::Nextest,
        Runner::Jest,
        Runner::Vitest,
        Runner::Pytest,
        Runner::Unittest,
        Runner::NodeTest,
        Runner::Mocha,
        Runner::Rspec,
        Runner::PhpUnit,
        Runner::Go,
    ];
    match runner {
        Runner::Other => all
            .into_iter()
            .find_map(|r| parse_one(r, output))
            .or_else(|| plain(output)),
        r => parse_one(r, output).or_else(|| plain(output)),
    }
}

fn num(s: &str) -> Option<u64> {
    s.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok()
}

/// The number right before `word` on a line ("12 passed", "3 failing").
fn before(line: &str, word: &str) -> Option<u64> {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.windows(2).find_map(|p| {
        (p[1].trim_matches(|c: char| !c.is_alphanumeric()) == word)
            .then(|| num(p[0]))
            .flatten()
    })
}

/// The number right after `key` on a line ("Tests: 12", "# pass 12").
fn after(line: &str, key: &str) -> Option<u64> {
    let i = line.find(key)?;
    line[i + key.len()..]
        .split_whitespace()
        .next()
        .and_then(num)
}

/// A section of `cargo test`'s output: one test binary, or the doc tests.
#[derive(Debug, PartialEq, Eq)]
pub enum Section {
    /// `Running unittests src/lib.rs`: the unit tests of a library or binary.
    Unit,
    /// `Running tests/it.rs`: an integration test binary.
    Integration,
    /// `Doc-tests calc`.
    Doc,
}

impl Section {
    /// The kind of tests, as [`super::named`] names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Section::Unit => "unit",
            Section::Integration => "integration",
            Section::Doc => "doc",
        }
    }
}

/// `cargo test`'s sections, each with its passed count and whether its result was ok. A
/// section whose binary printed no result (the run stopped before it) is not listed.
pub fn cargo_sections(output: &str) -> Vec<(Section, u64, bool)> {
    cargo_sections_by_crate(output)
        .into_iter()
        .map(|(_, section, passed, ok)| (section, passed, ok))
        .collect()
}

/// [`cargo_sections`] with the crate each belongs to, as cargo names it (dashes are
/// underscores): a unit section's binary (`target/debug/deps/calc-1a2b`), a doc section's
/// name (`Doc-tests calc`), and an integration binary the crate whose unit section came
/// before it (cargo runs a package's binaries together, its unit tests first; its paths are
/// the package's own, `tests/add.rs`, which name no crate). None where no unit section
/// came before.
pub fn cargo_sections_by_crate(output: &str) -> Vec<(Option<String>, Section, u64, bool)> {
    let mut out = Vec::new();
    let mut current: Option<(Option<String>, Section)> = None;
    let mut package: Option<String> = None;
    for l in output.lines().map(str::trim) {
        if let Some(what) = l.strip_prefix("Running ") {
            if what.starts_with("unittests ") {
                package = binary_crate(what);
                current = Some((package.clone(), Section::Unit));
            } else {
                current = Some((package.clone(), Section::Integration));
            }
        } else if let Some(name) = l.strip_prefix("Doc-tests ") {
            current = Some((Some(name.trim().to_owned()), Section::Doc));
        } else if let Some(result) = l.strip_prefix("test result: ") {
            if let Some((krate, section)) = current.take() {
                let passed = before(l, "passed").unwrap_or(0);
                let ok = result.starts_with("ok.") && before(l, "failed").unwrap_or(0) == 0;
                out.push((krate, section, passed, ok));
            }
        }
    }
    out
}

/// The crate of a test binary cargo runs: `unittests src/lib.rs
/// (target/debug/deps/unit_s-e1ec…)` is `unit_s`.
fn binary_crate(running: &str) -> Option<String> {
    let inside = running.rsplit_once('(')?.1.trim_end_matches(')');
    let file = inside.rsplit(['/', '\\']).next()?;
    let (name, hash) = file.rsplit_once('-')?;
    (!name.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit())).then(|| name.to_owned())
}

fn parse_one(runner: Runner, output: &str) -> Option<Summary> {
    let lines = || output.lines().map(str::trim);
    match runner {
        Runner::Cargo => {
            let results: Vec<&str> = lines().filter(|l| l.starts_with("test result: ")).collect();
            if results.is_empty() {
                return None;
            }
            let mut s = Summary {
                counted: true,
                ..Summary::default()
            };
            for l in results {
                let p = before(l, "passed").unwrap_or(0);
                let f = before(l, "failed").unwrap_or(0);
                s.passed += p;
                s.failed += f + u64::from(l.starts_with("test result: FAILED") && f == 0);
                s.suites.push(p);
            }
            // cargo's own errors after the summaries: a binary that failed to build or
            // a failure that stopped the run.
            if lines().any(|l| {
                l.starts_with("error: test failed")
                    || l.starts_with("error: could not compile")
                    || l.starts_with("error: doctest failed")
                    || l.starts_with("error: ") && l.contains("target") && l.contains("failed")
            }) {
                s.failed = s.failed.max(1);
            }
            Some(s)
        }
        Runner::Nextest => {
            let l = lines().rfind(|l| l.contains(" run: ") && l.contains("passed"))?;
            Some(Summary {
                passed: before(l, "passed")?,
                failed: before(l, "failed").unwrap_or(0) + before(l, "timed").unwrap_or(0),
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Jest => {
            let l = lines().rfind(|l| l.starts_with("Tests:"))?;
            Some(Summary {
                passed: before(l, "passed").unwrap_or(0),
                failed: before(l, "failed").unwrap_or(0),
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Vitest => {
            let l = lines().rfind(|l| l.starts_with("Tests ") && l.contains('('))?;
            Some(Summary {
                passed: before(l, "passed").unwrap_or(0),
                failed: before(l, "failed").unwrap_or(0),
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Pytest => {
            // "==== 1 failed, 11 passed in 0.31s ====", or "11 passed in 0.05s" with -q.
            // A loop of runs (`for f in tests/test_*.py; do pytest -q "$f"; done`) prints one
            // per session: they add up, as cargo's sections do.
            let summaries: Vec<&str> = lines()
                .filter(|l| {
                    let core = l.trim_matches(|c| c == '=' || c == ' ');
                    (core.contains(" passed")
                        || core.contains(" failed")
                        || core.contains(" error"))
                        && core.contains(" in ")
                        && core.ends_with('s')
                        && core.starts_with(|c: char| c.is_ascii_digit())
                        || core.starts_with("no tests ran")
                })
                .collect();
            if summaries.is_empty() {
                return None;
            }
            let mut s = Summary {
                counted: true,
                ..Summary::default()
            };
            for l in summaries {
                let passed = before(l, "passed").unwrap_or(0);
                s.passed += passed;
                s.suites.push(passed);
                s.failed += before(l, "failed").unwrap_or(0)
                    + before(l, "error").unwrap_or(0)
                    + before(l, "errors").unwrap_or(0);
            }
            if s.suites.len() == 1 {
                s.suites.clear();
            }
            Some(s)
        }
        Runner::Unittest => {
            let ran = lines().filter_map(|l| l.strip_prefix("Ran ")).next_back()?;
            let total = num(ran.split_whitespace().next()?)?;
            let verdict = lines().rfind(|l| l.starts_with("OK") || l.starts_with("FAILED"))?;
            // "failures=" is also the end of "expected failures=": a key counts where it
            // opens its item.
            let count = |key: &str| {
                verdict
                    .match_indices(key)
                    .find(|(i, _)| {
                        key.starts_with("expected") || !verdict[..*i].ends_with("expected ")
                    })
                    .and_then(|(i, _)| num(verdict[i + key.len()..].split([',', ')']).next()?))
                    .unwrap_or(0)
            };
            let failed = count("failures=") + count("errors=");
            // "Ran 5 tests … OK (skipped=2)": three passed; an expected failure ran and
            // failed, as it was meant to: no pass either.
            let skipped = count("skipped=");
            let expected = count("expected failures=");
            Some(Summary {
                passed: total.saturating_sub(failed + skipped + expected),
                failed: failed + u64::from(verdict.starts_with("FAILED") && failed == 0),
                suites: Vec::new(),
                counted: true,
                skipped,
            })
        }
        Runner::NodeTest => {
            let pass = lines()
                .filter_map(|l| {
                    l.strip_prefix("# pass ")
                        .or_else(|| l.strip_prefix("ℹ pass "))
                        .and_then(num)
                })
                .next_back()?;
            let fail = lines()
                .filter_map(|l| {
                    l.strip_prefix("# fail ")
                        .or_else(|| l.strip_prefix("ℹ fail "))
                        .and_then(num)
                })
                .next_back()
                .unwrap_or(0);
            Some(Summary {
                passed: pass,
                failed: fail,
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Mocha => {
            let pass = lines().filter_map(|l| before(l, "passing")).next_back()?;
            Some(Summary {
                passed: pass,
                failed: lines()
                    .filter_map(|l| before(l, "failing"))
                    .next_back()
                    .unwrap_or(0),
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Rspec => {
            let l = lines().rfind(|l| l.contains(" example") && l.contains(" failure"))?;
            let total = before(l, "examples").or_else(|| before(l, "example"))?;
            let failed = before(l, "failures").or_else(|| before(l, "failure"))?;
            Some(Summary {
                passed: total.saturating_sub(failed),
                failed,
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::PhpUnit => {
            if let Some(l) = lines().rfind(|l| l.starts_with("OK (")) {
                return Some(Summary {
                    passed: before(l, "tests").or_else(|| before(l, "test"))?,
                    failed: 0,
                    suites: Vec::new(),
                    counted: true,
                    skipped: 0,
                });
            }
            let l = lines().rfind(|l| l.starts_with("Tests: ") && l.contains("Assertions:"))?;
            let total = after(l, "Tests:")?;
            let failed = after(l, "Failures:").unwrap_or(0) + after(l, "Errors:").unwrap_or(0);
            Some(Summary {
                passed: total.saturating_sub(failed),
                failed: failed.max(1),
                suites: Vec::new(),
                counted: true,
                skipped: 0,
            })
        }
        Runner::Go => {
            let pkg_ok: Vec<&str> = lines()
                .filter(|l| l.starts_with("ok ") || l.starts_with("ok\t"))
                .collect();
            let failed = lines()
                .filter(|l| l.starts_with("--- FAIL") || l.starts_with("FAIL\t") || *l == "FAIL")
                .count() as u64;
            if pkg_ok.is_empty() && failed == 0 {
                return None;
            }
            let passes = lines().filter(|l| l.starts_with("--- PASS")).count() as u64;
            Some(Summary {
                passed: passes,
                failed,
                suites: Vec::new(),
                counted: passes > 0,
                skipped: 0,
            })
        }
        Runner::Other => None,
    }
}

/// The plain closing line any runner may print: `N passed, M failed` (or `N passed`).
fn plain(output: &str) -> Option<Summary> {
    let l = output
        .lines()
        .map(str::trim)
        .rfind(|l| before(l, "passed").is_some())?;
    Some(Summary {
        passed: before(l, "passed")?,
        failed: before(l, "failed").unwrap_or(0),
        suites: Vec::new(),
        counted: true,
        skipped: 0,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn cargo_sections_by_crate_follow_the_package() {
        let out = "\
     Running unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
     Running tests/add.rs (target/debug/deps/add-8400a13b84aa9f83)
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
     Running unittests src/lib.rs (target/debug/deps/unit_s-e1ece2dcb372057b)
test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
   Doc-tests calc
test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
";
        let crates: Vec<(Option<String>, &str, u64)> = super::cargo_sections_by_crate(out)
            .into_iter()
            .map(|(c, s, n, _)| (c, s.kind(), n))
            .collect();
        let calc = Some("calc".to_owned());
        assert_eq!(
            crates,
            [
                (calc.clone(), "unit", 2),
                (calc.clone(), "integration", 1),
                (Some("unit_s".to_owned()), "unit", 4),
                (calc, "doc", 0)
            ]
        );
    }

    #[test]
    fn cargo_sections_by_kind() {
        let out = "\
     Running unittests src/lib.rs (target/debug/deps/calc-1)
test maxes ... FAILED
test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out
     Running tests/it.rs (target/debug/deps/it-2)
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
   Doc-tests calc
test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
";
        assert_eq!(
            super::cargo_sections(out),
            [
                (super::Section::Unit, 1, false),
                (super::Section::Integration, 1, true),
                (super::Section::Doc, 0, true)
            ]
        );
    }

    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn runners() {
        assert_eq!(runner_of(&argv("cargo test --workspace")), Runner::Cargo);
        assert_eq!(runner_of(&argv("cargo nextest run")), Runner::Nextest);
        assert_eq!(runner_of(&argv("python3 -m pytest -q")), Runner::Pytest);
        assert_eq!(
            runner_of(&argv("python -m unittest discover")),
            Runner::Unittest
        );
        assert_eq!(runner_of(&argv("node --test")), Runner::NodeTest);
        assert_eq!(runner_of(&argv("./node_modules/.bin/jest")), Runner::Jest);
        assert_eq!(runner_of(&argv("npm test")), Runner::Other);
    }

    #[test]
    fn cargo_reads_its_summaries_not_the_tests_output() {
        let out = "running 2 tests\nerror: simulated failure printed by a test\ntest a ... ok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored\n\nrunning 1 test\ntest result: ok. 1 passed; 0 failed";
        let s = parse(Runner::Cargo, out).unwrap();
        assert_eq!((s.passed, s.failed, s.suites.clone()), (3, 0, vec![2, 1]));
        let failed =
            "test result: FAILED. 1 passed; 1 failed\nerror: test failed, to rerun pass `--lib`";
        assert!(!parse(Runner::Cargo, failed).unwrap().ok());
        let compile =
            "test result: ok. 4 passed; 0 failed\nerror: could not compile `x` (test \"it\")";
        assert!(!parse(Runner::Cargo, compile).unwrap().ok());
    }

    #[test]
    fn only_unittests_skipped_tests_are_counted_apart() {
        let skipped = |r, o| parse(r, o).map(|s: Summary| (s.passed, s.skipped));
        assert_eq!(
            skipped(Runner::Unittest, "Ran 5 tests in 0.001s\n\nOK (skipped=2)"),
            Some((3, 2))
        );
        // A runner's todo or skipped tests are no passes, and no part of a pass count.
        assert_eq!(
            skipped(Runner::NodeTest, "# tests 5\n# pass 4\n# fail 0\n# todo 1"),
            Some((4, 0))
        );
        assert_eq!(
            skipped(Runner::Jest, "Tests:       1 skipped, 2 passed, 3 total"),
            Some((2, 0))
        );
    }

    #[test]
    fn each_runner() {
        let s = |r, o| parse(r, o).map(|s: Summary| (s.passed, s.failed));
        assert_eq!(
            s(Runner::Pytest, "===== 1 failed, 11 passed in 0.31s ====="),
            Some((11, 1))
        );
        assert_eq!(s(Runner::Pytest, "12 passed in 0.05s"), Some((12, 0)));
        // A loop of sessions: each one's line counts.
        assert_eq!(
            s(
                Runner::Pytest,
                "..F\n2 failed, 1 passed in 0.05s\n...\n3 passed in 0.04s"
            ),
            Some((4, 2))
        );
        assert_eq!(
            s(Runner::Pytest, "== 3 passed, 1 error in 0.2s =="),
            Some((3, 1))
        );
        assert_eq!(
            s(
                Runner::Jest,
                "Test Suites: 2 passed, 2 total\nTests:       11 passed, 11 total"
            ),
            Some((11, 0))
        );
        assert_eq!(
            s(Runner::Jest, "Test Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 10 passed, 11 total"),
            Some((10, 1))
        );
        assert_eq!(
            s(
                Runner::Vitest,
                " Test Files  2 passed (2)\n      Tests  9 passed (9)"
            ),
            Some((9, 0))
        );
        assert_eq!(
            s(Runner::NodeTest, "# tests 5\n# pass 5\n# fail 0"),
            Some((5, 0))
        );
        assert_eq!(
            s(Runner::NodeTest, "ℹ tests 5\nℹ pass 4\nℹ fail 1"),
            Some((4, 1))
        );
        assert_eq!(
            s(Runner::Unittest, "......\n----------------------------------------------------------------------\nRan 6 tests in 0.001s\n\nOK"),
            Some((6, 0))
        );
        assert_eq!(
            s(
                Runner::Unittest,
                "Ran 6 tests in 0.001s\n\nFAILED (failures=1, errors=1)"
            ),
            Some((4, 2))
        );
        // Skipped tests and expected failures ran, and did not pass.
        assert_eq!(
            s(Runner::Unittest, "Ran 5 tests in 0.001s\n\nOK (skipped=2)"),
            Some((3, 0))
        );
        assert_eq!(
            s(
                Runner::Unittest,
                "Ran 4 tests in 0.001s\n\nOK (skipped=1, expected failures=1)"
            ),
            Some((2, 0))
        );
        assert_eq!(
            s(Runner::Mocha, "  7 passing (12ms)\n  1 failing"),
            Some((7, 1))
        );
        assert_eq!(
            s(
                Runner::Rspec,
                "Finished in 0.1 seconds\n12 examples, 0 failures"
            ),
            Some((12, 0))
        );
        assert_eq!(
            s(Runner::PhpUnit, "OK (12 tests, 30 assertions)"),
            Some((12, 0))
        );
        assert_eq!(
            s(
                Runner::PhpUnit,
                "FAILURES!\nTests: 12, Assertions: 30, Failures: 2."
            ),
            Some((10, 2))
        );
        assert_eq!(
            s(
                Runner::Go,
                "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/m\t0.002s"
            ),
            Some((1, 0))
        );
        assert_eq!(
            s(
                Runner::Go,
                "--- FAIL: TestA (0.00s)\nFAIL\nFAIL\texample.com/m\t0.002s"
            ),
            Some((0, 3))
        );
        assert_eq!(
            s(
                Runner::Nextest,
                "     Summary [   0.010s] 12 tests run: 12 passed, 0 skipped"
            ),
            Some((12, 0))
        );
        assert_eq!(s(Runner::Other, "3 passed, 0 failed"), Some((3, 0)));
        assert_eq!(
            s(Runner::Other, "Tests:       4 passed, 4 total"),
            Some((4, 0))
        );
    }
}
