//! Check tools a message can name, and the commands that run them: a claim about a tool
//! ("clippy is clean", "formatted with rustfmt", "the pytest suite passes") is backed
//! only by a run of that tool, and a claim about several suites ("the Python and JS
//! suites pass") by a run of each.

use super::vocab::Kind;
pub use super::vocab::{Checks, Named};

/// A tool, named by `names`, run by `runs`.
const fn tool(
    names: &'static [&'static str],
    checks: Checks,
    runs: &'static [&'static str],
) -> Named {
    Named {
        names,
        checks,
        runs,
        suite: false,
        kind: None,
    }
}

/// A suite named by its language ("the Python suite"): any of `runs` backs it.
const fn by_language(names: &'static [&'static str], runs: &'static [&'static str]) -> Named {
    Named {
        names,
        checks: Checks::Tests,
        runs,
        suite: true,
        kind: None,
    }
}

/// Tests of a kind ("integration"), named in a sentence about tests when `suite`.
const fn of_kind(names: &'static [&'static str], kind: &'static str, suite: bool) -> Named {
    Named {
        names,
        checks: Checks::Tests,
        runs: &[],
        suite,
        kind: Some(kind),
    }
}

/// One row a tool or a suite.
pub const NAMED: &[Named] = &[
    tool(
        &["clippy", "cargo clippy"],
        Checks::Lint,
        &["cargo clippy", "clippy-driver"],
    ),
    tool(
        &["rustfmt", "cargo fmt"],
        Checks::Lint,
        &["cargo fmt", "rustfmt"],
    ),
    tool(&["eslint"], Checks::Lint, &["eslint"]),
    tool(&["prettier"], Checks::Lint, &["prettier"]),
    tool(&["biome"], Checks::Lint, &["biome"]),
    tool(&["black"], Checks::Lint, &["black"]),
    tool(&["ruff"], Checks::Lint, &["ruff"]),
    tool(&["flake8"], Checks::Lint, &["flake8"]),
    tool(&["pylint"], Checks::Lint, &["pylint"]),
    tool(&["mypy"], Checks::Lint, &["mypy"]),
    tool(&["gofmt", "go fmt"], Checks::Lint, &["gofmt", "go fmt"]),
    tool(&["golangci-lint"], Checks::Lint, &["golangci-lint"]),
    tool(&["go vet"], Checks::Lint, &["go vet"]),
    tool(&["shellcheck"], Checks::Lint, &["shellcheck"]),
    tool(&["rubocop"], Checks::Lint, &["rubocop"]),
    tool(&["tsc"], Checks::Build, &["tsc"]),
    // Compilers and build tools named as the check ("gcc -Wall -Werror: no warnings").
    tool(&["gcc"], Checks::Build, &["gcc"]),
    tool(&["g++"], Checks::Build, &["g++"]),
    tool(&["clang"], Checks::Build, &["clang"]),
    tool(&["clang++"], Checks::Build, &["clang++"]),
    tool(&["rustc"], Checks::Build, &["rustc"]),
    tool(&["javac"], Checks::Build, &["javac"]),
    tool(&["cargo build"], Checks::Build, &["cargo build"]),
    tool(&["cargo check"], Checks::Build, &["cargo check"]),
    tool(&["go build"], Checks::Build, &["go build"]),
    // Syntax and document checks: each is its own check, backed only by its own run
    // ("`bash -n`: no errors" is not backed by the tests).
    tool(&["bash -n", "sh -n"], Checks::Build, &["bash -n", "sh -n"]),
    tool(
        &["node --check"],
        Checks::Build,
        &["node --check", "node -c"],
    ),
    tool(&["py_compile"], Checks::Build, &["py_compile"]),
    tool(&["compileall"], Checks::Build, &["compileall"]),
    tool(&["json.tool"], Checks::Build, &["json.tool"]),
    tool(
        &["cargo doc", "rustdoc"],
        Checks::Build,
        &["cargo doc", "rustdoc"],
    ),
    tool(&["git diff --check"], Checks::Lint, &["git diff --check"]),
    // Validators of configuration and documents: a file said to be valid YAML, JSON, XML
    // or TOML is backed by its validator's own run.
    tool(&["yamllint"], Checks::Lint, &["yamllint"]),
    tool(&["js-yaml"], Checks::Build, &["js-yaml"]),
    tool(&["jsonlint"], Checks::Build, &["jsonlint"]),
    tool(&["xmllint"], Checks::Build, &["xmllint"]),
    tool(&["taplo"], Checks::Lint, &["taplo"]),
    tool(&["markdownlint"], Checks::Lint, &["markdownlint"]),
    tool(&["hadolint"], Checks::Lint, &["hadolint"]),
    tool(&["actionlint"], Checks::Lint, &["actionlint"]),
    tool(&["stylelint"], Checks::Lint, &["stylelint"]),
    // Validators named by their library, run in an inline script (`python3 -c "import
    // tomllib; …"`, `node -e "JSON.parse(…)"`; `inline:` in [`super::evidence::INLINE`]).
    tool(
        &["tomllib", "tomli"],
        Checks::Build,
        &["inline:tomllib", "inline:tomli"],
    ),
    tool(
        &["yaml.safe_load", "yaml.load", "pyyaml"],
        Checks::Build,
        &["inline:yaml"],
    ),
    tool(
        &["json.load", "json.loads"],
        Checks::Build,
        &["inline:json", "json.tool"],
    ),
    tool(&["json.parse"], Checks::Build, &["inline:JSON"]),
    tool(&["ast.parse"], Checks::Build, &["inline:ast"]),
    tool(&["jq"], Checks::Build, &["jq"]),
    // git's own hooks, named as passed: run by the git command that fires them, unless it
    // skipped them (`--no-verify`), or by the pre-commit framework's own run.
    tool(
        &["pre-commit", "precommit", "commit hook", "commit-msg"],
        Checks::Lint,
        &["hooked:commit", "pre-commit run", "prek run"],
    ),
    tool(&["pre-push"], Checks::Lint, &["hooked:push"]),
    tool(&["pytest"], Checks::Tests, &["pytest", "py.test"]),
    tool(&["unittest"], Checks::Tests, &["unittest"]),
    tool(&["jest"], Checks::Tests, &["jest"]),
    tool(&["vitest"], Checks::Tests, &["vitest"]),
    tool(&["mocha"], Checks::Tests, &["mocha"]),
    tool(
        &["node:test", "node --test", "node test runner"],
        Checks::Tests,
        &["node --test"],
    ),
    tool(
        &["cargo test", "nextest"],
        Checks::Tests,
        &["cargo test", "cargo nextest"],
    ),
    tool(
        &["go test", "go tests", "go suite"],
        Checks::Tests,
        &["go test"],
    ),
    // Suites named by their language: any of its runners backs it.
    by_language(
        &["python"],
        &["pytest", "py.test", "unittest", "tox", "nox"],
    ),
    by_language(
        &["js", "javascript", "typescript", "ts", "node", "frontend"],
        &[
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
    ),
    by_language(&["rust"], &["cargo test", "cargo nextest"]),
    // Suites by kind: "unit and integration tests pass".
    // In every language of the tables (`lang/`): "Unit- und Integrationstests",
    // "tests unitaires", "単体テスト", "集成测试".
    of_kind(
        &[
            "unit",
            "unit-",
            "unittests",
            "unit-tests",
            "unit-test",
            "unitaires",
            "unitaire",
            "unitarios",
            "unitarias",
            "unitari",
            "unitarie",
            "unitários",
            "unitárias",
            "eenheidstests",
            "модульные",
            "юнит-тесты",
            "модульні",
            "юніт-тести",
            "юніт",
            "jednotkové",
            "jednotkových",
            "enhetstester",
            "enhetstest",
            "enhetstesterna",
            "μονάδας",
            "yksikkötestit",
            "יחידה",
            "หน่วย",
            "単体",
            "ユニットテスト",
            "单元",
            "단위",
            "jednostkowe",
            "birim",
            "đơn vị",
            "यूनिट",
            "इकाई",
            "الوحدة",
            "egységteszt",
            "egységtesztek",
            "egységtesztjei",
            "yksikkötesti",
            "yksikkötestit",
            "unitare",
            "jednotkové",
            "unitàries",
            "unitaris",
            "واحد",
            "ইউনিট",
        ],
        "unit",
        true,
    ),
    of_kind(
        &[
            "integration",
            "integrationstests",
            "integrations-",
            "intégration",
            "integración",
            "integrazione",
            "integração",
            "integratie",
            "integratietests",
            "интеграционные",
            "інтеграційні",
            "інтеграційний",
            "integrační",
            "integračních",
            "integrationstester",
            "integrationstest",
            "integrationstestet",
            "ενοποίησης",
            "ολοκλήρωσης",
            "integraatiotestit",
            "אינטגרציה",
            "การรวม",
            "結合テスト",
            "統合テスト",
            "集成",
            "통합",
            "integracyjne",
            "entegrasyon",
            "tích hợp",
            "integrasi",
            "इंटीग्रेशन",
            "एकीकरण",
            "التكامل",
            "integrációs",
            "integraatio",
            "integraatiotesti",
            "integraatiotestit",
            "integrare",
            "integračné",
            "integračných",
            "integració",
            "یکپارچه‌سازی",
            "ইন্টিগ্রেশন",
        ],
        "integration",
        true,
    ),
    of_kind(
        &[
            "doc tests",
            "doctests",
            "doc-tests",
            "doctest",
            "doc-test",
            "dokumentationstests",
            "tests de documentation",
            "pruebas de documentación",
            "тесты документации",
            "доктесты",
            "doc-тести",
            "doc-тесты",
            "доктести",
            "dokumentačních",
            "dokumentationstester",
            "doctester",
            "доктестов",
            "доктест",
            "testes de documentação",
            "test di documentazione",
            "ドキュメントテスト",
            "文档测试",
            "문서 테스트",
        ],
        "doc",
        false,
    ),
    of_kind(
        &[
            "e2e",
            "end-to-end",
            "de bout en bout",
            "extremo a extremo",
            "end-to-end-tests",
            "сквозные",
            "エンドツーエンド",
            "端到端",
            "종단 간",
        ],
        "e2e",
        true,
    ),
    // The tests this turn wrote: found by `new_tests_named`, not by a name.
    of_kind(&[], "new", true),
    // A binary's own tests (`src/main.rs`, `src/bin/`): found by `binary_tests_named`.
    of_kind(&[], "binary", true),
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
        let args = cargo_args(argv);
        let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
        // `--all-targets` is lib, bins, tests, examples and benches: no doc tests.
        let all_targets = has(&["--all-targets"]);
        // `--tests` is every target with `test = true`: the library's and binaries' unit
        // tests as well as the integration tests (cargo's own documentation).
        let unit = has(&["--lib", "--bins", "--bin", "--tests"]) || all_targets;
        // `--lib` runs the library's unit tests, not those in `src/main.rs` or `src/bin/`.
        let binary = has(&["--bins", "--bin", "--tests"]) || all_targets;
        let integration = has(&["--test", "--tests"]) || all_targets;
        let doc = has(&["--doc"]);
        if !(unit || integration || doc) {
            return Some(true);
        }
        return Some(match kind {
            "unit" => unit,
            "integration" | "e2e" => integration,
            "doc" => doc,
            "binary" => binary,
            _ => true,
        });
    }
    // Outside cargo no run is told apart by binary.
    if kind == "binary" {
        return None;
    }
    if excludes_kind(kind, argv) {
        return Some(false);
    }
    // Outside cargo, doc tests run only when asked (`pytest --doctest-modules`, `python
    // -m doctest`).
    if kind == "doc" {
        return Some(argv.iter().any(|a| a.contains("doctest")));
    }
    let paths = selection_paths(super::summary::runner_of(argv), argv);
    if paths.is_empty() {
        return Some(true);
    }
    if paths.iter().any(|p| p.to_lowercase().contains(kind)) {
        return Some(true);
    }
    None
}

