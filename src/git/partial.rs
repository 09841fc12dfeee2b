//! What is known before running of a branch name that is computed when it runs: the
//! literal text it starts and ends with (`"backup-$(date +%s)"` starts with `backup-`).
//! When that already rules out every protected name, the branch is not protected,
//! whatever the command computes: `git branch "backup-$(date +%s)"` touches no protected
//! branch, `git switch -c "$b"` may.

use crate::policy::BranchPolicy;

/// The literal start and end of a shell word as written, up to its first expansion and
/// after its last one (quotes removed; `$…`, `` `…` ``, and unquoted glob characters are
/// expansions). `None` when the word cannot be read (an unclosed quote or substitution).
pub fn literal_ends(word: &str) -> Option<(String, String)> {
    let chars: Vec<char> = word.chars().collect();
    let mut prefix = String::new();
    let mut suffix = String::new();
    let mut expanded = false;
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    let literal = |c: char, expanded: bool, prefix: &mut String, suffix: &mut String| {
        if expanded {
            suffix.push(c);
        } else {
            prefix.push(c);
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                i += 1;
                literal(*chars.get(i)?, expanded, &mut prefix, &mut suffix);
            }
            '$' if !single => {
                i = skip_expansion(&chars, i)?;
                expanded = true;
                suffix.clear();
                continue;
            }
            '`' if !single => {
                i += 1 + chars[i + 1..].iter().position(|&c| c == '`')?;
                expanded = true;
                suffix.clear();
            }
            '*' | '?' | '[' if !single && !double => {
                expanded = true;
                suffix.clear();
            }
            c => literal(c, expanded, &mut prefix, &mut suffix),
        }
        i += 1;
    }
    (!single && !double && expanded).then_some((prefix, suffix))
}

/// The index after the expansion that starts at `chars[start]` (a `$`).
fn skip_expansion(chars: &[char], start: usize) -> Option<usize> {
    let close = |open: char, close: char| -> Option<usize> {
        let mut depth = 0usize;
        for (k, &c) in chars.iter().enumerate().skip(start + 1) {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
        }
        None
    };
    match chars.get(start + 1) {
        Some('(') => close('(', ')'),
        Some('{') => close('{', '}'),
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => Some(
            start
                + 1
                + chars[start + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .count(),
        ),
        // `$1`, `$@`, `$$`, …: one character.
        Some(_) => Some(start + 2),
        // A lone `$` at the end is literal text; treat it as an unknown all the same.
        None => Some(start + 1),
    }
}

/// Whether a branch named by `word` (a shell word computed when it runs) can be a
/// protected branch under `rules`: `false` only when its literal start and end rule out
/// every protected pattern and remote default. A policy with `branches.allowed` needs the
/// name itself, so nothing is ruled out there.
pub fn may_be_protected(word: &str, rules: &BranchPolicy, remote_defaults: &[String]) -> bool {
    let Some((prefix, suffix)) = literal_ends(word) else {
        return true;
    };
    if rules.allowed.is_some() {
        return true;
    }
    let literal_fits = |name: &str| {
        name.len() >= prefix.len() + suffix.len()
            && name.starts_with(&prefix)
            && name.ends_with(&suffix)
    };
    let pattern_fits = |pattern: &str| {
        let meta = |c: char| matches!(c, '*' | '?' | '[' | '{' | '\\');
        match (pattern.find(meta), pattern.rfind(meta)) {
            (Some(first), Some(last)) => {
                let (head, tail) = (&pattern[..first], &pattern[last + 1..]);
                (head.starts_with(&prefix) || prefix.starts_with(head))
                    && (tail.ends_with(&suffix) || suffix.ends_with(tail))
            }
            _ => literal_fits(pattern),
        }
    };
    rules.protected.iter().any(|p| pattern_fits(p))
        || (rules.protect_remote_default && remote_defaults.iter().any(|d| literal_fits(d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literal_ends_of_a_word() {
        let ends = |w: &str| literal_ends(w).map(|(p, s)| format!("{p}|{s}"));
        assert_eq!(ends("\"backup-$(date +%s)\"").as_deref(), Some("backup-|"));
        assert_eq!(ends("feat/${USER}-x").as_deref(), Some("feat/|-x"));
        assert_eq!(ends("'lit'$b'-old'").as_deref(), Some("lit|-old"));
        assert_eq!(ends("wip-`date`.bak").as_deref(), Some("wip-|.bak"));
        assert_eq!(ends("$b").as_deref(), Some("|"));
        assert_eq!(ends("rel/*").as_deref(), Some("rel/|"));
        assert_eq!(ends("plain"), None, "nothing computed");
        assert_eq!(ends("\"$(oops\""), None, "unclosed");
        assert_eq!(ends("'$(not)'"), None, "single quotes keep it literal");
    }

    #[test]
    fn a_literal_part_rules_out_protected_names_only_when_it_must() {
        let rules = BranchPolicy::default();
        let defaults = vec!["develop".to_owned()];
        let may = |w: &str| may_be_protected(w, &rules, &defaults);
        assert!(!may("\"backup-$(date +%s)\""));
        assert!(!may("feat/$x"));
        assert!(!may("$x-wip"), "no protected name ends with -wip");
        assert!(may("$b"));
        assert!(may("ma$x"), "main starts with ma");
        assert!(may("$(echo ma)in"), "main ends with in");
        assert!(may("dev$x"), "the remote default develop");
        let release = crate::policy::Policy::parse(
            std::path::Path::new("p.json"),
            br#"{"version": 1, "branches": {"protected": ["release/**", "main"]}}"#,
        )
        .unwrap()
        .branches;
        assert!(may_be_protected("release/$v", &release, &[]));
        assert!(may_be_protected("rel$v", &release, &[]));
        assert!(!may_be_protected("hotfix/$v", &release, &[]));
        let allowed = crate::policy::Policy::parse(
            std::path::Path::new("p.json"),
            br#"{"version": 1, "branches": {"allowed": ["feat/*"]}}"#,
        )
        .unwrap()
        .branches;
        assert!(may_be_protected("backup-$x", &allowed, &[]));
    }
}
