-- Talking between players: the offer a player has made and the other has
-- not answered (JSON: kind and seat); each game's chat, by room; which
-- seats have a socket open on which instance (for "claim the win");
-- browsers subscribed to Web Push and the seats they hear of; the server's
-- own keys (VAPID), made at first start.
ALTER TABLE games ADD COLUMN IF NOT EXISTS offer TEXT;

CREATE TABLE IF NOT EXISTS chat (
    id BIGSERIAL PRIMARY KEY,
    game TEXT NOT NULL,
    room TEXT NOT NULL,
    seat SMALLINT,
    author TEXT,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_game ON chat (game, room, id);

CREATE TABLE IF NOT EXISTS presence (
    game TEXT NOT NULL,
    seat SMALLINT NOT NULL,
    instance TEXT NOT NULL,
    sockets INTEGER NOT NULL,
    changed_ms BIGINT NOT NULL,
    PRIMARY KEY (game, seat, instance)
);

CREATE TABLE IF NOT EXISTS push_subscriptions (
    id TEXT PRIMARY KEY,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    account_id BIGINT REFERENCES accounts(id) ON DELETE CASCADE,
    lang TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS push_seats (
    subscription TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    seat SMALLINT NOT NULL,
    PRIMARY KEY (subscription, game, seat)
);
CREATE INDEX IF NOT EXISTS push_seats_game ON push_seats (game, seat);

CREATE TABLE IF NOT EXISTS server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
