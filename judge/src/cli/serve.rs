//! `PROBLEM serve [FILE] [--port P] [--bind ADDR]`: the game in a web page, against perfect
//! play, served from this process with nothing fetched from elsewhere.
//!
//! The page, its script, its style (module `games::page`) and the game's board script
//! ([`games::Notation::board_script`]) are compiled into the binary. `POST /api/query` takes
//! `PROBLEM query`'s JSON and answers with exactly its line
//! ([`games::query::Answerer::respond`]: one code path), a bad query with status 400 and `{"error": ...}`; `GET /api/input` gives the
//! input the page plays (FILE, or the statement's sample).
//!
//! **Misuse.** A request's head holds at most 16 KiB, its body at most [`BODY_LIMIT`] (413
//! beyond, unread); a client has [`REQUEST_TIME`] to send its request (a slow one is cut
//! off); at most [`CONNECTIONS`] are served at once (503 beyond, at once). A `Host` that is
//! not `localhost` or an IP address with the bound port is refused (403), so a page of
//! another site cannot reach the server through a name of its own (DNS rebinding). Queries
//! take turns on the one game, which keeps its tables. The server starts no process, so
//! Ctrl-C leaves nothing running.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use games::Game;

use super::args::EXIT_TROUBLE;
use super::read;

/// `PROBLEM serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// The input whose games the page plays; the statement's sample when absent (the page
    /// takes another pasted in).
    pub file: Option<PathBuf>,
    /// The port (0: one the system picks).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on; only this machine can reach the default.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "ADDR")]
    pub bind: IpAddr,
}

/// The largest body a query may have: card-duel's largest files with room to spare.
const BODY_LIMIT: usize = 32 << 20;
/// The longest a request's head may be.
const HEAD_LIMIT: usize = 16 << 10;
/// How long a client has to send its whole request.
const REQUEST_TIME: Duration = Duration::from_secs(20);
/// Connections served at once.
const CONNECTIONS: usize = 32;

/// What every connection's thread shares.
struct Server<G: Game> {
    game: Mutex<games::query::Answerer<G>>,
    /// `GET /api/input`'s body.
    input_json: String,
    board_script: &'static str,
    port: u16,
    open: AtomicUsize,
}

