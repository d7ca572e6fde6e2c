//! An external engine's process, the one spawner of the protocol clients ([`crate::gomocup`],
//! [`crate::nboard`]).
//!
//! The program is started directly (no shell) with the arguments the caller sets and its own
//! folder as the working directory, as Piskvork and NBoard do. A reader thread reads its stdout
//! in bounded lines ([`MAX_LINE_BYTES`]; a longer line arrives as [`Line::TooLong`]) into a
//! bounded queue (`QUEUED_LINES`), so an engine that prints without end cannot fill the
//! memory, and a wait for a line ends at a
//! deadline or when a cancel flag is raised. Dropping an [`EngineProcess`] sends the
//! protocol's quit word, closes its input, waits briefly and then kills it, so nothing is
//! left running.

use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::ai::CancelFlag;
use crate::game::ForfeitReason;
pub use crate::io::Line;

/// The longest line read from an engine (a GGF record with every move commented, which no
/// engine needs to send, is about 2 KiB).
pub const MAX_LINE_BYTES: u64 = 16 * 1024;

/// How many lines read from an engine may wait for the host (at most 4 MiB with
/// [`MAX_LINE_BYTES`]).
const QUEUED_LINES: usize = 256;

/// How often a wait that can be cancelled looks at its flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// How long a dropped engine has to quit before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How often a start that found the program busy ([`std::io::ErrorKind::ExecutableFileBusy`])
/// is tried again, and the pause before the first retry (each pause is one step longer).
const BUSY_RETRIES: u32 = 12;
const BUSY_PAUSE: Duration = Duration::from_millis(10);

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Exited,
    /// The caller's cancel flag was raised.
    Cancelled,
}

/// What can go wrong talking to an engine program, whatever its protocol. Each error names
/// what the engine was asked and, where it has one, the last line it printed that was not an
/// answer.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start {program}: {source}")]
    Spawn { program: String, source: std::io::Error },
    #[error("the engine exited while asked {asked}{}", note(.last))]
    Exited { asked: String, last: Option<String> },
    #[error("the engine did not answer {asked} within {ms} ms{}", note(.last))]
    Timeout { asked: String, ms: u64, last: Option<String> },
    #[error("the engine answered {asked} with {line:?}{}", note(.last))]
    Garbage { asked: String, line: String, last: Option<String> },
    #[error("cannot write to the engine: {0}")]
    Write(#[source] std::io::Error),
    /// The host stopped waiting (a new game, an undo): the engine's state is unknown.
    #[error("the host stopped waiting for the answer to {asked}")]
    Cancelled { asked: String },
}

impl ProcessError {
    /// How a game counts this failure during the engine's turn: no answer in time is a
    /// timeout, an answer that is not a move an illegal move, anything else a crash.
    pub fn forfeit_reason(&self) -> ForfeitReason {
        match self {
            ProcessError::Timeout { .. } => ForfeitReason::Timeout,
            ProcessError::Garbage { .. } => ForfeitReason::IllegalMove,
            _ => ForfeitReason::Crash,
        }
    }

    /// The error for a failed write of `asked`: a closed pipe means the engine exited.
    pub fn from_send(e: std::io::Error, asked: &str, last: Option<String>) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            ProcessError::Exited { asked: asked.to_string(), last }
        } else {
            ProcessError::Write(e)
        }
    }

    /// The error for no line within `limit` after asking `asked`.
    pub fn silent(silence: Silence, asked: &str, limit: Duration, last: Option<String>) -> Self {
        let asked = asked.to_string();
        match silence {
            Silence::Timeout => ProcessError::Timeout { asked, ms: limit.as_millis() as u64, last },
            Silence::Exited => ProcessError::Exited { asked, last },
            Silence::Cancelled => ProcessError::Cancelled { asked },
        }
    }
}

fn note(last: &Option<String>) -> String {
    last.as_ref().map(|l| format!(" (its last message: {l:?})")).unwrap_or_default()
}

/// Starts `command`, trying again for up to 0.8 s while the program is busy.
///
/// Linux refuses to run a file that some process holds open for writing (`ETXTBSY`). A
/// program that was just written (a brain that was just built or unpacked) can be held so
/// for a moment after its writer closed it: a process forked meanwhile by another thread
/// inherits the open file until its own `exec`. Any other error is returned at once.
fn spawn_when_free(command: &mut Command) -> std::io::Result<Child> {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e)
                if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < BUSY_RETRIES =>
            {
                tries += 1;
                std::thread::sleep(BUSY_PAUSE * tries);
            }
            result => return result,
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Sent when the process is dropped (`END`, `quit`).
    quit: &'static str,
}

impl EngineProcess {
    /// [`EngineProcess::spawn`], with the failure as a [`ProcessError::Spawn`] naming the
    /// program.
    pub fn start(
        program: &Path,
        args: &[String],
        quit: &'static str,
    ) -> Result<EngineProcess, ProcessError> {
        EngineProcess::spawn(program, args, quit).map_err(|source| ProcessError::Spawn {
            program: program.display().to_string(),
            source,
        })
    }

