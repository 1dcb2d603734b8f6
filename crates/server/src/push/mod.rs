//! Web Push: a message to a browser that subscribed, through its push
//! service, even with every tab of the site closed. The server signs each
//! request with its VAPID key (RFC 8292), made at first start and kept in
//! the store so every instance signs alike, and encrypts the message for the
//! browser's key (RFC 8291, `aes128gcm` of RFC 8188), so the push service
//! reads nothing. Only the player whose turn it is (in a correspondence
//! game), or who is offered or written to, hears.

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use std::time::Duration;

/// What a player hears of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Her turn in a correspondence game.
    Turn,
    /// An offer of the opponent's.
    Offer(crate::model::OfferKind),
    /// A line of the opponent's in the players' chat.
    Chat,
    /// A correspondence game ended (by a move, a resignation, or days run
    /// out while she was away).
    Ended,
}

mod guard;

pub use guard::{
    allowed_address, endpoint, public_unicast, BadSubscription, Pinned, Ports, PushOptions,
};
pub use ipnet::IpNet;

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct Vapid {
    key: p256::ecdsa::SigningKey,
    /// The public key as the browser's `applicationServerKey` takes it
    /// (uncompressed point, base64url).
    pub public: String,
}

impl Vapid {
    /// A key pair from its stored secret (32 bytes, base64url).
    ///
    /// # Errors
    /// The stored secret is not a key.
    pub fn from_secret(secret: &str) -> Result<Vapid, String> {
        let bytes = B64.decode(secret).map_err(|e| e.to_string())?;
        let key = p256::ecdsa::SigningKey::from_slice(&bytes).map_err(|e| e.to_string())?;
        let public = B64.encode(key.verifying_key().to_encoded_point(false).as_bytes());
        Ok(Vapid { key, public })
    }

    /// A new secret, base64url.
    ///
    /// # Errors
    /// The secure generator failed.
    pub fn new_secret() -> Result<String, crate::secrets::NoSecret> {
        Ok(B64.encode(random_key()?.to_bytes()))
    }

    /// The `Authorization` header for a request to `endpoint`: a JWT for
    /// the endpoint's origin, valid 12 hours, signed ES256.
    pub fn authorization(&self, endpoint: &reqwest::Url, contact: &str, now_s: i64) -> String {
        let origin = endpoint.origin().ascii_serialization();
        let header = B64.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": origin, "exp": now_s + 12 * 3600, "sub": contact });
        let claims = B64.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: p256::ecdsa::Signature = self.key.sign(signed.as_bytes());
        let jwt = format!("{signed}.{}", B64.encode(signature.to_bytes()));
        format!("vapid t={jwt}, k={}", self.public)
    }
}

/// A fresh P-256 secret key from the secure generator (the VAPID key, and
/// each message's own key).
fn random_key() -> Result<p256::SecretKey, crate::secrets::NoSecret> {
    loop {
        let mut b = [0u8; 32];
        crate::secrets::fill(&mut b)?;
        if let Ok(key) = p256::SecretKey::from_slice(&b) {
            return Ok(key);
        }
    }
}

/// A browser's keys, checked: its public key (65 bytes, a point of P-256)
/// and its 16-byte authentication secret.
///
/// # Errors
/// Either is not one.
pub fn browser_keys(
    p256dh: &str,
    auth: &str,
) -> Result<(p256::PublicKey, [u8; 16]), BadSubscription> {
    let key = B64
        .decode(p256dh.trim_end_matches('='))
        .ok()
        .filter(|k| k.len() == 65)
        .and_then(|k| p256::PublicKey::from_sec1_bytes(&k).ok())
        .ok_or_else(|| {
            BadSubscription("keys.p256dh is not a P-256 public key (65 bytes, base64url)".into())
        })?;
    let auth: [u8; 16] = B64
        .decode(auth.trim_end_matches('='))
        .ok()
        .and_then(|a| a.try_into().ok())
        .ok_or_else(|| BadSubscription("keys.auth is not 16 bytes in base64url".into()))?;
    Ok((key, auth))
}

/// Encrypts `plain` for a browser (RFC 8291): a fresh key pair and salt
/// for each message; one record, with the header giving the salt, the
/// record size and the server's public key.
///
/// # Errors
/// The secure generator failed.
pub fn encrypt(
    browser: &p256::PublicKey,
    auth: &[u8; 16],
    plain: &[u8],
) -> Result<Vec<u8>, crate::secrets::NoSecret> {
    let secret = random_key()?;
    let mut salt = [0u8; 16];
    crate::secrets::fill(&mut salt)?;
    encrypt_with(&secret, &salt, browser, auth, plain)
}