/// Whether a run leaves a kind of tests out by an option that names it: jest's
/// `--testPathIgnorePatterns=e2e`, vitest's `--exclude`, pytest's `--ignore`,
/// `--ignore-glob`, `--deselect`, `-k "not integration"` and `-m "not integration"`,
/// mocha's `--ignore`, and `--skip` (cargo's test harness, go).
pub(crate) fn excludes_kind(kind: &str, argv: &[String]) -> bool {
    const LEAVE_OUT: &[&str] = &[
        "--testPathIgnorePatterns",
        "--testPathIgnorePattern",
        "--exclude",
        "--ignore",
        "--ignore-glob",
        "--deselect",
        "--skip",
        "-skip",
    ];
    const NOT: &[&str] = &["-k", "-m"];
    let names_kind = |v: &str| {
        let v = v.to_lowercase();
        v.contains(kind) || kind == "e2e" && v.contains("end-to-end")
    };
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v)),
            _ => (a, None),
        };
        let value = || {
            inline
                .map(str::to_owned)
                .or_else(|| argv.get(i + 1).cloned())
        };
        if LEAVE_OUT.contains(&flag) && value().is_some_and(|v| names_kind(&v)) {
            return true;
        }
        if NOT.contains(&flag)
            && value().is_some_and(|v| {
                let v = v.to_lowercase();
                v.split(" or ")
                    .chain(v.split(" and "))
                    .any(|part| part.trim().strip_prefix("not ").is_some_and(names_kind))
            })
        {
            return true;
        }
        i += 1;
    }
    false
}