/// Runs `serve` until the process is stopped; returns the exit code when it cannot start.
pub(super) fn run_serve<G: Game + Send + 'static>(game: G, args: &ServeArgs) -> i32 {
    let started = (|| -> Result<(TcpListener, String), String> {
        let input = match &args.file {
            Some(path) => {
                let bytes = read(Some(path))?;
                game.read(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                String::from_utf8(bytes)
                    .map_err(|_| format!("{}: the input is not UTF-8", path.display()))?
            }
            None => String::from_utf8_lossy(game.sample()).into_owned(),
        };
        let listener = TcpListener::bind(SocketAddr::new(args.bind, args.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
        Ok((listener, input))
    })();
    let (listener, input) = match started {
        Ok(started) => started,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    };
    let address = listener.local_addr().map_or_else(|_| "?".to_owned(), |a| a.to_string());
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let name = game.name();
    let input_json = serde_json::json!({ "problem": name, "input": input }).to_string();
    let server = Arc::new(Server {
        board_script: game.board_script(),
        game: Mutex::new(games::query::Answerer::new(game)),
        input_json,
        port,
        open: AtomicUsize::new(0),
    });
    println!("{name}: serving the game at http://{address}/ (Ctrl-C stops)");
    let _ = io::stdout().flush();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if server.open.fetch_add(1, Ordering::SeqCst) >= CONNECTIONS {
            server.open.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = respond(&stream, 503, "text/plain", b"busy: too many connections\n");
            continue;
        }
        let server = Arc::clone(&server);
        let spawned = std::thread::Builder::new().name("serve".into()).spawn(move || {
            server.connection(&stream);
            server.open.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            eprintln!("error: cannot start a thread for a connection");
        }
    }
    0
}

/// A request as read.
struct Request {
    method: String,
    path: String,
    host: Option<String>,
    body: Vec<u8>,
}

/// Why a request gets no answer of its route.
struct Refused(u16, String);

impl<G: Game> Server<G> {
    /// Serves one connection: one request, one response, then the connection is closed.
    fn connection(&self, stream: &TcpStream) {
        let deadline = Instant::now() + REQUEST_TIME;
        let _ = stream.set_read_timeout(Some(REQUEST_TIME));
        let _ = stream.set_write_timeout(Some(REQUEST_TIME));
        let (status, kind, body) = match read_request(stream, deadline) {
            Ok(request) => self.route(&request),
            Err(Refused(status, why)) => (status, "application/json", error_body(&why)),
        };
        let _ = respond(stream, status, kind, &body);
    }

    /// The response to `request`: status, content type, body.
    fn route(&self, request: &Request) -> (u16, &'static str, Vec<u8>) {
        if !self.host_allowed(request.host.as_deref()) {
            return (403, "application/json", error_body("the Host is not this server's"));
        }
        let page = |kind, text: &str| (200, kind, text.as_bytes().to_vec());
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/" | "/index.html") => page("text/html; charset=utf-8", games::page::HTML),
            ("GET", "/page.js") => page("text/javascript; charset=utf-8", games::page::SCRIPT),
            ("GET", "/page.css") => page("text/css; charset=utf-8", games::page::STYLE),
            ("GET", "/board.js") => page("text/javascript; charset=utf-8", self.board_script),
            ("GET", "/api/input") => page("application/json", &self.input_json),
            ("POST", "/api/query") => {
                let Ok(text) = std::str::from_utf8(&request.body) else {
                    return (400, "application/json", error_body("the query is not UTF-8"));
                };
                let mut game = self.game.lock().unwrap_or_else(PoisonError::into_inner);
                match game.respond(text) {
                    Ok(answer) => (200, "application/json", answer.into_bytes()),
                    Err(e) => (400, "application/json", error_body(&e)),
                }
            }
            (_, "/" | "/index.html" | "/page.js" | "/page.css" | "/board.js" | "/api/input")
            | (_, "/api/query") => {
                (405, "application/json", error_body("method not allowed on this path"))
            }
            _ => (404, "application/json", error_body("no such path")),
        }
    }

    /// Whether `host` names this server by `localhost` or an IP address, with its port.
    fn host_allowed(&self, host: Option<&str>) -> bool {
        let Some(host) = host else { return false };
        let Some((name, port)) = host.rsplit_once(':') else { return false };
        if port.parse::<u16>() != Ok(self.port) {
            return false;
        }
        let name = name.trim_start_matches('[').trim_end_matches(']');
        name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
    }
}

/// Reads one request from `stream` by `deadline` (see the module notes for the limits).
fn read_request(stream: &TcpStream, deadline: Instant) -> Result<Request, Refused> {
    let timed_out = || Refused(408, "the request took too long".to_owned());
    let mut reader = BufReader::new(stream.take(HEAD_LIMIT as u64));
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        let read = reader.read_until(b'\n', &mut line).map_err(|_| timed_out())?;
        if Instant::now() > deadline {
            return Err(timed_out());
        }
        if read == 0 {
            return Err(Refused(400, "the request's head is cut short or too long".to_owned()));
        }
        let line = String::from_utf8_lossy(&line).trim_end().to_owned();
        if line.is_empty() {
            break;
        }
        head.push(line);
    }
    let mut words = head.first().map(|l| l.split(' ')).into_iter().flatten();
    let (Some(method), Some(path)) = (words.next(), words.next()) else {
        return Err(Refused(400, "no request line".to_owned()));
    };
    let header = |name: &str| {
        head.iter().skip(1).find_map(|l| {
            let (key, value) = l.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
        })
    };
    let length = match header("content-length") {
        Some(n) => n.parse::<usize>().map_err(|_| Refused(400, "a bad Content-Length".into()))?,
        None => 0,
    };
    if length > BODY_LIMIT {
        return Err(Refused(413, format!("the body is over {} MiB", BODY_LIMIT >> 20)));
    }
    // What the head's reader buffered past the head is the body's start.
    let mut body = reader.buffer().to_vec();
    let mut rest = reader.into_inner().into_inner();
    body.truncate(length);
    let mut chunk = vec![0; 64 << 10];
    while body.len() < length {
        let want = (length - body.len()).min(chunk.len());
        let read = rest.read(&mut chunk[..want]).map_err(|_| timed_out())?;
        if read == 0 {
            return Err(Refused(400, "the body is cut short".to_owned()));
        }
        if Instant::now() > deadline {
            return Err(timed_out());
        }
        body.extend_from_slice(&chunk[..read]);
    }
    let host = header("host");
    Ok(Request { method: method.to_owned(), path: path.to_owned(), host, body })
}

/// `{"error": why}` as bytes.
fn error_body(why: &str) -> Vec<u8> {
    games::query::error_line(why).into_bytes()
}

/// Writes a whole response and closes the connection.
fn respond(mut stream: &TcpStream, status: u16, kind: &str, body: &[u8]) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        _ => "Service Unavailable",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()?;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    Ok(())
}
