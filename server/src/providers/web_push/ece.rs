//! Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
//! an ECDH agreement between a one-off key of ours and the browser's `p256dh` key, mixed with
//! the browser's `auth` secret and a random salt by HKDF-SHA256, gives the AES-128-GCM key
//! and nonce of the one record the message is. The browser alone can read it; the push
//! service only carries it.

use aes_gcm::{Aes128Gcm, KeyInit, Nonce, aead::Aead};
use anyhow::{Context, anyhow, ensure};
use hkdf::Hkdf;
use p256::{PublicKey, SecretKey, elliptic_curve::sec1::ToEncodedPoint};
use rand::RngCore;
use sha2::Sha256;

/// Bytes of an uncompressed P-256 point (the browser's `p256dh` key, and ours).
pub const PUBLIC_KEY_BYTES: usize = 65;
/// Bytes of the browser's `auth` secret.
pub const AUTH_SECRET_BYTES: usize = 16;
const SALT_BYTES: usize = 16;
/// The record size written in the header: one record holds any message a push service takes
/// (they take 4096 bytes at most).
const RECORD_SIZE: u32 = 4096;
/// The longest plaintext that fits one record: the record size less the padding delimiter
/// and the 16-byte tag, and less the header (86 bytes) that push services count too.
pub const MAX_PLAINTEXT_BYTES: usize = 3993;

/// What a subscription gives to encrypt for it.
#[derive(Debug, Clone, Copy)]
pub struct Receiver<'a> {
    /// The browser's `keys.p256dh`: an uncompressed P-256 point.
    pub p256dh: &'a [u8; PUBLIC_KEY_BYTES],
    /// The browser's `keys.auth`.
    pub auth: &'a [u8; AUTH_SECRET_BYTES],
}

/// Encrypts `plaintext` for `to` with a fresh key and salt: the request body to post.
pub fn encrypt(plaintext: &[u8], to: Receiver<'_>) -> anyhow::Result<Vec<u8>> {
    let ours = SecretKey::random(&mut rand::thread_rng());
    let mut salt = [0u8; SALT_BYTES];
    rand::thread_rng().fill_bytes(&mut salt);
    encrypt_with(plaintext, to, &ours, &salt)
}

