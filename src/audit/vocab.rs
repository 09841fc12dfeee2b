//! The vocabulary both readers of a final message share, below them: what a claim is
//! ([`Claim`], [`Kind`], [`Reading`]), the English words the English reader and the `en`
//! table use, the shapes of paths, hashes and check commands, and the tokens of a clause.
//! The English reader (`claims`), the tables' reader (`lang`) and the table of named tools
//! (`named`) import it; it imports none of them.

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

/// What a claim says happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    File {
        path: String,
        change: Change,
    },
    /// Something under a directory changed ("removed the stale files under `build/`").
    Dir {
        path: String,
        change: Change,
    },
    Tests {
        count: Option<u64>,
    },
    /// How many tests failed, as the message reports it ("1 test fails", "zwei
    /// fehlgeschlagen"): an understated count hides failures.
    Failures {
        count: u64,
    },
    Build,
    Lint,
    Commit {
        hash: Option<String>,
    },
    Push {
        branch: Option<String>,
    },
    /// A tag or a branch the message says is there ("tagged `v0.2.0`", "on the new
    /// branch `feat/port`").
    Ref {
        name: String,
        tag: bool,
        /// The commit the sentence says a tag points at ("v1.1 מצביע על הקומיט `3f2a9c1`"),
        /// by the one hash it names.
        at: Option<String>,
    },
    /// A value the message says a file now holds ("`config/app.yaml` now listens on port
    /// `9000`"): the file as the turn left it must hold it, whoever wrote it.
    Holds {
        path: String,
        value: String,
    },
    /// A value the message says stands under a heading of a file ("在 `## [Unreleased]` 下新增了
    /// `zscore` 条目", "`retries = 3` under `[server]` in `app.ini`"): the section, from the
    /// heading to the next of its level or above, must hold it.
    UnderHeading {
        path: String,
        heading: String,
        value: String,
    },
    /// A command the message says ran without trouble ("`git stash pop` без проблем",
    /// "`git merge feat` — ok"): it ran in this turn, and neither failed nor stopped on a
    /// conflict.
    Ran {
        command: String,
    },
    /// Something the message says did not move ("main не тронут", "nothing pushed", "did
    /// not push to `main`"): the local branch as the turn began (`remote` false), or no
    /// push of it (of the work, without a branch) went out in this turn (`remote` true).
    Unmoved {
        branch: Option<String>,
        remote: bool,
    },
    /// The working tree the message says is clean ("working tree clean", "`git status`
    /// sauber", "作業ツリーはクリーン"): no change to a tracked file, staged or not, and no
    /// new file the turn left untracked.
    Clean,
    /// Two branches the message says were joined by a rebase or a merge ("rebased `feat`
    /// onto `main`", "`feat` को `main` पर rebase कर दिया"): one holds the other in its
    /// history as the turn left them, whichever way the sentence orders them.
    Joined {
        a: String,
        b: String,
    },
    /// A merge or a rebase the message says is done without naming the two branches
    /// ("merge selesai dengan merge commit di `main`", "the rebase went through"): the
    /// repository is not left in the middle of one (`MERGE_HEAD`, a rebase's folder).
    Concluded {
        rebase: bool,
    },
    /// How far a branch and its upstream stand apart, as the message counts it ("`main`
    /// ligger 3 commits före `origin/main`"): the count must be one of the two the
    /// repository gives (ahead or behind) as the turn left them.
    Apart {
        branch: String,
        upstream: String,
        count: u64,
    },
    /// A file the message says went into the turn's commit ("оба файла вошли в коммит",
    /// "committed `notes.txt` and `README.md`"): a commit of the turn changed it, or it has
    /// nothing left to commit.
    Committed {
        path: String,
    },
    /// A commit the message names by its subject as the turn's ("Коммит: «README: add a
    /// Testing section»"): a commit of that subject (case, spacing and a closing period
    /// aside; an ellipsis ends a prefix) is the turn's or in the history of a branch.
    Titled {
        subject: String,
    },
    /// A trailer the message says the turn's commit carries ("credited via the
    /// `Co-authored-by` trailer"): git reads it from the commit's last paragraph.
    Trailer {
        key: String,
    },
    /// A server the message says runs now at a local port ("läuft jetzt auf
    /// http://127.0.0.1:18744"): something accepts connections there when the turn ends.
    Listening {
        port: u16,
    },
    /// A file the message says is not committed ("`notes.txt` — ikke committet", "the bump
    /// in `package.json` is not committed yet"): no commit of the turn changed it, or it
    /// still has changes to commit. Told beside a commit the sentence names by its hash
    /// ("Commit 407860f …; `scratch.js` não entrou no commit"), that commit did not change it.
    Uncommitted {
        path: String,
        commit: Option<String>,
    },
    /// Files of an extension the message says are gone ("the `.bak` files are deleted",
    /// "`.bak` ファイルは残っていません"): none that the turn made or changed is left.
    NoneLeft {
        ext: String,
    },
    /// A branch the message says was deleted ("`spike/cache` silindi", "deleted the branch
    /// `feature/old-login` locally and on `origin`"): it is gone, and from `origin`'s
    /// branches too when the clause names the remote (`remote`).
    BranchGone {
        name: String,
        remote: bool,
    },
    /// A commit the message names by its subject and places in a branch's history ("both
    /// commits, `docs: usage` and `docs: changelog`, are now on top of `main`"), or says is
    /// gone from it (`gone`: "the commit `stats: n-1` was removed from `main`'s history"):
    /// as the turn left the repository, a commit of that subject is in the history of one
    /// of `refs` (or of HEAD), or of none of them.
    InHistory {
        subject: String,
        refs: Vec<String>,
        gone: bool,
    },
    /// A file the message says no commit holds ("`.env` is gone from the history too",
    /// "в `origin` не е останал commit, който да го съдържа"): no commit of any branch,
    /// remote-tracking branch or tag has it.
    FileOutOfHistory {
        path: String,
    },
    /// The stash list as the message says the turn left it ("`git stash list` अब खाली
    /// है", "your stash `experiment` is still in `git stash list`"): an entry named (or
    /// any, without a name) is in it (`present`) or is not.
    Stash {
        name: Option<String>,
        present: bool,
    },
    /// The mode the message says a file was committed with ("`bin/run` … 実行ビット付き
    /// （100755）でコミットされています", "в commit-а скриптът е записан … с режим `100755`"):
    /// HEAD's tree holds the file with that mode.
    Mode {
        path: String,
        mode: String,
    },
    /// What the message says an archive holds or leaves out ("`dist/site.zip` now holds
    /// only `index.html` …; `pricing-2024.html` is no longer in it", "O `.env` ficou fora do
    /// tarball"): the archive as the turn left it lists `member` (under any folder), or not.
    InArchive {
        archive: String,
        member: String,
        present: bool,
    },
    /// The line ends the message says a file has ("改行は LF で、CRLF ではありません",
    /// "`data/a.csv` → CRLF"): every line of the file ends so (`crlf`: in `\r\n`).
    LineEnds {
        path: String,
        crlf: bool,
    },
    /// Text the message says a command of the turn printed ("skript vypsal `skipped: …`"):
    /// some output of the turn holds it.
    Printed {
        text: String,
    },
    /// Text the message says a command it names printed ("`git describe` теперь выводит
    /// `v0.2.0`", "`./scripts/preflight.sh`: `errors=0 warnings=1`"): a run of that command
    /// in the turn printed it; with `now` ("теперь выводит"), its last run.
    PrintedBy {
        command: String,
        text: String,
        now: bool,
    },
    /// The coverage the message says a run measured ("Line coverage of `src/stats.js` is
    /// at 100%"): some run of the turn printed that figure in the file's row (the whole
    /// run's, where no file is named), in its column for lines where it has one.
    Coverage {
        path: Option<String>,
        percent: String,
    },
    /// Text the message says no file of a kind or a folder holds any more ("no `.js` file
    /// has `new Buffer` any more", "`src/` 里已经没有 `console.log` 了"): no such file of
    /// the project holds it. `scope` is an extension (`js`) or a folder (`src/`).
    TextGone {
        text: String,
        scope: String,
    },
    /// A line of code the message says it took out, naming no file ("quité el `dbg!(n);`",
    /// "removed the `console.log(x)`"): no file the turn wrote holds it any more.
    TextRemoved {
        text: String,
    },
    /// What the message says a Python function has ("`chunk` has a docstring with an
    /// example", "type hints on `slugify`, `clamp` and `snake_to_camel` in `app/text.py`"):
    /// its `def`, in the file the sentence names or one the turn wrote, has it.
    FnHas {
        name: String,
        part: FnPart,
        path: Option<String>,
    },
    /// The tests the message says a test file holds ("test/batch.test.js có 3 test", "`tests/
    /// test_api.py` now has 5 tests"): the file as the turn left it defines that many.
    TestsInFile {
        path: String,
        count: u64,
    },
    /// A failure the message says was seen before the fix ("the new test fails on the code
    /// before the fix", "修正前のコードではこのテストが失敗します"): some run of the turn failed.
    FailedBeforeFix,
    /// A package script the message says the project has ("package.json에 `start` 스크립트를
    /// 넣어서"), and the tools it says the script runs ("`npm test` lance … node:test, jest et
    /// mocha"): `package.json` defines it, and what it runs names each tool.
    Script {
        name: String,
        runs: Vec<String>,
    },
    /// How many files the message says a folder holds ("в `backups/` остались три самых
    /// новых архива"): the folder as the turn left it holds that many, counted in any of
    /// the ways a report may count them.
    FolderCount {
        dir: String,
        count: u64,
    },
    /// How many lines the message says a file holds ("`requirements-dev.txt` ina pins 4
    /// tu"): the file as the turn left it has that many, counted in any of the ways a report
    /// may count them (lines, lines with text, lines that are no comment, a table's rows).
    LineCount {
        path: String,
        count: u64,
    },
    /// How many files the message says a commit it names by its hash holds ("El commit
    /// 0ccacdc lleva los cuatro archivos"): the commit changed that many paths.
    CommitFiles {
        commit: String,
        count: u64,
    },
    /// Parts of the project the message says a commit named by its hash holds, each
    /// changed or at a version ("দুটো প্যাকেজের পরিবর্তনই আছে", "`units` och `report` står
    /// båda på 0.2.0 i commit 012a464"): `words` are the sentence's, the parts are those of
    /// the project they name (two or more).
    PartsInCommit {
        commit: String,
        words: Vec<String>,
        version: Option<String>,
    },
    /// How many commits the message says the turn made, or a branch has over another ("két
    /// új merge commit van a `main`-en", "над `origin/main` вече има само един commit"): a
    /// walk of the branch (HEAD when none is named) down to the turn's start or the other
    /// branch counts that many of that sort.
    CommitCount {
        count: u64,
        sort: CommitSort,
        since: CommitSince,
        tip: Option<String>,
    },
}

