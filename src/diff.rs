//! A line diff for people: the unified diff `install --dry-run` prints of the settings file
//! it would write.

/// A unified diff of two texts (3 lines of context), for `install --dry-run`. Settings
/// files are small, so a plain longest-common-subsequence table is fast enough; past
/// four million cells it falls back to "every line changed" rather than spend memory.
pub fn unified_diff(old: &str, new: &str, old_label: &str, new_label: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = diff_ops(&a, &b);
    if ops.iter().all(|op| matches!(op, Op::Same(..))) {
        return String::new();
    }
    const CONTEXT: usize = 3;
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    let mut i = 0;
    while i < ops.len() {
        // The next hunk: from CONTEXT before the first change to CONTEXT after the last
        // change that is within 2 * CONTEXT of the previous one.
        let Some(first) = ops[i..].iter().position(|op| !matches!(op, Op::Same(..))) else {
            break;
        };
        let start = (i + first).saturating_sub(CONTEXT).max(i);
        let mut end = i + first;
        let mut j = end;
        while j < ops.len() {
            if !matches!(ops[j], Op::Same(..)) {
                end = j;
            } else if j - end > 2 * CONTEXT {
                break;
            }
            j += 1;
        }
        let stop = (end + 1 + CONTEXT).min(ops.len());
        let (a0, b0) = positions(&ops[..start]);
        let (an, bn) = positions(&ops[start..stop]);
        out.push_str(&format!("@@ -{},{an} +{},{bn} @@\n", a0 + 1, b0 + 1));
        for op in &ops[start..stop] {
            match op {
                Op::Same(l) => out.push_str(&format!(" {l}\n")),
                Op::Del(l) => out.push_str(&format!("-{l}\n")),
                Op::Add(l) => out.push_str(&format!("+{l}\n")),
            }
        }
        i = stop;
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

/// Lines of the old and new text that `ops` covers.
fn positions(ops: &[Op]) -> (usize, usize) {
    ops.iter().fold((0, 0), |(a, b), op| match op {
        Op::Same(_) => (a + 1, b + 1),
        Op::Del(_) => (a + 1, b),
        Op::Add(_) => (a, b + 1),
    })
}

fn diff_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    if (a.len() + 1).saturating_mul(b.len() + 1) > 4_000_000 {
        return a
            .iter()
            .map(|l| Op::Del(l))
            .chain(b.iter().map(|l| Op::Add(l)))
            .collect();
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j, mut ops) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push(Op::Same(a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            // Deletions before additions, as diff(1) prints them.
            ops.push(Op::Del(a[i]));
            i += 1;
        } else {
            ops.push(Op::Add(b[j]));
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::unified_diff;

    #[test]
    fn a_changed_line_in_a_long_file_is_one_hunk_with_context() {
        let old: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let new = old.replace("line 10\n", "line ten\n");
        let d = unified_diff(&old, &new, "a", "b");
        assert_eq!(
            d,
            "--- a\n+++ b\n@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+line ten\n line 11\n line 12\n line 13\n"
        );
    }

    #[test]
    fn an_absent_file_is_all_additions_and_equal_texts_no_diff() {
        assert_eq!(
            unified_diff("", "x\ny\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,0 +1,2 @@\n+x\n+y\n"
        );
        assert_eq!(unified_diff("x\n", "x\n", "a", "b"), "");
    }

    #[test]
    fn changes_far_apart_are_separate_hunks() {
        let old: String = (1..=30).map(|n| format!("{n}\n")).collect();
        let new = old
            .replace("\n2\n", "\ntwo\n")
            .replace("\n28\n", "\ntwenty-eight\n");
        let d = unified_diff(&old, &new, "a", "b");
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
    }
}
