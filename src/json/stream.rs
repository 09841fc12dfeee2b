//! One JSON value read from a stream in fixed chunks, never whole.
//!
//! A hook's stdin can be megabytes (a Write of a large file carries its content twice),
//! and a fresh process pays for every page it touches: reading stdin into one buffer and
//! handing it to serde_json cost a 1 MiB Write three copies of the content (the buffer,
//! serde_json's scratch, the string) and about 1,300 page faults. Here the input passes
//! through one 64 KiB buffer and each string is decoded straight into its own allocation.
//!
//! A caller may also name values to leave out ([`Elide`]): Claude Code's PostToolUse of
//! a Write carries the file's content in `tool_input` and again in `tool_response`, and
//! the second copy is compared as it is decoded instead of being held; Gemini CLI's
//! result of a `write_file` repeats the content three more times in parts the adapter
//! never reads, which are checked as JSON and dropped.
//!
//! Apart from those, the result is exactly what `serde_json::from_str::<Value>` returns
//! for the same text, errors included (the same message, line and column; numbers are
//! handed to serde_json itself), and the checks keep the order they had when the whole
//! input was read first: too large, then empty, then not UTF-8, then not JSON. The unit
//! tests hold both to that on every prefix of and every one-byte change to a set of
//! inputs, with and without a string left out.

use super::JsonError;
use serde_json::{Map, Value};
use std::io::{self, Read};

const CHUNK: usize = 64 * 1024;

/// serde_json's nesting limit, kept so the same inputs are refused.
const MAX_DEPTH: usize = 128;

/// Why no value came out of the stream.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// More than the limit's bytes arrived; the rest was not read.
    TooLarge,
    /// Nothing but whitespace.
    Empty,
    /// The first byte that is not UTF-8, as an offset into the input.
    NotUtf8 {
        offset: usize,
    },
    Syntax(JsonError),
    /// A string was left out as equal to another ([`Elide`]), and an object repeated a
    /// key, so which value the other one is could not be told (the last of a repeated
    /// key wins, and it may have come after the comparison).
    RepeatedKey,
}

/// A value left out of the value read. Paths are object keys from the top-level object.
#[derive(Debug)]
pub enum Elide {
    /// The string at `path` when it equals the string at `same_as`, read before it: the
    /// caller's promise is that an absent `path` means "as `same_as`".
    SameAs {
        path: &'static [&'static str],
        same_as: &'static [&'static str],
    },
    /// Whatever is at `path`: the caller never reads it. It is still read as JSON (a
    /// syntax error there is the same error), but nothing of it is kept.
    Unread { path: &'static [&'static str] },
}

impl Elide {
    fn path(&self) -> &'static [&'static str] {
        match self {
            Elide::SameAs { path, .. } | Elide::Unread { path } => path,
        }
    }
}

/// Reads one JSON value (and only whitespace after it) from `reader`, at most `limit`
/// bytes of it, leaving out what `elide` names (at most 32 rules).
pub fn read_value(
    reader: impl Read,
    limit: usize,
    elide: &'static [Elide],
) -> Result<Value, ReadError> {
    assert!(elide.len() <= 32, "one bit per rule in a u32");
    let mut s = Stream::new(reader, limit, elide);
    let top = Place {
        top: None,
        keys: 0,
        on_path: u32::MAX.checked_shr(32 - elide.len() as u32).unwrap_or(0),
        unread: false,
    };
    let parsed = s.value(MAX_DEPTH, top).and_then(|v| s.end().map(|()| v));
    match parsed {
        Ok(v) => match s.utf8.first_error {
            // A string's decoding may not have failed (it held no bad byte of its own,
            // a bad byte split across reads), but the input as a whole is not UTF-8.
            Some(offset) => Err(ReadError::NotUtf8 { offset }),
            None if s.elided && s.repeated_key => Err(ReadError::RepeatedKey),
            None => Ok(v),
        },
        Err(Stop::Io(e)) => Err(ReadError::Io(e)),
        Err(Stop::TooLarge) => Err(ReadError::TooLarge),
        Err(Stop::Syntax(e)) => {
            // Judged as if the whole input had been read first: read the rest (to the
            // limit) so a larger or non-UTF-8 input is called that, not a syntax error.
            match s.drain() {
                Err(Stop::Io(e)) => return Err(ReadError::Io(e)),
                Err(Stop::TooLarge) => return Err(ReadError::TooLarge),
                _ => {}
            }
            if s.only_whitespace {
                Err(ReadError::Empty)
            } else if let Some(offset) = s.utf8.first_error {
                Err(ReadError::NotUtf8 { offset })
            } else {
                Err(ReadError::Syntax(e))
            }
        }
    }
}

/// Where a value sits, for [`Elide`]: how many keys below the top-level object, and
/// which rules' paths lead here.
#[derive(Clone, Copy)]
struct Place<'t> {
    /// The top-level object as read so far, once the value is inside it.
    top: Option<&'t Map<String, Value>>,
    keys: usize,
    /// Bit `i`: the keys so far are the start of rule `i`'s `path`.
    on_path: u32,
    /// Inside a value an [`Elide::Unread`] rule leaves out: read, checked, not kept.
    unread: bool,
}

impl Place<'_> {
    /// Inside an array: on no rule's path.
    fn in_array(self) -> Self {
        Place { on_path: 0, ..self }
    }
}

enum Stop {
    Io(io::Error),
    TooLarge,
    Syntax(JsonError),
}

/// serde_json's words for each error this reader can meet.
#[derive(Clone, Copy)]
enum Code {
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    InvalidEscape,
    InvalidNumber,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
    InvalidUtf8,
}

