//! The app's loops and background work, started when the services are
//! built and stopped by one handle ([`Tasks::stop`], called by
//! [`crate::state::AppState::stop`]): the clock keeper, the notice followers, the
//! lobby's loops, the sweeper, and the short tasks they and the door hand
//! off (a push sent, a presence noted, the computer's turn). Every service
//! holds a clone of the one handle, so a stopped app starts nothing more,
//! and the stop waits until everything started has finished: a test that
//! starts an instance again over the same store knows the first one writes
//! nothing after it.

use std::future::Future;
use std::sync::Arc;
use tokio::sync::watch;
use tokio_util::task::TaskTracker;

/// Every task the app's services started, and the signal that stops their
/// loops. Clones share both.
#[derive(Clone)]
pub struct Tasks {
    stopping: Arc<watch::Sender<bool>>,
    tracker: TaskTracker,
}

impl Default for Tasks {
    fn default() -> Tasks {
        Tasks::new()
    }
}

impl Tasks {
    /// A handle on no task yet.
    pub fn new() -> Tasks {
        Tasks {
            stopping: Arc::new(watch::channel(false).0),
            tracker: TaskTracker::new(),
        }
    }

    /// Runs `task` in the background, counted by the stop; nothing is
    /// started once the app is stopping (or outside a runtime).
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        if self.stopping_now() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            self.tracker.spawn_on(task, &runtime);
        }
    }

    /// What a loop selects on to end when the app stops.
    pub fn stopping(&self) -> Stopping {
        Stopping(self.stopping.subscribe())
    }

    /// True once the app is stopping.
    pub fn stopping_now(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Stops every loop and waits until every task started has finished (a
    /// change being written is written first). Requests still served go
    /// on; nothing runs by itself any more.
    pub async fn stop(&self) {
        self.stopping.send_replace(true);
        self.tracker.close();
        self.tracker.wait().await;
    }
}

/// Resolves once the app is stopping: a loop's `select!` arm.
pub struct Stopping(watch::Receiver<bool>);

impl Stopping {
    /// Waits until the app stops.
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|s| *s).await;
    }
}