/// Which commits a count counts ([`Kind::CommitCount`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitSort {
    Any,
    /// Commits with two parents or more.
    Merge,
    /// Commits that revert another (git's "Revert …" or its "This reverts commit" line).
    Revert,
}

/// Where a count of commits starts ([`Kind::CommitCount`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitSince {
    /// The commits the turn made: over HEAD as the turn began.
    Turn,
    /// The commits over another branch (`origin/main`).
    Ref(String),
}

/// The part of a function a claim says it has ([`Kind::FnHas`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnPart {
    Docstring,
    TypeHints,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Modified,
    Created,
    Deleted,
    Renamed {
        to: String,
    },
    /// "`config/app.yaml` unchanged": the file is as the turn found it.
    Unchanged,
    /// "`logs/app.log` stays in place", "`build/old.o` is still there": the path is there
    /// as the turn left it, whatever its content.
    Kept,
}

impl std::fmt::Display for Kind {
    /// What the claim says happened, for people (`audit`, `audit --explain`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let change = |c: &Change| match c {
            Change::Modified => "changed".to_owned(),
            Change::Created => "created".to_owned(),
            Change::Deleted => "deleted".to_owned(),
            Change::Renamed { to } => format!("renamed to {to}"),
            Change::Unchanged => "unchanged".to_owned(),
            Change::Kept => "still there".to_owned(),
        };
        match self {
            Kind::File { path, change: c } => write!(f, "file {path} {}", change(c)),
            Kind::Dir { path, change: c } => write!(f, "something under {path} {}", change(c)),
            Kind::Tests { count: Some(n) } => write!(f, "{n} tests pass"),
            Kind::Tests { count: None } => write!(f, "the tests pass"),
            Kind::Failures { count } => write!(f, "{count} tests fail"),
            Kind::Build => write!(f, "the build succeeds"),
            Kind::Lint => write!(f, "the linter passes"),
            Kind::Commit { hash: Some(h) } => write!(f, "commit {h} made"),
            Kind::Commit { hash: None } => write!(f, "a commit made"),
            Kind::Push { branch: Some(b) } => write!(f, "pushed to {b}"),
            Kind::Push { branch: None } => write!(f, "pushed"),
            Kind::Ref {
                name,
                tag: true,
                at: Some(h),
            } => write!(f, "tag {name} made at {h}"),
            Kind::Ref {
                name, tag: true, ..
            } => write!(f, "tag {name} made"),
            Kind::Ref {
                name,
                tag: false,
                at: Some(h),
            } => write!(f, "branch {name} at {h}"),
            Kind::Ref {
                name, tag: false, ..
            } => write!(f, "branch {name} made"),
            Kind::Holds { path, value } => write!(f, "file {path} holds `{value}`"),
            Kind::UnderHeading {
                path,
                heading,
                value,
            } => write!(f, "file {path} holds `{value}` under `{heading}`"),
            Kind::Ran { command } => write!(f, "`{command}` succeeded"),
            Kind::Unmoved {
                branch: Some(b),
                remote: true,
            } => write!(f, "nothing pushed to {b}"),
            Kind::Unmoved {
                branch: None,
                remote: true,
            } => write!(f, "nothing pushed"),
            Kind::Unmoved {
                branch: Some(b),
                remote: false,
            } => write!(f, "branch {b} left as it was"),
            Kind::Unmoved {
                branch: None,
                remote: false,
            } => write!(f, "the branches left as they were"),
            Kind::Clean => write!(f, "the working tree is clean"),
            Kind::Joined { a, b } => write!(f, "branches {a} and {b} joined"),
            Kind::Concluded { rebase: true } => write!(f, "the rebase is done"),
            Kind::Concluded { rebase: false } => write!(f, "the merge is done"),
            Kind::Apart {
                branch,
                upstream,
                count,
            } => write!(f, "branch {branch} {count} commits apart from {upstream}"),
            Kind::Committed { path } => write!(f, "file {path} committed"),
            Kind::Uncommitted { path, commit: None } => write!(f, "file {path} not committed"),
            Kind::Uncommitted {
                path,
                commit: Some(hash),
            } => write!(f, "file {path} not in commit {hash}"),
            Kind::Listening { port } => write!(f, "a server listens on port {port}"),
            Kind::Titled { subject } => write!(f, "commit titled `{subject}` made"),
            Kind::Trailer { key } => write!(f, "commit with a `{key}` trailer made"),
            Kind::NoneLeft { ext } => write!(f, "no *.{ext} file left"),
            Kind::BranchGone {
                name,
                remote: false,
            } => write!(f, "branch {name} deleted"),
            Kind::BranchGone { name, remote: true } => {
                write!(f, "branch {name} deleted here and on origin")
            }
            Kind::InHistory {
                subject,
                refs,
                gone: false,
            } => write!(
                f,
                "commit `{subject}` in the history of {}",
                refs.join(", ")
            ),
            Kind::InHistory {
                subject,
                refs,
                gone: true,
            } => write!(f, "commit `{subject}` gone from {}", refs.join(", ")),
            Kind::Stash {
                name: Some(n),
                present: true,
            } => write!(f, "stash {n} still listed"),
            Kind::Stash {
                name: Some(n),
                present: false,
            } => write!(f, "stash {n} gone from the list"),
            Kind::Stash {
                name: None,
                present: true,
            } => write!(f, "a stash listed"),
            Kind::Stash {
                name: None,
                present: false,
            } => write!(f, "the stash list empty"),
            Kind::Mode { path, mode } => write!(f, "file {path} committed with mode {mode}"),
            Kind::LineCount { path, count } => write!(f, "file {path} holds {count} lines"),
            Kind::CommitFiles { commit, count } => {
                write!(f, "commit {commit} holds {count} files")
            }
            Kind::PartsInCommit {
                commit, version, ..
            } => match version {
                Some(v) => write!(f, "commit {commit} holds the parts named at {v}"),
                None => write!(f, "commit {commit} holds changes of the parts named"),
            },
            Kind::CommitCount {
                count,
                sort,
                since,
                tip,
            } => {
                let sort = match sort {
                    CommitSort::Any => "",
                    CommitSort::Merge => "merge ",
                    CommitSort::Revert => "revert ",
                };
                let plural = if *count == 1 { "" } else { "s" };
                let tip = tip.as_deref().unwrap_or("HEAD");
                match since {
                    CommitSince::Turn => write!(f, "{count} new {sort}commit{plural} on {tip}"),
                    CommitSince::Ref(base) => {
                        write!(f, "{count} {sort}commit{plural} on {tip} over {base}")
                    }
                }
            }
            Kind::Printed { text } => write!(f, "`{text}` printed"),
            Kind::PrintedBy { command, text, now } => write!(
                f,
                "`{command}` printed `{text}`{}",
                if *now { " (its last run)" } else { "" }
            ),
            Kind::Coverage { path, percent } => match path {
                Some(path) => write!(f, "coverage of {path} is {percent}%"),
                None => write!(f, "coverage of the run is {percent}%"),
            },
            Kind::InArchive {
                archive,
                member,
                present: true,
            } => write!(f, "archive {archive} holds {member}"),
            Kind::InArchive {
                archive,
                member,
                present: false,
            } => write!(f, "archive {archive} leaves out {member}"),
            Kind::LineEnds { path, crlf } => write!(
                f,
                "file {path} has {} line ends",
                if *crlf { "CRLF" } else { "LF" }
            ),
            Kind::TextGone { text, scope } if scope.ends_with('/') => {
                write!(f, "no file under {scope} holds `{text}`")
            }
            Kind::TextGone { text, scope } => write!(f, "no *.{scope} file holds `{text}`"),
            Kind::FileOutOfHistory { path } => write!(f, "no commit holds {path}"),
            Kind::TextRemoved { text } => write!(f, "no file the turn wrote holds `{text}`"),
            Kind::TestsInFile { path, count } => {
                write!(f, "file {path} defines {count} tests")
            }
            Kind::FailedBeforeFix => write!(f, "a failure seen before the fix"),
            Kind::FolderCount { dir, count } => write!(f, "folder {dir} holds {count} files"),
            Kind::Script { name, runs } if runs.is_empty() => {
                write!(f, "package script `{name}` defined")
            }
            Kind::Script { name, runs } => {
                write!(f, "package script `{name}` runs {}", runs.join(", "))
            }
            Kind::FnHas { name, part, .. } => write!(
                f,
                "function `{name}` has {}",
                match part {
                    FnPart::Docstring => "a docstring",
                    FnPart::TypeHints => "type hints",
                }
            ),
        }
    }
}

/// The kind of a claim without its object (which file, which hash, how many tests): what
/// `report` groups unbacked claims by. The ledger keeps a claim as its [`Kind`]'s text, so
/// [`ClaimClass::of_text`] reads the class back from it; the two stay side by side here so
/// that a change to one is seen beside the other (a test holds them together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClaimClass {
    Tests,
    Failures,
    Build,
    Lint,
    FileChanged,
    FileCreated,
    FileDeleted,
    FileRenamed,
    FileHolds,
    Dir,
    Commit,
    Push,
    Ref,
    Ran,
    Unmoved,
    Clean,
    Joined,
    /// A text no [`Kind`] writes: a ledger from another version.
    Other,
}

impl ClaimClass {
    pub const ALL: [ClaimClass; 18] = [
        ClaimClass::Tests,
        ClaimClass::Failures,
        ClaimClass::Build,
        ClaimClass::Lint,
        ClaimClass::FileChanged,
        ClaimClass::FileCreated,
        ClaimClass::FileDeleted,
        ClaimClass::FileRenamed,
        ClaimClass::FileHolds,
        ClaimClass::Dir,
        ClaimClass::Commit,
        ClaimClass::Push,
        ClaimClass::Ref,
        ClaimClass::Ran,
        ClaimClass::Unmoved,
        ClaimClass::Clean,
        ClaimClass::Joined,
        ClaimClass::Other,
    ];

