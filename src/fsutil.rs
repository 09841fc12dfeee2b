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
/// A file name for per-project state: the directory's name (safe characters, at most 40)
/// and the first 12 hex digits of the SHA-256 of the whole path, `<name>-<hash>`.
pub fn path_key(path: &Path) -> String {
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = sha256_hex(path.to_string_lossy().as_bytes());
    format!("{name}-{}", &hash[..12])
}

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

/// Lines longer than this are not read into memory by [`lines_backward_long`]: the
/// reader finds where they start and hands over only their first [`LONG_LINE_HEAD`]
/// bytes. No claim needs more (Claude Code caps tool output far below it); the lines this
/// large are written files' contents, which the transcript holds in full.
pub const MAX_LINE_BYTES: u64 = 4 * 1024 * 1024;
/// How much of a line longer than [`MAX_LINE_BYTES`] is read: its start.
pub const LONG_LINE_HEAD: usize = 64 * 1024;
/// Read size while scanning a long line for the newline before it.
const SKIP_CHUNK: usize = 1024 * 1024;

/// One line given by [`lines_backward_long`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The whole line, without its newline.
    Full(&'a [u8]),
    /// A line longer than [`MAX_LINE_BYTES`]: its length, and its first bytes.
    Long { len: u64, head: &'a [u8] },
}

/// Calls `f` with each line of the file, last line first, until `f` returns false; see
/// [`lines_backward_long`]. A line longer than [`MAX_LINE_BYTES`] is given as its first
/// [`LONG_LINE_HEAD`] bytes, which is not a line a JSON reader accepts: it counts as torn.
pub fn lines_backward(path: &Path, mut f: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
    lines_backward_long(path, |line| match line {
        Line::Full(bytes) => f(bytes),
        Line::Long { head, .. } => f(head),
    })
}

/// Calls `f` with each line of the regular file at `path`, last line first, reading the
/// file backward in chunks, until `f` returns false: the cost is the lines visited, not
/// the file's size, and it is linear in their bytes (the pieces of a line that spans
/// chunks are joined once, when its start is found). A line longer than
/// [`MAX_LINE_BYTES`] is not kept: the reader only looks for the newline before it and
/// then reads its head. Empty lines are skipped; a line is given without its newline.
/// Anything but a regular file (a FIFO, a device) is refused before it is opened.
pub fn lines_backward_long(path: &Path, mut f: impl FnMut(Line<'_>) -> bool) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = open_regular(path)?;
    let mut pos = file.seek(SeekFrom::End(0))?;
    // The part of the current line already read (it ends where the previous line, in file
    // order the next one, begins), as chunks in the order they were read: last first.
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    // Its length so far; beyond MAX_LINE_BYTES the pieces are dropped and only counted.
    let mut partial: u64 = 0;
    let mut buf = Vec::new();
    let mut head = Vec::new();
    loop {
        let size = if partial > MAX_LINE_BYTES {
            SKIP_CHUNK
        } else {
            CHUNK
        };
        let start = pos.saturating_sub(size as u64);
        buf.resize((pos - start) as usize, 0);
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf)?;
        let mut end = buf.len();
        // Every newline in the chunk ends the line after it: hand that line over.
        loop {
            let (line_start, at) = match memchr::memrchr(b'\n', &buf[..end]) {
                Some(nl) => (nl + 1, Some(nl)),
                None if start == 0 => (0, None),
                None => break,
            };
            let len = (end - line_start) as u64 + partial;
            let keep_going = if len > MAX_LINE_BYTES {
                let from = start + line_start as u64;
                head.resize(LONG_LINE_HEAD.min(len as usize), 0);
                file.seek(SeekFrom::Start(from))?;
                file.read_exact(&mut head)?;
                f(Line::Long { len, head: &head })
            } else if pieces.is_empty() {
                let line = &buf[line_start..end];
                line.iter().all(u8::is_ascii_whitespace) || f(Line::Full(line))
            } else {
                let mut line = Vec::with_capacity(len as usize);
                line.extend_from_slice(&buf[line_start..end]);
                for piece in pieces.iter().rev() {
                    line.extend_from_slice(piece);
                }
                line.iter().all(u8::is_ascii_whitespace) || f(Line::Full(&line))
            };
            pieces.clear();
            partial = 0;
            match at {
                Some(nl) if keep_going => end = nl,
                _ => return Ok(()),
            }
        }
        // No newline before `end`: what is left begins the current line's known part.
        partial += end as u64;
        if partial > MAX_LINE_BYTES {
            pieces.clear();
        } else {
            pieces.push(buf[..end].to_vec());
        }
        pos = start;
    }
}

/// What a path is, in words, when it is not a regular file.
fn not_regular(meta: &fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    })
}

