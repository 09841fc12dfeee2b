//! Static expansion: what a word the parser left dynamic expands to when every expansion
//! in it is known before the command runs. Brace expansion of literal text (`{a,b}.txt`,
//! `f{1..3}`), `$PWD`/`${PWD}`/`$(pwd)`/`` `pwd` `` and `$(git rev-parse --show-toplevel)`
//! while the walk knows the directory, and the variable of a `for` loop over a literal
//! list. Anything else (another variable,
//! a substitution that runs a program, an expansion with modifiers, an unquoted value
//! that would be split) leaves the word as it was: only known when it runs.

use std::path::Path;

/// What the walk knows at a command.
pub struct Known<'a> {
    /// The shell's directory, while it is known.
    pub cwd: Option<&'a Path>,
    /// Variables bound to one known value (a `for` loop's variable in its body).
    pub vars: &'a [(String, String)],
}

/// Brace expansions in one word that produce more than this many fields are not
/// expanded (`{1..100000}`): the word stays dynamic.
const MAX_FIELDS: usize = 256;

/// The fields `raw` (a word as written) expands to, or None when some part is only known
/// when it runs.
pub fn fields(raw: &str, known: &Known) -> Option<Vec<String>> {
    let mut expanded = false;
    let out = expand(raw.as_bytes(), known, Context::Word, &mut expanded)?;
    // A word with nothing to expand was made dynamic for a reason of its own (a `{}` that
    // find or xargs fills in): it stays so.
    (expanded && out.len() <= MAX_FIELDS).then_some(out)
}

/// The value `NAME=raw` assigns, when it is known: no brace expansion, no word splitting,
/// no globbing happen in an assignment.
pub fn assigned(raw: &str, known: &Known) -> Option<String> {
    let mut expanded = false;
    let mut out = expand(raw.as_bytes(), known, Context::Assignment, &mut expanded)?;
    (out.len() == 1).then(|| out.remove(0))
}

/// Where a word is expanded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// A command's word: braces expand, unquoted values are split and globbed.
    Word,
    /// An assignment's value.
    Assignment,
}

/// Expands `s`. `expanded` is set when a brace, variable or `pwd` expansion happened.
fn expand(s: &[u8], known: &Known, context: Context, expanded: &mut bool) -> Option<Vec<String>> {
    let braces = context == Context::Word;
    let mut fields: Vec<Vec<u8>> = vec![Vec::new()];
    let push = |fields: &mut Vec<Vec<u8>>, bytes: &[u8]| {
        for f in fields.iter_mut() {
            f.extend_from_slice(bytes);
        }
    };
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                let c = *s.get(i + 1)?;
                push(&mut fields, &[c]);
                i += 2;
            }
            b'\'' => {
                let end = i + 1 + s[i + 1..].iter().position(|&c| c == b'\'')?;
                push(&mut fields, &s[i + 1..end]);
                i = end + 1;
            }
            b'"' => {
                let (text, next) = double_quoted(s, i + 1, known, expanded)?;
                push(&mut fields, &text);
                i = next;
            }
            b'$' | b'`' => {
                let (value, next) = dollar(s, i, known)?;
                *expanded = true;
                // An unquoted expansion is split on blanks and globbed: a value that
                // would be is not one known field.
                if context == Context::Word
                    && value
                        .bytes()
                        .any(|b| matches!(b, b' ' | b'\t' | b'\n' | b'*' | b'?' | b'['))
                {
                    return None;
                }
                push(&mut fields, value.as_bytes());
                i = next;
            }
            b'{' if braces => match brace(s, i)? {
                Some((items, next)) => {
                    let mut alternatives = Vec::new();
                    *expanded = true;
                    for item in items {
                        alternatives.extend(expand(&item, known, Context::Word, expanded)?);
                    }
                    if fields.len() * alternatives.len() > MAX_FIELDS {
                        return None;
                    }
                    fields = fields
                        .iter()
                        .flat_map(|f| {
                            alternatives.iter().map(move |a| {
                                let mut x = f.clone();
                                x.extend_from_slice(a.as_bytes());
                                x
                            })
                        })
                        .collect();
                    i = next;
                }
                None => {
                    push(&mut fields, b"{");
                    i += 1;
                }
            },
            b'~' if i == 0 && braces => return None,
            // Process substitution and anything else the parser gave no static value.
            b'<' | b'>' | b'(' | b')' => return None,
            c => {
                push(&mut fields, &[c]);
                i += 1;
            }
        }
    }
    fields
        .into_iter()
        .map(|f| String::from_utf8(f).ok())
        .collect()
}