    /// The class of a claim as the ledger keeps it (`Kind`'s text: "file a.rs changed").
    pub fn of_text(text: &str) -> ClaimClass {
        let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if let Some(rest) = text.strip_prefix("file ") {
            // The path comes first and may hold spaces: the change is read from the end.
            return if rest.ends_with('`') && rest.contains(" holds `") {
                ClaimClass::FileHolds
            } else if rest.ends_with(" changed") {
                ClaimClass::FileChanged
            } else if rest.ends_with(" created") {
                ClaimClass::FileCreated
            } else if rest.ends_with(" deleted") {
                ClaimClass::FileDeleted
            } else if rest.contains(" renamed to ") {
                ClaimClass::FileRenamed
            } else if rest.ends_with(" still there") {
                ClaimClass::FileChanged
            } else if rest.ends_with(" line ends")
                || rest.ends_with(" tests") && rest.contains(" defines ")
                || rest.ends_with(" lines") && rest.contains(" holds ")
            {
                ClaimClass::FileHolds
            } else if rest.ends_with(" committed")
                || rest.contains(" committed with mode ")
                || rest.contains(" not in commit ")
            {
                ClaimClass::Commit
            } else {
                ClaimClass::Other
            };
        }
        if text.starts_with("archive ")
            && (text.contains(" holds ") || text.contains(" leaves out "))
        {
            return ClaimClass::FileHolds;
        }
        if (text.starts_with("no file under ")
            || text.starts_with("no *.")
            || text.starts_with("no file the turn wrote "))
            && text.contains(" holds `")
        {
            return ClaimClass::FileHolds;
        }
        if text.starts_with("package script `")
            && (text.ends_with("` defined") || text.contains("` runs "))
        {
            return ClaimClass::FileHolds;
        }
        if text.starts_with("function `")
            && (text.ends_with("` has a docstring") || text.ends_with("` has type hints"))
        {
            return ClaimClass::FileHolds;
        }
        if text.starts_with("no *.") && text.ends_with(" file left") {
            return ClaimClass::FileDeleted;
        }
        if text.starts_with("no commit holds ")
            || text.starts_with("commit ") && text.ends_with(" files") && text.contains(" holds ")
            || text.starts_with("commit ") && text.contains(" holds the parts named at ")
            || text.starts_with("commit ") && text.ends_with(" holds changes of the parts named")
            || text.split(' ').next().is_some_and(number)
                && (text.contains(" commit on ") || text.contains(" commits on "))
        {
            return ClaimClass::Commit;
        }
        if text.starts_with("something under ")
            || text.starts_with("folder ") && text.ends_with(" files") && text.contains(" holds ")
        {
            return ClaimClass::Dir;
        }
        if text.starts_with('`')
            && (text.ends_with("` succeeded")
                || text.ends_with("` printed")
                || text.contains("` printed `"))
            || text.starts_with("a server listens on port ")
            || text.starts_with("coverage of ") && text.ends_with('%')
        {
            return ClaimClass::Ran;
        }
        if text.starts_with("nothing pushed")
            || text.ends_with(" left as it was")
            || text == "the branches left as they were"
        {
            return ClaimClass::Unmoved;
        }
        match text {
            "the tests pass" => return ClaimClass::Tests,
            "the build succeeds" => return ClaimClass::Build,
            "the linter passes" => return ClaimClass::Lint,
            "a commit made" => return ClaimClass::Commit,
            "pushed" => return ClaimClass::Push,
            "the working tree is clean" => return ClaimClass::Clean,
            "a failure seen before the fix" => return ClaimClass::Failures,
            _ => {}
        }
        if text.strip_suffix(" tests pass").is_some_and(number) {
            ClaimClass::Tests
        } else if text.strip_suffix(" tests fail").is_some_and(number) {
            ClaimClass::Failures
        } else if text.starts_with("commit `")
            && (text.contains("` in the history of ") || text.contains("` gone from "))
            || text.starts_with("commit ") && text.ends_with(" made")
        {
            ClaimClass::Commit
        } else if text.starts_with("stash ")
            && (text.ends_with(" still listed") || text.ends_with(" gone from the list"))
            || text == "a stash listed"
            || text == "the stash list empty"
        {
            ClaimClass::Ref
        } else if text.starts_with("branches ") && text.ends_with(" joined")
            || text == "the merge is done"
            || text == "the rebase is done"
        {
            ClaimClass::Joined
        } else if text.starts_with("pushed to ") {
            ClaimClass::Push
        } else if text.starts_with("branch ")
            && (text.ends_with(" deleted")
                || text.ends_with(" deleted here and on origin")
                || text.contains(" commits apart from "))
        {
            ClaimClass::Ref
        } else if (text.starts_with("tag ") || text.starts_with("branch "))
            && text.ends_with(" made")
            || text.starts_with("tag ") && text.contains(" made at ")
            || text.starts_with("branch ") && text.contains(" at ")
        {
            ClaimClass::Ref
        } else {
            ClaimClass::Other
        }
    }

    /// A stable name, for JSON.
    pub fn id(self) -> &'static str {
        match self {
            ClaimClass::Tests => "tests_pass",
            ClaimClass::Failures => "failing_tests_count",
            ClaimClass::Build => "build_succeeds",
            ClaimClass::Lint => "lint_passes",
            ClaimClass::FileChanged => "file_changed",
            ClaimClass::FileCreated => "file_created",
            ClaimClass::FileDeleted => "file_deleted",
            ClaimClass::FileRenamed => "file_renamed",
            ClaimClass::FileHolds => "file_holds_value",
            ClaimClass::Dir => "directory_changed",
            ClaimClass::Commit => "commit_made",
            ClaimClass::Push => "pushed",
            ClaimClass::Ref => "ref_made",
            ClaimClass::Ran => "command_succeeded",
            ClaimClass::Unmoved => "left_unmoved",
            ClaimClass::Clean => "tree_clean",
            ClaimClass::Joined => "branches_joined",
            ClaimClass::Other => "other",
        }
    }

    /// What the claims of the class say, for people.
    pub fn title(self) -> &'static str {
        match self {
            ClaimClass::Tests => "the tests pass",
            ClaimClass::Failures => "this many tests fail",
            ClaimClass::Build => "the build succeeds",
            ClaimClass::Lint => "the linter passes",
            ClaimClass::FileChanged => "a file changed",
            ClaimClass::FileCreated => "a file created",
            ClaimClass::FileDeleted => "a file deleted",
            ClaimClass::FileRenamed => "a file renamed",
            ClaimClass::FileHolds => "a file holds a value",
            ClaimClass::Dir => "something under a directory changed",
            ClaimClass::Commit => "a commit made",
            ClaimClass::Push => "pushed",
            ClaimClass::Ref => "a tag or branch made",
            ClaimClass::Ran => "a command succeeded",
            ClaimClass::Unmoved => "nothing pushed or moved",
            ClaimClass::Clean => "the working tree is clean",
            ClaimClass::Joined => "a rebase or a merge landed",
            ClaimClass::Other => "another claim (a ledger of another version)",
        }
    }
}

impl Kind {
    pub fn class(&self) -> ClaimClass {
        match self {
            Kind::File { change, .. } => match change {
                Change::Modified => ClaimClass::FileChanged,
                Change::Created => ClaimClass::FileCreated,
                Change::Deleted => ClaimClass::FileDeleted,
                Change::Renamed { .. } => ClaimClass::FileRenamed,
                Change::Unchanged | Change::Kept => ClaimClass::FileChanged,
            },
            Kind::Dir { .. } => ClaimClass::Dir,
            Kind::Tests { .. } => ClaimClass::Tests,
            Kind::Failures { .. } | Kind::FailedBeforeFix => ClaimClass::Failures,
            Kind::Build => ClaimClass::Build,
            Kind::Lint => ClaimClass::Lint,
            Kind::Commit { .. } => ClaimClass::Commit,
            Kind::Push { .. } => ClaimClass::Push,
            Kind::Ref { .. } => ClaimClass::Ref,
            Kind::Holds { .. }
            | Kind::UnderHeading { .. }
            | Kind::LineEnds { .. }
            | Kind::InArchive { .. }
            | Kind::FnHas { .. }
            | Kind::TestsInFile { .. }
            | Kind::TextGone { .. }
            | Kind::TextRemoved { .. } => ClaimClass::FileHolds,
            Kind::Ran { .. } => ClaimClass::Ran,
            Kind::Unmoved { .. } => ClaimClass::Unmoved,
            Kind::Clean => ClaimClass::Clean,
            Kind::Joined { .. } | Kind::Concluded { .. } => ClaimClass::Joined,
            Kind::Apart { .. } => ClaimClass::Ref,
            Kind::Committed { .. }
            | Kind::Uncommitted { .. }
            | Kind::Titled { .. }
            | Kind::Trailer { .. } => ClaimClass::Commit,
            Kind::NoneLeft { .. } => ClaimClass::FileDeleted,
            Kind::BranchGone { .. } => ClaimClass::Ref,
            Kind::InHistory { .. } | Kind::FileOutOfHistory { .. } => ClaimClass::Commit,
            Kind::Stash { .. } => ClaimClass::Ref,
            Kind::Mode { .. } => ClaimClass::Commit,
            Kind::Script { .. } => ClaimClass::FileHolds,
            Kind::FolderCount { .. } => ClaimClass::Dir,
            Kind::CommitCount { .. } | Kind::CommitFiles { .. } | Kind::PartsInCommit { .. } => {
                ClaimClass::Commit
            }
            Kind::LineCount { .. } => ClaimClass::FileHolds,
            Kind::Printed { .. }
            | Kind::PrintedBy { .. }
            | Kind::Coverage { .. }
            | Kind::Listening { .. } => ClaimClass::Ran,
        }
    }
}

/// How sure the reading is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    /// An explicit claim of the agent with a concrete object: unbacked, it blocks.
    Strong,
    /// A weaker reading: unbacked, it is reported to the user and never blocks.
    Weak,
}

