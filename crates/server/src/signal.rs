//! The signal that stops the server and the workers (and a benchmark's
//! run, which then stops the server it started): Ctrl-C, or SIGTERM on
//! Unix.

use std::future::Future;

/// Ctrl-C, or SIGTERM on Unix. The handlers are installed when this is
/// called, not when the future is first polled: a server that answers
/// requests before its accept loop first waits on the signal (a busy
/// machine) must not be killed outright by a SIGTERM meant to drain it.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send {
    #[cfg(unix)]
    let (term, interrupt) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(term) => {}
                () = wait(interrupt) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
