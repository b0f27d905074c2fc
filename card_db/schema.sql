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
-- official data: tables written by deckcheck/carddb/official.py from yaml-yugi and YGOJSON
-- files (created with the tables above; schema_sql() joins this block to them).
CREATE TABLE IF NOT EXISTS konami_ids (
    konami_id  INTEGER NOT NULL,       -- Konami card-database id (yaml-yugi konami_id)
    card_id    INTEGER NOT NULL,       -- official passcode (ocg_tcg) or EDOPro Rush passcode
    kind       TEXT NOT NULL CHECK (kind IN ('ocg_tcg', 'rush')),
    how        TEXT NOT NULL,          -- password | fake_password | name (Rush: English name)
    PRIMARY KEY (kind, konami_id, card_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS releases (
    card_id     INTEGER NOT NULL,      -- passcode (alternate artworks have rows of their own)
    region      TEXT NOT NULL,         -- ocg tcg kr ae sc tc masterduel duellinks
    first_date  TEXT NOT NULL,         -- YYYY-MM-DD, earliest product release there
    set_name    TEXT NOT NULL,         -- the set that released it first
    PRIMARY KEY (card_id, region)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS official_ids (
    edopro_id    INTEGER PRIMARY KEY,  -- EDOPro prerelease passcode (100xxxxxx/101xxxxxx)
    official_id  INTEGER NOT NULL      -- the official passcode (matched by English name)
);

CREATE TABLE IF NOT EXISTS official_sources (
    kind         TEXT PRIMARY KEY,     -- yaml-yugi-cards | yaml-yugi-rush | yaml-yugi-skill | ygojson
    path         TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    size         INTEGER NOT NULL,
    imported_at  TEXT NOT NULL,
    rows         INTEGER NOT NULL,
    mapped       INTEGER NOT NULL,
    unmapped     INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS konami_ids_card ON konami_ids (card_id);

-- which cards are in each video game (deckcheck/carddb/games.py): one row per card a source
-- knows, present or not, so "not in the game" is told apart from "the source does not know".
CREATE TABLE IF NOT EXISTS game_cards (
    card_id  INTEGER NOT NULL,         -- official passcode (as the source names it)
    game     TEXT NOT NULL CHECK (game IN ('masterduel', 'duellinks')),
    source   TEXT NOT NULL,            -- yaml-yugi | ygojson | ygojson-sets
    present  INTEGER NOT NULL,         -- 1: the source puts the card in the game; 0: it does not
    PRIMARY KEY (card_id, game, source)
) WITHOUT ROWID;