/// One claim and the sentence it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub kind: Kind,
    pub sentence: String,
    pub confidence: Confidence,
    /// Why the reading is weak, when it is.
    pub hedge: Option<String>,
    /// For a test count: false when the sentence holds another count, so the number may
    /// not be the one that passed (a mismatch is then only reported).
    pub count_sure: bool,
    /// For a test count: the sentence counts every test ("all five", "les trois tests"),
    /// so one suite's count does not back it.
    pub count_whole: bool,
    /// For tests: the sentence says the whole suite passed ("ran the whole jest suite",
    /// "all tests pass"), so a run that selected tests by name does not back it.
    pub whole_suite: bool,
    /// For a path: its shape is not a file's (`Type.method`, `src/utils`), so it is a
    /// path only if the project knows it (it exists, existed, or was written).
    pub path_inferred: bool,
    /// For a check: the tools (or suites) the sentence names; each must have run.
    pub tools: Vec<&'static Named>,
    /// For a check: the check commands its clause names in code spans (`node --check
    /// a.js`); one of them must have run.
    pub commands: Vec<String>,
    /// For tests: the test files its clause names (`tests/test_more.py`); a run that
    /// selected each must have passed.
    pub test_files: Vec<String>,
    /// For a path: whether it leads a list item of its own.
    pub listed: Listed,
    /// For a lint or a build: the sentence says the check printed no warnings ("clippy:
    /// no warnings", "aucun avertissement"), so a run that printed some does not back it,
    /// whatever its exit status.
    pub no_warnings: bool,
    /// A copy the message describes ("copied `a` into `dist/`"): it blocks only where a
    /// copy command of the turn names its target (one that may not have run); else it
    /// is reported.
    pub via_copy: bool,
    /// For a file: another sentence of the message writes out the command that put it back
    /// (`git checkout -- config/app.yaml`): a change the message also tells was undone.
    pub undo_told: bool,
}

/// Whether a claim's path leads a list item ("- `docs/faq.md` — the FAQ", a table row):
/// an item that leads with a path says the file is there, whatever verb it has or lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    No,
    /// A reader's claim on the path: if the project never had the path, the claim blocks
    /// even when its reading is weak.
    Lead,
    /// No reader read a change: the item only says the file is there. It is checked
    /// against a path the project never had (no such file exists, existed when the turn
    /// began, or was written), and dropped otherwise.
    Alone,
}

impl Claim {
    /// A strong claim read from `sentence` (the language tables' reader makes them too).
    pub(crate) fn read(kind: Kind, sentence: &str) -> Claim {
        Claim::new(kind, sentence)
    }

    pub(crate) fn new(kind: Kind, sentence: &str) -> Claim {
        Claim {
            kind,
            sentence: sentence.to_owned(),
            confidence: Confidence::Strong,
            hedge: None,
            count_sure: true,
            count_whole: false,
            whole_suite: false,
            path_inferred: false,
            tools: Vec::new(),
            commands: Vec::new(),
            test_files: Vec::new(),
            listed: Listed::No,
            no_warnings: false,
            via_copy: false,
            undo_told: false,
        }
    }

    /// Binds the check commands and test files among a clause's code spans.
    pub(crate) fn bind_spans<'s>(&mut self, spans: impl IntoIterator<Item = &'s str>) {
        if !matches!(
            self.kind,
            Kind::Tests { .. } | Kind::Build | Kind::Lint | Kind::Failures { .. }
        ) {
            return;
        }
        // A check's own commands only: "the suite passes (`cargo test`), and `cargo
        // clippy` …" binds `cargo test` to the tests claim, not `cargo clippy`.
        let same_check = |span: &str| {
            matches!(
                (command_kind(span), &self.kind),
                (
                    Some(Kind::Tests { .. }),
                    Kind::Tests { .. } | Kind::Failures { .. }
                ) | (Some(Kind::Build | Kind::Lint), Kind::Build | Kind::Lint)
            )
        };
        for span in spans {
            let span = span.trim();
            if check_command_span(span) && same_check(span) {
                self.commands.push(span.to_owned());
            } else if matches!(self.kind, Kind::Tests { .. })
                && (test_file_span(span) || test_folder_span(span))
            {
                // A folder keeps its slash: `tests/` is not the end of `libs/x/tests`.
                let folder = test_folder_span(span) && !span.ends_with('/');
                self.test_files.push(if folder {
                    format!("{span}/")
                } else {
                    span.to_owned()
                });
            }
        }
    }

    pub(crate) fn weaken(&mut self, why: &str) {
        if self.confidence == Confidence::Strong {
            self.confidence = Confidence::Weak;
            self.hedge = Some(why.to_owned());
        }
    }
}

/// The reading of one sentence (or one skipped line): its claims, and why the rest of it
/// claims nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub sentence: String,
    pub claims: Vec<Claim>,
    /// Why parts of the sentence (or all of it) are not claims.
    pub why: Vec<String>,
    /// The line is not read at all: a quotation, a heading, or a list that is not the
    /// agent's claims ("Next steps").
    pub skipped: bool,
}

/// Verbs that claim a file changed, by the change they claim.
pub(crate) const MODIFY_VERBS: &[&str] = &[
    "updated",
    "modified",
    "changed",
    "edited",
    "rewrote",
    "rewritten",
    "fixed",
    "refactored",
    "replaced",
    "implemented",
    "patched",
    "adjusted",
    "tweaked",
    "extended",
    "reworked",
    "cleaned",
    "reformatted",
    "converted",
    "migrated",
    "documented",
    "corrected",
    "amended",
    "touched",
    "bumped",
    "extracted",
    "reverted",
    "simplified",
    "restructured",
    "reorganized",
    "reorganised",
    "regenerated",
    "upgraded",
    "downgraded",
    "pinned",
    "inlined",
    "applied",
    "reapplied",
    "deduplicated",
    "raised",
    "lowered",
    "increased",
    "decreased",
    "shortened",
    "lengthened",
    "switched",
    "swapped",
    "tightened",
    "relaxed",
    "trimmed",
    "expanded",
    "marked",
    "appended",
    "prepended",
    "inserted",
    "commented",
    "uncommented",
    "disabled",
    "enabled",
    "hardened",
    "optimized",
    "optimised",
    "renumbered",
    "sorted",
    // "- Set `log: debug` in `config/app.yaml`.": a status line's verb (an instruction to
    // the user says why or when: "to see more", "if you want").
    "set",
];

pub(crate) const CREATE_VERBS: &[&str] = &[
    "created",
    "added",
    "wrote",
    "written",
    "generated",
    "saved",
    "introduced",
    "scaffolded",
    "delivered",
    "deliverables",
    "produced",
];

pub(crate) const DELETE_VERBS: &[&str] =
    &["removed", "deleted", "dropped", "wiped", "purged", "erased"];

pub(crate) const RENAME_VERBS: &[&str] = &["renamed", "moved"];

/// Verbs of looking, not changing: a path after one is read, not written.
pub(crate) const READ_VERBS: &[&str] = &[
    "read",
    "reviewed",
    "checked",
    "inspected",
    "opened",
    "looked",
    "examined",
    "investigated",
    "ran",
    "viewed",
    "searched",
    "grepped",
    "scanned",
    "studied",
    "consulted",
    "found",
    "saw",
    "noticed",
    "traced",
];

/// Words that make the part of a sentence they are in no claim, and the main parts after
/// it: the future, suggestions, needs, plans.
pub(crate) const MODAL: &[&str] = &[
    "will",
    "i'll",
    "we'll",
    "you'll",
    "it'll",
    "going",
    "should",
    "could",
    "would",
    "might",
    "may",
    "can",
    "need",
    "needs",
    "want",
    "plan",
    "let",
    "next",
    "todo",
    "please",
    "consider",
    "recommend",
    "suggest",
    "tbd",
    "pending",
    "remaining",
    "must",
];

/// Actors other than the agent: a part that names one as its subject (or, for results,
/// anywhere) is not the agent's claim.
pub(crate) const OTHERS: &[&str] = &[
    "you",
    "your",
    "you've",
    "you're",
    "user",
    "user's",
    "users",
    "he",
    "she",
    "someone",
    "somebody",
    "ci",
    "ci's",
    "pipeline",
    "workflow",
    "workflows",
    "job",
    "jobs",
    "github",
    "gitlab",
    "actions",
    "reviewer",
    "reviewers",
    "maintainer",
    "maintainers",
    "author",
    "upstream",
    "team",
    "colleague",
    "dependabot",
    "renovate",
    "pr",
    "pr's",
    "pull",
    "buildkite",
    "jenkins",
    "travis",
    "circleci",
];

/// Words that negate the part of a sentence they are in.
pub(crate) const NEGATIONS: &[&str] = &[
    "not",
    "never",
    "nothing",
    "unchanged",
    "untouched",
    "without",
    "neither",
    "nor",
    "no",
    "none",
    "didn't",
    "don't",
    "doesn't",
    "haven't",
    "hasn't",
    "wasn't",
    "weren't",
    "isn't",
    "aren't",
    "won't",
    "can't",
    "cannot",
    "couldn't",
    "shouldn't",
    "alone",
    "intact",
];

/// File names without an extension that are files all the same (when quoted).
pub(crate) const BARE_FILE_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "Justfile",
    "Gemfile",
    "Rakefile",
    "Procfile",
    "LICENSE",
    "README",
    "CHANGELOG",
    "Containerfile",
    "Vagrantfile",
    "Jenkinsfile",
    "CODEOWNERS",
];

/// Extensions a bare (unquoted) token must have to be taken for a file.
pub(crate) const FILE_EXTENSIONS: &[&str] = &[
    // Archives a turn packs ("Created `dist.tgz`").
    "tgz",
    "zip",
    "gz",
    "tar",
    "rs",
    "py",
    "js",
    "mjs",
    "cjs",
    "ts",
    "tsx",
    "jsx",
    "md",
    "txt",
    "json",
    "jsonl",
    "toml",
    "yaml",
    "yml",
    "go",
    "java",
    "kt",
    "c",
    "h",
    "cc",
    "cpp",
    "hpp",
    "rb",
    "sh",
    "bash",
    "zsh",
    "css",
    "scss",
    "html",
    "sql",
    "lock",
    "cfg",
    "ini",
    "xml",
    "csv",
    "ipynb",
    "swift",
    "php",
    "vue",
    "svelte",
    "env",
    "conf",
    "proto",
    "gradle",
    "tf",
    "lua",
    "ex",
    "exs",
    "erl",
    "hs",
    "ml",
    "scala",
    "cs",
    "fs",
    "r",
    "pl",
    "pm",
    "rst",
    "adoc",
    "tex",
    "svg",
    "png",
    "jpg",
    "gif",
    "pdf",
    "log",
    "bak",
    "patch",
    "diff",
    "dockerfile",
    "nix",
    "zig",
    "dart",
];

