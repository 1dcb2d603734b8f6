//! Passwords: the rules a new one must meet, and Argon2id hashing off the
//! async workers, a few at a time, so sign-ins never slow the games.

use super::error::AccountError;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

/// The most common passwords of 8 characters or more (zxcvbn's list),
/// packaged with the server.
static COMMON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../../data/common-passwords.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect()
});

/// The longest password taken, in characters: Argon2 costs the same for any
/// length, but a bound keeps request bodies and memory small.
pub const MAX_LEN: usize = 256;

/// Checks a new password: 8 to 256 characters, not the name, not among the
/// most common passwords (ignoring case).
///
/// # Errors
/// [`AccountError::WeakPassword`] with the reason in words.
pub fn check(password: &str, name: &str) -> Result<(), AccountError> {
    let n = password.chars().count();
    if n < 8 {
        return Err(AccountError::WeakPassword(
            "a password has at least 8 characters".into(),
        ));
    }
    if n > MAX_LEN {
        return Err(AccountError::WeakPassword(format!(
            "a password has at most {MAX_LEN} characters"
        )));
    }
    let lower = password.to_lowercase();
    if lower == name.to_lowercase() || COMMON.contains(lower.as_str()) {
        return Err(AccountError::WeakPassword(
            "this password is among the most common ones: choose another".into(),
        ));
    }
    Ok(())
}

/// Argon2id's memory, in KiB: 7 MiB with [`PASSES`] passes and one lane,
/// one of the settings OWASP's Password Storage Cheat Sheet lists as equal
/// in strength (with 19 MiB and 2 passes, 12 MiB and 3, 9 MiB and 4). The
/// smallest memory of them: a hash sweeps the caches that the games'
/// threads use, and with 19 MiB fifty sign-ins at once doubled the moves'
/// p99 (`agon bench serve --signins-at-once 50`; docs/performance.md).
const MEMORY_KIB: u32 = 7 * 1024;

/// Argon2id's passes over its memory, with [`MEMORY_KIB`].
const PASSES: u32 = 5;

/// The parameters' part of a PHC string hashed with today's settings.
fn current_params() -> String {
    format!("$m={MEMORY_KIB},t={PASSES},p=1$")
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, 1, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether a stored hash was made with other parameters than today's (an
/// older setting): it still verifies (a PHC string carries its own
/// parameters), and is made again at the next sign-in.
pub fn outdated(hash: &str) -> bool {
    !hash.starts_with("$argon2id$v=19$") || !hash.contains(&current_params())
}

/// A hash to compute, and where its answer goes.
type Job = Box<dyn FnOnce() + Send>;

/// Hashes and verifies passwords on threads of their own in Linux's idle
/// class, `parallel` of them (half the cores by default): a burst of
/// sign-ins waits its turn in their queue instead of taking the cores that
/// serve the games. The threads live as long as the hasher: a thread made
/// per hash left each its own allocator arena holding a 19 MiB block, and
/// 50 sign-ins at once grew the server by 400 MiB.
#[derive(Clone)]
pub struct Hasher {
    jobs: std::sync::mpsc::Sender<Job>,
    /// A hash of a random password, verified when the name is unknown so
    /// that an unknown name costs what a wrong password costs.
    decoy: Arc<String>,
}

impl Hasher {
    /// A hasher running `parallel` hashes at most at once.
    pub fn new(parallel: usize) -> Hasher {
        let decoy = hash_now("agon decoy password, never used").unwrap_or_default();
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(std::sync::Mutex::new(rx));
        for _ in 0..parallel.max(1) {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name("agon-password-hash".into())
                .spawn(move || {
                    lower_priority();
                    // Ends when the hasher (every sender) is dropped.
                    loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "no thread to hash passwords on");
            }
        }
        Hasher {
            jobs: tx,
            decoy: Arc::new(decoy),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AccountError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        self.jobs
            .send(job)
            .map_err(|_| AccountError::Internal("the password hasher stopped".into()))?;
        rx.await
            .map_err(|_| AccountError::Internal("password hashing failed".into()))
    }

    /// The Argon2id hash of a password, as a PHC string.
    ///
    /// # Errors
    /// No salt could be drawn, or hashing failed.
    pub async fn hash(&self, password: String) -> Result<String, AccountError> {
        self.run(move || hash_now(&password)).await?
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name), a
    /// decoy is verified so the answer takes as long, and it is false.
    ///
    /// # Errors
    /// The hasher stopped.
    pub async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> Result<bool, AccountError> {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| (*self.decoy).clone());
        let ok = self
            .run(move || {
                PasswordHash::new(&hash)
                    .is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
            })
            .await?;
        Ok(known && ok)
    }
}

/// Puts the calling thread in Linux's idle class (`SCHED_IDLE`, below any
/// nice value): it runs only on a core no other thread wants, so a hash
/// never delays a game's request, however many sign-ins wait. A refusal
/// leaves the thread as it was.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            set_thread_priority_and_policy, thread_native_id, NormalThreadSchedulePolicy,
            ThreadSchedulePolicy,
        };
        let _ = set_thread_priority_and_policy(
            thread_native_id(),
            thread_priority::ThreadPriority::Min,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
        );
    }
}