fn refuse(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}, not a regular file, so it was not opened"),
    )
}

/// Opens a file for reading only if it is a regular file: what is at the path is looked
/// at first, and the open itself cannot block (a FIFO without a writer would hang the
/// hook in `open` until the host killed it). A missing file is `NotFound`, as from
/// `File::open`; anything else that is not a regular file is `InvalidInput`, with a
/// message that says what it is.
pub fn open_regular(path: &Path) -> io::Result<File> {
    open_checked(path, fs::OpenOptions::new().read(true))
}

/// [`open_regular`] with the caller's options (appending to a log, say): the path must
/// be a regular file, or not exist yet when the options create it.
pub fn open_checked(path: &Path, options: &mut fs::OpenOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    match fs::metadata(path) {
        Ok(meta) => {
            if let Some(what) = not_regular(&meta) {
                return Err(refuse(what));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    // Non-blocking in case the path was swapped for a FIFO since: then the check below
    // refuses it. On a regular file the flag changes nothing.
    let file = options.custom_flags(libc::O_NONBLOCK).open(path)?;
    if let Some(what) = not_regular(&file.metadata()?) {
        return Err(refuse(what));
    }
    Ok(file)
}

/// The bytes of the regular file at `path`, when it holds at most `limit` bytes. A
/// larger file is an `InvalidData` error naming both sizes, and is not read.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_large(len, limit));
    }
    let mut buf = Vec::with_capacity(len as usize);
    file.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(too_large(buf.len() as u64, limit));
    }
    Ok(buf)
}

fn too_large(len: u64, limit: u64) -> io::Error {
    const MIB: u64 = 1024 * 1024;
    let limit = if limit.is_multiple_of(MIB) {
        format!("{} MiB", limit / MIB)
    } else {
        format!("{limit} bytes")
    };
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("it is {len} bytes, over the limit of {limit}, so it was not read"),
    )
}