pub(crate) const HEADING_NOT: &[&str] = &[
    // How to use what was made ("Usage", "How to run it"): instructions, not claims.
    "usage",
    "instructions",
    "not",
    "unchanged",
    "untouched",
    "without",
    "no",
    "nothing",
    "never",
    "looked",
    "read",
    "reviewed",
    "inspected",
    "examined",
    "consulted",
    "skimmed",
    "next",
    "todo",
    "plan",
    "planned",
    "plans",
    "remaining",
    "follow-up",
    "follow-ups",
    "followups",
    "later",
    "pending",
    "proposed",
    "suggested",
    "suggestions",
    "recommendations",
    "recommended",
    "questions",
    "question",
    "your",
    "user",
    "user's",
    "upstream",
    "existing",
    "previous",
    "previously",
    "before",
    "original",
    "history",
    "historical",
    "background",
    "context",
    "review",
    "ci",
    "pipeline",
    "cause",
    "analysis",
    "findings",
    "why",
    "known",
    "risks",
    "options",
    "alternatives",
    "ideas",
    "left",
    "skipped",
    "out-of-scope",
    "blocked",
];

/// Sentences of a cleaned line, split at `.`/`!`/`?` followed by a space or the end (not
/// after `e.g.` or `i.e.`) and at `。！？`, never inside a code span. The language tables'
/// reader splits with it too.
pub(crate) fn split_sentences(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        if c == '`' {
            in_code = !in_code;
        }
        let next = chars.get(i + 1);
        // Only the last four characters matter (a whole-sentence lowercase per
        // character made a long line quadratic).
        let tail = &chars[i.saturating_sub(3)..=i];
        let is = |abbr: &str| {
            tail.len() == 4
                && tail
                    .iter()
                    .zip(abbr.chars())
                    .all(|(a, b)| a.to_ascii_lowercase() == b)
        };
        let abbreviation = is("e.g.") || is("i.e.");
        // Armenian's "։", Ethiopic's "።" and "፧", Khmer's "។" and "៕" end sentences too.
        let ends = matches!(
            c,
            '。' | '！' | '？' | '।' | '॥' | '؟' | '۔' | '։' | '።' | '፧' | '។' | '៕'
        ) || !abbreviation
            && matches!(c, '.' | '!' | '?')
            && next.is_none_or(|n| n.is_whitespace());
        if !in_code && ends {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A token of a clause: a word of prose, a code span, or a quotation.
#[derive(Debug, Clone)]
pub(crate) enum Token {
    Word(String),
    Code(String),
    Quote(String),
}

pub(crate) fn tokens(clause: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = clause.chars().peekable();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        let w = word.trim_matches(|c: char| {
            matches!(c, ',' | ':' | '(' | ')' | '!' | '?' | '*' | '[' | ']')
        });
        let w = w
            .trim_end_matches(['.', ',', ':', ';', ')'])
            .trim_start_matches('(');
        let comma = word.trim_end_matches(['.', ')', ']']).ends_with(',');
        let colon = word.trim_end_matches(['*']).ends_with(':') && word.len() > 1;
        // Parentheses are kept as tokens: a comma inside them splits nothing.
        let open = word.starts_with('(');
        let close = word.trim_end_matches(['.', ',', ':', ';']).ends_with(')')
            && (!word.contains('(') || open);
        if open {
            out.push(Token::Word("(".into()));
        }
        if !w.is_empty() {
            let w = match w {
                "→" | "->" | "=>" => "to",
                other => other,
            };
            out.push(Token::Word(w.to_owned()));
        }
        if close {
            out.push(Token::Word(")".into()));
        }
        if comma {
            out.push(Token::Word(",".into()));
        } else if colon {
            out.push(Token::Word(":".into()));
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        let opens = match c {
            '`' => Some('`'),
            '"' => Some('"'),
            '“' => Some('”'),
            // A single quote opens only at a word's start (not in `didn't`).
            '\'' if word.is_empty() => Some('\''),
            _ => None,
        };
        match opens {
            Some(close) => {
                let mut q = String::new();
                let mut closed = false;
                let mut look = chars.clone();
                while let Some(d) = look.next() {
                    if d == close || (c == '"' && d == '”') {
                        // A closing single quote is followed by a non-letter.
                        if close == '\'' && look.peek().is_some_and(|n| n.is_alphanumeric()) {
                            q.push(d);
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    q.push(d);
                }
                if closed {
                    flush(&mut word, &mut out);
                    chars = look;
                    out.push(if c == '`' {
                        Token::Code(q)
                    } else {
                        Token::Quote(q)
                    });
                } else {
                    word.push(c);
                }
            }
            None if c.is_whitespace() => flush(&mut word, &mut out),
            None => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

/// `✅ \`cargo test\``: the command a checked item names, as the result it claims.
pub(crate) fn checked_command(toks: &[Token]) -> Option<Kind> {
    toks.iter().find_map(|t| match t {
        Token::Code(c) => command_kind(c),
        _ => None,
    })
}

/// The check a command names: tests, a linter, a build (`--check` and `compileall` are
/// a syntax check: a build's).
pub(crate) fn command_kind(command: &str) -> Option<Kind> {
    let w: Vec<String> = command
        .split_whitespace()
        .map(|x| x.trim_start_matches('-').to_lowercase())
        .collect();
    if w.iter().any(|x| TEST_WORDS.contains(&x.as_str())) {
        Some(Kind::Tests { count: None })
    } else if w.iter().any(|x| LINT_WORDS.contains(&x.as_str())) {
        Some(Kind::Lint)
    } else if w.iter().any(|x| {
        matches!(
            x.as_str(),
            "build" | "check" | "tsc" | "compile" | "compileall"
        )
    }) {
        Some(Kind::Build)
    } else {
        None
    }
}

/// Programs a check command in a code span starts with.
pub(crate) const CHECK_PROGRAMS: &[&str] = &[
    "cargo",
    "python",
    "python3",
    "node",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bun",
    "deno",
    "go",
    "make",
    "pytest",
    "jest",
    "mocha",
    "vitest",
    "ruff",
    "black",
    "mypy",
    "eslint",
    "prettier",
    "tsc",
    "rustfmt",
    "gofmt",
    "uv",
    "poetry",
    "tox",
    "just",
    "dotnet",
    "mvn",
    "gradle",
    "bundle",
    "rake",
    "phpunit",
    "swift",
    "mix",
    "flake8",
    "pylint",
    "shellcheck",
    "rubocop",
    "golangci-lint",
    "biome",
    "nox",
    "hatch",
];

/// Whether a code span is a check command (`node --check src/a.js`, `python3 -m
/// compileall app`, `cargo fmt --check`): a claim it stands in is backed only by a run of
/// it.
pub(crate) fn check_command_span(span: &str) -> bool {
    let words: Vec<&str> = span.split_whitespace().collect();
    let program = words
        .first()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or("");
    words.len() >= 2 && CHECK_PROGRAMS.contains(&program) && command_kind(span).is_some()
}

/// Whether a code span names a test file (`tests/test_more.py`, `spec/a.spec.js`): a
/// pass claim naming one is backed only by a run that selected it.
pub(crate) fn test_file_span(span: &str) -> bool {
    let lower = span.to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    // A script or a module in a folder of tests (`tests/e2e/docs_smoke.sh`) is a test
    // file too, whatever its name; data beside them (`tests/fixtures/a.json`) is not.
    let in_tests_folder = lower
        .split('/')
        .rev()
        .skip(1)
        .any(|d| matches!(d, "test" | "tests" | "spec" | "specs" | "e2e" | "__tests__"));
    let code = [
        ".sh", ".bash", ".bats", ".py", ".rs", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".go",
        ".rb",
    ]
    .iter()
    .any(|e| name.ends_with(e));
    !span.contains(char::is_whitespace)
        && (name.contains("test") || name.contains("spec") || in_tests_folder && code)
        && name.contains('.')
        && !shape_inferred(span)
}

/// Whether a code span names a folder of tests (`tests/`, `libs/textkit/tests/`,
/// `packages/api/__tests__`): a pass or a count said of it is its tests', backed only by a
/// run that selected it.
pub(crate) fn test_folder_span(span: &str) -> bool {
    let lower = span.trim().to_lowercase();
    let folder = lower.trim_end_matches('/');
    let last = folder.rsplit('/').next().unwrap_or(folder);
    (lower.ends_with('/') || folder.contains('/'))
        && !lower.contains(char::is_whitespace)
        && matches!(
            last,
            "test" | "tests" | "spec" | "specs" | "e2e" | "__tests__"
        )
}

/// The check a checked line (`✅ \`cargo test\``) names, in any language.
pub(crate) fn checked_kind(line: &str) -> Option<Kind> {
    checked_command(&tokens(line))
}

/// `text` as a path, when it has a path's shape (`quoted`: it was a code span).
pub(crate) fn path_of(text: &str, quoted: bool) -> Option<String> {
    if quoted {
        as_path(&Token::Code(text.to_owned()))
    } else {
        as_path(&Token::Word(text.to_owned()))
    }
}

/// A token that names a file: a quoted path (with `/` or `.`, or a known bare name), or a
/// bare word with `/` or a known extension. A `:line` suffix is dropped.
/// A bare word without the prefix a language glues on with a hyphen ("ב-config/app.yaml",
/// "ל-docs/"): a few letters outside ASCII, then `-` or the maqaf `־`, then the path.
fn without_glued_prefix(w: &str) -> &str {
    match w.find(['-', '־']) {
        Some(at)
            if (1..=4).contains(&w[..at].chars().count())
                && w[..at].chars().all(|c| c.is_alphabetic() && !c.is_ascii())
                && w[at..]
                    .chars()
                    .nth(1)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.') =>
        {
            &w[at + w[at..].chars().next().map_or(1, char::len_utf8)..]
        }
        _ => w,
    }
}

/// A bare word without the case ending or postposition a language glues on after it with a
/// hyphen ("config/app.yaml-এ", "notes.txt-ში", "app.py-ல்"): `-` then a few letters outside
/// ASCII, and nothing else.
fn without_glued_suffix(w: &str) -> &str {
    match w.rfind(['-', '־']) {
        Some(at)
            // The maqaf is two bytes: count what follows it from its end.
            if at > 0
                && (1..=5).contains(&w[at..].chars().skip(1).count())
                && w[at..]
                    .chars()
                    .skip(1)
                    .all(|c| c.is_alphabetic() && !c.is_ascii() || is_mark(c)) =>
        {
            &w[..at]
        }
        _ => w,
    }
}

/// A bare word without the case ending a language glues on after an apostrophe
/// ("package.json'dan", "README.md'yi", "config.yaml’a"): Turkish's and Azerbaijani's way
/// with a foreign word. Only after a word with a dot, and only a few lower-case letters.
fn without_apostrophe_ending(w: &str) -> &str {
    match w.rfind(['\'', '’']) {
        Some(at)
            if w[..at].contains('.')
                && (1..=5).contains(&w[at..].chars().skip(1).count())
                && w[at..]
                    .chars()
                    .skip(1)
                    .all(|c| c.is_alphabetic() && c.is_lowercase()) =>
        {
            &w[..at]
        }
        _ => w,
    }
}

/// A combining mark (a vowel sign, a virama): part of the letter before it in Indic and
/// Southeast Asian scripts, though not a letter itself.
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0900..=0x0DFF | 0x0E31..=0x0E4E | 0x1000..=0x109F | 0x17B4..=0x17DD)
        && !c.is_alphabetic()
}

/// A line of `git status --short` quoted as output ("`T app.yaml`", "`?? notes.txt`"): a
/// state of a file, not a path of that name.
fn is_status_line(text: &str) -> bool {
    text.split_once(' ').is_some_and(|(code, rest)| {
        (1..=2).contains(&code.len())
            && code.bytes().all(|b| b"MADRCUT?!".contains(&b))
            && !rest.trim().is_empty()
            && !rest.trim().contains(' ')
    })
}

pub(crate) fn as_path(t: &Token) -> Option<String> {
    let (text, quoted) = match t {
        Token::Code(q) | Token::Quote(q) => (q.trim(), true),
        // "修正：src/money.js": a label glued on with full-width punctuation (no space
        // after it in CJK text) is no part of the path.
        Token::Word(w) => (
            without_glued_suffix(without_glued_prefix(without_apostrophe_ending(
                w.rsplit(['：', '，', '、', '（', '「', '『'])
                    .next()
                    .unwrap_or(w)
                    .trim_end_matches(['.', ',', ':', ';', ')', '\'', '。', '）', '」', '』'])
                    .trim_start_matches(['(', '\'']),
            ))),
            false,
        ),
    };
    // A case ending glued on with a colon, written bare ("notes.txt:n", "app.yaml:ssä"):
    // Finnish's and Estonian's way with a foreign word.
    let text = match text.rsplit_once(':') {
        Some((p, ending))
            if !quoted
                && (1..=4).contains(&ending.chars().count())
                && ending
                    .chars()
                    .all(|c| c.is_alphabetic() && c.is_lowercase())
                && p.rsplit_once('.').is_some_and(|(_, ext)| {
                    (1..=5).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                }) =>
        {
            p
        }
        _ => text,
    };
    let text = match text.rsplit_once(':') {
        Some((p, line)) if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => p
            .rsplit_once(':')
            .filter(|(_, l)| l.bytes().all(|b| b.is_ascii_digit()))
            .map_or(p, |(q, _)| q),
        _ => text,
    };
    let http_route = [
        "GET ", "POST ", "PUT ", "DELETE ", "PATCH ", "HEAD ", "OPTIONS ",
    ]
    .iter()
    .any(|m| text.starts_with(m))
        || text.contains("/:");
    // `refs/remotes/origin/HEAD`, `refs/heads/main`: a git ref, not a file of the work tree.
    let git_ref = [
        "refs/heads/",
        "refs/remotes/",
        "refs/tags/",
        "refs/notes/",
        "refs/stash",
    ]
    .iter()
    .any(|r| text.starts_with(r));
    if text.is_empty()
        || http_route
        || git_ref
        || quoted && is_status_line(text)
        || text.contains("://")
        || text.starts_with('-')
        // `!build/README.md` is an ignore file's exception, no path.
        || text.starts_with('!')
        || text.contains(['(', ')', '=', '<', '>', '{', '}'])
        || text.contains("::")
        || placeholder(text)
    {
        return None;
    }
    if quoted && BARE_FILE_NAMES.contains(&text) {
        return Some(text.to_owned());
    }
    // `docs: setup guide, FAQ; notes under docs/` is a commit's subject or a sentence,
    // with the separators prose puts a space after.
    let prose = [": ", "; ", ", "].iter().any(|sep| text.contains(sep));
    // `.indexes users`, `.schema notes`: a dot-command of a tool's shell (sqlite3's), whose
    // one dot leads it; a hidden file's name has no space.
    let dot_command = text.starts_with('.') && !text.contains('/') && !text[1..].contains('.');
    if text.contains(char::is_whitespace)
        && (!quoted
            || prose
            || dot_command
            || (!text.contains('/') && !text.contains('.'))
            || check_command_span(text)
            || command_shaped(text))
    {
        // `node --check src/a.js` is a command, not a path with spaces.
        return None;
    }
    let name = text
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(text);
    let ext = name
        .rsplit_once('.')
        .map(|(stem, e)| (stem, e.to_ascii_lowercase()));
    let has_ext = |known: bool| match &ext {
        Some((stem, e)) => {
            !e.is_empty()
                && e.chars().all(|c| c.is_ascii_alphanumeric())
                && e.chars().any(|c| c.is_ascii_alphabetic())
                && (!stem.is_empty() || name.starts_with('.'))
                && (!known || FILE_EXTENSIONS.contains(&e.as_str()))
        }
        None => false,
    };
    let slash = text.contains('/') && text.chars().any(|c| c.is_alphanumeric());
    // Unquoted, `feat/x` or `origin/main` is a branch as often as a path: a bare word
    // needs an extension, or to start like a path does.
    let path_like_start = ["/", "./", "../", "~/"].iter().any(|p| text.starts_with(p));
    // `build/ wiped`: a bare word that ends in a separator names a directory.
    let dir_word = !quoted
        && text.len() >= 4
        && text.ends_with('/')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c));
    let ok = if quoted {
        slash || has_ext(false) || name.starts_with('.') && name.len() > 1
    } else {
        // `build/old.o`: a separator inside and an extension of any letters is a file's
        // shape (`shape_inferred` reads it so too); a branch rarely has both.
        has_ext(true) || (slash && (path_like_start || has_ext(false))) || dir_word
    };
    // `.PHONY`, `.SUFFIXES`: make's special targets, not hidden files.
    let special_target = name.len() > 3
        && name.starts_with('.')
        && name[1..].bytes().all(|b| b.is_ascii_uppercase());
    if !ok || text.ends_with("/.") || special_target {
        return None;
    }
    if matches!(text.to_ascii_lowercase().as_str(), "e.g" | "i.e" | "etc")
        || text.starts_with(|c: char| c.is_ascii_digit()) && !slash
    {
        return None;
    }
    Some(text.to_owned())
}

/// Whether a name holds a placeholder where a value goes, as `<name>` and `{date}` do: a
/// word of one capital letter repeated in runs (`backup/YYYYMMDD/`, `logs/AAAA-MM-JJ.log`,
/// `RRRRMMDD`, `ГГГГ`, `migrations/XXXX_init.sql`), the way a date's or a number's pattern
/// is written in every locale. It names a pattern of files, not a file.
pub(crate) fn placeholder(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|word| {
        let chars: Vec<char> = word.chars().collect();
        // `NNN`, `XXX`: one capital three times is a number's place too.
        let one_run = chars.len() == 3 && chars.iter().all(|c| *c == chars[0]);
        if chars.len() < 4 && !one_run || !chars.iter().all(|c| c.is_uppercase()) {
            return false;
        }
        // Runs of two or more of one letter, and nothing else (not `README`, `LLVM`).
        let mut i = 0;
        while i < chars.len() {
            let run = chars[i..].iter().take_while(|c| **c == chars[i]).count();
            if run < 2 {
                return false;
            }
            i += run;
        }
        true
    })
}

/// Whether a code span is a command a shell runs: a program of the tables (after any
/// `VAR=value` it is given), or a project's script by its path (`./scripts/preflight.sh`).
pub(crate) fn runs_a_command(span: &str) -> bool {
    let mut words = span
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with(['-', '"', '\'']));
    let Some(first) = words.next() else {
        return false;
    };
    let program = first.rsplit('/').next().unwrap_or(first);
    first.starts_with("./")
        || CHECK_PROGRAMS.contains(&program)
        || command_shaped(span)
            && !span.contains('(')
            && program
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// Whether a code span with spaces is a command line, not a path with spaces: it starts
/// with a program (`bash scripts/pack.sh`, `python3 -m py_compile a.py`), or has an option
/// or a shell operator (`mkdir -p dist && cp src/*.js dist/`).
pub(crate) fn command_shaped(text: &str) -> bool {
    const PROGRAMS: &[&str] = &[
        "bash", "sh", "zsh", "mkdir", "cp", "mv", "rm", "git", "cd", "echo", "cat", "ls", "touch",
        "chmod", "tar", "zip", "curl", "wget", "sed", "awk", "grep", "find", "env", "sudo",
        "docker", "pip", "pip3",
    ];
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let program = first.rsplit('/').next().unwrap_or(first);
    PROGRAMS.contains(&program)
        || CHECK_PROGRAMS.contains(&program)
        || text
            .split_whitespace()
            .skip(1)
            .any(|w| w.starts_with('-') || ["&&", "||", "|", ";", ">", ">>"].contains(&w))
}

/// Whether a name taken for a path lacks a file's shape: it is not a known file name, and
/// has neither a known extension nor a separator with an extension (`Type.method`,
/// `src/utils`, `feat/login`): a path only if the project knows it.
pub(crate) fn shape_inferred(path: &str) -> bool {
    if path.ends_with('/') {
        return false;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    if BARE_FILE_NAMES.contains(&name) || name.starts_with('.') && name.len() > 1 {
        return false;
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() => {
            let known = FILE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str());
            let any_ext = ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic());
            !(known || path.contains('/') && any_ext)
        }
        _ => true,
    }
}

pub(crate) const TEST_WORDS: &[&str] = &[
    "test", "tests", "suite", "suites", "specs", "spec", "pytest", "jest", "vitest", "nextest",
    "ctest", "rspec", "unittest",
];

pub(crate) const PASS_WORDS: &[&str] = &[
    "pass",
    "passes",
    "passed",
    "passing",
    "green",
    "succeed",
    "succeeds",
    "succeeded",
    "ok",
];

pub(crate) const BUILD_WORDS: &[&str] = &[
    "build",
    "builds",
    "compiles",
    "compile",
    "compiled",
    "compilation",
];

pub(crate) const BUILD_OK: &[&str] = &[
    "succeeds",
    "succeeded",
    "passes",
    "passed",
    "green",
    "clean",
    "cleanly",
    "successfully",
    "works",
    "fine",
    "ok",
];

pub(crate) const LINT_WORDS: &[&str] = &[
    "clippy",
    "lint",
    "linter",
    "linting",
    "eslint",
    "ruff",
    "flake8",
    "pylint",
    "rustfmt",
    "prettier",
    "fmt",
    "golangci-lint",
    "mypy",
    "shellcheck",
    "biome",
];

pub(crate) const LINT_OK: &[&str] = &[
    "clean",
    "passes",
    "passed",
    "green",
    "happy",
    "ok",
    "succeeds",
    "succeeded",
];

/// Whether a code span is a command that changes files or installs, whose exit status
/// says whether it did (`patch -p1`, `npm ci`, `make install`): a checked line that names
/// one says it went through. Test, lint and build commands have claims of their own.
pub(crate) fn names_a_step(span: &str) -> bool {
    const STEPS: &[&str] = &[
        "patch",
        "cp",
        "mv",
        "sed",
        "chmod",
        "chown",
        "ln",
        "mkdir",
        "tar",
        "unzip",
        "rsync",
        "sqlite3",
        "psql",
        "mysql",
        "npm",
        "pnpm",
        "yarn",
        "pip",
        "pip3",
        "uv",
        "poetry",
        "bundle",
        "gem",
        "apt-get",
        "brew",
        "make",
        "docker",
        "terraform",
        "alembic",
    ];
    let words: Vec<&str> = span.split_whitespace().collect();
    let Some(program) = words.first().map(|p| p.rsplit('/').next().unwrap_or(p)) else {
        return false;
    };
    words.len() >= 2 && STEPS.contains(&program) && command_kind(span).is_none()
}

/// Marks that open a line told as done ("✅ `npm ci`", "✔ Commit qilindi: …").
pub(crate) const CHECK_MARKS: &[&str] = &["✅", "✔", "☑", "✓"];

/// The text outside a sentence's code spans, the spans' places joined by `sep` (what the
/// prose says, not the names it quotes).
pub(crate) fn outside_spans(text: &str, sep: &str) -> String {
    text.split('`').step_by(2).collect::<Vec<_>>().join(sep)
}

/// The code spans of a text, in order: what stands between its backticks.
pub(crate) fn spans_of(
    text: &str,
) -> std::iter::StepBy<std::iter::Skip<std::str::Split<'_, char>>> {
    text.split('`').skip(1).step_by(2)
}

