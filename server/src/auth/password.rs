//! Password hashing with argon2id, run off the async runtime (a hash costs tens of
//! milliseconds of CPU and 19 MiB of memory). Checking against an unknown account still
//! verifies a dummy hash so that timing does not tell which emails exist.
//!
//! A burst of sign-ins must not take the server down, so hashing is bounded: at most
//! `concurrency` hashes run at once (one per core: argon2 is pure CPU, more would only share
//! the cores), at most `queue` more wait for a turn, and any further caller is refused at once
//! with `RESOURCE_EXHAUSTED`. Each running hash reuses one of `concurrency` argon2 memory
//! buffers allocated once, so memory stays at `concurrency` x 19 MiB whatever the load.

use std::sync::{Arc, LazyLock, Mutex};

use crate::{
    blocking::{BlockingLane, LaneError},
    error::{ApiError, ErrorReason},
};
use argon2::{
    Algorithm, Argon2, Block, Params, PasswordHash, Version,
    password_hash::{Output, ParamsString, Salt, SaltString, rand_core::OsRng},
};

/// A hash of a random password nobody knows, verified when the account does not exist.
static DUMMY_HASH: LazyLock<Option<String>> = LazyLock::new(|| {
    let salt = SaltString::generate(&mut OsRng);
    let mut memory = new_memory();
    hash_into(&mut memory, uuid::Uuid::new_v4().as_bytes(), &salt).ok()
});

/// Why a password could not be hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every hashing slot and queue place is taken.
    #[error("too many sign-ins at this moment")]
    Busy,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<HashError> for ApiError {
    fn from(error: HashError) -> Self {
        match error {
            HashError::Busy => ApiError::ResourceExhausted {
                reason: ErrorReason::PasswordChecksBusy,
                message: "too many sign-ins and sign-ups at this moment; please try again in a \
                          few seconds"
                    .to_owned(),
            },
            HashError::Failed(cause) => ApiError::Internal(cause),
        }
    }
}

/// Runs argon2 with bounded concurrency and a bounded queue (see the module comment).
pub struct PasswordHasher {
    lane: BlockingLane,
    /// Argon2 memory, one buffer per worker, allocated on first use and then reused.
    memory: MemoryPool,
}

type MemoryPool = Arc<Mutex<Vec<Vec<Block>>>>;

fn new_memory() -> Vec<Block> {
    vec![Block::default(); Params::default().block_count()]
}

impl PasswordHasher {
    /// `concurrency` hashes at once (at least one), `queue` more waiting.
    pub fn new(concurrency: usize, queue: usize) -> Self {
        let lane = BlockingLane::new(concurrency, queue);
        Self {
            memory: Arc::new(Mutex::new(Vec::with_capacity(lane.concurrency()))),
            lane,
        }
    }

    /// One hash at a time and no queue: for one-off work such as creating an admin.
    pub fn single() -> Self {
        Self::new(1, 0)
    }

    /// Hashes a password into a PHC string (algorithm, parameters and salt included).
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.run(move |memory| {
            let salt = SaltString::generate(&mut OsRng);
            hash_into(memory, password.as_bytes(), &salt)
        })
        .await
    }

    /// Whether `password` matches `stored`. With `stored` = `None` (no such account) the same
    /// work is done against a dummy hash and the answer is always false.
    pub async fn verify(
        &self,
        password: String,
        stored: Option<String>,
    ) -> Result<bool, HashError> {
        self.run(move |memory| {
            let known = stored.is_some();
            let phc = stored
                .or_else(|| DUMMY_HASH.clone())
                .ok_or_else(|| anyhow::anyhow!("no dummy hash"))?;
            let matches = verify_with(memory, password.as_bytes(), &phc)?;
            Ok(known && matches)
        })
        .await
    }

    /// Runs `work` in the lane (a queue place or a refusal, then a worker) with that worker's
    /// memory, which goes with the work like the lane's permits.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T, HashError> {
        let pool = self.memory.clone();
        self.lane
            .run(move || {
                let mut memory = lock(&pool)?.pop().unwrap_or_else(new_memory);
                let result = work(&mut memory);
                // A worker holds at most one buffer, so the pool never holds more than
                // `concurrency`.
                lock(&pool)?.push(memory);
                result
            })
            .await
            .map_err(|error| match error {
                LaneError::Busy => HashError::Busy,
                LaneError::Failed(e) => anyhow::anyhow!("password hashing task: {e}").into(),
            })?
            .map_err(HashError::Failed)
    }
}

