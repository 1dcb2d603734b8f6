-- Passkey ceremonies in flight, in the store so that one may begin on one
-- instance and end on another: the challenge sent (a number in hex) and
-- the encoded ceremony state, removed when taken or expired.
CREATE TABLE passkey_ceremonies (
    challenge TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