/// Words for a commit, in the tables' languages and beyond (the English word is the
/// one most agents use in any language).
pub(crate) const COMMIT_WORDS: &[&str] = &[
    "commit",
    "коммит",
    "комміт",
    "コミット",
    "提交",
    "커밋",
    "कमिट",
    "كوميت",
    "κομμιτ",
    "קומיט",
];

/// The words of a text that name a commit by its hash: a word of a hash's shape, or git's
/// short hash that happens to be all digits (`2428432`, one in 27 short hashes) where it
/// follows a word for commit or stands in a code span or brackets in a text that names a
/// commit. A number elsewhere ("1048576 bytes") is no hash.
pub(crate) fn hashes_in(text: &str) -> impl Iterator<Item = &str> {
    let lower = text.to_lowercase();
    let about_commit = COMMIT_WORDS.iter().any(|w| lower.contains(w));
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(move |w| is_hash(w) || about_commit && digits_named_as_hash(text, w))
}

/// Whether `word`, a slice of `text` of digits only, stands where a hash does: right after a
/// word for commit, or opened by a backtick or a bracket.
fn digits_named_as_hash(text: &str, word: &str) -> bool {
    if !(7..=40).contains(&word.len()) || !word.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let at = word.as_ptr() as usize - text.as_ptr() as usize;
    let before = &text[..at];
    if before.ends_with(['`', '(', '[']) {
        return true;
    }
    let before = before.trim_end_matches([' ', ':', '#']).to_lowercase();
    COMMIT_WORDS.iter().any(|w| before.ends_with(w))
}

