"""PostgreSQL's own numbered schema migrations. Append only: never edit one that shipped.

They hold the schema of the SQLite store as of its migration 0015, in PostgreSQL's terms:
tsvector columns with GIN indexes for full text, pgvector columns for vectors, row-level
security on every table that holds a tenant's rows.
"""

TENANT_SETTING = "threefold.tenant"
"""A session may set this to one tenant; row-level security then hides every other's rows.
Unset or empty: the store's own tenant filters are the only guard (as for maintenance,
which works across tenants)."""

TURN_CONFIG = "threefold_english"
"""Turns' text search configuration (0004): English stems, as SQLite's porter tokenizer
finds them, and no stop words, which SQLite's index keeps too: with them dropped, "about"
in a question matched nothing here and every turn there."""

_INDEX_TURNS_0004 = (
    f"UPDATE turns t SET search = setweight(to_tsvector('{TURN_CONFIG}',"
    " coalesce(t.speaker || ': ', '') || t.user_text || E'\\n'"
    " || coalesce(t.assistant_speaker || ': ', '') || t.assistant_text), 'A')"
    f" || setweight(to_tsvector('{TURN_CONFIG}', coalesce((SELECT coalesce(p.speaker"
    " || ': ', '') || p.user_text || E'\\n' || p.assistant_text FROM turns p"
    " WHERE p.tenant = t.tenant AND p.stream = t.stream AND p.seq = t.seq - 1),"
    " '')), 'D')"
)
"""Migration 0004's indexing of turns, as it shipped."""

WORDS = "threefold_words"
"""A function (0008) that reads a text's words as SQLite's FTS5 does, for PostgreSQL's
parser: every character FTS5 separates words by is a space."""

_SHORT_WORD = r"\m([AEIOUaeiou][SsYy])\M"
_WITH_E = r"\1e"

TURN_WORDS = "threefold_turn_words"
"""WORDS for turns' stemmed index (0008): FTS5's porter tokenizer stems words of three
letters or more, so "us" stays "us" there (and meets "use"), where Porter's rules make
it "u". A vowel and an s or y ("us", "as", "ay") are written with an e ("use"), which
the rules stem back to the word; a consonant's two letters ("ms") cannot be kept so."""

_SEPARATORS = (
    r"[\x01-\x2F\x3A-\x40\x5B-\x60\x7B-\xA9\xAB-\xB1\xB4\xB6-\xB8\xBB\xBF\xD7\xF7"
    r"\u2000-\u2064\u206A-\u206F\u207A-\u207E\u208A-\u208E\u20A0-\u20B9\u20D0-\u20F0"
    r"\u2100-\u2101\u2103-\u2106\u2108-\u2109\u2114\u2116-\u2118\u211E-\u2123\u2125\u2127"
    r"\u2129\u212E\u213A-\u213B\u2140-\u2144\u214A-\u214D\u214F\u2190-\u23F3\u2400-\u2426"
    r"\u2440-\u244A\u249C-\u24E9\u2500-\u26FF\u2701-\u2775\u2794-\u2B4C\u2B50-\u2B59"
    r"\u3000-\u3004\u3008-\u3020\u302A-\u3030\u3036-\u3037\u303D-\u303F\uFE00-\uFE0F"
    r"\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65\U0001F000-\U0001F02B"
    r"\U0001F030-\U0001F093\U0001F0A0-\U0001F0AE\U0001F0B1-\U0001F0BE\U0001F0C1-\U0001F0CF"
    r"\U0001F0D1-\U0001F0DF\U0001F110-\U0001F12E\U0001F130-\U0001F16B\U0001F170-\U0001F19A"
    r"\U0001F1E6-\U0001F202\U0001F210-\U0001F23A\U0001F240-\U0001F248\U0001F250-\U0001F251"
    r"\U0001F300-\U0001F320\U0001F330-\U0001F335\U0001F337-\U0001F37C\U0001F380-\U0001F393"
    r"\U0001F3A0-\U0001F3C4\U0001F3C6-\U0001F3CA\U0001F3E0-\U0001F3F0\U0001F400-\U0001F43E"
    r"\U0001F440\U0001F442-\U0001F4F7\U0001F4F9-\U0001F4FC\U0001F500-\U0001F53D"
    r"\U0001F540-\U0001F543\U0001F550-\U0001F567\U0001F5FB-\U0001F640\U0001F645-\U0001F64F"
    r"\U0001F680-\U0001F6C5\U0001F700-\U0001F773"
    r"]+"
)
"""The characters of Latin-1, the punctuation, symbol and emoji blocks that FTS5's
unicode61 tokenizer reads as separators, as SQLite 3.40 tables them (Unicode 6.1: newer
emoji are parts of words there, as they are here). Letters are left alone, accented ones
too: FTS5 takes their accents off ("café" is "cafe"), which PostgreSQL cannot do without
the unaccent extension."""

