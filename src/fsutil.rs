//! File-system helpers shared by the hooks: resolving paths the way the OS will, looking
//! at a path without opening it, and streaming a file through SHA-256.

use sha2::{Digest as _, Sha256};
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// Files are streamed in chunks of this size: memory stays flat for any file size.
const CHUNK: usize = 64 * 1024;

/// `path` made absolute against `cwd`.
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_owned()
    } else {
        cwd.join(path)
    }
}

/// The canonical form of an absolute path: symlinks resolved for the longest prefix that
/// exists, the rest appended with `.` dropped and `..` applied lexically (a path that does
/// not exist yet cannot hold symlinks).
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let mut tail = Vec::new();
    let mut prefix = path;
    while let Some(parent) = prefix.parent() {
        tail.push(prefix.file_name().map(|n| n.to_owned()));
        prefix = parent;
        if let Ok(real) = fs::canonicalize(prefix) {
            let mut out = real;
            for part in tail.iter().rev() {
                match part {
                    Some(name) => out.push(name),
                    None => {
                        out.pop();
                    }
                }
            }
            return lexical(&out);
        }
    }
    lexical(path)
}

/// Symbolic links followed before a path gives up (as the kernel's ELOOP limit).
const MAX_LINKS: usize = 40;

/// Where a write to `path` (absolute) would land, resolved the way the kernel resolves
/// it: each existing component's symlink followed (a dangling one too: writing through
/// it creates its target), `..` applied to what the resolution reached, and the part that
/// does not exist yet appended as written.
pub fn resolve(path: &Path) -> Result<PathBuf, String> {
    let mut pending: Vec<std::ffi::OsString> = path
        .components()
        .rev()
        .map(|c| c.as_os_str().to_owned())
        .collect();
    let mut out = PathBuf::from("/");
    let mut links = 0;
    while let Some(part) = pending.pop() {
        match part.to_str() {
            Some("/") | Some(".") | Some("") => continue,
            Some("..") => {
                out.pop();
                continue;
            }
            _ => {}
        }
        let candidate = out.join(&part);
        // Every component is looked at, even after a missing one: `new/../link/x` climbs
        // back into existing directories, and the link there still leads elsewhere (the
        // Write tool creates `new` first).
        if let Ok(m) = fs::symlink_metadata(&candidate) {
            if m.file_type().is_symlink() {
                links += 1;
                if links > MAX_LINKS {
                    return Err(format!(
                        "more than {MAX_LINKS} symbolic links in {}",
                        path.display()
                    ));
                }
                let target = fs::read_link(&candidate)
                    .map_err(|e| format!("cannot read the link {}: {e}", candidate.display()))?;
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                pending.extend(target.components().rev().map(|c| c.as_os_str().to_owned()));
                continue;
            }
        }
        out.push(&part);
    }
    Ok(out)
}

/// `.` and `..` applied without touching the disk (as bash's logical `cd` does).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What is at a path, found without opening it (opening a FIFO would hang the hook).
#[derive(Debug)]
pub enum Probe {
    Missing,
    File {
        len: u64,
    },
    Directory,
    /// A FIFO, socket or device: never opened.
    Special,
    Error(io::Error),
}

pub fn probe(path: &Path) -> Probe {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => Probe::File { len: m.len() },
        Ok(m) if m.is_dir() => Probe::Directory,
        Ok(_) => Probe::Special,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Probe::Missing,
        // A path whose parent is a file does not exist either.
        Err(e) if e.raw_os_error() == Some(20) => Probe::Missing,
        Err(e) => Probe::Error(e),
    }
}

/// A file's SHA-256 (lowercase hex) and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDigest {
    pub sha256: String,
    pub size: u64,
}

/// SHA-256 of bytes in memory, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Streams the file at `path`, hashing it and comparing it with `expected` as it goes.
/// Returns whether the two are byte-identical, and the file's digest.
pub fn compare_file(path: &Path, expected: &[u8]) -> io::Result<(bool, FileDigest)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0; CHUNK];
    let mut offset = 0usize;
    let mut equal = true;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let chunk = &buf[..n];
        hasher.update(chunk);
        if equal {
            equal = expected.get(offset..offset + n) == Some(chunk);
        }
        offset += n;
    }
    let equal = equal && offset == expected.len();
    Ok((
        equal,
        FileDigest {
            sha256: hex(&hasher.finalize()),
            size: offset as u64,
        },
    ))
}

