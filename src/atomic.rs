//! Writing a file so that a crash never leaves half of it: the content goes to a temporary
//! file beside the target, which is renamed over the target only when complete.

use std::fs::File;
use std::io;
use std::path::Path;

/// Creates a temporary file in `path`'s directory, lets `write` fill it, flushes it to disk
/// and renames it to `path`. On any error the temporary file is removed and `path` is left
/// as it was.
///
/// ```
/// use std::io::Write;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.txt");
/// agent_snapshot::atomic::write_with(&path, |file| file.write_all(b"done"))?;
/// assert_eq!(std::fs::read(&path)?, b"done");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_with<R>(path: &Path, write: impl FnOnce(&mut File) -> io::Result<R>) -> io::Result<R> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    let result = write(temp.as_file_mut())?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(result)
}
