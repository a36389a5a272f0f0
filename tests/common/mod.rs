//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The repo's own corpus pages.
pub fn repo_pages() -> Vec<PathBuf> {
    html_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"))
}

/// `../shared/corpus` pages, or `None` (with a note on stderr) when the folder is absent.
pub fn shared_pages() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        eprintln!(
            "skipping ../shared/corpus checks: {} is absent",
            dir.display()
        );
        return None;
    }
    Some(html_files(&dir))
}

fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "html"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Debian's Chromium (or `$CHROMIUM`), or `None` with a note: browser tests skip then.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipping: needs Chromium at /usr/bin/chromium (apt-get install chromium) or $CHROMIUM"
        );
        None
    }
}

/// Serves `pages` (path → HTML) on 127.0.0.1; returns the base URL.
pub fn serve(pages: HashMap<&'static str, String>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let pages = Arc::new(pages);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let pages = Arc::clone(&pages);
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                let n = stream.read(&mut buf).unwrap_or(0);
                let request = String::from_utf8_lossy(&buf[..n]);
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let path = path.split('?').next().unwrap_or(path);
                let (status, body) = match pages.get(path) {
                    Some(body) => ("200 OK", body.as_str()),
                    None => ("404 Not Found", "<title>Not found</title>not found"),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    format!("http://127.0.0.1:{}", addr.port())
}

/// A page whose footer (40 links) folds into one stub line under a budget of 620 characters
/// (`- contentinfo [ref=eN] (folded: 40 links…)`), with buttons above it: `Buy` sets the
/// title, `Add deal` puts a link at the start of the page (every ref after it moves on), and
/// each footer link sets the title to its name.
pub fn deals_page() -> String {
    // Long items: whatever the main content leaves of a budget of 540 to 700 characters
    // holds no footer item, so the footer folds whole there.
    let small_print = "shipping and returns, gift cards, store locations, careers, press, \
        accessibility, privacy and the terms of use that apply to every order placed in any of \
        our shops";
    let links: String = (1..=40)
        .map(|i| {
            format!(
                "<li><a href=\"#f{i}\" onclick=\"document.title = 'Footer {i}'; return false\">\
                 Footer {i}</a> {small_print}</li>"
            )
        })
        .collect();
    format!(
        "<!doctype html><title>Deals</title>\n\
         <main><h1>Deals</h1><p>Gold is at a good price today, says the shop.</p>\n\
         <button onclick=\"document.title = 'Bought'\">Buy</button>\n\
         <button onclick=\"addDeal()\">Add deal</button></main>\n\
         <footer><ul>{links}</ul></footer>\n\
         <script>function addDeal() {{ let a = document.createElement('a'); a.href = '#new'; \
         a.textContent = 'New deal'; document.querySelector('main').prepend(a); }}</script>"
    )
}

/// The ref of a folded stub line that starts with `- {role} [ref=`, e.g. the footer's in
/// `- contentinfo [ref=e5] (folded: 40 links)`.
pub fn folded_ref(snapshot: &str, role: &str) -> String {
    let prefix = format!("- {role} [ref=");
    snapshot
        .lines()
        .map(str::trim_start)
        .filter(|l| l.contains("(folded:"))
        .find_map(|l| Some(l.strip_prefix(&prefix)?.split(']').next()?.to_string()))
        .unwrap_or_else(|| panic!("no folded {role} in {snapshot}"))
}

/// How long a browser test waits for one answer line. Every agent command has its own
/// limit (30 s at most), so a line that takes longer means the agent is wedged: the test
/// fails with the request it was waiting on instead of hanging CI until its time runs out.
pub const ANSWER_LIMIT: std::time::Duration = std::time::Duration::from_secs(75);

/// A child's output read line by line on a thread of its own, so that a read can time out.
pub struct Lines {
    rx: std::sync::mpsc::Receiver<String>,
}

impl Lines {
    /// Starts reading `from` (a child's stdout or stderr) until it closes.
    pub fn new(from: impl Read + Send + 'static) -> Lines {
        use std::io::BufRead;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(from);
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(n) if n > 0 => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        });
        Lines { rx }
    }

    /// The next line, or `None` once the output closed. Panics, naming `waiting_for`, when
    /// no line comes within [`ANSWER_LIMIT`].
    pub fn next(&self, waiting_for: &str) -> Option<String> {
        match self.rx.recv_timeout(ANSWER_LIMIT) {
            Ok(line) => Some(line),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("no answer within {ANSWER_LIMIT:?} to {waiting_for}")
            }
        }
    }
}

/// The page a cross-site frame shows: a field, a button whose handler writes who accepted,
/// and a line hidden by CSS that no output may carry.
pub const TERMS_PAGE: &str = r#"<!doctype html><title>Terms</title>
<label>Full name <input name=name></label>
<button onclick="document.getElementById('state').textContent = 'Accepted by ' +
  document.querySelector('input').value">Accept terms</button>
<p id=state>Not accepted yet</p><p style="display:none">SECRET-cross-site-frame</p>"#;

/// corpus/components.html (an open shadow root, a same-origin frame) whose Terms frame loads
/// `/terms.html` ([`TERMS_PAGE`]) from `localhost` on the page's port, while the page itself
/// is served from `127.0.0.1` ([`serve`]): another site, so under Chromium's default
/// site-per-process the frame runs in a process of its own (an out-of-process iframe, a
/// DevTools target of type `iframe`) and the page's script cannot enter it.
pub fn cross_site_page() -> String {
    let page = include_str!("../../corpus/components.html").replace(
        r#"<iframe title=Terms src="https://terms.example/accept"></iframe>"#,
        "<iframe title=Terms></iframe><script>document.querySelector('iframe[title=Terms]').src \
         = 'http://localhost:' + location.port + '/terms.html'</script>",
    );
    assert!(
        page.contains("/terms.html"),
        "corpus/components.html changed"
    );
    page
}

/// The DevTools targets, `(type, url)`, of the Chromium whose profile folder is `profile`:
/// its `/json/list`, on the port it wrote to the profile's `DevToolsActivePort`.
pub fn devtools_targets(profile: &Path) -> Vec<(String, String)> {
    let port = std::fs::read_to_string(profile.join("DevToolsActivePort"))
        .ok()
        .and_then(|f| f.lines().next()?.trim().parse::<u16>().ok())
        .expect("the browser's DevTools port");
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("DevTools port");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .expect("timeout");
    // One write: Chromium's DevTools server reads the request line and headers whole.
    let request = format!("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("request");
    // Read up to the body's announced length (the server may keep the connection open).
    let mut answer = Vec::new();
    let mut buf = [0u8; 16384];
    let body = loop {
        let n = stream.read(&mut buf).expect("answer");
        assert!(n > 0, "the DevTools server closed without an answer");
        answer.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        let length = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())?
            })
            .expect("Content-Length");
        if body.len() >= length {
            break body.to_string();
        }
    };
    let list: serde_json::Value = serde_json::from_str(&body).expect("target list is JSON");
    list.as_array()
        .expect("a list")
        .iter()
        .map(|t| {
            let field = |k: &str| t[k].as_str().unwrap_or_default().to_string();
            (field("type"), field("url"))
        })
        .collect()
}
