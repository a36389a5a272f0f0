//! Getting a browser: launching Debian's Chromium on a fresh profile (with the
//! [guard](super::guard) that ends it if the agent dies first), or attaching to a running one
//! over the DevTools protocol; and closing what was launched.

use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use futures::StreamExt;

use super::guard::spawn_guard;
use super::{AgentError, Code, LaunchOptions, Result};

/// A browser the session drives, and what must live as long as it.
/// Chromium's switches, without their dashes: chromiumoxide writes each as `--{key}`
/// (given as `--disable-gpu`, they reached Chromium as `----disable-gpu` and did nothing).
/// Without the background-networking ones Chromium opens connections a closed network
/// refuses, many at a time.
const LAUNCH_FLAGS: [&str; 5] = [
    "disable-gpu",
    "no-first-run",
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
];

pub(super) struct Launched {
    pub(super) browser: Browser,
    /// Runs the DevTools connection's event loop.
    pub(super) handler: tokio::task::JoinHandle<()>,
    /// Keeps the temporary profile until the session ends.
    pub(super) _profile: Option<tempfile::TempDir>,
    /// The process that ends Chromium if this one dies first (launch mode).
    pub(super) guard: Option<std::process::Child>,
    pub(super) attached: bool,
}

/// Launches Chromium (or attaches to one), as `options` say.
pub(super) async fn launch(options: &LaunchOptions) -> Result<Launched> {
    let launch_err = |e: String| AgentError::new(Code::ActionFailed, e);
    // The profile dir (launch mode) and, when it is a temporary one, its owner.
    let (mut browser, mut handler, dir, profile, attached) = match &options.attach {
        Some(target) => {
            let url = match target.parse::<u16>() {
                Ok(port) => format!("http://127.0.0.1:{port}"),
                Err(_) => target.clone(),
            };
            let (browser, handler) = Browser::connect(url.clone()).await.map_err(|e| {
                launch_err(format!(
                    "cannot attach to {url}: {e} (start the browser with \
                         --remote-debugging-port=PORT)"
                ))
            })?;
            (browser, handler, None, None, true)
        }
        None => {
            if !options.browser.exists() {
                return Err(launch_err(format!(
                    "no browser at {} (install Debian's chromium, or pass --browser PATH)",
                    options.browser.display()
                )));
            }
            let (dir, profile) = match &options.user_data_dir {
                Some(dir) => (dir.clone(), None),
                None => {
                    let tmp = tempfile::Builder::new()
                        .prefix("agent-snapshot-profile-")
                        .tempdir()
                        .map_err(|e| launch_err(format!("cannot make a profile dir: {e}")))?;
                    (tmp.path().to_path_buf(), Some(tmp))
                }
            };
            let mut config = BrowserConfig::builder()
                .chrome_executable(&options.browser)
                .user_data_dir(&dir)
                .args(LAUNCH_FLAGS)
                .request_timeout(Duration::from_secs(30));
            if !options.headless {
                config = config.with_head();
            }
            if running_as_root() {
                config = config.no_sandbox();
            }
            let config = config.build().map_err(launch_err)?;
            let (browser, handler) = Browser::launch(config)
                .await
                .map_err(|e| launch_err(format!("cannot launch Chromium: {e}")))?;
            (browser, handler, Some(dir), profile, false)
        }
    };
    let guard = dir.and_then(|dir| {
        let pid = browser.get_mut_child().and_then(|c| c.as_mut_inner().id());
        spawn_guard(pid, &dir, profile.is_some())
    });
    let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
    Ok(Launched {
        browser,
        handler,
        _profile: profile,
        guard,
        attached,
    })
}

impl Launched {
    /// Closes the browser (launch mode); an attached browser is left running (the session
    /// closed its own tabs).
    pub(super) async fn close(mut self) {
        if !self.attached {
            let _ = self.browser.close().await;
            let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.wait()).await;
            let _ = self.browser.kill().await;
        }
        self.handler.abort();
        if let Some(mut guard) = self.guard.take() {
            // Closing its stdin tells the guard we ended cleanly; it checks and exits.
            drop(guard.stdin.take());
            let _ = guard.wait();
        }
    }
}

fn running_as_root() -> bool {
    // Chromium refuses to run as root with its sandbox on; /proc tells the effective uid
    // without unsafe code.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|uid| uid == "0"))
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::LAUNCH_FLAGS;

    #[test]
    fn launch_flags_are_bare_switch_names() {
        for flag in LAUNCH_FLAGS {
            assert!(
                !flag.starts_with('-') && !flag.contains(char::is_whitespace),
                "{flag}: chromiumoxide adds the dashes"
            );
        }
    }
}