    /// Starts `program` with `args` in its own folder; `quit` is the word that asks it to end.
    pub fn spawn(
        program: &Path,
        args: &[String],
        quit: &'static str,
    ) -> std::io::Result<EngineProcess> {
        let program = std::fs::canonicalize(program)?;
        let folder = program.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let mut command = Command::new(&program);
        command
            .args(args)
            .current_dir(folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = spawn_when_free(&mut command)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        // At most QUEUED_LINES lines wait to be read: then the reader waits, the pipe fills
        // and the engine's own writes block, so a chatty engine cannot fill the memory.
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                while let Ok(Some(line)) =
                    crate::io::read_line(&mut reader, &mut buf, MAX_LINE_BYTES)
                {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Ok(EngineProcess { child, stdin, lines, quit })
    }

    /// Writes `line` and a line end. A closed pipe is [`std::io::ErrorKind::BrokenPipe`].
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let Some(stdin) = &mut self.stdin else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        writeln!(stdin, "{line}").and_then(|()| stdin.flush())
    }

    /// [`EngineProcess::next_line`] as an answer to `asked`, which was given `limit` in all: a
    /// line over [`MAX_LINE_BYTES`] reads as [`too_long`]'s text, and no line is the
    /// [`ProcessError`] naming `asked` and `last`, the engine's last note.
    pub fn answer_line(
        &self,
        asked: &str,
        deadline: Instant,
        limit: Duration,
        cancel: Option<&CancelFlag>,
        last: &Option<String>,
    ) -> Result<String, ProcessError> {
        match self.next_line(deadline, cancel) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Ok(too_long()),
            Err(silence) => Err(ProcessError::silent(silence, asked, limit, last.clone())),
        }
    }

    /// The next line (trimmed; lossily decoded), unless `deadline` passes, the engine ends
    /// its output, or `cancel` is raised first.
    pub fn next_line(
        &self,
        deadline: Instant,
        cancel: Option<&CancelFlag>,
    ) -> Result<Option<String>, Silence> {
        loop {
            if cancel.is_some_and(CancelFlag::is_cancelled) {
                return Err(Silence::Cancelled);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = if cancel.is_some() { left.min(CANCEL_POLL) } else { left };
            match self.lines.recv_timeout(wait) {
                Ok(Line::Text { text, .. }) => return Ok(Some(text.trim().to_string())),
                Ok(Line::TooLong) => return Ok(None),
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => return Err(Silence::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Silence::Exited),
            }
        }
    }
}

/// What a protocol client reports for a line over [`MAX_LINE_BYTES`].
pub fn too_long() -> String {
    format!("(a line longer than {MAX_LINE_BYTES} bytes)")
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send(self.quit);
        self.stdin = None; // closes the pipe: an engine that ignores the quit word sees the end
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> EngineProcess {
        EngineProcess::spawn(Path::new("/bin/sh"), &["-c".into(), script.into()], "quit").unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    /// A program that is still open for writing when its start begins starts once the
    /// writer lets go, and one that stays open is refused with the busy error.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_program_busy_for_a_moment_still_starts() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tengen-busy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engine");
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all(b"#!/bin/sh\necho ready\n").unwrap();
        file.set_permissions(std::fs::Permissions::from_mode(0o755)).unwrap();
        let held = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(60));
            drop(file);
        });
        let p = EngineProcess::spawn(&path, &[], "quit").unwrap();
        assert_eq!(p.next_line(soon(), None), Ok(Some("ready".into())));
        held.join().unwrap();
        let writer = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        let busy = EngineProcess::spawn(&path, &[], "quit").err().map(|e| e.kind());
        assert_eq!(busy, Some(std::io::ErrorKind::ExecutableFileBusy));
        drop(writer);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_are_bounded_and_the_end_is_seen() {
        let p = sh("echo ' hi '; head -c 40000 /dev/zero | tr '\\0' x; echo; echo after");
        assert_eq!(p.next_line(soon(), None), Ok(Some("hi".into())));
        assert_eq!(p.next_line(soon(), None), Ok(None), "the long line");
        assert_eq!(p.next_line(soon(), None), Ok(Some("after".into())));
        assert_eq!(p.next_line(soon(), None), Err(Silence::Exited));
    }

    #[test]
    fn a_wait_ends_at_its_deadline_or_when_cancelled() {
        let p = sh("exec sleep 60");
        let start = Instant::now();
        let r = p.next_line(Instant::now() + Duration::from_millis(100), None);
        assert_eq!(r, Err(Silence::Timeout));
        let cancel = CancelFlag::new();
        cancel.cancel();
        assert_eq!(p.next_line(soon(), Some(&cancel)), Err(Silence::Cancelled));
        drop(p); // killed: `sleep` ignores the quit word
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[test]
    fn an_engine_that_prints_without_end_waits_for_the_host() {
        // 2,000 lines of 1 KB: far more than the queue and a pipe hold. With the queue bounded
        // the engine blocks on its writes until the host reads, and only then finishes.
        let marker = std::env::temp_dir().join(format!("tengen-child-{}", std::process::id()));
        let _ = std::fs::remove_file(&marker);
        let p = sh(&format!(
            "head -c 2000000 /dev/zero | tr '\\0' x | fold -w 1000; echo; echo > '{}'; exec sleep 60",
            marker.display()
        ));
        std::thread::sleep(Duration::from_millis(1500));
        assert!(!marker.exists(), "the engine wrote everything without being read");
        for i in 0..2000 {
            assert!(
                matches!(p.next_line(soon(), None), Ok(Some(l)) if l.len() == 1000),
                "line {i}"
            );
        }
        let deadline = soon();
        while !marker.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(marker.exists(), "read to the end, the engine finishes");
        let _ = std::fs::remove_file(&marker);
    }

    #[test]
    fn the_engine_runs_in_its_own_folder() {
        let p = sh("pwd");
        let folder = std::fs::canonicalize("/bin/sh").unwrap();
        let folder = folder.parent().unwrap().display().to_string();
        assert_eq!(p.next_line(soon(), None), Ok(Some(folder)));
    }
}