fn hash_now(password: &str) -> Result<String, AccountError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| AccountError::NoSecret)?;
    let salt =
        SaltString::encode_b64(&salt).map_err(|e| AccountError::Internal(format!("salt: {e}")))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Internal(format!("password hashing failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashes_run_on_the_same_threads_in_the_idle_class() {
        use thread_priority::unix::{
            thread_schedule_policy, NormalThreadSchedulePolicy, ThreadSchedulePolicy,
        };
        let h = Hasher::new(1);
        let ask = || async {
            h.run(|| (std::thread::current().id(), thread_schedule_policy().ok()))
                .await
                .unwrap()
        };
        let (first, policy) = ask().await;
        assert_eq!(
            policy,
            Some(ThreadSchedulePolicy::Normal(
                NormalThreadSchedulePolicy::Idle
            ))
        );
        assert_eq!(ask().await.0, first, "one thread, kept for every hash");
        assert_ne!(first, std::thread::current().id());
    }

    #[tokio::test]
    async fn a_hash_of_the_earlier_setting_still_verifies_and_is_outdated() {
        // 19 MiB, 2 passes: the setting before this one.
        let old = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(19 * 1024, 2, 1, None).unwrap(),
        )
        .hash_password(
            b"correct horse battery",
            &SaltString::encode_b64(&[7; 16]).unwrap(),
        )
        .unwrap()
        .to_string();
        assert!(old.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{old}");
        assert!(outdated(&old));
        let h = Hasher::new(1);
        assert!(h
            .verify("correct horse battery".into(), Some(old.clone()))
            .await
            .unwrap());
        assert!(!h
            .verify("wrong horse battery".into(), Some(old))
            .await
            .unwrap());
    }

    #[test]
    fn weak_passwords_are_refused() {
        assert!(check("short", "ala").is_err());
        assert!(check("password", "ala").is_err());
        assert!(check("PassWord1", "ala").is_err(), "common, ignoring case");
        assert!(check("AlaMaKota", "alamakota").is_err(), "the name");
        assert!(check(&"x".repeat(257), "ala").is_err());
        assert!(check("correct horse battery", "ala").is_ok());
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_and_verifies_only_its_password() {
        let h = Hasher::new(1);
        let hash = h.hash("correct horse battery".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{hash}");
        assert!(!outdated(&hash));
        assert!(h
            .verify("correct horse battery".into(), Some(hash.clone()))
            .await
            .unwrap());
        assert!(!h
            .verify("wrong horse battery".into(), Some(hash))
            .await
            .unwrap());
        assert!(!h
            .verify("agon decoy password, never used".into(), None)
            .await
            .unwrap());
    }
}
