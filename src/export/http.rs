//! A minimal HTTP/1.1 client for one thing: POSTing a batch to an OTLP/HTTP receiver on
//! a plain `http://` endpoint, reusing one connection across the batches of a flush. No
//! TLS here (no TLS stack is among the dependencies): an `https://` endpoint is reported
//! as unsupported and the records wait, the usual deployment being a collector agent on
//! the machine (`http://localhost:4318`) that forwards over TLS.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Where batches go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub host: String,
    pub port: u16,
    pub path: String,
}

impl Url {
    /// Parses `http://host[:port][/path]`.
    pub fn parse(text: &str) -> Result<Url, String> {
        let rest = match text.split_once("://") {
            Some(("http", rest)) => rest,
            Some(("https", _)) => {
                return Err(format!(
                    "{text}: https endpoints are not supported (no TLS stack in this build); send to a local collector on http://localhost:4318, which forwards over TLS"
                ))
            }
            _ => return Err(format!("{text}: expected http://HOST[:PORT][/PATH]")),
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
                h,
                p.parse::<u16>()
                    .map_err(|_| format!("{text}: the port {p:?} is not a number"))?,
            ),
            _ => (authority, 80),
        };
        if host.is_empty() {
            return Err(format!("{text}: no host"));
        }
        Ok(Url {
            host: host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
            port,
            path: path.to_owned(),
        })
    }
}

/// Why a POST did not get a 2xx.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// No connection, a timeout, a dropped connection: try again later.
    Unreachable(String),
    /// The receiver answered with this status (and the start of its body).
    Status(u16, String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(why) => write!(f, "{why}"),
            Failure::Status(code, body) if body.is_empty() => write!(f, "HTTP {code}"),
            Failure::Status(code, body) => write!(f, "HTTP {code}: {body}"),
        }
    }
}

/// One connection to the receiver, opened on first use and kept while it answers.
pub struct Client {
    url: Url,
    timeout: Duration,
    headers: Vec<(String, String)>,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    pub fn new(url: Url, timeout: Duration, headers: Vec<(String, String)>) -> Client {
        Client {
            url,
            timeout,
            headers,
            conn: None,
        }
    }

    fn connect(&self) -> Result<BufReader<TcpStream>, Failure> {
        let unreachable = |e: std::io::Error| {
            Failure::Unreachable(format!(
                "{}:{}: {}",
                self.url.host,
                self.url.port,
                crate::fsutil::describe_io(&e)
            ))
        };
        let addrs = (self.url.host.as_str(), self.url.port)
            .to_socket_addrs()
            .map_err(unreachable)?;
        let mut last = None;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, self.timeout) {
                Ok(s) => {
                    s.set_read_timeout(Some(self.timeout))
                        .map_err(unreachable)?;
                    s.set_write_timeout(Some(self.timeout))
                        .map_err(unreachable)?;
                    let _ = s.set_nodelay(true);
                    return Ok(BufReader::new(s));
                }
                Err(e) => last = Some(e),
            }
        }
        Err(unreachable(last.unwrap_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no address")
        })))
    }

    /// POSTs `body`; Ok on a 2xx. A kept connection the receiver closed meanwhile is
    /// reopened once.
    pub fn post(&mut self, content_type: &str, body: &[u8]) -> Result<(), Failure> {
        let reused = self.conn.is_some();
        match self.post_once(content_type, body) {
            Err(Failure::Unreachable(_)) if reused => {
                self.conn = None;
                self.post_once(content_type, body)
            }
            other => other,
        }
    }

    fn post_once(&mut self, content_type: &str, body: &[u8]) -> Result<(), Failure> {
        let mut conn = match self.conn.take() {
            Some(c) => c,
            None => self.connect()?,
        };
        let io = |e: std::io::Error| Failure::Unreachable(crate::fsutil::describe_io(&e));
        let mut head = format!(
            "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nUser-Agent: did-it-actually/{}\r\n",
            self.url.path,
            self.url.host,
            self.url.port,
            body.len(),
            env!("CARGO_PKG_VERSION")
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let stream = conn.get_mut();
        stream.write_all(head.as_bytes()).map_err(io)?;
        stream.write_all(body).map_err(io)?;
        stream.flush().map_err(io)?;
        let (status, keep, text) = read_response(&mut conn).map_err(io)?;
        if keep {
            self.conn = Some(conn);
        }
        if (200..300).contains(&status) {
            Ok(())
        } else {
            Err(Failure::Status(status, text))
        }
    }
}

/// The status, whether the connection stays open, and the start of the body as text.
fn read_response(conn: &mut BufReader<TcpStream>) -> std::io::Result<(u16, bool, String)> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    if conn.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the receiver closed the connection without answering",
        ));
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("not an HTTP status line"))?;
    let mut length: Option<usize> = None;
    let mut chunked = false;
    let mut keep = !line.starts_with("HTTP/1.0");
    loop {
        line.clear();
        if conn.read_line(&mut line)? == 0 {
            return Err(bad("the response ended inside its headers"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            match k.as_str() {
                "content-length" => length = v.parse().ok(),
                "transfer-encoding" => chunked = v.eq_ignore_ascii_case("chunked"),
                "connection" => keep = !v.eq_ignore_ascii_case("close"),
                _ => {}
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad("a bad chunk size"))?;
            let mut chunk = vec![0; size + 2];
            conn.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        conn.read_exact(&mut body)?;
    } else {
        conn.read_to_end(&mut body)?;
        keep = false;
    }
    let text: String = String::from_utf8_lossy(&body).chars().take(200).collect();
    Ok((status, keep, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            Url::parse("http://localhost:4318/v1/logs").unwrap(),
            Url {
                host: "localhost".into(),
                port: 4318,
                path: "/v1/logs".into()
            }
        );
        assert_eq!(Url::parse("http://collector").unwrap().port, 80);
        assert!(Url::parse("https://x:4318")
            .unwrap_err()
            .contains("not supported"));
        assert!(Url::parse("collector:4318").is_err());
    }
}