INDEX_TURNS = (
    f"UPDATE turns t SET search = setweight(to_tsvector('{TURN_CONFIG}', {TURN_WORDS}("
    " coalesce(t.speaker || ': ', '') || t.user_text || E'\\n'"
    " || coalesce(t.assistant_speaker || ': ', '') || t.assistant_text)), 'A')"
    f" || setweight(to_tsvector('{TURN_CONFIG}', {TURN_WORDS}(coalesce((SELECT coalesce(p.speaker"
    " || ': ', '') || p.user_text || E'\\n' || p.assistant_text FROM turns p"
    " WHERE p.tenant = t.tenant AND p.stream = t.stream AND p.seq = t.seq - 1),"
    " ''))), 'D')"
)
"""Index turns again from their text, each with the turn before it (as insert_turn does);
a WHERE clause may follow."""


def _words_as_sqlite_reads_them() -> str:
    """Migration 0008: words are read, stemmed and counted as SQLite's FTS5 does, so that
    the two stores rank alike (see the store's _ranked_matches)."""
    regenerated = "".join(
        f"""
        ALTER TABLE {table} DROP COLUMN search;
        ALTER TABLE {table} ADD COLUMN search TSVECTOR
            GENERATED ALWAYS AS (to_tsvector('simple', {WORDS}(text))) STORED;
        CREATE INDEX {table}_search ON {table} USING gin (search) WITH (fastupdate = off);
        """
        for table in ("facts", "summaries", "records")
    )
    return f"""
        -- PostgreSQL's parser reads "3.5", "me@x.com" and "a.b/c" as one word each and
        -- "self-care" as three ("self-care", "self", "care"), where FTS5 reads two words
        -- in each: the words, their counts and each row's length differed, and so did
        -- the ranking. Separators are now spaces before the parser reads a text.
        CREATE FUNCTION {WORDS}(text) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS $$ SELECT regexp_replace($1, '{_SEPARATORS}', ' ', 'g') $$;
        CREATE FUNCTION {TURN_WORDS}(text) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS $$ SELECT regexp_replace({WORDS}($1), '{_SHORT_WORD}', '{_WITH_E}', 'g') $$;
        -- Turns are stemmed by Porter's first rules, as FTS5's porter tokenizer stems
        -- them; English's snowball rules are his later ones ("dying": "die" here, "dy"
        -- there). Words with digits ("10july") are stemmed too, as FTS5 stems them.
        CREATE TEXT SEARCH DICTIONARY {TURN_CONFIG}_porter
            (TEMPLATE = snowball, Language = porter);
        ALTER TEXT SEARCH CONFIGURATION {TURN_CONFIG}
            ALTER MAPPING REPLACE {TURN_CONFIG}_stem WITH {TURN_CONFIG}_porter;
        ALTER TEXT SEARCH CONFIGURATION {TURN_CONFIG}
            ALTER MAPPING FOR numword WITH {TURN_CONFIG}_porter;
        {INDEX_TURNS};
        {regenerated}
    """


WORD_COUNT = "threefold_word_count"
"""A function (0009): a tsvector's words, every position of every lexeme, as FTS5 counts
a row's tokens and ts_rank's length normalisation counts them: BM25's length of a row."""


