-- Browsers that signed in to an account before (the SHA-256 of a random
-- device cookie): the throttle on an account's failed sign-ins does not
-- shut its owner out on them.
CREATE TABLE known_devices (
    device_hash TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (device_hash, account_id)
);