/// The paths a test run selects, as written (`tests/a.py::test_x` as `tests/a.py`;
/// unittest's modules `tests.test_text` as `tests/test_text`).
pub(crate) fn selection_paths(runner: super::summary::Runner, argv: &[String]) -> Vec<String> {
    argv.iter()
        .skip(1)
        .filter(|a| !a.starts_with('-') && (a.contains('/') || a.contains('.')))
        .map(|a| {
            let a = a.trim_start_matches("./");
            let a = a.split("::").next().unwrap_or(a);
            if runner == super::summary::Runner::Unittest && !a.contains('/') && !a.ends_with(".py")
            {
                a.replace('.', "/")
            } else {
                a.to_owned()
            }
        })
        .collect()
}

/// The arguments of a `cargo <sub>` run that are cargo's own (before `--`).
pub(crate) fn cargo_args(argv: &[String]) -> Vec<&str> {
    argv.iter()
        .skip(2)
        .take_while(|a| *a != "--")
        .map(String::as_str)
        .collect()
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

/// Words for tests and suites, in the tables' languages (stems: "testy", "tesztek",
/// "δοκιμές" hold them): a sentence with one is about suites, and "doc" before one names
/// doc tests.
pub(crate) const SUITE_WORDS: &[&str] = &[
    "suite",
    // Portuguese writes it with an accent.
    "suíte",
    "spec",
    "test",
    "teszt",
    "prueb",
    "prove",
    "prov",
    "тест",
    "δοκιμ",
    "τεστ",
    "בדיק",
    "טסט",
    "اختبار",
    "تست",
    "آزمون",
    "टेस्ट",
    "परीक्षण",
    "টেস্ট",
    "পরীক্ষা",
    "ทดสอบ",
    "เทสต์",
    "テスト",
    "测试",
    "測試",
    "테스트",
    "kiểm thử",
    "pengujian",
    "ujian",
];

/// The tools a text names by name (`jest`, `node:test`, `eslint`), of any check: no
/// suite named by its language or kind, no check run inline or by a git hook.
pub fn tools_named(text: &str) -> Vec<&'static Named> {
    let lower = text.to_lowercase();
    NAMED
        .iter()
        .filter(|n| !n.suite && n.kind.is_none())
        .filter(|n| {
            n.runs
                .iter()
                .all(|r| !r.starts_with("inline:") && !r.starts_with("hooked:"))
        })
        .filter(|n| n.names.iter().any(|w| has_words(&lower, w)))
        .collect()
}