def _stored_word_counts() -> str:
    """Migration 0009: each searchable row keeps its words in a column of its own."""
    generated = "".join(
        f"""
        ALTER TABLE {table} ADD COLUMN words INTEGER GENERATED ALWAYS AS
            ({WORD_COUNT}(to_tsvector('simple', {WORDS}(text)))) STORED;
        """
        for table in ("facts", "summaries", "records")
    )
    return f"""
        -- BM25 divides by a row's words. A search read them back from two ts_rank calls
        -- on each row it ranked, and a small table's total from every row's tsvector:
        -- they are kept now, counted once as a row is written. Facts, summaries and
        -- records make their index in a generated column, which another generated column
        -- cannot read: theirs read the text again. Turns fill theirs as they are inserted.
        CREATE FUNCTION {WORD_COUNT}(tsvector) RETURNS integer
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS $$ SELECT coalesce(sum(cardinality(positions)), 0)::integer FROM unnest($1) $$;
        ALTER TABLE turns ADD COLUMN words INTEGER GENERATED ALWAYS AS
            ({WORD_COUNT}(search)) STORED;
        {generated}
    """


def graph_index(dim: int | str, kind: str) -> str:
    """The name of the HNSW graph of `kind`'s vectors of dimension `dim`."""
    return f"vectors_half_{dim}_{kind}"


def create_graph(dim: int | str, kind: str) -> str:
    """CREATE INDEX of the HNSW graph of `kind`'s vectors of dimension `dim` (either may be
    a PL/pgSQL expression's text, as the 0007 migration writes it): over the vectors made
    half-precision floats, which halves the pages a walk reads and the work of each
    distance. The graph only chooses the candidates: the store ranks them by their full
    float32 vectors, which the table keeps. Embedders return unit-length rows, well
    within half precision's range (it keeps about three significant digits)."""
    return (
        f"CREATE INDEX IF NOT EXISTS {graph_index(dim, kind)} ON vectors"
        f" USING hnsw ((embedding::halfvec({dim})) halfvec_cosine_ops)"
        f" WHERE dim = {dim} AND kind = '{kind}'"
    )


GRAPH_MEMORY = (
    "SELECT set_config('maintenance_work_mem', greatest("
    "pg_size_bytes(current_setting('maintenance_work_mem')) / 1024, 512 * 1024)::text || 'kB',"
    " true)"
)
"""A graph that fits in memory is built many times faster: at least 512 MB, more where the
server's administrator gave more (for the transaction only)."""


_TENANT_TABLES = (
    "streams",
    "turns",
    "facts",
    "summaries",
    "jobs",
    "stream_leases",
    "vectors",
    "api_keys",
    "records",
    "record_streams",
    "entity_events",
    "imports",
    "entities",
    "entity_aliases",
    "erasures",
)


def _row_security(tables: tuple[str, ...] = _TENANT_TABLES) -> str:
    policy = (
        "CREATE POLICY {table}_tenant ON {table} USING ("
        f" coalesce(current_setting('{TENANT_SETTING}', true), '') IN ('', tenant));"
        " ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;"
        " ALTER TABLE {table} FORCE ROW LEVEL SECURITY;"
    )
    return "\n".join(policy.format(table=table) for table in tables)


MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_schema",
        """
        CREATE EXTENSION IF NOT EXISTS vector;

        CREATE TABLE streams (
            tenant TEXT NOT NULL,
            name TEXT NOT NULL,
            turn_count INTEGER NOT NULL DEFAULT 0,
            last_summarized_turn INTEGER NOT NULL DEFAULT 0,
            summary_enqueued_through INTEGER NOT NULL DEFAULT 0,
            unsummarized_tokens BIGINT NOT NULL DEFAULT 0,
            erasures INTEGER NOT NULL DEFAULT 0,
            created_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (tenant, name)
        );

        -- A turn is found by its own words (weight A) and, for a quarter of their weight,
        -- by the turn before it (weight D): a reply is often only findable through the
        -- question it answers. The store fills `search` as it inserts the turn.
        CREATE TABLE turns (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            seq INTEGER NOT NULL,
            user_text TEXT NOT NULL,
            assistant_text TEXT NOT NULL,
            at TIMESTAMPTZ NOT NULL,
            page_context TEXT,
            model_variant TEXT,
            source TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            recorded_at TIMESTAMPTZ NOT NULL,
            visibility TEXT NOT NULL DEFAULT 'private',
            speaker TEXT,
            assistant_speaker TEXT,
            writer_trust TEXT NOT NULL DEFAULT 'full',
            writer_key BIGINT,
            search TSVECTOR NOT NULL DEFAULT ''::tsvector,
            UNIQUE (tenant, stream, seq),
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX turns_search ON turns USING gin (search);
        CREATE INDEX turns_by_tenant ON turns (tenant, id);

        CREATE TABLE facts (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            text TEXT NOT NULL,
            category TEXT NOT NULL,
            subject TEXT NOT NULL,
            slot TEXT NOT NULL,
            value TEXT NOT NULL,
            confidence DOUBLE PRECISION NOT NULL,
            status TEXT NOT NULL,
            supersedes BIGINT REFERENCES facts (id),
            superseded_by BIGINT REFERENCES facts (id),
            mention_count INTEGER NOT NULL DEFAULT 1,
            source_kind TEXT NOT NULL,
            source_id TEXT NOT NULL,
            source_at TIMESTAMPTZ,
            recorded_at TIMESTAMPTZ NOT NULL,
            tokens INTEGER NOT NULL,
            visibility TEXT NOT NULL DEFAULT 'private',
            content_hash TEXT,
            writer_trust TEXT NOT NULL DEFAULT 'full',
            writer_key BIGINT,
            search TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX facts_by_stream ON facts (tenant, stream, status);
        CREATE INDEX facts_by_slot ON facts (tenant, stream, subject, slot);
        CREATE INDEX facts_by_hash ON facts (tenant, stream, content_hash);
        CREATE INDEX facts_by_category ON facts (status, category);
        CREATE INDEX facts_by_value ON facts (tenant, stream, slot, value);
        CREATE INDEX facts_by_confidence ON facts (tenant, stream, status, confidence);
        CREATE INDEX facts_superseded ON facts (tenant, stream) WHERE superseded_by IS NOT NULL;
        CREATE INDEX facts_search ON facts USING gin (search);

        CREATE TABLE fact_history (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            fact_id BIGINT NOT NULL REFERENCES facts (id),
            action TEXT NOT NULL,
            related_fact_id BIGINT REFERENCES facts (id),
            at TIMESTAMPTZ NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            before TEXT,
            after TEXT
        );
        CREATE INDEX fact_history_by_fact ON fact_history (fact_id);

        CREATE TABLE summaries (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            period_start TIMESTAMPTZ,
            period_end TIMESTAMPTZ,
            item_count INTEGER NOT NULL,
            generation INTEGER NOT NULL DEFAULT 0,
            parents TEXT NOT NULL DEFAULT '[]',
            created_at TIMESTAMPTZ NOT NULL,
            visibility TEXT NOT NULL DEFAULT 'private',
            record TEXT,
            search TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX summaries_by_kind ON summaries (tenant, stream, kind, period_end);
        CREATE INDEX summaries_search ON summaries USING gin (search);

        CREATE TABLE jobs (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            priority INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'pending',
            attempts INTEGER NOT NULL DEFAULT 0,
            run_after DOUBLE PRECISION NOT NULL,
            last_error TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION
        );
        CREATE INDEX jobs_pending ON jobs (id) WHERE status = 'pending';
        CREATE INDEX jobs_pending_by_stream ON jobs (tenant, stream, priority DESC, id)
            WHERE status = 'pending';
        CREATE INDEX jobs_pending_by_kind ON jobs (tenant, stream, kind)
            WHERE status = 'pending';

        CREATE TABLE stream_leases (
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            owner TEXT NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (tenant, stream)
        );

        -- One vector per item, of whatever dimension its model makes; each dimension in
        -- use gets its own HNSW index (see the store's put_vectors).
        CREATE TABLE vectors (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            kind TEXT NOT NULL,
            item_id BIGINT NOT NULL,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            embedding vector NOT NULL,
            UNIQUE (kind, item_id)
        );
        CREATE INDEX vectors_by_kind ON vectors (tenant, kind, id);
        CREATE INDEX vectors_by_stream ON vectors (tenant, stream, kind, id);

        CREATE TABLE api_keys (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            trust TEXT NOT NULL,
            label TEXT NOT NULL DEFAULT '',
            secret_hash TEXT NOT NULL UNIQUE,
            created_at TIMESTAMPTZ NOT NULL,
            revoked_at TIMESTAMPTZ
        );

        CREATE TABLE records (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            source TEXT NOT NULL,
            channel TEXT NOT NULL,
            external_id TEXT NOT NULL,
            thread TEXT,
            author TEXT NOT NULL,
            text TEXT NOT NULL,
            kind TEXT NOT NULL,
            at TIMESTAMPTZ NOT NULL,
            route_method TEXT NOT NULL,
            route_confidence DOUBLE PRECISION NOT NULL,
            visibility TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            processed BOOLEAN NOT NULL DEFAULT false,
            data TEXT NOT NULL DEFAULT '{}',
            recorded_at TIMESTAMPTZ NOT NULL,
            search TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
            UNIQUE (tenant, source, channel, external_id),
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX records_by_stream ON records (tenant, stream, at);
        CREATE INDEX records_unprocessed ON records (tenant, stream, at) WHERE NOT processed;
        CREATE INDEX records_search ON records USING gin (search);

        CREATE TABLE record_streams (
            record_id BIGINT NOT NULL REFERENCES records (id),
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            PRIMARY KEY (record_id, stream)
        );
        CREATE INDEX record_streams_by_stream ON record_streams (tenant, stream);

        CREATE TABLE entity_events (
            tenant TEXT NOT NULL,
            entity TEXT NOT NULL,
            item_kind TEXT NOT NULL,
            item_id BIGINT NOT NULL,
            at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (tenant, entity, item_kind, item_id)
        );
        CREATE INDEX entity_events_by_time ON entity_events (tenant, entity, at);

        CREATE TABLE imports (
            seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL,
            status TEXT NOT NULL,
            report TEXT,
            error TEXT,
            created_at TIMESTAMPTZ NOT NULL,
            finished_at TIMESTAMPTZ,
            owner TEXT
        );
        CREATE INDEX imports_by_status ON imports (status);

        CREATE TABLE leases (
            name TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        );

        CREATE TABLE entities (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (tenant, key)
        );
        CREATE TABLE entity_aliases (
            tenant TEXT NOT NULL,
            alias TEXT NOT NULL,
            entity_id BIGINT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (tenant, alias, entity_id)
        );

        CREATE TABLE erasures (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            target TEXT NOT NULL,
            removed TEXT NOT NULL,
            at TEXT NOT NULL
        );
        """,
    ),
    ("0002_row_security", _row_security()),
    (
        "0003_team",
        """
        -- Team intelligence, as the SQLite store's 0018_team.
        CREATE TABLE team_profiles (
            tenant TEXT NOT NULL,
            entity TEXT NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            data TEXT NOT NULL,
            built_at TEXT NOT NULL,
            PRIMARY KEY (tenant, entity)
        );
        CREATE TABLE team_actions (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant TEXT NOT NULL,
            key TEXT NOT NULL,
            rule TEXT NOT NULL,
            stream TEXT NOT NULL,
            data TEXT NOT NULL,
            visibility TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'open',
            opened_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (tenant, key)
        );
        CREATE INDEX team_actions_by_status ON team_actions (tenant, status);
        CREATE TABLE team_digests (
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            day TEXT NOT NULL,
            timezone TEXT NOT NULL,
            data TEXT NOT NULL,
            visibility TEXT NOT NULL,
            built_at TEXT NOT NULL,
            PRIMARY KEY (tenant, stream, timezone, day)
        );
        CREATE INDEX records_by_time ON records (tenant, at);
        """
        + _row_security(("team_profiles", "team_actions", "team_digests")),
    ),
    (
        "0004_turn_words",
        f"""
        CREATE TEXT SEARCH DICTIONARY {TURN_CONFIG}_stem
            (TEMPLATE = snowball, Language = english);
        CREATE TEXT SEARCH CONFIGURATION {TURN_CONFIG} (COPY = pg_catalog.english);
        ALTER TEXT SEARCH CONFIGURATION {TURN_CONFIG}
            ALTER MAPPING REPLACE english_stem WITH {TURN_CONFIG}_stem;
        {_INDEX_TURNS_0004};
        """,
    ),
    (
        "0005_import_progress",
        """
        -- How far a running import has come (JSON: step, done, total), so that every
        -- process of a server can show its progress.
        ALTER TABLE imports ADD COLUMN progress TEXT;
        """,
    ),
    (
        "0006_search_without_pending_list",
        """
        -- A GIN index with fastupdate keeps new rows' words in a pending list, up to 4 MB,
        -- that every full-text search reads through before the index: on a stream that
        -- is written all the time a search of turns grew from 1.0 to 2.8 ms with only 35
        -- pages pending (at a million items). New rows now go into the index itself (a
        -- turn took 0.1 ms more of the server's time), and what is pending goes in now.
        """
        + "".join(
            f"ALTER INDEX {index} SET (fastupdate = off);"
            f" SELECT gin_clean_pending_list('{index}'::regclass);"
            for index in ("turns_search", "facts_search", "summaries_search", "records_search")
        ),
    ),
    (
        "0007_half_precision_graphs",
        # The float32 graphs (vectors_hnsw_<dim>_<kind>, or an older vectors_hnsw_<dim> of
        # every kind) give way to half-precision ones of each dimension they served: at a
        # million items the turn graph was 1 GB, more than the server's shared buffers,
        # and a context's four walks read hundreds of its pages from the OS. Building
        # them takes minutes at a million vectors, once, under the migration lock.
        f"""
        {GRAPH_MEMORY};
        DO $$
        DECLARE
            dim text;
            kind text;
            old text;
        BEGIN
            FOR dim IN SELECT DISTINCT substring(indexname FROM '^vectors_hnsw_([0-9]+)')
                FROM pg_indexes WHERE tablename = 'vectors' AND indexname ~ '^vectors_hnsw_[0-9]'
            LOOP
                FOREACH kind IN ARRAY ARRAY['turn', 'fact', 'summary', 'record'] LOOP
                    EXECUTE format(
                        '{create_graph("%s", "%s").replace("'", "''")}',
                        dim, kind, dim, dim, kind);
                END LOOP;
            END LOOP;
            FOR old IN SELECT indexname FROM pg_indexes
                WHERE tablename = 'vectors' AND indexname ~ '^vectors_hnsw_[0-9]'
            LOOP
                EXECUTE format('DROP INDEX %I', old);
            END LOOP;
        END $$;
        """,
    ),
    ("0008_words_as_sqlite_reads_them", _words_as_sqlite_reads_them()),
    ("0009_stored_word_counts", _stored_word_counts()),
    (
        "0010_live_sources",
        """
        -- Live sources: the deliveries of an outside event already taken (Slack retries an
        -- event it thinks was lost; its id is stored once), and what a source keeps
        -- between calls: how far a backfill has read each list, so that one killed
        -- resumes where it stopped, and the names of the ids its events carry.
        CREATE TABLE deliveries (
            tenant TEXT NOT NULL,
            source TEXT NOT NULL,
            event_id TEXT NOT NULL,
            received_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (tenant, source, event_id)
        );
        CREATE TABLE source_state (
            tenant TEXT NOT NULL,
            source TEXT NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (tenant, source, name)
        );
        """
        + _row_security(("deliveries", "source_state")),
    ),
    (
        "0011_facts_stated_at",
        # When a fact was last stated (a mention's event time); NULL: when first stated.
        "ALTER TABLE facts ADD COLUMN stated_at timestamptz",
    ),
    (
        "0012_facts_doubted",
        # The newest message that may have changed a fact, read too unsurely to store as a
        # fact of its own: the context shows the fact as possibly outdated, naming it.
        "ALTER TABLE facts ADD COLUMN doubt_kind text, ADD COLUMN doubt_id text,"
        " ADD COLUMN doubt_at timestamptz",
    ),
    (
        "0013_facts_by_source",
        # The facts read from one turn or record: asked several times for every turn read
        # (restatements, twins, guesses), each a scan of the stream's active facts without it.
        "CREATE INDEX facts_by_source ON facts (tenant, stream, source_kind, source_id)",
    ),
]
