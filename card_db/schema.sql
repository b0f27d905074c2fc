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
    setcode     INTEGER NOT NULL DEFAULT 0,  -- cdb datas.setcode: four 16-bit archetype codes
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
-- card knowledge (issue 30): archetypes (EDOPro strings.conf !setname, yaml-yugi series),
-- printings (yaml-yugi sets, YGOJSON) and card text (cdb desc, yaml-yugi, YGOJSON); written by
-- deckcheck/carddb/archetypes.py, knowledge.py and cardtext.py (read by carddb/facts.py).
CREATE TABLE IF NOT EXISTS setnames (
    code   INTEGER NOT NULL,           -- 16-bit archetype code of a strings.conf !setname line
    name   TEXT NOT NULL,              -- one name ("Polymerization|Fusion" gives two)
    lang   TEXT NOT NULL,
    PRIMARY KEY (code, lang, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS card_series (
    card_id  INTEGER NOT NULL,         -- passcode a yaml-yugi object was attached to
    name     TEXT NOT NULL,            -- a series name as the source writes it
    source   TEXT NOT NULL,            -- yaml-yugi-cards | yaml-yugi-rush
    PRIMARY KEY (card_id, name, source)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS archetypes (  -- rebuilt from setnames + card_series at each import
    arch   TEXT NOT NULL,              -- '0x3008' (a setcode) or 'series:<name key>'
    name   TEXT NOT NULL,
    lang   TEXT NOT NULL,
    norm   TEXT NOT NULL,              -- archetypes.fold(name): what arch: looks up
    PRIMARY KEY (arch, lang, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS archetype_cards (
    arch     TEXT NOT NULL,
    card_id  INTEGER NOT NULL,
    how      TEXT NOT NULL CHECK (how IN ('setcode', 'series')),
    PRIMARY KEY (arch, card_id, how)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS printings (
    card_id   INTEGER NOT NULL,
    code      TEXT NOT NULL,           -- LOB-EN001 (upper case); its set code is LOB
    set_id    INTEGER NOT NULL,        -- set_names.id
    rarity    TEXT NOT NULL,           -- "Ultra Rare" (several joined with ", ")
    lang      TEXT NOT NULL,           -- language (yaml-yugi) or locale (YGOJSON) of the print
    date      TEXT,                    -- YYYY-MM-DD where the source dates the printing
    source    INTEGER NOT NULL         -- 1 yaml-yugi cards, 2 rush, 3 skill, 4 YGOJSON
);

CREATE TABLE IF NOT EXISTS set_names (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS set_prefixes (  -- YGOJSON: the release day of a set's code prefix
    prefix    TEXT NOT NULL,           -- LOB-EN (a printing code without its number)
    set_name  TEXT NOT NULL,
    locale    TEXT NOT NULL,
    date      TEXT,
    PRIMARY KEY (prefix, set_name, locale)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS card_text (
    card_id  INTEGER NOT NULL,
    lang     TEXT NOT NULL,
    source   TEXT NOT NULL,            -- cdb | yaml-yugi | ygojson
    text     TEXT NOT NULL,            -- as the source writes it (effect, then pendulum effect)
    PRIMARY KEY (card_id, lang, source)
) WITHOUT ROWID;
-- text_index: an FTS5 table of every card's folded texts (rowid = name key), made at the end
-- of each import by carddb/cardtext.rebuild_index; what o: searches.

CREATE INDEX IF NOT EXISTS archetypes_norm ON archetypes (norm);
CREATE INDEX IF NOT EXISTS archetype_cards_card ON archetype_cards (card_id);
CREATE INDEX IF NOT EXISTS printings_code ON printings (code);
CREATE INDEX IF NOT EXISTS printings_card ON printings (card_id);


-- which cards are in each video game (deckcheck/carddb/games.py): one row per card a source
-- knows, present or not, so "not in the game" is told apart from "the source does not know".
CREATE TABLE IF NOT EXISTS game_cards (
    card_id  INTEGER NOT NULL,         -- official passcode (as the source names it)
    game     TEXT NOT NULL CHECK (game IN ('masterduel', 'duellinks')),
    source   TEXT NOT NULL,            -- yaml-yugi | ygojson | ygojson-sets
    present  INTEGER NOT NULL,         -- 1: the source puts the card in the game; 0: it does not
    PRIMARY KEY (card_id, game, source)
) WITHOUT ROWID;
-- which games have rows at all (every command asks: CardDB.games), without a scan of them
CREATE INDEX IF NOT EXISTS game_cards_game ON game_cards (game);

-- the official release fields of each card as deckcheck.model.Card holds them (first OCG/TCG
-- dates, scopes with real printings added, Master Duel / Duel Links dates and presence),
-- decided from releases, game_cards and official_ids at the end of each import
-- (deckcheck/carddb/cardfields.py): a card is read in one row, not one query more per card.
-- Only cards with official rows have one; the others keep their cards columns.
CREATE TABLE IF NOT EXISTS card_fields (
    card_id   INTEGER PRIMARY KEY,
    ocg_date  TEXT,                    -- YYYY-MM-DD: cards.ocg_date, else the first OCG release
    tcg_date  TEXT,
    scopes    INTEGER NOT NULL,        -- cards.scopes plus OCG/TCG where printed there
    md_date   TEXT,                    -- first in Master Duel
    dl_date   TEXT,                    -- first in Duel Links
    in_md     INTEGER,                 -- 1 / 0 / NULL: in Master Duel, not, unknown
    in_dl     INTEGER
);