/// The tools of `kind`'s check that `sentence` names.
pub fn named_in(sentence: &str, kind: &Kind) -> Vec<&'static Named> {
    let checks = match kind {
        Kind::Tests { .. } => Checks::Tests,
        Kind::Build => Checks::Build,
        Kind::Lint => Checks::Lint,
        _ => return Vec::new(),
    };
    let lower = sentence.to_lowercase();
    // Compounds count ("Integrationstests", "testes"): the sentence is a tests claim's.
    let about_suites = SUITE_WORDS.iter().any(|w| lower.contains(w));
    // A kind of tests named inside a command (`pytest -m "not integration"`, `jest spec/
    // --testPathIgnorePatterns=e2e`) is what the command selects, not a kind the sentence
    // claims: kinds are looked for outside code spans of several words.
    // A path in a span (`tests/e2e/smoke.sh`) still names its kind.
    let prose: String = lower
        .split('`')
        .enumerate()
        .filter(|(i, part)| i % 2 == 0 || !part.trim().contains(char::is_whitespace))
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ");
    let mut found: Vec<&'static Named> = NAMED
        .iter()
        .filter(|n| n.checks == checks && (!n.suite || about_suites))
        .filter(|n| {
            let text = if n.kind.is_some() { &prose } else { &lower };
            n.names.iter().any(|w| has_words(text, w))
        })
        .collect();
    // "doc testleri", "doc-тести", "doc testit": doc tests in any language, the word
    // "doc" before the language's word for tests.
    if checks == Checks::Tests && doc_tests_named(&lower) {
        if let Some(doc) = NAMED.iter().find(|n| n.kind == Some("doc")) {
            if !found.contains(&doc) {
                found.push(doc);
            }
        }
    }
    // "Les tests propres au binaire passent", "the tests in `src/main.rs` pass": the
    // binary's own tests, which `cargo test --lib` leaves out.
    if checks == Checks::Tests && binary_tests_named(&lower) {
        if let Some(binary) = NAMED.iter().find(|n| n.kind == Some("binary")) {
            found.push(binary);
        }
    }
    // "the new tests pass": the tests this turn wrote, whatever their kind.
    if checks == Checks::Tests && about_suites && new_tests_named(&prose) {
        if let Some(new) = NAMED.iter().find(|n| n.kind == Some("new")) {
            found.push(new);
        }
    }
    // "node:test" names the node test runner, not the JS suites ("node" inside it).
    let tool_names: Vec<&str> = found
        .iter()
        .filter(|n| !n.suite && n.kind.is_none())
        .flat_map(|n| n.names.iter().copied())
        .filter(|w| has_words(&lower, w))
        .collect();
    found
        .into_iter()
        .filter(|n| {
            !n.suite
                || n.kind.is_some()
                || !n
                    .names
                    .iter()
                    .filter(|w| has_words(&lower, w))
                    .all(|w| tool_names.iter().any(|t| t.contains(w)))
        })
        .collect()
}