fn lock(pool: &MemoryPool) -> anyhow::Result<std::sync::MutexGuard<'_, Vec<Vec<Block>>>> {
    pool.lock()
        .map_err(|_| anyhow::anyhow!("hashing memory lock poisoned"))
}

/// Hashes with the default argon2id parameters into `memory`, as a PHC string.
fn hash_into(memory: &mut [Block], password: &[u8], salt: &SaltString) -> anyhow::Result<String> {
    let argon2 = Argon2::default();
    let output = compute(
        &argon2,
        memory,
        password,
        salt.as_salt(),
        Params::DEFAULT_OUTPUT_LEN,
    )?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon2.params())
            .map_err(|e| anyhow::anyhow!("hash parameters: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Checks `password` against a PHC string with its own parameters, in `memory` (grown when
/// the stored parameters need more than ours).
fn verify_with(memory: &mut Vec<Block>, password: &[u8], phc: &str) -> anyhow::Result<bool> {
    let stored = PasswordHash::new(phc).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
    let (Some(expected), Some(salt)) = (stored.hash, stored.salt) else {
        anyhow::bail!("stored hash: no hash or no salt");
    };
    let params = Params::try_from(&stored).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
    let algorithm =
        Algorithm::try_from(stored.algorithm).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
    let version = stored
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(|e| anyhow::anyhow!("stored hash: {e}"))?
        .unwrap_or_default();
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    let argon2 = Argon2::new(algorithm, version, params);
    let computed = compute(&argon2, memory, password, salt, expected.len())?;
    // `Output` compares in constant time.
    Ok(computed == expected)
}

/// Runs argon2 over `password` and `salt` in `memory`, into `len` bytes.
fn compute(
    argon2: &Argon2<'_>,
    memory: &mut [Block],
    password: &[u8],
    salt: Salt<'_>,
    len: usize,
) -> anyhow::Result<Output> {
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt
        .decode_b64(&mut salt_bytes)
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Output::init_with(len, |out| {
        argon2
            .hash_password_into_with_memory(password, salt_bytes, out, &mut *memory)
            .map_err(|_| argon2::password_hash::Error::Password)
    })
    .map_err(|e| anyhow::anyhow!("argon2: {e}"))
}

#[cfg(test)]
mod tests {
    use argon2::PasswordVerifier;

    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = PasswordHasher::new(2, 2);
        let stored = hasher.hash("correct horse".into()).await.unwrap();
        assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(
            hasher
                .verify("correct horse".into(), Some(stored.clone()))
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("wrong horse".into(), Some(stored))
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn hashes_are_standard_argon2id_both_ways() {
        let hasher = PasswordHasher::single();
        let ours = hasher.hash("correct horse".into()).await.unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        let theirs = argon2::PasswordHasher::hash_password(
            &Argon2::default(),
            b"correct horse",
            &SaltString::generate(&mut OsRng),
        )
        .unwrap()
        .to_string();
        assert!(
            hasher
                .verify("correct horse".into(), Some(theirs))
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn an_unknown_account_never_verifies() {
        let hasher = PasswordHasher::single();
        assert!(!hasher.verify("anything".into(), None).await.unwrap());
    }

    #[tokio::test]
    async fn callers_beyond_the_workers_and_the_queue_are_refused_at_once() {
        let hasher = Arc::new(PasswordHasher::new(1, 1));
        let calls: Vec<_> = (0..6)
            .map(|_| {
                let hasher = hasher.clone();
                tokio::spawn(async move { hasher.verify("guess".into(), None).await })
            })
            .collect();
        let mut busy = 0;
        for call in calls {
            match call.await.unwrap() {
                Ok(matches) => assert!(!matches),
                Err(HashError::Busy) => busy += 1,
                Err(other) => panic!("{other}"),
            }
        }
        assert!(
            busy >= 1,
            "with one worker and one place, six at once cannot all wait"
        );
        // The memory pool never holds more buffers than there are workers.
        assert_eq!(hasher.memory.lock().unwrap().len(), 1);
    }
}