/// Encrypts with a given key and salt: [`encrypt`]'s work, apart so that
/// RFC 8291's example (its own key and salt) checks it byte for byte.
fn encrypt_with(
    secret: &p256::SecretKey,
    salt: &[u8; 16],
    browser: &p256::PublicKey,
    auth: &[u8; 16],
    plain: &[u8],
) -> Result<Vec<u8>, crate::secrets::NoSecret> {
    use aes_gcm::aead::{Aead, KeyInit};
    let server_public = secret.public_key().to_encoded_point(false);
    let browser_public = browser.to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(secret.to_nonzero_scalar(), browser.as_affine());
    // The input keying material, from the shared secret and the browser's
    // authentication secret.
    let mut info = b"WebPush: info\0".to_vec();
    info.extend_from_slice(browser_public.as_bytes());
    info.extend_from_slice(server_public.as_bytes());
    let mut ikm = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&info, &mut ikm)
        .map_err(|_| crate::secrets::NoSecret)?;
    let prk = hkdf::Hkdf::<sha2::Sha256>::new(Some(salt), &ikm);
    let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .and_then(|()| prk.expand(b"Content-Encoding: nonce\0", &mut nonce))
        .map_err(|_| crate::secrets::NoSecret)?;
    let mut record = plain.to_vec();
    record.push(2); // the last (and only) record's delimiter
    let cipher = aes_gcm::Aes128Gcm::new_from_slice(&cek).map_err(|_| crate::secrets::NoSecret)?;
    let sealed = cipher
        .encrypt(aes_gcm::Nonce::from_slice(&nonce), record.as_slice())
        .map_err(|_| crate::secrets::NoSecret)?;
    let mut body = salt.to_vec();
    body.extend_from_slice(&4096u32.to_be_bytes());
    body.push(65);
    body.extend_from_slice(server_public.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The browser's side of RFC 8291: opens a message with the browser's
/// secret key and authentication secret, or `None` when it does not open.
/// The server never needs it; the tests read every pushed message with it,
/// and RFC 8291's example checks it beside [`encrypt`].
pub fn open(body: &[u8], browser: &p256::SecretKey, auth: &[u8; 16]) -> Option<Vec<u8>> {
    use aes_gcm::aead::{Aead, KeyInit};
    if body.len() < 16 + 4 + 1 + 65 || body[20] != 65 {
        return None;
    }
    let (salt, rest) = body.split_at(16);
    let server = p256::PublicKey::from_sec1_bytes(&rest[5..70]).ok()?;
    let shared = p256::ecdh::diffie_hellman(browser.to_nonzero_scalar(), server.as_affine());
    let mut info = b"WebPush: info\0".to_vec();
    info.extend_from_slice(browser.public_key().to_encoded_point(false).as_bytes());
    info.extend_from_slice(&rest[5..70]);
    let mut ikm = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&info, &mut ikm)
        .ok()?;
    let prk = hkdf::Hkdf::<sha2::Sha256>::new(Some(salt), &ikm);
    let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .ok()?;
    prk.expand(b"Content-Encoding: nonce\0", &mut nonce).ok()?;
    let mut plain = aes_gcm::Aes128Gcm::new_from_slice(&cek)
        .ok()?
        .decrypt(aes_gcm::Nonce::from_slice(&nonce), &rest[70..])
        .ok()?;
    // The last record ends with its delimiter, 2, after any padding of 0s.
    while plain.last() == Some(&0) {
        plain.pop();
    }
    (plain.pop() == Some(2)).then_some(plain)
}

/// Chooses the process's TLS cryptography (ring) for every HTTPS client
/// in it: the push client, and the CLI's (`reqwest` is built with TLS for
/// Web Push, and a client made before a provider is chosen panics). Safe
/// to call more than once.
pub fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The server's push client and key, the key read (or made) once.
pub struct Pusher {
    options: PushOptions,
    /// Built at the first push: making one reads the system's certificates,
    /// which an instance that never pushes should not pay for.
    client: std::sync::OnceLock<Option<reqwest::Client>>,
    keys: tokio::sync::OnceCell<Vapid>,
}

impl Pusher {
    /// A pusher with these options (no request is made until a message is
    /// sent).
    pub fn new(options: PushOptions) -> Pusher {
        Pusher {
            options,
            client: std::sync::OnceLock::new(),
            keys: tokio::sync::OnceCell::new(),
        }
    }