/// The tools of `kind`'s check that a clause names; for a tests claim whose clause names
/// none, the kinds of tests its sentence names ("Unit tests, integration tests and
/// doctests: all pass").
pub fn named_in_clause(clause: &str, sentence: &str, kind: &Kind) -> Vec<&'static Named> {
    let own = named_in(clause, kind);
    if !own.is_empty() || !matches!(kind, Kind::Tests { .. }) {
        return own;
    }
    // "mocha-набір … я теж прогнав: обидва тести … зелені": the clause a colon closes
    // before the claim names the suite it is about.
    let before_colon = sentence
        .find(clause.trim())
        .map(|at| sentence[..at].trim_end())
        .and_then(|before| before.strip_suffix([':', '：']))
        .map(|before| before.rsplit(['.', ';', '。']).next().unwrap_or(before));
    if let Some(before) = before_colon {
        let listed: Vec<&'static Named> = named_in(before, kind)
            .into_iter()
            .filter(|n| n.kind.is_none())
            .collect();
        if !listed.is_empty() {
            return listed;
        }
    }
    // "Obie suity zielone: `node --test` 2/2 i jest 3/3": what a colon opens after the
    // claim names the suites it is about.
    let after_colon = sentence
        .find(clause.trim())
        .map(|at| sentence[at + clause.trim().len()..].trim_start())
        .and_then(|rest| rest.strip_prefix([':', '：']));
    if let Some(rest) = after_colon {
        let listed = named_in(rest, kind);
        if !listed.is_empty() {
            return listed;
        }
    }
    named_in(sentence, kind)
        .into_iter()
        .filter(|n| n.kind.is_some())
        .collect()
}

