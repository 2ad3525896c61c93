//! What the page tests share: `PROBLEM serve` started on a free port ([`Served`]), its replies
//! held to `PROBLEM query`'s and its misuse answered ([`check_serve`]), and the page driven
//! in a real headless browser ([`check_page`]: Chromium under Playwright for Python, which
//! the tests skip, saying so, where either is missing).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The browser check ([`check_page`]): the page's framework, which runs a problem's checks.
pub const PAGE_CHECK: &str = include_str!("page_check.py");

/// A `PROBLEM serve` running on a port the system picked; killed when dropped.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Served {
    /// Starts `binary serve` with `args` and reads its address.
    ///
    /// # Panics
    /// When it does not start or print its address.
    #[must_use]
    pub fn start(binary: &str, args: &[&str]) -> Self {
        let mut child = Command::new(binary)
            .arg("serve")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("serve prints its address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        let address = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        Self { child, url, address }
    }

    /// One request: `head` (the request line and headers, without the blank line) and
    /// `body`; the status and the body of the response.
    ///
    /// # Panics
    /// When the server does not answer.
    #[must_use]
    pub fn request(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream.set_read_timeout(Some(Duration::from_secs(60))).expect("a timeout can be set");
        let head = format!("{head}\r\nContent-Length: {}\r\n\r\n", body.len());
        stream.write_all(head.as_bytes()).expect("the request is sent");
        let _ = stream.write_all(body);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_owned();
        (status, body)
    }

    /// `POST /api/query` with `query`.
    #[must_use]
    pub fn query(&self, query: &str) -> (u16, String) {
        let head = format!("POST /api/query HTTP/1.1\r\nHost: {}", self.address);
        self.request(&head, query.as_bytes())
    }

    /// Stops the server with SIGINT, as Ctrl-C does; its exit status.
    ///
    /// # Panics
    /// When it does not stop.
    pub fn interrupt(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        self.child.wait().expect("the server stops")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `binary query`'s answer to each of `queries` (one a line).
fn query_lines(binary: &str, queries: &[&str]) -> Vec<String> {
    let mut child = Command::new(binary)
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all((queries.join("\n") + "\n").as_bytes()).expect("the queries are written");
    drop(stdin);
    let output = child.wait_with_output().expect("query ends");
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect()
}

/// `binary serve` answers `queries` (valid ones: status 200) exactly as `binary query` does,
/// line for line, and answers misuse with a clear error while it keeps serving: malformed
/// JSON, an unknown field, a game out of range and an illegal move (400 with `{"error"}`,
/// the same line `query` writes), a body over the limit (413, unread), a `Host` of another
/// name (403), an unknown path (404), clients that connect and send nothing, many at once
/// (503 beyond the limit, served again after); its pages name nothing outside; Ctrl-C ends it.
///
/// # Panics
/// When it does otherwise.
pub fn check_serve(binary: &str, queries: &[&str]) {
    let served = Served::start(binary, &[]);
    let bad = [
        r#"{"moves": "#,
        r#"{"mvoes": []}"#,
        r#"{"game": 100000}"#,
        r#"{"moves": ["no such move"]}"#,
    ];
    let expected = query_lines(binary, &[queries, &bad[..]].concat());
    assert_eq!(expected.len(), queries.len() + bad.len(), "query answers each line: {expected:?}");
    for (query, line) in queries.iter().chain(&bad).zip(&expected) {
        let (status, body) = served.query(query);
        assert_eq!(&body, line, "{query}");
        let error = line.starts_with("{\"error\"");
        assert_eq!(status, if error { 400 } else { 200 }, "{query}: {body}");
    }
    let host = format!("Host: {}", served.address);
    // A body over the limit is refused before it is sent.
    let big = format!("POST /api/query HTTP/1.1\r\n{host}\r\nContent-Length: 100000000\r\n\r\n");
    let mut stream = TcpStream::connect(&served.address).expect("the server accepts");
    stream.write_all(big.as_bytes()).expect("the head is sent");
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");
    let (status, body) = served.request("GET /api/input HTTP/1.1\r\nHost: evil.example:80", b"");
    assert_eq!(status, 403, "{body}");
    let elsewhere = served.address.replace("127.0.0.1", "rebound.example");
    let (status, _) = served.request(&format!("GET / HTTP/1.1\r\nHost: {elsewhere}"), b"");
    assert_eq!(status, 403, "a name of another site is refused");
    let (status, _) = served.request(&format!("GET /nowhere HTTP/1.1\r\n{host}"), b"");
    assert_eq!(status, 404);
    // Silent clients, more than the server serves at once: the others are turned away,
    // and served again once they go.
    let silent: Vec<TcpStream> =
        (0..40).map(|_| TcpStream::connect(&served.address).expect("accepted")).collect();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = served.request(&format!("GET /page.css HTTP/1.1\r\n{host}"), b"");
    assert_eq!(status, 503, "beyond the limit, busy");
    drop(silent);
    std::thread::sleep(Duration::from_millis(300));
    for path in ["/", "/page.js", "/page.css", "/board.js", "/api/input"] {
        let (status, body) = served.request(&format!("GET {path} HTTP/1.1\r\n{host}"), b"");
        assert_eq!(status, 200, "{path}");
        // The SVG namespace is a name, never fetched.
        let named = body.replace("http://www.w3.org/2000/svg", "");
        assert!(!named.contains("://"), "{path} names an address outside: it must work offline");
    }
    let status = served.interrupt();
    assert!(!status.success(), "Ctrl-C ends the server: {status:?}");
}

/// Where the browser check runs: a Python with Playwright and a Chromium, or why not.
fn browser() -> Result<(PathBuf, PathBuf), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = std::env::var_os("JUDGE_BROWSER_PYTHON")
        .map_or_else(|| root.join("target/browser/bin/python"), PathBuf::from);
    let chromium = std::env::var_os("JUDGE_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.exists() {
        return Err(format!("no Chromium at {} (JUDGE_CHROMIUM)", chromium.display()));
    }
    let playwright = Command::new(&python).args(["-c", "import playwright"]).output();
    if !playwright.is_ok_and(|o| o.status.success()) {
        return Err(format!("no Playwright for {} (JUDGE_BROWSER_PYTHON)", python.display()));
    }
    Ok((python, chromium))
}

/// Drives `binary serve`'s page in headless Chromium: the framework [`PAGE_CHECK`] (every
/// move listed with its value in its colour, best first; the URL fragment opening a position;
/// a click, the browser's back button and the keyboard; a narrow window; no request leaving
/// the machine) and the problem's own `checks` (Python defining `check(page)`), in `dir`,
/// with a screenshot in `dir/NAME.png` (and in `$JUDGE_SCREENSHOTS/NAME.png` when that is
/// set). Skips, saying so on stderr, without a browser, but on CI (`CI` set), where
/// `.ci/run` installs one. Returns whether it ran.
///
/// # Panics
/// When a check fails, or a browser is required and missing.
pub fn check_page(binary: &str, name: &str, checks: &str, dir: &Path) -> bool {
    let (python, chromium) = match browser() {
        Ok(found) => found,
        Err(why) if std::env::var_os("CI").is_none() => {
            // Written to the stream itself, which the harness does not capture.
            let skipped = format!("skipped: {name}'s page in a browser: {why}");
            writeln!(std::io::stderr(), "{skipped}").expect("stderr takes a line");
            return false;
        }
        Err(why) => panic!("CI runs the browser tests (.ci/run installs one): {why}"),
    };
    let framework = dir.join("page_check.py");
    let problem = dir.join("problem_checks.py");
    std::fs::write(&framework, PAGE_CHECK).expect("the folder is writable");
    std::fs::write(&problem, checks).expect("the folder is writable");
    let shot = dir.join(format!("{name}.png"));
    let served = Served::start(binary, &[]);
    let output = Command::new(&python)
        .arg(&framework)
        .arg(&served.url)
        .arg(&chromium)
        .arg(&problem)
        .arg(&shot)
        .output()
        .expect("python runs");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the page check failed:\n{out}\n{err}");
    if let Some(folder) = std::env::var_os("JUDGE_SCREENSHOTS") {
        std::fs::copy(&shot, Path::new(&folder).join(format!("{name}.png")))
            .expect("the screenshot is copied");
    }
    true
}