pub(crate) fn is_hash(t: &str) -> bool {
    (6..=40).contains(&t.len())
        && t.chars().all(|c| c.is_ascii_hexdigit())
        && t.chars().any(|c| c.is_ascii_alphabetic())
        && t.chars().any(|c| c.is_ascii_digit())
}

/// Whether a heading is led by a file's span ("### `.env` вече не се следи", "### `.env` no
/// longer tracked"): it states that file's state, and a denial in it is its own, not a
/// scope that takes back the items under it.
pub(crate) fn led_by_a_file(heading: &str) -> bool {
    heading
        .trim_start_matches(['#', ' ', '*'])
        .strip_prefix('`')
        .and_then(|rest| rest.split_once('`'))
        .is_some_and(|(span, _)| path_of(span.trim(), true).is_some() && !check_command_span(span))
}

/// Whether text reports a refusal or a failure (of a push, a commit), in any language of
/// the tables.
pub(crate) fn refused(text: &str) -> bool {
    const REFUSED: &[&str] = &[
        "reject",
        "refus",
        "declin",
        "denied",
        "fail",
        "error",
        "fatal",
        "abgelehnt",
        "zurückgewiesen",
        "verweigert",
        "rejeté",
        "échou",
        "rechaz",
        "denegad",
        "fall",
        "rifiutat",
        "respint",
        "fallit",
        "rejeitad",
        "recus",
        "falhou",
        "geweigerd",
        "afgewezen",
        "mislukt",
        "отклон",
        "отказ",
        "ошибк",
        "拒否",
        "失敗",
        "拒绝",
        "拒絕",
        "失败",
        "被拒",
        "거부",
        "거절",
        "실패",
        "non-fast-forward",
        "protected",
        // Beyond the tables' refusals: what the structural readings (refs, copies,
        // pushes to a remote branch) must not read as done.
        "blocked",
        "відхил",
        "odrzuc",
        "odmít",
        "zamítn",
        "reddedil",
        "απορρ",
        "拒絶",
        "अस्वीकार",
        "ठुकरा",
        "رفض",
        "từ chối",
        "ditolak",
        "avvisad",
        // Rejected ("נדחה", "נדחתה", "נדחו"), not pushed ("נדחף", "נדחפה").
        "נדחה",
        "נדחת",
        "נדחו",
        "נדחית",
        "ปฏิเสธ",
        "odbij",
        "zavrn",
        "tagasi lükat",
        "kataliwa",
        "tinanggi",
        "atmest",
        "atmet",
        "noraid",
        "отхвърл",
        "elutasít",
        "hylät",
        "hylkä",
        "respins",
        "afvist",
        "avvist",
        "zamietn",
        "rebutj",
        "প্রত্যাখ্যান",
        "مسترد",
    ];
    // Most texts hold no word that only looks like a refusal: the plain test.
    if !NOT_REFUSALS.iter().any(|w| text.contains(w)) {
        return REFUSED.iter().any(|w| text.contains(w));
    }
    REFUSED.iter().any(|w| {
        text.match_indices(w)
            .any(|(at, _)| !NOT_REFUSALS.contains(&word_at(text, at)))
    })
}

/// Words that hold a refusal's stem and tell none: "faili" (Swahili and Estonian for a
/// file) and its Estonian forms hold "fail".
const NOT_REFUSALS: &[&str] = &[
    "faili", "failid", "failis", "failist", "faile", "failide", "failiks",
];