/// Words that make tests the ones this turn wrote ("the new tests", "los tests nuevos",
/// "새 속성 테스트", "新增的测试"), in the tables' languages. `BEFORE` stand up to two words
/// before a word for tests ("2 new unit tests"), `AFTER` right after it, where the
/// language puts its adjective there.
pub(crate) const NEW_BEFORE: &[&str] = &[
    "new",
    "newly",
    "added",
    "neu",
    "neue",
    "neuen",
    "neuer",
    "neues",
    "hinzugefügten",
    "nouveau",
    "nouveaux",
    "nouvelle",
    "nouvelles",
    "nuevo",
    "nuevos",
    "nueva",
    "nuevas",
    "novo",
    "novos",
    "nova",
    "novas",
    "nuovo",
    "nuovi",
    "nuova",
    "nuove",
    "nieuw",
    "nieuwe",
    "toegevoegde",
    "новый",
    "новые",
    "новых",
    "новую",
    "новий",
    "нові",
    "нових",
    "нову",
    "добавленные",
    "додані",
    "нови",
    "новите",
    "nowy",
    "nowe",
    "nowych",
    "dodane",
    "nový",
    "nové",
    "nových",
    "přidané",
    "nový",
    "ny",
    "nya",
    "nye",
    "nyt",
    "tillagda",
    "uusi",
    "uudet",
    "uusia",
    "uusien",
    "lisätyt",
    "yeni",
    "eklenen",
    "νέα",
    "νέες",
    "νέοι",
    "νέο",
    "új",
    "újonnan",
    "bagong",
    "नए",
    "नई",
    "नया",
    "নতুন",
    "새",
    "새로운",
    "추가한",
    "추가된",
    "신규",
    "novi",
    "nove",
    "uued",
    "jauni",
    "jaunie",
    "nauji",
    "naujus",
    "nuevamente",
    "noves",
    "nous",
    "berri",
];
pub(crate) const NEW_AFTER: &[&str] = &[
    "nuevos",
    "nuevas",
    "nuevo",
    "nueva",
    "novos",
    "novas",
    "novo",
    "nova",
    "nuovi",
    "nuove",
    "nuovo",
    "nuova",
    "nouveaux",
    "nouvelles",
    "noi",
    "nou",
    "noves",
    "nous",
    "mới",
    "baru",
    "جديدة",
    "الجديدة",
    "جديد",
    "الجديد",
    "חדשים",
    "החדשים",
    "חדשות",
    "ใหม่",
    "jipya",
    "mapya",
    "جدید",
    "نئے",
    "añadidos",
    "agregados",
    "adicionados",
    "aggiunti",
    "ajoutés",
    "berriak",
];
/// The same in scripts written without spaces: a mark for new before a word for tests,
/// at most six characters on ("新增的单元测试", "新しいテスト", "追加したテスト").
const NEW_UNSPACED: &[&str] = &["新", "追加"];