/// The whole file when it is at most `limit` bytes, for diagnostics after a mismatch.
pub fn read_at_most(path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let file = File::open(path)?;
    let mut buf = Vec::new();
    file.take(limit + 1).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 <= limit).then_some(buf))
}

/// Temp file beside the target, same permissions, then rename: a reader (Claude Code
/// itself) never sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        fs::write(&tmp, bytes)?;
        if let Ok(meta) = fs::metadata(path) {
            if meta.permissions().readonly() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "the file is read-only",
                ));
            }
            fs::set_permissions(&tmp, meta.permissions())?;
        }
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Calls `f` with each line of the file, last line first, reading the file backward in
/// chunks, until `f` returns false: the cost is the lines visited, not the file's size.
/// Empty lines are skipped; a line is given without its newline.
pub fn lines_backward(path: &Path, mut f: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path)?;
    let mut pos = file.seek(SeekFrom::End(0))?;
    // The start of the chunk after the current one: a line cut by the chunk boundary.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let start = pos.saturating_sub(CHUNK as u64);
        let mut buf = vec![0; (pos - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf)?;
        buf.extend_from_slice(&carry);
        pos = start;
        // The first piece may continue in the previous chunk, unless this is the start.
        let (head, complete) = match (pos, buf.iter().position(|&b| b == b'\n')) {
            (0, _) => (Vec::new(), &buf[..]),
            (_, Some(nl)) => (buf[..nl].to_vec(), &buf[nl + 1..]),
            (_, None) => {
                carry = buf;
                continue;
            }
        };
        for line in complete.rsplit(|&b| b == b'\n') {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if !f(line) {
                return Ok(());
            }
        }
        if pos == 0 {
            return Ok(());
        }
        carry = head;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_resolves_existing_prefix_and_keeps_tail() {
        let root = std::env::temp_dir().join(format!("dia-fsutil-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("real/sub")).unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
        let real = fs::canonicalize(&root).unwrap();
        assert_eq!(canonical(&root.join("link/sub")), real.join("real/sub"));
        assert_eq!(
            canonical(&root.join("link/new/../x.txt")),
            real.join("real/x.txt")
        );
        assert_eq!(canonical(&root.join("link/./a/b")), real.join("real/a/b"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn resolve_follows_links_like_the_kernel() {
        let root = std::env::temp_dir().join(format!("dia-resolve-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("in/deep")).unwrap();
        fs::create_dir_all(root.join("out")).unwrap();
        let root = fs::canonicalize(&root).unwrap();
        std::os::unix::fs::symlink(root.join("out"), root.join("in/escape")).unwrap();
        std::os::unix::fs::symlink("../out/new.txt", root.join("in/dangling")).unwrap();
        std::os::unix::fs::symlink("deep", root.join("in/rel")).unwrap();
        std::os::unix::fs::symlink("loop", root.join("in/loop")).unwrap();
        assert_eq!(
            resolve(&root.join("in/escape/x.txt")).unwrap(),
            root.join("out/x.txt")
        );
        assert_eq!(
            resolve(&root.join("in/dangling")).unwrap(),
            root.join("out/new.txt")
        );
        assert_eq!(
            resolve(&root.join("in/rel/../escape/y")).unwrap(),
            root.join("out/y")
        );
        assert_eq!(
            resolve(&root.join("in/./missing/../z")).unwrap(),
            root.join("in/z")
        );
        assert_eq!(
            resolve(&root.join("in/deep/")).unwrap(),
            root.join("in/deep")
        );
        assert!(resolve(&root.join("in/loop/x"))
            .unwrap_err()
            .contains("symbolic links"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn compare_detects_equal_longer_shorter() {
        let path = std::env::temp_dir().join(format!("dia-cmp-{}", std::process::id()));
        let content = vec![7u8; CHUNK * 3 + 5];
        fs::write(&path, &content).unwrap();
        let (eq, d) = compare_file(&path, &content).unwrap();
        assert!(eq);
        assert_eq!(d.size, content.len() as u64);
        assert_eq!(d.sha256, sha256_hex(&content));
        assert!(
            !compare_file(&path, &content[..content.len() - 1])
                .unwrap()
                .0
        );
        let mut longer = content.clone();
        longer.push(1);
        assert!(!compare_file(&path, &longer).unwrap().0);
        fs::remove_file(&path).unwrap();
        assert_eq!(
            sha256_hex(b"hello world\n"),
            "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447"
        );
    }
}
