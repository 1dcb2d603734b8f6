//! The state's loops and background work, started when the state is built
//! and stopped by one handle ([`AppState::stop`]): the clock keeper, the
//! notice follower, the lobby's loops, the sweeper, and the short tasks
//! they and the door hand off (a push sent, a presence noted, the
//! computer's turn). A stopped state starts nothing more, and the stop
//! waits until everything started has finished: a test that starts an
//! instance again over the same store knows the first one writes nothing
//! after it.

use super::AppState;
use std::future::Future;
use tokio::sync::watch;
use tokio_util::task::TaskTracker;

/// Every task a state started, and the signal that stops its loops.
pub(crate) struct Loops {
    stopping: watch::Sender<bool>,
    tasks: TaskTracker,
}

impl Loops {
    pub(crate) fn new() -> Loops {
        Loops {
            stopping: watch::channel(false).0,
            tasks: TaskTracker::new(),
        }
    }
}

/// Resolves once the state is stopping: a loop's `select!` arm.
pub(crate) struct Stopping(watch::Receiver<bool>);

impl Stopping {
    /// Waits until the state stops.
    pub(crate) async fn wait(&mut self) {
        let _ = self.0.wait_for(|s| *s).await;
    }
}

impl AppState {
    /// Runs `task` in the background, counted by the stop; nothing is
    /// started once the state is stopping (or outside a runtime).
    pub(crate) fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        if self.stopping_now() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            self.inner.loops.tasks.spawn_on(task, &runtime);
        }
    }

    /// What a loop selects on to end when the state stops.
    pub(crate) fn stopping(&self) -> Stopping {
        Stopping(self.inner.loops.stopping.subscribe())
    }

    /// True once the state is stopping.
    pub(crate) fn stopping_now(&self) -> bool {
        *self.inner.loops.stopping.borrow()
    }

    /// Stops every loop of the state and waits until every task it started
    /// has finished (a change being written is written first). Requests
    /// still served go on; nothing runs by itself any more.
    pub async fn stop(&self) {
        self.inner.loops.stopping.send_replace(true);
        self.inner.loops.tasks.close();
        self.inner.loops.tasks.wait().await;
    }
}