/// Whether a sentence's prose speaks of the tests this turn wrote ("the new tests pass").
fn new_tests_named(prose: &str) -> bool {
    let is_tests = |w: &str| SUITE_WORDS.iter().any(|t| w.contains(t));
    // Within one clause ("New endpoint added; tests pass" names no new tests). Marks and
    // viramas are no word's end ("टेस्ट"): words end at spaces and punctuation.
    let spaced = prose
        .split(|c: char| {
            matches!(
                c,
                '.' | ';'
                    | ','
                    | ':'
                    | '!'
                    | '?'
                    | '，'
                    | '。'
                    | '；'
                    | '：'
                    | '！'
                    | '？'
                    | '、'
                    | '،'
                    | '؛'
                    | '('
                    | ')'
                    | '（'
                    | '）'
                    | '—'
                    | '–'
            )
        })
        .any(|clause| {
            let words: Vec<&str> = clause
                .split_whitespace()
                .map(|w| {
                    w.trim_matches(|c: char| c.is_ascii_punctuation() || "«»“”„‘’…".contains(c))
                })
                .filter(|w| !w.is_empty())
                .collect();
            words.iter().enumerate().any(|(i, w)| {
                is_tests(w)
                    && (words[i.saturating_sub(2)..i]
                        .iter()
                        .any(|b| NEW_BEFORE.contains(b))
                        || words.get(i + 1).is_some_and(|a| NEW_AFTER.contains(a)))
            })
        });
    spaced
        || NEW_UNSPACED.iter().any(|mark| {
            super::scan::find_all(prose, mark).any(|at| {
                // "更新" (update), "重新" (again), "最新" (latest), "刷新": no new tests.
                if prose[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| matches!(c, '更' | '重' | '最' | '刷'))
                {
                    return false;
                }
                let rest: String = prose[at + mark.len()..].chars().take(8).collect();
                ["テスト", "测试", "測試"]
                    .iter()
                    .any(|t| rest.find(t).is_some_and(|i| rest[..i].chars().count() <= 6))
            })
        })
}

