//! What the analysis says about one git invocation: the branch updates it makes
//! ([`RefUpdate`], by [`Action`]), the scripts it runs, and what cannot be read ([`Effect`]).

use super::*;

/// Where an updated branch lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A branch of the repository the command runs in.
    Local,
    /// A branch of a remote (a name, a URL or a path), updated by a push.
    Remote(String),
}

/// What happens to a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Commit,
    Amend,
    Merge,
    Rebase,
    CherryPick,
    Revert,
    Am,
    Pull,
    Reset,
    /// `branch -f`, `checkout -B`, `switch -C`, `worktree add -B`, `branch -M/-C` onto it.
    ForceMove,
    /// `branch -m/-M` away from it.
    Rename,
    Delete,
    UpdateRef,
    /// `symbolic-ref refs/heads/x refs/heads/main`: another name for it, through which
    /// commits and updates move it.
    Alias,
    Fetch,
    Push {
        force: bool,
    },
    PushDelete,
    Rewrite,
}

impl Action {
    /// The policy switch (`branches.deny.<key>`) that governs it.
    pub fn deny_kind(self) -> crate::policy::DenyKind {
        use crate::policy::DenyKind as K;
        match self {
            Action::Commit | Action::Amend => K::Commit,
            Action::Merge => K::Merge,
            Action::Rebase | Action::Rewrite => K::Rebase,
            Action::CherryPick => K::CherryPick,
            Action::Revert => K::Revert,
            Action::Am => K::Am,
            Action::Pull => K::Pull,
            Action::Reset => K::Reset,
            Action::ForceMove | Action::Rename | Action::Delete => K::Branch,
            Action::UpdateRef | Action::Alias => K::UpdateRef,
            Action::Fetch => K::Fetch,
            Action::Push { force: false } => K::Push,
            Action::Push { force: true } => K::ForcePush,
            Action::PushDelete => K::PushDelete,
        }
    }

    /// "would … the protected branch main".
    pub fn verb(self) -> &'static str {
        match self {
            Action::Commit => "create a commit on",
            Action::Amend => "rewrite the last commit of",
            Action::Merge => "merge into",
            Action::Rebase => "rebase (rewrite)",
            Action::CherryPick => "cherry-pick commits onto",
            Action::Revert => "create a revert commit on",
            Action::Am => "apply patches as commits on",
            Action::Pull => "merge remote changes into",
            Action::Reset => "move (reset)",
            Action::ForceMove => "force-move",
            Action::Rename => "rename",
            Action::Delete => "delete",
            Action::UpdateRef => "rewrite the ref of",
            Action::Alias => "make another ref an alias of (writes through it move)",
            Action::Fetch => "overwrite",
            Action::Push { force: false } => "push to",
            Action::Push { force: true } => "force-push to",
            Action::PushDelete => "delete",
            Action::Rewrite => "rewrite the history of",
        }
    }

    /// Whether it creates commits on or pushes to the branch (what `branches.allowed`
    /// restricts).
    pub fn lands_work(self) -> bool {
        !matches!(self, Action::Delete | Action::Rename | Action::PushDelete)
    }
}

/// One branch update a command would make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefUpdate {
    pub branch: String,
    pub place: Place,
    pub action: Action,
    /// The default branches of the remotes of the repository the update happens in
    /// (`refs/remotes/<r>/HEAD`): protected there like the project's own remote
    /// defaults, whichever repository a `cd`, `-C` or `--git-dir` reached.
    pub remote_defaults: Vec<String>,
}

/// What one git invocation does, as far as the guard is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Update(RefUpdate),
    /// It cannot be known without running it; the reason says why.
    Unresolvable(String),
    /// It acts on branches whose names are computed when it runs (each word as written):
    /// unknowable, unless the literal part of every word rules out every protected name
    /// ([`super::partial`]), which the policy decides.
    Unnamed {
        reason: String,
        words: Vec<String>,
    },
    /// It runs a shell script (a `!` alias, `rebase --exec`) in `cwd`.
    Script {
        text: String,
        cwd: Option<PathBuf>,
    },
    /// A note for `explain` (the repository, the branch, the resolved destination).
    Note(String),
}

/// A git invocation: its arguments (dynamic ones marked with [`DYNAMIC`]), the
/// environment assignments in force, and the directory it runs in (None when unknown).
#[derive(Clone, Debug)]
pub struct GitCall {
    pub args: Vec<String>,
    pub env: Vec<(String, Option<String>)>,
    pub cwd: Option<PathBuf>,
}

pub(super) fn update(branch: &str, place: Place, action: Action) -> Effect {
    Effect::Update(RefUpdate {
        branch: branch.to_owned(),
        place,
        action,
        remote_defaults: Vec::new(),
    })
}

/// An update of a named local branch, unless the name is dynamic.
pub(super) fn checked(name: &str, action: Action) -> Effect {
    if is_dynamic(name) {
        unnamed(
            &format!(
                "the branch name `{}` is only known when it runs",
                &name[1..]
            ),
            &name[1..],
        )
    } else {
        update(name, Place::Local, action)
    }
}

/// An effect on the branch the word `raw` (as written) names when it runs.
pub(super) fn unnamed(reason: &str, raw: &str) -> Effect {
    Effect::Unnamed {
        reason: reason.to_owned(),
        words: vec![raw.to_owned()],
    }
}

pub(super) fn any_dynamic(args: &[String]) -> bool {
    args.iter().any(|a| is_dynamic(a))
}

pub(super) fn dynamic_args(sub: &str, args: &[String]) -> Effect {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.trim_start_matches(DYNAMIC).to_owned())
        .collect();
    Effect::Unresolvable(format!(
        "`git {sub} {}` has arguments only known when it runs",
        shown.join(" ")
    ))
}

/// Whether a revision names the tip of the current branch by name: the branch itself
/// (`main`, `heads/main`, `refs/heads/main`) or HEAD while on it. Symbolic only, so it
/// holds however the command moved the branch before.
pub(super) fn names_branch_tip(rev: &str, head: &Head) -> bool {
    let Head::Branch(b) = head else {
        return false;
    };
    names_branch(rev, b) || ["HEAD", "@", "HEAD~0", "HEAD^0", "@~0", "@^0"].contains(&rev)
}

/// Whether a revision is the branch `b` by name (`b`, `heads/b`, `refs/heads/b`).
pub(super) fn names_branch(rev: &str, b: &str) -> bool {
    rev.strip_prefix("refs/heads/")
        .or_else(|| rev.strip_prefix("heads/"))
        .unwrap_or(rev)
        == b
}