    /// The HTTP client, made at first use.
    fn client(&self) -> Option<&reqwest::Client> {
        self.client
            .get_or_init(|| {
                install_tls();
                reqwest::Client::builder()
                    .timeout(Duration::from_secs(10))
                    .redirect(reqwest::redirect::Policy::none())
                    // A proxy would look the name up itself, past the guard.
                    .no_proxy()
                    .dns_resolver(guard::Resolver::new(&self.options))
                    .build()
                    .map_err(|e| tracing::warn!(error = %e, "no Web Push client: pushes are off"))
                    .ok()
            })
            .as_ref()
    }

    /// The options.
    pub fn options(&self) -> &PushOptions {
        &self.options
    }

    /// The server's key pair: read from the store, or made and stored at
    /// first use (the first instance to store one wins).
    ///
    /// # Errors
    /// The store failed, or the stored key is damaged.
    pub async fn keys(&self, store: &crate::store::Store) -> Result<&Vapid, String> {
        self.keys
            .get_or_try_init(|| async {
                let made = Vapid::new_secret().map_err(|e| e.to_string())?;
                let secret = store
                    .server_key("vapid", made)
                    .await
                    .map_err(|e| e.to_string())?;
                Vapid::from_secret(&secret)
            })
            .await
    }

    /// Sends `message` to one subscription. Returns false when the push
    /// service says the subscription is gone (404, 410): forget it.
    pub async fn send(
        &self,
        keys: &Vapid,
        target: &crate::store::PushTarget,
        message: &[u8],
    ) -> Result<bool, String> {
        let client = self.client().ok_or("no push client")?;
        let url = endpoint(&target.endpoint, &self.options).map_err(|e| e.to_string())?;
        let (browser, auth) =
            browser_keys(&target.p256dh, &target.auth).map_err(|e| e.to_string())?;
        let body = encrypt(&browser, &auth, message).map_err(|e| e.to_string())?;
        let contact = self
            .options
            .contact
            .clone()
            .unwrap_or_else(|| "mailto:agon@localhost".into());
        let now_s = crate::clock::now_ms() / 1000;
        let answer = client
            .post(url.clone())
            .header("TTL", "86400")
            .header("Urgency", "normal")
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", keys.authorization(&url, &contact, now_s))
            .body(body)
            .send()
            .await;
        let answer = match answer {
            Ok(answer) => answer,
            // Its host resolves only to addresses the server may not reach:
            // never connected to, and forgotten.
            Err(e) if guard::refused(&e) => {
                tracing::warn!("a push endpoint resolves to no public address: forgotten");
                crate::metrics::push("refused");
                return Ok(false);
            }
            // The endpoint is the browser's secret address: never in a log.
            Err(e) => {
                crate::metrics::push("failed");
                return Err(e.without_url().to_string());
            }
        };
        let (outcome, answer) = match answer.status().as_u16() {
            404 | 410 => ("gone", Ok(false)),
            s if (200..300).contains(&s) => ("sent", Ok(true)),
            s => ("failed", Err(format!("the push service answered {s}"))),
        };
        crate::metrics::push(outcome);
        answer
    }
}

/// A notification's words in a language (`en`, `pl`, `fr`; another is
/// English): its title and body.
pub fn words(lang: &str, event: Event, game: &str, text: Option<&str>) -> (String, String) {
    use crate::model::OfferKind;
    let title = match (lang, event) {
        ("pl", Event::Turn) => "Twój ruch",
        ("fr", Event::Turn) => "À vous de jouer",
        (_, Event::Turn) => "Your turn",
        ("pl", Event::Offer(OfferKind::Takeback)) => "Przeciwnik prosi o cofnięcie ruchu",
        ("fr", Event::Offer(OfferKind::Takeback)) => "Votre adversaire demande à reprendre un coup",
        (_, Event::Offer(OfferKind::Takeback)) => "Your opponent asks to take back a move",
        ("pl", Event::Offer(OfferKind::Rematch)) => "Przeciwnik proponuje rewanż",
        ("fr", Event::Offer(OfferKind::Rematch)) => "Votre adversaire propose une revanche",
        (_, Event::Offer(OfferKind::Rematch)) => "Your opponent offers a rematch",
        ("pl", Event::Chat) => "Wiadomość od przeciwnika",
        ("fr", Event::Chat) => "Message de votre adversaire",
        (_, Event::Chat) => "A message from your opponent",
        ("pl", Event::Ended) => "Partia zakończona",
        ("fr", Event::Ended) => "La partie est terminée",
        (_, Event::Ended) => "Your game has ended",
    };
    (
        title.to_string(),
        text.map_or_else(|| game.to_string(), |t| format!("{game}: {t}")),
    )
}

