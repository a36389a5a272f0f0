//! The process guard: `agent-snapshot guard`, started at launch, holds a pipe from the
//! agent; when the pipe closes without a clean shutdown (the agent killed or crashed) it kills
//! Chromium's process tree and removes the temporary profile, so no Chromium outlives the
//! agent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Starts `agent-snapshot guard`: a process that holds a pipe from this one and, when the
/// pipe closes without a clean shutdown (this process killed or crashed), kills Chromium and
/// its descendants and removes the temporary profile.
pub(super) fn spawn_guard(
    pid: Option<u32>,
    profile: &Path,
    remove_profile: bool,
) -> Option<std::process::Child> {
    use std::io::Write;
    let exe = std::env::current_exe().ok()?;
    let mut child = std::process::Command::new(exe)
        .arg("guard")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let stdin = child.stdin.as_mut()?;
    let mut lines = String::new();
    if let Some(pid) = pid {
        lines.push_str(&format!("pid {pid}\n"));
    }
    // Chromium's helpers (zygotes, crashpad) name the profile on their command lines, also
    // those that were re-parented away from the browser process.
    lines.push_str(&format!("match {}\n", profile.display()));
    if remove_profile {
        lines.push_str(&format!("rmdir {}\n", profile.display()));
    }
    stdin.write_all(lines.as_bytes()).ok()?;
    stdin.flush().ok()?;
    Some(child)
}

/// The guard's side (the hidden `agent-snapshot guard` command): reads `pid N`, `match TEXT`
/// and `rmdir PATH` lines until its stdin closes, then kills what still runs (the pids, their
/// descendants, and processes whose command line holds a `match` text) and removes the
/// dirs. After a clean shutdown Chromium has already exited, so there is little left to do.
pub fn run_guard() {
    use std::io::BufRead;
    let mut pids = Vec::new();
    let mut matches = Vec::new();
    let mut dirs = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(pid) = line
            .strip_prefix("pid ")
            .and_then(|p| p.trim().parse::<u32>().ok())
        {
            pids.push(pid);
        } else if let Some(text) = line.strip_prefix("match ") {
            matches.push(text.to_string());
        } else if let Some(dir) = line.strip_prefix("rmdir ") {
            dirs.push(PathBuf::from(dir));
        }
    }
    // Again while anything is left: a helper may be starting while a round kills its parent.
    // After a clean shutdown the first round finds nothing, and the agent exits at once.
    for _ in 0..3 {
        let victims = descendants(&pids, &matches);
        if victims.is_empty() {
            break;
        }
        kill_all(&victims);
        std::thread::sleep(Duration::from_millis(300));
    }
    for dir in dirs {
        // Chromium may still be writing as it dies; a second try catches late files.
        for _ in 0..3 {
            if std::fs::remove_dir_all(&dir).is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn kill_all(victims: &[u32]) {
    // std can only signal its own children; kill(1) signals any pid.
    let _ = std::process::Command::new("kill")
        .arg("-KILL")
        .args(victims.iter().map(u32::to_string))
        .stderr(std::process::Stdio::null())
        .status();
}

/// `roots` that still run, processes whose command line holds one of `matches`, and all
/// their descendants, from `/proc`.
fn descendants(roots: &[u32], matches: &[String]) -> Vec<u32> {
    // Never this guard, nor the agent that started it (its command line names the profile
    // too when the user gave one).
    let spare = [std::process::id(), std::os::unix::process::parent_id()];
    let mut roots = roots.to_vec();
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut alive = std::collections::HashSet::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // The command name is in parentheses and may hold spaces: fields follow the last ')'.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next();
            if state == Some("Z") {
                continue;
            }
            if let Some(ppid) = fields.next().and_then(|p| p.parse::<u32>().ok()) {
                children.entry(ppid).or_default().push(pid);
            }
            alive.insert(pid);
            if !spare.contains(&pid) && !matches.is_empty() {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                if matches.iter().any(|m| cmdline.contains(m.as_str())) {
                    roots.push(pid);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut stack: Vec<u32> = roots.into_iter().filter(|p| alive.contains(p)).collect();
    while let Some(pid) = stack.pop() {
        if out.contains(&pid) {
            continue;
        }
        out.push(pid);
        if let Some(kids) = children.get(&pid) {
            stack.extend(kids);
        }
    }
    out
}
