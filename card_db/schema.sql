-- deckcheck's own card database schema (not the cdb layout): one row per passcode,
-- names per language, and where every row came from. Indexes are created after a bulk
-- import (see deckcheck/carddb/importer.py), so they live in the second block below.
-- The identity keys are computed once per import (deckcheck/carddb/_common.py store_keys).

CREATE TABLE IF NOT EXISTS cards (
    id          INTEGER PRIMARY KEY,   -- passcode
    canonical   INTEGER NOT NULL,      -- copy key: id whose copies and list status this card shares
    list_key    INTEGER NOT NULL DEFAULT 0,  -- id a list entry names (artworks merged, "treated as" kept)
    name_key    INTEGER NOT NULL DEFAULT 0,  -- id lookup shows (list key, or canonical when same name)
    alias       INTEGER NOT NULL DEFAULT 0,
    alias_kind  TEXT NOT NULL DEFAULT 'none' CHECK (alias_kind IN ('none', 'artwork', 'treated_as')),
    type_bits   INTEGER NOT NULL,      -- EDOPro/YGOPro type bits, as read
    kind        TEXT NOT NULL,         -- monster | spell | trap | token | skill | other
    scopes      INTEGER NOT NULL,      -- deckcheck.model.Scope bits (dialect-independent)
    level       INTEGER NOT NULL DEFAULT 0,
    atk         INTEGER NOT NULL DEFAULT 0,
    def         INTEGER NOT NULL DEFAULT 0,
    race        INTEGER NOT NULL DEFAULT 0,
    attribute   INTEGER NOT NULL DEFAULT 0,
    ocg_date    TEXT,                  -- YYYY-MM-DD; only curated data (the sample) has dates
    tcg_date    TEXT,
    dialect     TEXT NOT NULL DEFAULT 'edopro',  -- dialect of the file the row came from
    source_id   INTEGER                -- sources.id of that file
);

CREATE TABLE IF NOT EXISTS names (
    card_id  INTEGER NOT NULL,
    lang     TEXT NOT NULL,            -- en, ja, ko, zh-CN, zh-TW, de, fr, it, es, pt
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL DEFAULT 'name' CHECK (kind IN ('name', 'reading')),
    PRIMARY KEY (card_id, lang, kind, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sources (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL UNIQUE,
    sha256       TEXT NOT NULL,
    size         INTEGER NOT NULL,
    imported_at  TEXT NOT NULL,        -- ISO 8601 UTC
    dialect      TEXT,                 -- edopro | ygopro (cards files)
    lang         TEXT,                 -- language code (names files; 'en' for cards files)
    rows         INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('cards', 'names', 'sample'))
);

CREATE TABLE IF NOT EXISTS meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- indexes
CREATE INDEX IF NOT EXISTS cards_canonical ON cards (canonical);