/// A challenge's notification in a language (`en`, `pl`, `fr`; another
/// is English): its title and body (`game`: the game's name, `clock`: its
/// time control, if any).
pub fn challenge_words(
    lang: &str,
    from: &str,
    game: &str,
    clock: Option<&str>,
) -> (String, String) {
    let title = match lang {
        "pl" => format!("{from} wyzywa cię na partię"),
        "fr" => format!("{from} vous défie"),
        _ => format!("{from} challenges you"),
    };
    (
        title,
        clock.map_or_else(|| game.to_string(), |c| format!("{game} · {c}")),
    )
}

/// What a tournament tells a player who entered it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentNews {
    /// It starts in five minutes.
    Starting,
    /// Her next game is ready.
    GameReady,
}

/// A tournament's notification in a language (`en`, `pl`, `fr`; another is
/// English): its title and body (`name`: the tournament's).
pub fn tournament_words(lang: &str, news: TournamentNews, name: &str) -> (String, String) {
    let title = match (news, lang) {
        (TournamentNews::Starting, "pl") => "Twój turniej zaczyna się za 5 minut",
        (TournamentNews::Starting, "fr") => "Votre tournoi commence dans 5 minutes",
        (TournamentNews::Starting, _) => "Your tournament starts in 5 minutes",
        (TournamentNews::GameReady, "pl") => "Twoja partia turniejowa czeka",
        (TournamentNews::GameReady, "fr") => "Votre partie de tournoi est prête",
        (TournamentNews::GameReady, _) => "Your tournament game is ready",
    };
    (title.to_string(), name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_opens_with_the_browsers_keys_and_no_other() {
        let browser = p256::SecretKey::from_slice(&[7u8; 32]).unwrap();
        let auth = [9u8; 16];
        let body = encrypt(&browser.public_key(), &auth, b"{\"title\":\"x\"}").unwrap();
        assert_eq!(open(&body, &browser, &auth).unwrap(), b"{\"title\":\"x\"}");
        // Each message has its own salt and key: two are never alike.
        let again = encrypt(&browser.public_key(), &auth, b"{\"title\":\"x\"}").unwrap();
        assert_ne!(body, again);
        // Another browser's secret does not open it.
        assert_eq!(open(&body, &browser, &[1u8; 16]), None);
    }

    #[test]
    fn the_vapid_header_is_a_jwt_for_the_endpoints_origin_signed_by_the_published_key() {
        use p256::ecdsa::signature::Verifier as _;
        let vapid = Vapid::from_secret(&Vapid::new_secret().unwrap()).unwrap();
        let url = reqwest::Url::parse("https://push.example.com:8443/send/abc").unwrap();
        let header = vapid.authorization(&url, "mailto:a@example.com", 1_000);
        let (t, k) = header
            .strip_prefix("vapid t=")
            .and_then(|h| h.split_once(", k="))
            .unwrap();
        assert_eq!(k, vapid.public);
        let (signed, sig) = t.rsplit_once('.').unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&B64.decode(signed.split('.').nth(1).unwrap()).unwrap())
                .unwrap();
        assert_eq!(claims["aud"], "https://push.example.com:8443");
        assert_eq!(claims["exp"], 1_000 + 12 * 3600);
        let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&B64.decode(k).unwrap()).unwrap();
        let sig = p256::ecdsa::Signature::from_slice(&B64.decode(sig).unwrap()).unwrap();
        assert!(key.verify(signed.as_bytes(), &sig).is_ok());
    }

    /// RFC 8291's example (its appendix A): the same keys and salt give
    /// the same bytes, and the browser's side opens them.
    #[test]
    fn rfc_8291s_example_is_encrypted_byte_for_byte_and_opens() {
        let b = |s: &str| B64.decode(s).unwrap();
        let plain = b"When I grow up, I want to be a watermelon";
        let server =
            p256::SecretKey::from_slice(&b("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")).unwrap();
        let browser =
            p256::SecretKey::from_slice(&b("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")).unwrap();
        assert_eq!(
            browser.public_key().to_encoded_point(false).as_bytes(),
            b("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
        );
        let salt: [u8; 16] = b("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let auth: [u8; 16] = b("BTBZMqHH6r4Tts7J_aSIgg").try_into().unwrap();
        let body = encrypt_with(&server, &salt, &browser.public_key(), &auth, plain).unwrap();
        let want = b(concat!(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml",
            "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT",
            "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        ));
        assert_eq!(body, want);
        assert_eq!(open(&want, &browser, &auth).as_deref(), Some(&plain[..]));
    }
}