/// An I/O error in words for people: what happened, without Rust's `(os error N)`.
pub fn describe_io(e: &io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "an unknown I/O error".into(),
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

    /// The lines of `bytes` as the backward reader must give them: last first, blank
    /// ones skipped, long ones as their length and head.
    fn expected(bytes: &[u8]) -> Vec<(u64, Vec<u8>)> {
        bytes
            .split(|&b| b == b'\n')
            .rev()
            .filter(|l| l.len() as u64 > MAX_LINE_BYTES || !l.iter().all(u8::is_ascii_whitespace))
            .map(|l| {
                let keep = if l.len() as u64 > MAX_LINE_BYTES {
                    LONG_LINE_HEAD
                } else {
                    l.len()
                };
                (l.len() as u64, l[..keep].to_vec())
            })
            .collect()
    }

    fn backward(path: &Path) -> Vec<(u64, Vec<u8>)> {
        let mut got = Vec::new();
        lines_backward_long(path, |line| {
            got.push(match line {
                Line::Full(b) => (b.len() as u64, b.to_vec()),
                Line::Long { len, head } => {
                    assert!(len > MAX_LINE_BYTES);
                    (len, head.to_vec())
                }
            });
            true
        })
        .unwrap();
        got
    }

    #[test]
    fn lines_backward_gives_every_line_at_every_length() {
        let path = std::env::temp_dir().join(format!("dia-back-{}", std::process::id()));
        let max = MAX_LINE_BYTES as usize;
        let lengths = [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK + 7,
            max - 1,
            max,
            max + 1,
            2 * SKIP_CHUNK + max + 3,
            5,
        ];
        // Every line distinct (its bytes count up), so a line given twice or cut in the
        // wrong place shows.
        let mut bytes = Vec::new();
        for (i, &len) in lengths.iter().enumerate() {
            bytes.extend((0..len).map(|j| b'a' + ((i * 7 + j) % 26) as u8));
            bytes.push(b'\n');
        }
        for trailing_newline in [true, false] {
            let content = if trailing_newline {
                &bytes[..]
            } else {
                &bytes[..bytes.len() - 1]
            };
            fs::write(&path, content).unwrap();
            let got = backward(&path);
            assert_eq!(got.len(), lengths.len() - 1, "the empty line is skipped");
            assert!(
                got == expected(content),
                "trailing newline: {trailing_newline}"
            );
        }
        // Stopping early stops.
        let mut seen = 0;
        lines_backward_long(&path, |_| {
            seen += 1;
            seen < 3
        })
        .unwrap();
        assert_eq!(seen, 3);
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn special_files_are_refused_without_opening() {
        let dir = std::env::temp_dir().join(format!("dia-special-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Nothing ever writes to the FIFO: opening it for reading would block forever.
        for e in [
            open_regular(&fifo).unwrap_err(),
            read_regular(&fifo, 10).unwrap_err(),
            lines_backward(&fifo, |_| true).unwrap_err(),
            open_checked(&fifo, fs::OpenOptions::new().append(true).create(true)).unwrap_err(),
        ] {
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            assert_eq!(
                e.to_string(),
                "it is a FIFO (named pipe), not a regular file, so it was not opened"
            );
        }
        assert_eq!(
            read_regular(&dir, 10).unwrap_err().to_string(),
            "it is a directory, not a regular file, so it was not opened"
        );
        assert_eq!(
            read_regular(Path::new("/dev/null"), 10)
                .unwrap_err()
                .to_string(),
            "it is a device, not a regular file, so it was not opened"
        );
        let file = dir.join("f");
        fs::write(&file, "0123456789ab").unwrap();
        assert_eq!(read_regular(&file, 12).unwrap(), b"0123456789ab");
        let e = read_regular(&file, 11).unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is 12 bytes, over the limit of 11 bytes, so it was not read"
        );
        assert_eq!(
            open_regular(&dir.join("missing")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn compare_detects_equal_longer_shorter() {
        let path = std::env::temp_dir().join(format!("dia-cmp-{}", std::process::id()));
        for len in [5, CHUNK, CHUNK * 3 + 5] {
            let content: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            fs::write(&path, &content).unwrap();
            let (eq, d) = compare_file(&path, &content).unwrap();
            assert!(eq);
            assert_eq!(d.size, content.len() as u64);
            assert_eq!(d.sha256, sha256_hex(&content));
            let mut changed = content.clone();
            *changed.last_mut().unwrap() ^= 1;
            let longer = [&content[..], b"x"].concat();
            for other in [&content[..len - 1], &longer, &changed] {
                // A mismatch is described by what is on disk, not by what was expected.
                let (eq, d) = compare_file(&path, other).unwrap();
                assert!(!eq, "{len}");
                assert_eq!(d.size, content.len() as u64);
                assert_eq!(d.sha256, sha256_hex(&content));
            }
        }
        fs::remove_file(&path).unwrap();
        assert_eq!(
            sha256_hex(b"hello world\n"),
            "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447"
        );
    }
}