impl Code {
    fn message(self) -> &'static str {
        match self {
            Code::EofWhileParsingList => "EOF while parsing a list",
            Code::EofWhileParsingObject => "EOF while parsing an object",
            Code::EofWhileParsingString => "EOF while parsing a string",
            Code::EofWhileParsingValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedSomeIdent => "expected ident",
            Code::ExpectedSomeValue => "expected value",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
            // Never shown: the input's own UTF-8 check reports the byte first.
            Code::InvalidUtf8 => "invalid UTF-8",
        }
    }
}

/// UTF-8 checked chunk by chunk, a character split between two reads included.
#[derive(Default)]
struct Utf8Check {
    /// The start of a character the last chunk ended inside, and its offset.
    pending: Vec<u8>,
    pending_at: usize,
    first_error: Option<usize>,
}

impl Utf8Check {
    fn chunk(&mut self, mut chunk: &[u8], mut at: usize) {
        if self.first_error.is_some() {
            return;
        }
        if !self.pending.is_empty() {
            let need = match self.pending[0] {
                0xF0..=0xFF => 4,
                0xE0..=0xEF => 3,
                _ => 2,
            };
            let take = (need - self.pending.len()).min(chunk.len());
            self.pending.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
            at += take;
            if self.pending.len() < need {
                // Not complete yet, but it may already be wrong (a lead byte and then a
                // quote): say so now, as the whole input's check would.
                if let Err(e) = std::str::from_utf8(&self.pending) {
                    if e.error_len().is_some() {
                        self.first_error = Some(self.pending_at);
                    }
                }
                return;
            }
            if std::str::from_utf8(&self.pending).is_err() {
                self.first_error = Some(self.pending_at);
                return;
            }
            self.pending.clear();
        }
        if let Err(e) = std::str::from_utf8(chunk) {
            let bad = e.valid_up_to();
            if e.error_len().is_none() {
                self.pending.extend_from_slice(&chunk[bad..]);
                self.pending_at = at + bad;
            } else {
                self.first_error = Some(at + bad);
            }
        }
    }

    fn finish(&mut self) {
        if !self.pending.is_empty() && self.first_error.is_none() {
            self.first_error = Some(self.pending_at);
        }
    }
}

struct Stream<R> {
    reader: R,
    buf: Box<[u8]>,
    /// The next byte to parse in `buf`, and the end of what was read into it.
    pos: usize,
    end: usize,
    /// The input offset of `buf[0]`.
    base: usize,
    eof: bool,
    limit: usize,
    /// For serde_json's positions: the lines consumed, and the offset the last one
    /// started at.
    line: usize,
    line_start: usize,
    only_whitespace: bool,
    utf8: Utf8Check,
    elide: &'static [Elide],
    /// Whether a string was left out, and whether an object repeated a key.
    elided: bool,
    repeated_key: bool,
}

impl<R: Read> Stream<R> {
    fn new(reader: R, limit: usize, elide: &'static [Elide]) -> Self {
        Stream {
            reader,
            buf: vec![0; CHUNK].into_boxed_slice(),
            pos: 0,
            end: 0,
            base: 0,
            eof: false,
            limit,
            line: 1,
            line_start: 0,
            only_whitespace: true,
            utf8: Utf8Check::default(),
            elide,
            elided: false,
            repeated_key: false,
        }
    }