/// The whole word of `text` that the byte `at` falls in.
fn word_at(text: &str, at: usize) -> &str {
    let start = text[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[at..]
        .find(|c: char| !c.is_alphanumeric())
        .map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// Whether a clause limits a result to some ("only `test_a` passes", "проходит только",
/// "nur zwei"): some passed is no claim that the tests pass.
pub(crate) fn says_only(text: &str) -> bool {
    some_of_all(text) || says_only_words(text)
}

/// "2 von 3", "2 of 3", "3 件中 2 件", "2/3": fewer than all.
fn some_of_all(text: &str) -> bool {
    let nums: Vec<(usize, u64)> = {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut at = 0;
        for (i, c) in text.char_indices() {
            if c.is_ascii_digit() {
                if cur.is_empty() {
                    at = i;
                }
                cur.push(c);
            } else if !cur.is_empty() {
                out.push((at, cur.parse().unwrap_or(0)));
                cur.clear();
            }
        }
        if !cur.is_empty() {
            out.push((at, cur.parse().unwrap_or(0)));
        }
        out
    };
    const OF: &[&str] = &[
        " of ",
        " von ",
        " sur ",
        " de ",
        " di ",
        " из ",
        " van ",
        " em ",
        "/",
        "件中",
        "个中",
        "個中",
        "개 중",
        " out of ",
        " от ",
        " od ",
        " iš ",
        " kati ya ",
        " din ",
        " zo ",
        " z ",
        " ze ",
        " av ",
        " af ",
        " uit ",
        " із ",
        " з ",
        " από ",
        " dari ",
        " trong ",
        " közül ",
        " sobre ",
        " delle ",
        " dei ",
        " sa ",
    ];
    nums.windows(2).any(|w| {
        let ((a, n), (b, m)) = (w[0], w[1]);
        let between = &text[a..b];
        let between = between.trim_start_matches(|c: char| c.is_ascii_digit());
        OF.iter()
            .any(|o| between.trim() == o.trim() || between == *o)
            && n < m
    }) || {
        // "3 件中 2 件": the total comes first.
        nums.windows(2).any(|w| {
            let between = &text[w[0].0..w[1].0];
            between.contains('中') && w[1].1 < w[0].1
        })
    }
}

fn says_only_words(text: &str) -> bool {
    const ONLY: &[&str] = &[
        "only ",
        "только",
        "nur ",
        "seulement",
        "uniquement",
        "solo ",
        "sólo",
        "solamente",
        "apenas",
        "somente",
        "alleen",
        "soltanto",
        "solamente",
        "だけ",
        "のみ",
        "只有",
        "仅",
        "僅",
        "만 통과",
        // All but some: "passaram todos menos um", "alle bis auf einen".
        "all but",
        "all except",
        "except one",
        "except for",
        "menos um",
        "menos uno",
        "menos una",
        "exceto",
        "excepto",
        "sauf un",
        "sauf ",
        "tranne",
        "eccetto",
        "außer ",
        "bis auf ",
        "behalve",
        "oprócz",
        "z wyjątkiem",
        "kromě",
        "кроме",
        "крім",
        "окрім",
        "förutom",
        "undtagen",
        "unntatt",
        "paitsi",
        "kivéve",
        "cu excepția",
        "hariç",
        "kecuali",
        "εκτός",
        "باستثناء",
        "למעט",
        "به جز",
        "छोड़कर",
        "ยกเว้น",
        "以外",
        "除了",
        "제외",
    ];
    let lower = text.to_lowercase();
    ONLY.iter().any(|w| lower.contains(w))
}

/// English number words for small counts ("three tests pass", "one failure").
pub(crate) fn number_word(w: &str) -> Option<u64> {
    const WORDS: &[&str] = &[
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    WORDS.iter().position(|x| *x == w).map(|n| n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind's text reads back as its class, whatever its object holds (a path with
    /// spaces, one that ends like another change).
    #[test]
    fn a_word_that_only_looks_like_a_refusal_is_none() {
        assert!(!refused("commit 78aed53 ina faili tatu"));
        assert!(!refused("muutsin kahte faili"));
        assert!(refused("the push failed"));
        assert!(refused("faili moja; push failed"));
        assert!(refused("プッシュは拒否されました"));
    }

    /// Git's short hash is all digits in one of 27 commits: where a hash stands it is one,
    /// and a number elsewhere is none.
    #[test]
    fn a_short_hash_of_digits_only_is_a_hash_where_a_hash_stands() {
        fn all(t: &str) -> Vec<&str> {
            hashes_in(t).collect()
        }
        assert_eq!(all("står båda på 0.2.0 i commit 0123456."), ["0123456"]);
        assert_eq!(all("Committed as `4617434`."), ["4617434"]);
        assert_eq!(all("コミット 2428432 に入っています"), ["2428432"]);
        assert_eq!(all("commit 3f2a9c1 holds it"), ["3f2a9c1"]);
        assert!(all("Committed; the file is 1048576 bytes.").is_empty());
        assert!(all("`size` is now `1048576`.").is_empty());
    }

    /// A folder of tests named in a tests claim binds it (h49-14: "`tests/` (app): 4
    /// passed" after a run of two other folders); a folder of anything else does not.
    #[test]
    fn a_folder_of_tests_is_named_by_its_last_part() {
        for yes in [
            "tests/",
            "libs/textkit/tests",
            "packages/api/__tests__/",
            "spec/",
        ] {
            assert!(test_folder_span(yes), "{yes}");
        }
        for no in [
            "tests",
            "src/",
            "tests/test_a.py",
            "test files",
            "docs/testing/",
        ] {
            assert!(!test_folder_span(no), "{no}");
        }
    }

    #[test]
    fn a_claims_text_reads_back_as_its_class() {
        let file = |path: &str, change| Kind::File {
            path: path.into(),
            change,
        };
        let kinds = [
            file("src/a.rs", Change::Modified),
            file("my notes/a file created.md", Change::Modified),
            file("a b.md", Change::Created),
            file("old.md", Change::Deleted),
            file(
                "a.md",
                Change::Renamed {
                    to: "b c.md".into(),
                },
            ),
            Kind::Dir {
                path: "build/".into(),
                change: Change::Deleted,
            },
            Kind::Tests { count: Some(12) },
            Kind::Tests { count: None },
            Kind::Failures { count: 1 },
            Kind::Build,
            Kind::Lint,
            Kind::Commit {
                hash: Some("1a2b3c4".into()),
            },
            Kind::Commit { hash: None },
            Kind::Push {
                branch: Some("feat/x".into()),
            },
            Kind::Push { branch: None },
            Kind::Unmoved {
                branch: Some("main".into()),
                remote: true,
            },
            Kind::Unmoved {
                branch: None,
                remote: true,
            },
            Kind::Unmoved {
                branch: Some("main".into()),
                remote: false,
            },
            Kind::Ref {
                name: "v0.2.0".into(),
                tag: true,
                at: None,
            },
            Kind::Ref {
                name: "v0.2.0".into(),
                tag: true,
                at: Some("3f2a9c1".into()),
            },
            Kind::Ref {
                name: "origin/main".into(),
                tag: false,
                at: Some("0f3e2d1".into()),
            },
            Kind::Ref {
                name: "feat/x".into(),
                tag: false,
                at: None,
            },
            Kind::Holds {
                path: "config/app.yaml".into(),
                value: "port: 9000".into(),
            },
            Kind::UnderHeading {
                path: "CHANGELOG.md".into(),
                heading: "## [Unreleased]".into(),
                value: "zscore".into(),
            },
            Kind::Ran {
                command: "git stash pop".into(),
            },
            Kind::Clean,
            Kind::Joined {
                a: "feat".into(),
                b: "main".into(),
            },
            Kind::Concluded { rebase: false },
            Kind::Apart {
                branch: "main".into(),
                upstream: "origin/main".into(),
                count: 2,
            },
            Kind::Committed {
                path: "notes.txt".into(),
            },
            Kind::Uncommitted {
                path: "notes.txt".into(),
                commit: None,
            },
            Kind::Uncommitted {
                path: "scratch.js".into(),
                commit: Some("407860f".into()),
            },
            Kind::Listening { port: 8000 },
            Kind::LineEnds {
                path: "data/a.csv".into(),
                crlf: true,
            },
            Kind::InArchive {
                archive: "dist/site.zip".into(),
                member: "index.html".into(),
                present: true,
            },
            Kind::InArchive {
                archive: "dist/a.tgz".into(),
                member: ".env".into(),
                present: false,
            },
            Kind::Titled {
                subject: "docs: add FAQ".into(),
            },
            Kind::Trailer {
                key: "Co-authored-by".into(),
            },
            Kind::NoneLeft { ext: "bak".into() },
            Kind::BranchGone {
                name: "spike/cache".into(),
                remote: false,
            },
            Kind::BranchGone {
                name: "feature/old".into(),
                remote: true,
            },
            Kind::InHistory {
                subject: "docs: usage".into(),
                refs: vec!["main".into()],
                gone: false,
            },
            Kind::InHistory {
                subject: "stats: n-1".into(),
                refs: vec!["main".into(), "origin/main".into()],
                gone: true,
            },
            Kind::Stash {
                name: Some("experiment".into()),
                present: true,
            },
            Kind::Stash {
                name: Some("wip".into()),
                present: false,
            },
            Kind::Stash {
                name: None,
                present: true,
            },
            Kind::Stash {
                name: None,
                present: false,
            },
            Kind::Printed {
                text: "layout ready".into(),
            },
            Kind::PrintedBy {
                command: "git describe".into(),
                text: "v0.2.0".into(),
                now: true,
            },
            Kind::Coverage {
                path: Some("src/stats.js".into()),
                percent: "100".into(),
            },
            Kind::TextGone {
                text: "new Buffer".into(),
                scope: "js".into(),
            },
            Kind::TextGone {
                text: "console.log".into(),
                scope: "src/".into(),
            },
            Kind::TestsInFile {
                path: "test/batch.test.js".into(),
                count: 3,
            },
            Kind::FileOutOfHistory {
                path: ".env".into(),
            },
            Kind::TextRemoved {
                text: "dbg!(n);".into(),
            },
            Kind::FnHas {
                name: "chunk".into(),
                part: FnPart::Docstring,
                path: None,
            },
            Kind::FnHas {
                name: "clamp".into(),
                part: FnPart::TypeHints,
                path: Some("app/text.py".into()),
            },
            Kind::Mode {
                path: "bin/run".into(),
                mode: "100755".into(),
            },
            Kind::FailedBeforeFix,
            Kind::Script {
                name: "start".into(),
                runs: Vec::new(),
            },
            Kind::FolderCount {
                dir: "backups/".into(),
                count: 3,
            },
            Kind::LineCount {
                path: "requirements-dev.txt".into(),
                count: 4,
            },
            Kind::CommitFiles {
                commit: "0ccacdc".into(),
                count: 4,
            },
            Kind::PartsInCommit {
                commit: "012a464".into(),
                words: vec!["units".into(), "report".into()],
                version: Some("0.2.0".into()),
            },
            Kind::PartsInCommit {
                commit: "9a2854d".into(),
                words: vec!["textkit".into(), "numkit".into()],
                version: None,
            },
            Kind::CommitCount {
                count: 2,
                sort: CommitSort::Merge,
                since: CommitSince::Turn,
                tip: Some("main".into()),
            },
            Kind::CommitCount {
                count: 1,
                sort: CommitSort::Any,
                since: CommitSince::Ref("origin/main".into()),
                tip: None,
            },
            Kind::Script {
                name: "test".into(),
                runs: vec!["jest".into(), "mocha".into()],
            },
        ];
        for kind in &kinds {
            assert_eq!(
                ClaimClass::of_text(&kind.to_string()),
                kind.class(),
                "{kind}"
            );
        }
        // Every class but Other is some kind's.
        for class in ClaimClass::ALL {
            let made = kinds.iter().any(|k| k.class() == class);
            assert_eq!(made, class != ClaimClass::Other, "{class:?}");
        }
        for text in [
            "",
            "file a.rs",
            "the tests fail",
            "x tests pass",
            "something",
        ] {
            assert_eq!(ClaimClass::of_text(text), ClaimClass::Other, "{text}");
        }
    }

    #[test]
    fn a_placeholder_in_a_name_makes_it_a_pattern_not_a_path() {
        for p in [
            "backup/YYYYMMDD/",
            "backup/RRRRMMDD/",
            "logs/AAAA-MM-JJ.log",
            "out/ГГГГММДД.txt",
            "migrations/XXXX_init.sql",
        ] {
            assert_eq!(path_of(p, true), None, "{p}");
        }
        for p in [
            "README.md",
            "docs/LICENSE",
            "LLVM/CMakeLists.txt",
            "backup/20260101/",
            "TODO.md",
        ] {
            assert_eq!(path_of(p, true).as_deref(), Some(p), "{p}");
        }
    }

    #[test]
    fn a_case_ending_after_an_apostrophe_is_not_part_of_the_path() {
        for (word, path) in [
            ("package.json'dan", "package.json"),
            ("README.md'yi", "README.md"),
            ("config/app.yaml’a", "config/app.yaml"),
            ("pyproject.toml'daki", "pyproject.toml"),
        ] {
            assert_eq!(path_of(word, false).as_deref(), Some(path), "{word}");
        }
        // A git ref is no file.
        assert_eq!(path_of("refs/remotes/origin/HEAD", true), None);
        assert_eq!(path_of("refs/heads/main", false), None);
        // No dot before it, or more than a case ending after it: not a glued ending.
        assert_eq!(path_of("don't", false), None);
        assert_eq!(path_of("notes.txt'Something", false), None);
    }
}

/// `text` without markdown's bold marks (`**`, `__`) outside its code spans: `__main__.py`
/// in a span is a name.
pub(crate) fn without_emphasis(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                part.to_owned()
            } else {
                part.replace("**", "").replace("__", "")
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}