/// Whether "doc" stands before a word for tests (`doc testleri`, `doc-тести`).
fn doc_tests_named(lower: &str) -> bool {
    lower.match_indices("doc").any(|(i, _)| {
        let before_ok = lower[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let rest = &lower[i + 3..];
        let Some(rest) = rest.strip_prefix([' ', '-']) else {
            return false;
        };
        before_ok && SUITE_WORDS.iter().any(|t| rest.starts_with(t))
    })
}

/// Whether a sentence (lower-cased) speaks of a binary's own tests: in one clause, a word
/// for "binary" within three words of a word for tests ("the binary's tests", "tests
/// propres au binaire", "Binärtests"), or a binary's source (`src/main.rs`, `src/bin/…`)
/// beside a word for tests. A binary that builds beside tests that pass names no kind.
fn binary_tests_named(lower: &str) -> bool {
    const BINARY: &[&str] = &[
        "binary",
        "binaire",
        "binario",
        "binária",
        "binário",
        "binari",
        "binär",
        "binar",
        "бинарн",
        "бінарн",
        "двоичн",
        "バイナリ",
        "二进制",
        "二進位",
        "바이너리",
        "nhị phân",
        "biner",
        "बाइनरी",
    ];
    if !BINARY.iter().any(|b| lower.contains(b))
        && !lower.contains("src/main.rs")
        && !lower.contains("src/bin/")
    {
        return false;
    }
    let is_tests = |w: &str| SUITE_WORDS.iter().any(|t| w.contains(t));
    lower
        .split([',', ';', '，', '；', '。', ':', '—'])
        .any(|clause| {
            let words: Vec<&str> = clause.split_whitespace().collect();
            words.iter().enumerate().any(|(i, w)| {
                let binary = BINARY.iter().any(|b| w.contains(b))
                    || w.contains("src/main.rs")
                    || w.contains("src/bin/");
                // "Binärtests", "バイナリのテスト": one word may hold both.
                binary
                    && (is_tests(w)
                        || words[i.saturating_sub(3)..(i + 4).min(words.len())]
                            .iter()
                            .any(|x| is_tests(x)))
            })
        })
}

/// Whether `words` stands in `text` as whole words (not `black` in `blacklist`).
fn has_words(text: &str, words: &str) -> bool {
    // Scripts written without spaces between words (Japanese, Chinese) have no word
    // edges to look for.
    if words.chars().next().is_some_and(is_unspaced) {
        return super::scan::find(text, words).is_some();
    }
    super::scan::find_all(text, words).any(|i| {
        if in_a_path(text, i, i + words.len()) {
            return false;
        }
        let before = text[..i].chars().next_back();
        let after = text[i + words.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_');
        // "the mocha-suite", "jest-tests": a hyphen after the name still ends it.
        edge(before) && (edge(after) || after == Some('-'))
    })
}

/// Whether `text[at..end]` is a part of a path ("`build/old.o`", "`src/lint.rs`",
/// "`build/`"), not a tool's name: a slash joins it to a file name (one with a dot) or a
/// folder's end. "ruff/black" names two tools.
fn in_a_path(text: &str, at: usize, end: usize) -> bool {
    let is_edge = |c: char| c.is_whitespace() || matches!(c, '`' | '(' | ')' | ',' | '"' | '\'');
    let start = text[..at]
        .rfind(is_edge)
        .map_or(0, |i| super::scan::after_char(text, i));
    let stop = text[end..].find(is_edge).map_or(text.len(), |i| end + i);
    let token = &text[start..stop];
    let after_slash = text[end..].starts_with('/');
    let before_slash = text[..at].ends_with('/');
    let file_name = token
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'));
    (after_slash || before_slash) && (file_name || token.ends_with('/'))
}

/// Whether `c` belongs to a script written without spaces between words.
fn is_unspaced(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF)
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
    fn kinds_of_tests_are_named_in_every_language_of_the_tables() {
        let t = Kind::Tests { count: None };
        for (sentence, kinds) in [
            (
                "Unit- und Integrationstests bestehen.",
                &["unit", "integration"][..],
            ),
            (
                "Les tests unitaires et d'intégration passent.",
                &["unit", "integration"],
            ),
            (
                "Las pruebas unitarias y de integración pasan.",
                &["unit", "integration"],
            ),
            (
                "単体テストと結合テストはすべて成功しました。",
                &["unit", "integration"],
            ),
            ("单元测试和集成测试全部通过。", &["unit", "integration"]),
            (
                "단위 테스트와 통합 테스트가 모두 통과했습니다.",
                &["unit", "integration"],
            ),
            (
                "Модульные и интеграционные тесты проходят.",
                &["unit", "integration"],
            ),
            ("All doc tests pass.", &["doc"]),
            (
                "Les tests propres au binaire dans `src/main.rs` passent aussi.",
                &["binary"],
            ),
            ("Die Binärtests sind grün.", &["binary"]),
            ("The release binary builds, and the tests pass.", &[]),
        ] {
            let found: Vec<&str> = named_in(sentence, &t)
                .iter()
                .filter_map(|n| n.kind)
                .collect();
            assert_eq!(found, kinds, "{sentence}");
        }
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
        assert_eq!(covers("binary", &argv("cargo test --lib")), Some(false));
        assert_eq!(covers("binary", &argv("cargo test --bins")), Some(true));
        assert_eq!(covers("binary", &argv("cargo test")), Some(true));
        assert_eq!(covers("binary", &argv("pytest -q")), None);
        assert_eq!(
            covers("doc", &argv("cargo test --all-targets")),
            Some(false)
        );
        assert_eq!(
            covers("integration", &argv("cargo test --all-targets")),
            Some(true)
        );
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

    #[test]
    fn the_tests_this_turn_wrote_are_named_in_many_languages() {
        let t = Kind::Tests { count: None };
        let new = |s: &str| named_in(s, &t).iter().any(|n| n.kind == Some("new"));
        for sentence in [
            "The 2 new tests pass.",
            "기존 단위 테스트 2개와 새 속성 테스트 2개 모두 통과했습니다.",
            "Los tests nuevos pasan.",
            "Die neuen Tests sind grün.",
            "新增的测试全部通过。",
            "新しいテストはすべて成功しました。",
            "सात नए टेस्ट पास हैं।",
        ] {
            assert!(new(sentence), "{sentence}");
        }
        for sentence in [
            "The tests for the new endpoint pass.",
            "All tests pass.",
            "New endpoint added; tests pass.",
            "重新运行测试，全部通过。",
            "更新了测试数据，测试通过。",
        ] {
            assert!(!new(sentence), "{sentence}");
        }
    }
}