    /// Reads the next chunk once everything before it was consumed. `false`: the input
    /// ended.
    fn fill(&mut self) -> Result<bool, Stop> {
        if self.eof {
            return Ok(false);
        }
        self.base += self.end;
        self.pos = 0;
        self.end = 0;
        let n = loop {
            match self.reader.read(&mut self.buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Stop::Io(e)),
            }
        };
        if n == 0 {
            self.eof = true;
            self.utf8.finish();
            return Ok(false);
        }
        if self.base + n > self.limit {
            return Err(Stop::TooLarge);
        }
        self.end = n;
        self.utf8.chunk(&self.buf[..n], self.base);
        if self.only_whitespace {
            self.only_whitespace = self.buf[..n].iter().all(u8::is_ascii_whitespace);
        }
        Ok(true)
    }

    /// Reads what is left, for the checks that come before a syntax error.
    fn drain(&mut self) -> Result<(), Stop> {
        self.pos = self.end;
        while self.fill()? {
            self.pos = self.end;
        }
        Ok(())
    }

    fn peek(&mut self) -> Result<Option<u8>, Stop> {
        if self.pos == self.end && !self.fill()? {
            return Ok(None);
        }
        Ok(Some(self.buf[self.pos]))
    }

    fn eat(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
            self.line_start = self.base + self.pos + 1;
        }
        self.pos += 1;
    }

    fn next(&mut self) -> Result<Option<u8>, Stop> {
        let b = self.peek()?;
        if b.is_some() {
            self.eat();
        }
        Ok(b)
    }

    fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// serde_json's `error`: the position of the last byte consumed.
    fn error(&self, code: Code) -> Stop {
        self.error_at(self.offset(), code)
    }

    /// serde_json's `peek_error`: the position of the byte looked at, when there is one.
    fn peek_error(&self, code: Code) -> Stop {
        let at = if self.pos < self.end {
            self.offset() + 1
        } else {
            self.offset()
        };
        self.error_at(at, code)
    }

    fn error_at(&self, at: usize, code: Code) -> Stop {
        // Only the peeked byte can lie past the consumed ones; a newline there starts a
        // line of its own.
        let (line, column) = if at > self.offset() && self.buf[self.pos] == b'\n' {
            (self.line + 1, 0)
        } else {
            (self.line, at - self.line_start)
        };
        Stop::Syntax(JsonError {
            line,
            column,
            message: super::in_our_words(code.message()),
        })
    }

    fn whitespace(&mut self) -> Result<Option<u8>, Stop> {
        loop {
            match self.peek()? {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.eat(),
                other => return Ok(other),
            }
        }
    }

    fn end(&mut self) -> Result<(), Stop> {
        match self.whitespace()? {
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Ok(()),
        }
    }

    fn value(&mut self, depth: usize, place: Place) -> Result<Value, Stop> {
        let Some(peek) = self.whitespace()? else {
            return Err(self.peek_error(Code::EofWhileParsingValue));
        };
        match peek {
            b'n' => self.ident(b"null").map(|()| Value::Null),
            b't' => self.ident(b"true").map(|()| Value::Bool(true)),
            b'f' => self.ident(b"false").map(|()| Value::Bool(false)),
            b'-' | b'0'..=b'9' => self.number(),
            b'"' if place.unread => {
                self.eat();
                self.skip_string().map(|()| Value::Null)
            }
            b'"' => {
                self.eat();
                self.string().map(Value::String)
            }
            b'[' => {
                let depth = self.deeper(depth)?;
                self.eat();
                self.array(depth, place.in_array())
            }
            b'{' => {
                let depth = self.deeper(depth)?;
                self.eat();
                self.object(depth, place)
            }
            _ => Err(self.peek_error(Code::ExpectedSomeValue)),
        }
    }

    fn deeper(&self, depth: usize) -> Result<usize, Stop> {
        match depth - 1 {
            0 => Err(self.peek_error(Code::RecursionLimitExceeded)),
            d => Ok(d),
        }
    }

    fn ident(&mut self, ident: &[u8]) -> Result<(), Stop> {
        self.eat();
        for &expected in &ident[1..] {
            match self.next()? {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(b) if b != expected => return Err(self.error(Code::ExpectedSomeIdent)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// What comes next in an array (`close` `]`) or an object (`}`, whose members start
    /// with a key): `true` when the closing bracket ends it (consumed), `false` when a
    /// member follows (a comma before it consumed). serde_json's errors for each wrong
    /// byte.
    fn member_or_end(&mut self, close: u8, first: &mut bool) -> Result<bool, Stop> {
        let object = close == b'}';
        let Some(peek) = self.whitespace()? else {
            return Err(self.peek_error(match object {
                true => Code::EofWhileParsingObject,
                false => Code::EofWhileParsingList,
            }));
        };
        if peek == close {
            self.eat();
            return Ok(true);
        }
        if std::mem::take(first) {
            if object && peek != b'"' {
                return Err(self.peek_error(Code::KeyMustBeAString));
            }
            return Ok(false);
        }
        if peek != b',' {
            return Err(self.peek_error(match object {
                true => Code::ExpectedObjectCommaOrEnd,
                false => Code::ExpectedListCommaOrEnd,
            }));
        }
        self.eat();
        match self.whitespace()? {
            Some(b) if b == close => Err(self.peek_error(Code::TrailingComma)),
            Some(b) if object && b != b'"' => Err(self.peek_error(Code::KeyMustBeAString)),
            Some(_) => Ok(false),
            None => Err(self.peek_error(Code::EofWhileParsingValue)),
        }
    }

    fn array(&mut self, depth: usize, place: Place) -> Result<Value, Stop> {
        let mut items = Vec::new();
        let mut first = true;
        while !self.member_or_end(b']', &mut first)? {
            let item = self.value(depth, place)?;
            if !place.unread {
                items.push(item);
            }
        }
        Ok(Value::Array(items))
    }

    fn object(&mut self, depth: usize, place: Place) -> Result<Value, Stop> {
        let mut map = Map::new();
        let mut first = true;
        while !self.member_or_end(b'}', &mut first)? {
            self.eat();
            let key = match place.unread {
                true => self.skip_string().map(|()| String::new())?,
                false => self.string()?,
            };
            match self.whitespace()? {
                Some(b':') => self.eat(),
                Some(_) => return Err(self.peek_error(Code::ExpectedColon)),
                None => return Err(self.peek_error(Code::EofWhileParsingObject)),
            }
            if place.unread {
                self.value(depth, place)?;
                continue;
            }
            let here = self.place_of(place, &key, &map);
            if here.unread {
                // Never kept, so a repeat of the key cannot change what is read.
                self.value(depth, here)?;
                continue;
            }
            let value = match self.counterpart(here) {
                Some(earlier) if self.whitespace()? == Some(b'"') => {
                    self.eat();
                    self.string_unless_same(earlier)?.map(Value::String)
                }
                _ => Some(self.value(depth, here)?),
            };
            let replaced = match value {
                Some(value) => map.insert(key, value),
                None => {
                    self.elided = true;
                    map.remove(&key)
                }
            };
            self.repeated_key |= replaced.is_some();
        }
        Ok(Value::Object(map))
    }

    /// The place of the value under `key` in `map`, an object at `parent`.
    fn place_of<'t>(&self, parent: Place<'t>, key: &str, map: &'t Map<String, Value>) -> Place<'t> {
        let on_path = self
            .rules(parent.on_path)
            .filter(|(_, rule)| rule.path().get(parent.keys) == Some(&key))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        let keys = parent.keys + 1;
        let unread = self
            .rules_ending(on_path, keys)
            .any(|rule| matches!(rule, Elide::Unread { .. }));
        Place {
            top: parent.top.or(Some(map)),
            keys,
            on_path,
            unread,
        }
    }

    /// The rules whose bits `on_path` holds, with their numbers.
    fn rules(&self, mut on_path: u32) -> impl Iterator<Item = (usize, &Elide)> {
        std::iter::from_fn(move || {
            let i = (on_path != 0).then(|| on_path.trailing_zeros() as usize)?;
            on_path &= on_path - 1;
            Some((i, &self.elide[i]))
        })
    }

    /// The rules among `on_path` whose path ends `keys` keys down.
    fn rules_ending(&self, on_path: u32, keys: usize) -> impl Iterator<Item = &Elide> {
        self.rules(on_path)
            .map(|(_, rule)| rule)
            .filter(move |rule| rule.path().len() == keys)
    }

    /// The string already read that the value at `place` is to be compared with, when
    /// `place` is the end of an [`Elide::SameAs`] rule's path.
    fn counterpart<'t>(&self, place: Place<'t>) -> Option<&'t str> {
        let top = place.top?;
        self.rules_ending(place.on_path, place.keys)
            .find_map(|rule| match rule {
                Elide::SameAs { same_as, .. } => {
                    let (last, parents) = same_as.split_last()?;
                    let mut at = top;
                    for key in parents {
                        at = at.get(*key)?.as_object()?;
                    }
                    at.get(*last).and_then(Value::as_str)
                }
                Elide::Unread { .. } => None,
            })
    }

    /// The rest of a string whose opening quote was consumed, decoded into its own
    /// allocation: runs of plain bytes are copied a chunk at a time.
    fn string(&mut self) -> Result<String, Stop> {
        let mut kept = Keep(Vec::new());
        self.decode_string(&mut kept)?;
        self.utf8_string(kept.0)
    }

    /// The rest of a string, compared with `earlier` as it is decoded and kept only from
    /// where the two part: `None` when they are equal.
    fn string_unless_same(&mut self, earlier: &str) -> Result<Option<String>, Stop> {
        let earlier = earlier.as_bytes();
        let mut compared = Compare::Same { earlier, same: 0 };
        self.decode_string(&mut compared)?;
        match compared {
            Compare::Same { same, .. } if same == earlier.len() => Ok(None),
            Compare::Same { same, .. } => self.utf8_string(earlier[..same].to_vec()).map(Some),
            Compare::Parted(kept) => self.utf8_string(kept.0).map(Some),
        }
    }

    /// The rest of a string, checked as [`Stream::string`] checks it and not kept.
    fn skip_string(&mut self) -> Result<(), Stop> {
        self.decode_string(&mut Skip)
    }

    /// Decodes the rest of a string (its opening quote consumed) into `sink`, through
    /// the closing quote.
    fn decode_string(&mut self, sink: &mut impl StringSink) -> Result<(), Stop> {
        let mut piece = Vec::new();
        loop {
            if self.pos == self.end && !self.fill()? {
                return Err(self.error(Code::EofWhileParsingString));
            }
            // No newline in a plain run, so the line is unchanged.
            self.pos += sink.plain(&self.buf[self.pos..self.end]);
            if self.pos == self.end {
                continue;
            }
            let b = self.buf[self.pos];
            if !is_special(b) {
                // A comparison parted at a plain byte: the sink keeps it from here.
                continue;
            }
            // A one-letter escape in this buffer: most of them (every newline of a
            // file's content), taken without the general path. Neither byte is a newline.
            if b == b'\\' {
                if let Some(e) = self.buf[..self.end]
                    .get(self.pos + 1)
                    .and_then(|&c| simple_escape(c))
                {
                    sink.push(&[e]);
                    self.pos += 2;
                    continue;
                }
            }
            self.eat();
            match b {
                b'"' => return Ok(()),
                b'\\' => {
                    piece.clear();
                    self.escape(&mut piece)?;
                    sink.push(&piece);
                }
                _ => return Err(self.error(Code::ControlCharacterWhileParsingString)),
            }
        }
    }

    /// A decoded string, just closed, as a String.
    fn utf8_string(&self, out: Vec<u8>) -> Result<String, Stop> {
        if self.utf8.first_error.is_none() && self.utf8.pending.is_empty() {
            debug_assert!(std::str::from_utf8(&out).is_ok());
            // SAFETY: every byte read so far was checked and is UTF-8 (`fill` checks each
            // chunk before it is parsed; no error and no character left incomplete at the
            // end of the last chunk). The string is a run of those bytes between ASCII
            // delimiters plus characters decoded from escapes, so it is UTF-8 too.
            // Checking it again cost a 1 MiB Write 0.1 ms.
            return Ok(unsafe { String::from_utf8_unchecked(out) });
        }
        // The input's own check names the offset of a bad byte; this only keeps the
        // string a String.
        String::from_utf8(out).map_err(|_| self.error(Code::InvalidUtf8))
    }

    fn next_in_string(&mut self) -> Result<u8, Stop> {
        match self.next()? {
            Some(b) => Ok(b),
            None => Err(self.error(Code::EofWhileParsingString)),
        }
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Stop> {
        match self.next_in_string()? {
            b'u' => self.unicode_escape(out),
            c => match simple_escape(c) {
                Some(byte) => {
                    out.push(byte);
                    Ok(())
                }
                None => Err(self.error(Code::InvalidEscape)),
            },
        }
    }

    fn hex4(&mut self) -> Result<u16, Stop> {
        let mut n = 0u16;
        let mut ok = true;
        for _ in 0..4 {
            let b = self.next_in_string()?;
            match (b as char).to_digit(16) {
                Some(d) => n = n << 4 | d as u16,
                None => ok = false,
            }
        }
        if ok {
            Ok(n)
        } else {
            Err(self.error(Code::InvalidEscape))
        }
    }

    /// `\u` was consumed. A surrogate must be half of a pair, as serde_json requires of
    /// a string.
    fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Result<(), Stop> {
        let n = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        if !(0xD800..=0xDBFF).contains(&n) {
            push_char(out, char::from_u32(n as u32).expect("not a surrogate"));
            return Ok(());
        }
        for expected in [b'\\', b'u'] {
            match self.peek()? {
                Some(b) if b == expected => self.eat(),
                Some(_) => {
                    self.eat();
                    return Err(self.error(Code::UnexpectedEndOfHexEscape));
                }
                None => return Err(self.error(Code::EofWhileParsingString)),
            }
        }
        let n2 = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&n2) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        let c = (((n as u32 - 0xD800) << 10) | (n2 as u32 - 0xDC00)) + 0x1_0000;
        push_char(
            out,
            char::from_u32(c).expect("a surrogate pair is a character"),
        );
        Ok(())
    }

    /// A number, checked by serde_json's grammar here (for its error positions) and
    /// converted by serde_json itself, so the value is exactly the one it would give.
    fn number(&mut self) -> Result<Value, Stop> {
        let mut text = Vec::with_capacity(24);
        let take = |s: &mut Self, text: &mut Vec<u8>| {
            text.push(s.buf[s.pos]);
            s.eat();
        };
        let digit = |b: Option<u8>| matches!(b, Some(b'0'..=b'9'));
        let mut overflow_at = None;
        if self.peek()? == Some(b'-') {
            take(self, &mut text);
        }
        match self.peek()? {
            None => return Err(self.error(Code::EofWhileParsingValue)),
            Some(b'0') => {
                take(self, &mut text);
                if digit(self.peek()?) {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => {
                while digit(self.peek()?) {
                    take(self, &mut text);
                }
            }
            Some(_) => {
                self.eat();
                return Err(self.error(Code::InvalidNumber));
            }
        }
        if self.peek()? == Some(b'.') {
            take(self, &mut text);
            if !digit(self.peek()?) {
                return Err(match self.peek()? {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
            while digit(self.peek()?) {
                take(self, &mut text);
            }
        }
        if matches!(self.peek()?, Some(b'e' | b'E')) {
            take(self, &mut text);
            if matches!(self.peek()?, Some(b'+' | b'-')) {
                take(self, &mut text);
            }
            match self.peek()? {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(b'0'..=b'9') => {}
                Some(_) => {
                    self.eat();
                    return Err(self.error(Code::InvalidNumber));
                }
            }
            // serde_json says "out of range" where the exponent outgrows an i32.
            let mut exponent = 0i64;
            while let Some(b @ b'0'..=b'9') = self.peek()? {
                exponent = (exponent * 10 + i64::from(b - b'0')).min(1 << 40);
                take(self, &mut text);
                if exponent > i64::from(i32::MAX) && overflow_at.is_none() {
                    overflow_at = Some(self.offset() - self.line_start);
                }
            }
        }
        serde_json::from_slice(&text).map_err(|e| {
            // Only a number out of range gets here: at the exponent's overflow, else at
            // the number's end.
            let mut e = JsonError::from(&e);
            e.line = self.line;
            e.column = overflow_at.unwrap_or(self.offset() - self.line_start);
            Stop::Syntax(e)
        })
    }
}

/// Where a string's decoded bytes go ([`Stream::decode_string`]).
trait StringSink {
    /// Takes the plain bytes at the start of `run` (as [`plain_prefix`]) and says how
    /// many it took.
    fn plain(&mut self, run: &[u8]) -> usize;
    /// Takes the bytes an escape stands for.
    fn push(&mut self, bytes: &[u8]);
}

/// The string, kept.
struct Keep(Vec<u8>);

impl StringSink for Keep {
    fn plain(&mut self, run: &[u8]) -> usize {
        let n = plain_prefix(run);
        self.0.extend_from_slice(&run[..n]);
        n
    }

    fn push(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// The string, checked and dropped.
struct Skip;

impl StringSink for Skip {
    fn plain(&mut self, run: &[u8]) -> usize {
        plain_prefix(run)
    }

    fn push(&mut self, _: &[u8]) {}
}

/// The string compared with one read before: `same` bytes of `earlier` matched so far,
/// until the two part; from there it is kept (with what matched before it).
enum Compare<'e> {
    Same { earlier: &'e [u8], same: usize },
    Parted(Keep),
}

impl Compare<'_> {
    fn part(&mut self, piece: &[u8]) {
        if let Compare::Same { earlier, same } = *self {
            let mut out = Vec::with_capacity(earlier.len().max(same + piece.len()));
            out.extend_from_slice(&earlier[..same]);
            out.extend_from_slice(piece);
            *self = Compare::Parted(Keep(out));
        }
    }
}

impl StringSink for Compare<'_> {
    fn plain(&mut self, run: &[u8]) -> usize {
        match self {
            Compare::Same { earlier, same } => {
                let n = plain_prefix_equal(run, &earlier[*same..]);
                *same += n;
                if run.get(n).is_some_and(|&b| !is_special(b)) {
                    self.part(&[]);
                }
                n
            }
            Compare::Parted(kept) => kept.plain(run),
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        match self {
            Compare::Same { earlier, same }
                if earlier.get(*same..*same + bytes.len()) == Some(bytes) =>
            {
                *same += bytes.len();
            }
            Compare::Same { .. } => self.part(bytes),
            Compare::Parted(kept) => kept.push(bytes),
        }
    }
}

/// A quote, a backslash or a control character: what ends a plain run in a string.
fn is_special(b: u8) -> bool {
    matches!(b, b'"' | b'\\' | 0..=0x1f)
}

/// The byte a one-letter escape (`\\n`) stands for.
fn simple_escape(c: u8) -> Option<u8> {
    Some(match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

fn push_char(out: &mut Vec<u8>, c: char) {
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Non-zero when one of the eight bytes in `w` is a quote, a backslash or a control
/// character (it may also flag a plain byte after one of those; callers stop at the
/// first such word and look at its bytes one by one).
fn special(w: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    has_zero(w ^ (ONES * b'"' as u64))
        | has_zero(w ^ (ONES * b'\\' as u64))
        | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
}

/// How many bytes at the start of `run` a string copies as they are: everything before
/// a quote, a backslash or a control character. Eight bytes at a time, as serde_json
/// scans (memchr would be faster on long runs, but its first call costs every hook
/// process a CPU feature probe, which in a VM is slower than the scan).
fn plain_prefix(run: &[u8]) -> usize {
    let mut i = 0;
    for word in run.chunks_exact(8) {
        if special(u64::from_ne_bytes(word.try_into().expect("eight bytes"))) != 0 {
            break;
        }
        i += 8;
    }
    i + run[i..]
        .iter()
        .position(|&b| is_special(b))
        .unwrap_or(run.len() - i)
}

/// How many bytes at the start of `run` are plain (as [`plain_prefix`]) and equal to
/// the bytes at the start of `earlier`: one pass for both, eight bytes at a time.
fn plain_prefix_equal(run: &[u8], earlier: &[u8]) -> usize {
    let n = run.len().min(earlier.len());
    let (run, earlier) = (&run[..n], &earlier[..n]);
    let mut i = 0;
    for (word, other) in run.chunks_exact(8).zip(earlier.chunks_exact(8)) {
        let w = u64::from_ne_bytes(word.try_into().expect("eight bytes"));
        let e = u64::from_ne_bytes(other.try_into().expect("eight bytes"));
        if w != e || special(w) != 0 {
            break;
        }
        i += 8;
    }
    i + run[i..]
        .iter()
        .zip(&earlier[i..])
        .position(|(&b, &e)| b != e || is_special(b))
        .unwrap_or(n - i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader with no rule.
    fn read_plain(reader: impl Read, limit: usize) -> Result<Value, ReadError> {
        read_value(reader, limit, &[])
    }

    /// A reader that hands out `step` bytes at a time, to split every token across reads.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// What the old path (the whole input, then serde_json) said about `bytes`.
    fn expected(bytes: &[u8], limit: usize) -> String {
        if bytes.len() > limit {
            return "too large".into();
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return "empty".into();
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => return format!("not UTF-8 at {}", e.valid_up_to()),
        };
        match serde_json::from_str::<Value>(text) {
            Ok(v) => format!("ok {v:?}"),
            Err(e) => {
                let e = JsonError::from(&e);
                format!("{}:{}: {}", e.line, e.column, e.message)
            }
        }
    }

    /// A reader's answer in [`expected`]'s words.
    fn described(read: Result<Value, ReadError>) -> String {
        match read {
            Ok(v) => format!("ok {v:?}"),
            Err(ReadError::TooLarge) => "too large".into(),
            Err(ReadError::Empty) => "empty".into(),
            Err(ReadError::NotUtf8 { offset }) => format!("not UTF-8 at {offset}"),
            Err(ReadError::Syntax(e)) => format!("{}:{}: {}", e.line, e.column, e.message),
            Err(ReadError::Io(e)) => format!("io {e}"),
            Err(ReadError::RepeatedKey) => "repeated key".into(),
        }
    }

    fn got(bytes: &[u8], limit: usize, step: usize) -> String {
        described(read_plain(Trickle { data: bytes, step }, limit))
    }

    fn same(bytes: &[u8]) {
        let want = expected(bytes, 1 << 20);
        for step in [1, 3, 7, CHUNK] {
            assert_eq!(
                got(bytes, 1 << 20, step),
                want,
                "input {:?} read {step} bytes at a time",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    const SAMPLES: &[&str] = &[
        r#"{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a.txt","content":"line one\nline \"two\"\t\\ end"},"tool_response":{"type":"create","structuredPatch":[],"originalFile":null,"userModified":false}}"#,
        "{\n  \"a\": [1, -2, 3.5, -0, 0.25e3, 1E-2, 18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809],\n  \"b\": {\"c\": [true, false, null, {}, []]},\n  \"é\": \"\\u00e9\\u4e2d\\ud83d\\ude00 ü 中 😀\"\n}\n",
        "  [ \"x\" , { \"k\" : \"v\" } ]  ",
        r#"{"a":1,"a":2,"b":"\/\b\f\r"}"#,
    ];

    #[test]
    fn every_prefix_reads_as_serde_json_reads_the_whole() {
        for sample in SAMPLES {
            let b = sample.as_bytes();
            for end in 0..=b.len() {
                same(&b[..end]);
            }
        }
    }

    #[test]
    fn every_one_byte_change_reads_as_serde_json_reads_the_whole() {
        let replacements = [
            b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'.', b'e', b'x', b'u',
            b' ', b'\n', 0x01, 0xff, 0xc3,
        ];
        for sample in SAMPLES {
            every_change(sample.as_bytes(), &replacements, same);
        }
    }

    /// `check` on `b` with each byte replaced by each of `replacements`, and deleted.
    fn every_change(b: &[u8], replacements: &[u8], check: fn(&[u8])) {
        for i in 0..b.len() {
            for &r in replacements {
                let mut changed = b.to_vec();
                changed[i] = r;
                check(&changed);
            }
            let mut cut = b.to_vec();
            cut.remove(i);
            check(&cut);
        }
    }

    #[test]
    fn odd_inputs_read_as_serde_json_reads_them() {
        let nested_ok = "[".repeat(127) + &"]".repeat(127);
        let nested_deep = "[".repeat(128) + &"]".repeat(128);
        for input in [
            "",
            " \n\t ",
            "1e400",
            "-1e400",
            "1e-400",
            "123456789012345678901234567890",
            "0.1e",
            "1.",
            "-",
            "01",
            "\"\\ud800\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800x\"",
            "\"\\udc00\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"a\nb\"",
            "{\"a\" 1}",
            "{1:2}",
            "[1,]",
            "{\"a\":1,}",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "nul",
            "nulx",
            "tru",
            "{} x",
            "\u{feff}{}",
            "\"\u{0}\"",
            &nested_ok,
            &nested_deep,
            "0e99999999999999999999999",
            "1e99999999999999999999999",
            "-1e-99999999999999999999999",
            "[1e4000000000]",
            "1.000000000000000000000000000001e5",
            "123456789012345678901234567890e300",
            "0.0000000000000000000000000000000000001e-400",
        ] {
            same(input.as_bytes());
        }
        // Not UTF-8 after a syntax error still says not UTF-8, as when read whole.
        same(b"{x \xff}");
        same(b"\"\xe4\xb8");
        same(b"\"\xe4\xb8\xad\"");
    }

    #[test]
    fn an_input_over_the_limit_is_too_large_even_when_it_is_not_json() {
        let big = vec![b'x'; 100];
        assert_eq!(got(&big, 50, CHUNK), "too large");
        assert_eq!(got(&big, 100, CHUNK), expected(&big, 100));
        let mut json = br#"{"a":""#.to_vec();
        json.extend(vec![b'y'; 1000]);
        json.extend(br#""}"#);
        assert_eq!(got(&json, 1000, 7), "too large");
        assert!(got(&json, 2000, 7).starts_with("ok"));
    }

    /// 600 KB of text with escapes and multi-byte characters, to cross many reads.
    fn large_text() -> String {
        (0..200_000)
            .map(|i| ["a", "é", "\n", "\"", "中"][i % 5])
            .collect()
    }

    /// `json` read through `rules` a full buffer at a time, and in reads that split
    /// characters and escapes.
    fn read_in_steps(json: &str, rules: &'static [Elide]) -> Vec<Value> {
        [CHUNK, 4093]
            .map(|step| {
                let data = json.as_bytes();
                read_value(Trickle { data, step }, 1 << 24, rules).unwrap()
            })
            .into()
    }

    #[test]
    fn a_large_string_crosses_reads_intact() {
        let content = large_text();
        let json = serde_json::json!({"content": content}).to_string();
        for v in read_in_steps(&json, &[]) {
            assert_eq!(v["content"], content);
        }
    }

    /// The rule the elision tests use: `b.c` is left out when it equals `a.c`.
    const B_AS_A: &[Elide] = &[Elide::SameAs {
        path: &["b", "c"],
        same_as: &["a", "c"],
    }];

    fn got_eliding(bytes: &[u8], step: usize) -> String {
        described(read_value(Trickle { data: bytes, step }, 1 << 20, B_AS_A))
    }

    /// What [`expected`] says of `bytes`, with serde_json's value (when there is one)
    /// changed by `leave_out` as the rules under test would change it.
    fn expected_leaving(bytes: &[u8], leave_out: impl FnOnce(&mut Value)) -> String {
        let whole = expected(bytes, 1 << 20);
        let Some(Ok(mut v)) = std::str::from_utf8(bytes)
            .ok()
            .map(serde_json::from_str::<Value>)
        else {
            return whole;
        };
        leave_out(&mut v);
        format!("ok {v:?}")
    }

    /// `bytes` read with `rules`, a few bytes at a time and whole, says `want`.
    fn same_leaving(bytes: &[u8], rules: &'static [Elide], want: String) {
        for step in [1, 3, 7, CHUNK] {
            let got = described(read_value(Trickle { data: bytes, step }, 1 << 20, rules));
            assert_eq!(
                got,
                want,
                "input {:?} read {step} bytes at a time",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    /// serde_json's value with `b.c` taken out where it equals `a.c` (for inputs that
    /// name `a` before `b` and repeat no key).
    fn same_eliding(bytes: &[u8]) {
        let want = expected_leaving(bytes, |v| {
            let a = v.pointer("/a/c").and_then(Value::as_str).map(str::to_owned);
            if a.is_some() && v.pointer("/b/c").and_then(Value::as_str) == a.as_deref() {
                v["b"].as_object_mut().unwrap().remove("c");
            }
        });
        same_leaving(bytes, B_AS_A, want);
    }

    fn a_then_b(a: &str, b: &str) -> String {
        format!(
            r#"{{"a":{{"c":{}}},"b":{{"type":"create","c":{},"d":null}}}}"#,
            serde_json::to_string(a).unwrap(),
            serde_json::to_string(b).unwrap()
        )
    }

    #[test]
    fn an_equal_copy_is_left_out_and_any_other_kept_whole() {
        let base = "line one\nline \"two\"\t\\ é 中 😀 \u{1} end";
        // Every way the later string can part from the earlier one: a character changed,
        // added or removed at each place, the later one a prefix of the earlier and the
        // earlier a prefix of the later.
        let chars: Vec<char> = base.chars().collect();
        let mut laters = vec![base.to_owned(), String::new()];
        for i in 0..=chars.len() {
            let (head, tail) = chars.split_at(i);
            let head: String = head.iter().collect();
            let tail: String = tail.iter().collect();
            laters.push(head.clone());
            laters.push(format!("{head}x{tail}"));
            laters.push(format!("{head}\n{tail}"));
            laters.push(format!("{head}é{tail}"));
            if !tail.is_empty() {
                let rest: String = tail.chars().skip(1).collect();
                laters.push(format!("{head}{rest}"));
                laters.push(format!("{head}ü{rest}"));
            }
        }
        for later in &laters {
            let json = a_then_b(base, later);
            same_eliding(json.as_bytes());
            let outcome = got_eliding(json.as_bytes(), CHUNK);
            assert_eq!(
                outcome.matches("\"c\"").count(),
                1 + usize::from(later != base),
                "{json}"
            );
        }
        // Escapes the writer chose differently still decode to the same string.
        let json = r#"{"a":{"c":"\u00e9/"},"b":{"c":"é\/"}}"#;
        assert_eq!(
            got_eliding(json.as_bytes(), 1),
            r#"ok Object {"a": Object {"c": String("é/")}, "b": Object {}}"#
        );
    }

    #[test]
    fn every_change_to_an_eliding_input_reads_as_serde_json_reads_it() {
        let sample = a_then_b("one\n\"two\" é\\u", "one\n\"two\" é\\u");
        let b = sample.as_bytes();
        for end in 0..=b.len() {
            same_eliding(&b[..end]);
        }
        every_change(b, b"\"\\}xn\x01\xff", same_eliding);
    }

    #[test]
    fn nothing_is_left_out_that_the_input_could_mean_otherwise() {
        for kept in [
            // The counterpart comes after, or is not a string, or the copy is not one.
            r#"{"b":{"c":"x"},"a":{"c":"x"}}"#,
            r#"{"a":{"c":1},"b":{"c":1}}"#,
            r#"{"a":{"c":"x"},"b":{"c":["x"]}}"#,
            r#"{"a":{"c":"x"},"b":[{"c":"x"}]}"#,
            r#"{"a":{"c":"x"},"b":{"e":{"c":"x"}}}"#,
            r#"{"a":{"c":"x"},"b":{"c":"x "}}"#,
            // A repeated key where nothing was left out reads as serde_json reads it.
            r#"{"a":{"c":"x"},"a":{"c":"y"},"b":{"c":"z"}}"#,
            r#"{"a":{"c":"x"},"b":{"c":"x","c":"z"}}"#,
        ] {
            assert_eq!(
                got_eliding(kept.as_bytes(), 3),
                expected(kept.as_bytes(), 1 << 20),
                "{kept}"
            );
        }
        // After a left-out copy, a repeated key could have changed what it equals.
        for ambiguous in [
            r#"{"a":{"c":"x"},"b":{"c":"x"},"a":{"c":"y"}}"#,
            r#"{"a":{"c":"x"},"b":{"c":"y","c":"x"}}"#,
            r#"{"a":{"c":"x"},"b":{"c":"x"},"z":{"k":1,"k":2}}"#,
        ] {
            assert_eq!(
                got_eliding(ambiguous.as_bytes(), 3),
                "repeated key",
                "{ambiguous}"
            );
        }
    }

    #[test]
    fn a_large_copy_is_compared_across_reads() {
        let content = large_text();
        let mut other = content.clone();
        other.replace_range(other.len() - 3.., "end");
        for (later, elided) in [(&content, true), (&other, false)] {
            for v in read_in_steps(&a_then_b(&content, later), B_AS_A) {
                assert_eq!(v["a"]["c"], content);
                assert_eq!(v["b"].get("c").is_none(), elided);
                if !elided {
                    assert_eq!(v["b"]["c"], *later);
                }
            }
        }
    }

    /// The rules the unread tests use: all of `b`, and `a.x`.
    const UNREAD: &[Elide] = &[
        Elide::Unread { path: &["b"] },
        Elide::Unread { path: &["a", "x"] },
    ];

    /// serde_json's value with `b` and `a.x` taken out of a top-level object.
    fn same_unread(bytes: &[u8]) {
        let want = expected_leaving(bytes, |v| {
            if let Some(top) = v.as_object_mut() {
                top.remove("b");
                if let Some(a) = top.get_mut("a").and_then(Value::as_object_mut) {
                    a.remove("x");
                }
            }
        });
        same_leaving(bytes, UNREAD, want);
    }

    #[test]
    fn an_unread_value_is_checked_as_json_and_left_out() {
        let sample = r#"{"a":{"k":"v","x":{"deep":["s\n\"\u00e9\ud83d\ude00",1.5e3,-0,true,null,{"b":"kept? no"}]}},"b":["one\ttwo",{"n":[1,2,{"x":"y"}]}],"c":{"b":"kept","x":"kept"}}"#;
        let b = sample.as_bytes();
        for end in 0..=b.len() {
            same_unread(&b[..end]);
        }
        every_change(b, b"\"\\}],xu0\x01\xff", same_unread);
        let v = read_value(sample.as_bytes(), 1 << 20, UNREAD).unwrap();
        assert_eq!(v.get("b"), None);
        assert_eq!(v["a"], serde_json::json!({"k": "v"}));
        assert_eq!(v["c"], serde_json::json!({"b": "kept", "x": "kept"}));
        // Nesting past serde_json's limit is refused inside an unread value too.
        let deep = format!(r#"{{"b":{}{}}}"#, "[".repeat(130), "]".repeat(130));
        same_unread(deep.as_bytes());
    }
}
