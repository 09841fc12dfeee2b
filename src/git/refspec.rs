//! Refspec sides as git reads them: branch names (`main`, `refs/heads/main`,
//! `heads/main`), fetch destinations, glob mappings and `remote.<name>.push` maps.

/// A refspec side as a branch name: `main`, `refs/heads/main`, and `heads/main`, which git
/// resolves through its `refs/%s` rule to `refs/heads/main` when that exists (verified
/// with git 2.47: `git push origin HEAD:heads/main` moves main); None for other refs.
pub(super) fn branch_name(side: &str) -> Option<String> {
    let side = side.trim_start_matches('+');
    if let Some(b) = side
        .strip_prefix("refs/heads/")
        .or_else(|| side.strip_prefix("heads/"))
    {
        return Some(b.to_owned());
    }
    if side.starts_with("refs/") || side.is_empty() || side == "HEAD" {
        return None;
    }
    Some(side.to_owned())
}

/// The local branch a fetch refspec writes (`x:main`, `+x:refs/heads/main`).
pub(super) fn fetch_destination(spec: &str) -> Option<String> {
    let (_, dst) = spec.trim_start_matches('+').split_once(':')?;
    branch_name(dst)
}

/// Maps `name` through a glob refspec (`refs/heads/*:refs/heads/*`).
pub(super) fn glob_map(src: &str, dst: &str, branch: &str) -> Option<String> {
    let full = format!("refs/heads/{branch}");
    let (pre, post) = src.split_once('*')?;
    let candidate = if src.starts_with("refs/") {
        full.as_str()
    } else {
        branch
    };
    let mid = candidate.strip_prefix(pre)?.strip_suffix(post)?;
    Some(dst.replacen('*', mid, 1))
}

/// Where `remote.<name>.push` refspecs send local branch `branch`, and whether forced.
pub(super) fn map_through(configured: &[String], branch: &str) -> Option<(String, bool)> {
    let full = format!("refs/heads/{branch}");
    configured.iter().find_map(|spec| {
        let (plus, body) = match spec.strip_prefix('+') {
            Some(b) => (true, b),
            None => (false, spec.as_str()),
        };
        let (src, dst) = body.split_once(':')?;
        if src.contains('*') {
            return glob_map(src, dst, branch).map(|d| (d, plus));
        }
        (src == full || src == branch).then(|| (dst.to_owned(), plus))
    })
}