/// Encrypts with a given key and salt (the RFC's example proves the steps byte for byte).
pub fn encrypt_with(
    plaintext: &[u8],
    to: Receiver<'_>,
    ours: &SecretKey,
    salt: &[u8; SALT_BYTES],
) -> anyhow::Result<Vec<u8>> {
    ensure!(
        plaintext.len() <= MAX_PLAINTEXT_BYTES,
        "a push message holds at most {MAX_PLAINTEXT_BYTES} bytes"
    );
    let theirs = PublicKey::from_sec1_bytes(to.p256dh).context("the p256dh key is not a point")?;
    let our_public = ours.public_key().to_encoded_point(false);
    let keys = record_keys(ours, &theirs, to, our_public.as_bytes(), salt)?;
    let mut padded = Vec::with_capacity(plaintext.len() + 1);
    padded.extend_from_slice(plaintext);
    // The last (here the only) record ends with the delimiter 2 and no padding.
    padded.push(2);
    let sealed = keys.seal(&padded)?;
    let mut body = Vec::with_capacity(SALT_BYTES + 5 + PUBLIC_KEY_BYTES + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(PUBLIC_KEY_BYTES as u8);
    body.extend_from_slice(our_public.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// Decrypts a message as the browser does, with its private key: what the local push
/// service of the tests uses to read what the server sent.
pub fn decrypt(body: &[u8], receiver_key: &SecretKey, auth: &[u8; 16]) -> anyhow::Result<Vec<u8>> {
    let header_len = SALT_BYTES + 5;
    ensure!(
        body.len() > header_len,
        "the message is shorter than its header"
    );
    let salt: [u8; SALT_BYTES] = body[..SALT_BYTES].try_into()?;
    let id_len = usize::from(body[SALT_BYTES + 4]);
    ensure!(
        id_len == PUBLIC_KEY_BYTES && body.len() > header_len + id_len,
        "the key id is not a P-256 point"
    );
    let sender = &body[header_len..header_len + id_len];
    let sender_key = PublicKey::from_sec1_bytes(sender).context("the key id is not a point")?;
    let receiver_public = receiver_key.public_key().to_encoded_point(false);
    let p256dh: [u8; PUBLIC_KEY_BYTES] = receiver_public.as_bytes().try_into()?;
    let to = Receiver {
        p256dh: &p256dh,
        auth,
    };
    // The same keys as the sender's: the agreement is symmetric, the info names the sender.
    let keys = record_keys(receiver_key, &sender_key, to, sender, &salt)?;
    let mut padded = keys.open(&body[header_len + id_len..])?;
    let delimiter = padded
        .iter()
        .rposition(|byte| *byte != 0)
        .ok_or_else(|| anyhow!("the record has no delimiter"))?;
    ensure!(padded[delimiter] == 2, "the record is not the last one");
    padded.truncate(delimiter);
    Ok(padded)
}

/// The content-encryption key and nonce of the one record.
struct RecordKeys {
    cek: [u8; 16],
    nonce: [u8; 12],
}

impl RecordKeys {
    fn seal(&self, padded: &[u8]) -> anyhow::Result<Vec<u8>> {
        self.cipher()?
            .encrypt(&Nonce::from(self.nonce), padded)
            .map_err(|_| anyhow!("AES-GCM refused the record"))
    }

    fn open(&self, sealed: &[u8]) -> anyhow::Result<Vec<u8>> {
        self.cipher()?
            .decrypt(&Nonce::from(self.nonce), sealed)
            .map_err(|_| anyhow!("the record does not decrypt"))
    }

    fn cipher(&self) -> anyhow::Result<Aes128Gcm> {
        Aes128Gcm::new_from_slice(&self.cek).map_err(|_| anyhow!("bad key length"))
    }
}

/// RFC 8291 section 3.4: the input keying material from the ECDH secret and the auth secret,
/// then RFC 8188's key and nonce from it and the salt. `sender_public` is the application
/// server's key (the message's key id).
fn record_keys(
    own: &SecretKey,
    other: &PublicKey,
    receiver: Receiver<'_>,
    sender_public: &[u8],
    salt: &[u8; SALT_BYTES],
) -> anyhow::Result<RecordKeys> {
    let shared = p256::ecdh::diffie_hellman(own.to_nonzero_scalar(), other.as_affine());
    let mut key_info = Vec::with_capacity(14 + 2 * PUBLIC_KEY_BYTES);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(receiver.p256dh);
    key_info.extend_from_slice(sender_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(receiver.auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .map_err(|_| anyhow!("HKDF length"))?;
    let content = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut keys = RecordKeys {
        cek: [0; 16],
        nonce: [0; 12],
    };
    content
        .expand(b"Content-Encoding: aes128gcm\0", &mut keys.cek)
        .and_then(|()| content.expand(b"Content-Encoding: nonce\0", &mut keys.nonce))
        .map_err(|_| anyhow!("HKDF length"))?;
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

    use super::*;

    fn b64(text: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(text).unwrap()
    }

    // RFC 8291, section 5 and appendix A.
    const PLAINTEXT: &str = "When I grow up, I want to be a watermelon";
    const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
    const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
    const UA_PUBLIC: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
    const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
    const MESSAGE: &str = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

    fn receiver_parts() -> ([u8; 65], [u8; 16]) {
        (
            b64(UA_PUBLIC).try_into().unwrap(),
            b64(AUTH).try_into().unwrap(),
        )
    }

    #[test]
    fn encrypts_the_rfc_8291_example_byte_for_byte() {
        let (p256dh, auth) = receiver_parts();
        let ours = SecretKey::from_slice(&b64(AS_PRIVATE)).unwrap();
        let salt: [u8; 16] = b64(SALT).try_into().unwrap();
        let body = encrypt_with(
            PLAINTEXT.as_bytes(),
            Receiver {
                p256dh: &p256dh,
                auth: &auth,
            },
            &ours,
            &salt,
        )
        .unwrap();
        assert_eq!(URL_SAFE_NO_PAD.encode(body), MESSAGE);
    }

    #[test]
    fn the_browser_reads_the_rfc_example_and_a_fresh_message() {
        let (p256dh, auth) = receiver_parts();
        let browser = SecretKey::from_slice(&b64(UA_PRIVATE)).unwrap();
        assert_eq!(
            decrypt(&b64(MESSAGE), &browser, &auth).unwrap(),
            PLAINTEXT.as_bytes()
        );
        let to = Receiver {
            p256dh: &p256dh,
            auth: &auth,
        };
        let fresh = encrypt(b"Plumbing in Laval", to).unwrap();
        assert_ne!(fresh[..16], b64(SALT)[..], "a fresh salt each time");
        assert_eq!(
            decrypt(&fresh, &browser, &auth).unwrap(),
            b"Plumbing in Laval"
        );
        let wrong_auth = [7u8; 16];
        assert!(decrypt(&fresh, &browser, &wrong_auth).is_err());
    }

    #[test]
    fn refuses_what_cannot_be_sent() {
        let (mut p256dh, auth) = receiver_parts();
        let too_long = vec![b'a'; MAX_PLAINTEXT_BYTES + 1];
        let to = Receiver {
            p256dh: &p256dh,
            auth: &auth,
        };
        assert!(encrypt(&too_long, to).is_err());
        p256dh[10] ^= 1;
        let off_curve = Receiver {
            p256dh: &p256dh,
            auth: &auth,
        };
        assert!(encrypt(b"x", off_curve).is_err());
    }
}