/// The text of a double-quoted part starting after its `"`, and where it ends.
fn double_quoted(
    s: &[u8],
    mut i: usize,
    known: &Known,
    expanded: &mut bool,
) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    while i < s.len() {
        match s[i] {
            b'"' => return Some((out, i + 1)),
            b'\\' => {
                let c = *s.get(i + 1)?;
                if !matches!(c, b'$' | b'`' | b'"' | b'\\' | b'\n') {
                    out.push(b'\\');
                }
                if c != b'\n' {
                    out.push(c);
                }
                i += 2;
            }
            b'$' | b'`' => {
                let (value, next) = dollar(s, i, known)?;
                *expanded = true;
                out.extend_from_slice(value.as_bytes());
                i = next;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

/// `$NAME`, `${NAME}`, `$(pwd)`, `` `pwd` `` at `i`: the value and where it ends.
fn dollar(s: &[u8], i: usize, known: &Known) -> Option<(String, usize)> {
    let rest = &s[i..];
    let pwd = || known.cwd.map(|c| c.to_string_lossy().into_owned());
    for form in [&b"$(pwd)"[..], b"`pwd`", b"$( pwd )", b"$(pwd -L)"] {
        if rest.starts_with(form) {
            return Some((pwd()?, i + form.len()));
        }
    }
    for form in [
        &b"$(git rev-parse --show-toplevel)"[..],
        b"`git rev-parse --show-toplevel`",
    ] {
        if rest.starts_with(form) {
            // The work tree's top, as git prints it (symlinks resolved); nothing outside a
            // repository (git fails, and the word would be empty).
            let top = crate::policy::repo_root(known.cwd?)?;
            let top = crate::fsutil::resolve(&top).unwrap_or(top);
            return Some((top.to_string_lossy().into_owned(), i + form.len()));
        }
    }
    if rest.first() == Some(&b'`') {
        return None;
    }
    let (name, next) = match rest.get(1)? {
        b'{' => {
            let end = rest.iter().position(|&c| c == b'}')?;
            (&rest[2..end], i + end + 1)
        }
        c if c.is_ascii_alphabetic() || *c == b'_' => {
            let len = rest[1..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                .unwrap_or(rest.len() - 1);
            (&rest[1..1 + len], i + 1 + len)
        }
        _ => return None,
    };
    let name = std::str::from_utf8(name).ok()?;
    if let Some((_, v)) = known.vars.iter().rev().find(|(n, _)| n == name) {
        return Some((v.clone(), next));
    }
    if name == "PWD" {
        return Some((pwd()?, next));
    }
    None
}

/// A brace expansion at `i` (`{a,b}`, `{1..3}`, `{a..c}`): its items as raw text, and
/// where it ends. `Some(None)` when the braces are literal (`{}`, `{a}`); None for a
/// sequence too long to expand here.
#[allow(clippy::type_complexity)]
fn brace(s: &[u8], i: usize) -> Option<Option<(Vec<Vec<u8>>, usize)>> {
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = i + 1;
    let mut j = i;
    while j < s.len() {
        match s[j] {
            b'\\' => j += 1,
            b'\'' => match s[j + 1..].iter().position(|&c| c == b'\'') {
                Some(k) => j += k + 1,
                None => return Some(None),
            },
            b'"' => match s[j + 1..].iter().position(|&c| c == b'"') {
                Some(k) => j += k + 1,
                None => return Some(None),
            },
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(s[start..j].to_vec());
                    break;
                }
            }
            b',' if depth == 1 => {
                items.push(s[start..j].to_vec());
                start = j + 1;
            }
            _ => {}
        }
        j += 1;
    }
    if depth != 0 {
        return Some(None);
    }
    if items.len() > 1 {
        return Some(Some((items, j + 1)));
    }
    let Some(only) = items.first().and_then(|b| std::str::from_utf8(b).ok()) else {
        return Some(None);
    };
    match sequence(only) {
        Sequence::Literal => Some(None),
        Sequence::TooLong => None,
        Sequence::Items(seq) => Some(Some((
            seq.into_iter().map(String::into_bytes).collect(),
            j + 1,
        ))),
    }
}

enum Sequence {
    /// Not a sequence: the braces are text.
    Literal,
    TooLong,
    Items(Vec<String>),
}

/// `1..3`, `3..1`, `01..10`, `a..e`, with an optional `..STEP`.
fn sequence(body: &str) -> Sequence {
    let parts: Vec<&str> = body.split("..").collect();
    let (a, b, step) = match parts.as_slice() {
        [a, b] => (*a, *b, 1i64),
        [a, b, st] => match st.parse::<i64>() {
            Ok(st) => (*a, *b, st.unsigned_abs().max(1) as i64),
            Err(_) => return Sequence::Literal,
        },
        _ => return Sequence::Literal,
    };
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        if (y - x).unsigned_abs() / step as u64 >= MAX_FIELDS as u64 {
            return Sequence::TooLong;
        }
        let width = if a.starts_with('0') || b.starts_with('0') {
            a.len().max(b.len())
        } else {
            0
        };
        let dir = if y >= x { step } else { -step };
        let mut out = Vec::new();
        let mut v = x;
        while (dir > 0 && v <= y) || (dir < 0 && v >= y) {
            out.push(format!("{v:0width$}"));
            v += dir;
        }
        return Sequence::Items(out);
    }
    let (Some(x), Some(y)) = (single_char(a), single_char(b)) else {
        return Sequence::Literal;
    };
    let (lo, hi) = (x.min(y) as u32, x.max(y) as u32);
    let mut out: Vec<String> = (lo..=hi)
        .step_by(step as usize)
        .filter_map(char::from_u32)
        .map(String::from)
        .collect();
    if x > y {
        out.reverse();
    }
    Sequence::Items(out)
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    let c = it.next().filter(char::is_ascii_alphabetic)?;
    it.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(raw: &str) -> Option<Vec<String>> {
        let vars = vec![("f".to_owned(), "src/a.rs".to_owned())];
        fields(
            raw,
            &Known {
                cwd: Some(Path::new("/w/p")),
                vars: &vars,
            },
        )
    }

    fn v(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn braces() {
        assert_eq!(f("{a,b}.txt"), v(&["a.txt", "b.txt"]));
        assert_eq!(f("x{1..3}"), v(&["x1", "x2", "x3"]));
        assert_eq!(f("{a,b{c,d}}"), v(&["a", "bc", "bd"]));
        assert_eq!(f("{01..03}"), v(&["01", "02", "03"]));
        assert_eq!(f("{c..a}"), v(&["c", "b", "a"]));
        // Nothing to expand: the word stays as its producer made it (`{}` of find).
        assert_eq!(f("{a}"), None);
        assert_eq!(f("{}"), None);
        assert_eq!(f("'{a,b}'"), None);
        assert_eq!(f("{a}{b,c}"), v(&["{a}b", "{a}c"]));
        assert_eq!(f("{1..100000}"), None);
    }

    #[test]
    fn pwd_and_loop_variables() {
        assert_eq!(f("$PWD/x"), v(&["/w/p/x"]));
        assert_eq!(f("\"${PWD}\"/x"), v(&["/w/p/x"]));
        assert_eq!(f("\"$(pwd)/x\""), v(&["/w/p/x"]));
        assert_eq!(f("`pwd`/x"), v(&["/w/p/x"]));
        assert_eq!(f("$f.bak"), v(&["src/a.rs.bak"]));
        assert_eq!(f("$HOME/x"), None);
        assert_eq!(f("${PWD:-/}"), None);
        assert_eq!(f("$(pwd -P)"), None);
        assert_eq!(
            fields(
                "$PWD",
                &Known {
                    cwd: None,
                    vars: &[]
                }
            ),
            None
        );
    }
}
