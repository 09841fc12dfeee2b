//! A Python function's `def` as its source writes it: whether it carries type hints and
//! whether its body opens with a docstring. What [`Kind::FnHas`](super::vocab::Kind)
//! claims ("`chunk` has a docstring", "type hints on `slugify`, `clamp`") is read here from
//! the text alone, with no Python to run: a `def` line, its parameters up to the colon that
//! ends the signature, and the first statement after it.

/// One `def` of a source file.
#[derive(Debug, PartialEq, Eq)]
pub struct PyDef {
    /// The 1-based line the `def` is on.
    pub line: usize,
    /// A parameter or the return carries an annotation (`x: int`, `-> str`).
    pub hinted: bool,
    /// The body's first statement is a string literal.
    pub docstring: bool,
}

/// The first `def name(` (or `async def name(`) of `source`, at any indentation.
pub fn find_def(source: &str, name: &str) -> Option<PyDef> {
    let lines: Vec<&str> = source.lines().collect();
    let opens = |l: &str| {
        let l = l.trim_start();
        let l = l.strip_prefix("async ").unwrap_or(l).trim_start();
        l.strip_prefix("def ")
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix(name))
            .is_some_and(|rest| rest.trim_start().starts_with('('))
    };
    let at = lines.iter().position(|l| opens(l))?;
    let (signature, end_line, rest) = signature_from(&lines, at)?;
    Some(PyDef {
        line: at + 1,
        hinted: hinted(&signature),
        docstring: opens_with_string(rest, &lines[end_line + 1..]),
    })
}

/// The signature from the `def` on line `at` up to the colon that ends it (parentheses
/// and brackets closed), the line that colon is on, and what follows it on that line.
fn signature_from<'s>(lines: &[&'s str], at: usize) -> Option<(String, usize, &'s str)> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut signature = String::new();
    // A signature spans a few lines at most; past that this is no `def` to read.
    for (i, line) in lines.iter().enumerate().skip(at).take(40) {
        for (j, c) in line.char_indices() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth -= 1,
                    '#' => break,
                    ':' if depth == 0 => return Some((signature, i, &line[j + 1..])),
                    _ => {}
                },
            }
            signature.push(c);
        }
        signature.push('\n');
    }
    None
}

/// Whether a signature annotates its return or one of its parameters (a default's own
/// colons, `key=lambda x: x`, are no annotation).
fn hinted(signature: &str) -> bool {
    let Some(open) = signature.find('(') else {
        return false;
    };
    let Some(close) = signature.rfind(')') else {
        return false;
    };
    if signature[close..].contains("->") {
        return true;
    }
    split_top(&signature[open + 1..close.max(open + 1)])
        .iter()
        .any(|param| {
            let before_default = split_top_at(param, '=');
            before_default.contains(':')
        })
}

/// `params` split at its top-level commas.
fn split_top(params: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in params.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&params[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&params[from..]);
    out
}

/// `param` up to its first top-level `sep`.
fn split_top_at(param: &str, sep: char) -> &str {
    let mut depth = 0i32;
    for (i, c) in param.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => return &param[..i],
            _ => {}
        }
    }
    param
}

/// Whether the body after a signature opens with a string literal: on the colon's line
/// (`def f(): "doc"`) or on the first line after it that is neither blank nor a comment.
fn opens_with_string(same_line: &str, after: &[&str]) -> bool {
    let is_string = |s: &str| {
        let s = s.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
        s.starts_with(['"', '\''])
    };
    let same = same_line.trim();
    if !same.is_empty() && !same.starts_with('#') {
        return is_string(same);
    }
    after
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(is_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"
import re

def slugify(text: str) -> str:
    """Lower-case words joined by dashes.

    >>> slugify("Hi there")
    'hi-there'
    """
    return re.sub(r"\W+", "-", text.lower())


def clamp(x, lo, hi):
    # no docstring here
    return max(lo, min(x, hi))

async def fetch(
    url,
    timeout=lambda t: t,
    retries: int = 3,
): return url

def key(d, k=lambda x: x): return d[k]

class Box:
    def size(self) -> int: "How many."; return 1
"#;

    #[test]
    fn a_def_tells_its_hints_and_docstring() {
        assert_eq!(
            find_def(SOURCE, "slugify"),
            Some(PyDef {
                line: 4,
                hinted: true,
                docstring: true
            })
        );
        let clamp = find_def(SOURCE, "clamp").unwrap();
        assert!(!clamp.hinted && !clamp.docstring, "{clamp:?}");
        let fetch = find_def(SOURCE, "fetch").unwrap();
        assert!(fetch.hinted && !fetch.docstring, "{fetch:?}");
        // A lambda's colon in a default is no annotation.
        let key = find_def(SOURCE, "key").unwrap();
        assert!(!key.hinted, "{key:?}");
        let size = find_def(SOURCE, "size").unwrap();
        assert!(size.hinted && size.docstring, "{size:?}");
        assert_eq!(find_def(SOURCE, "slug"), None);
        assert_eq!(find_def(SOURCE, "missing"), None);
    }
}
