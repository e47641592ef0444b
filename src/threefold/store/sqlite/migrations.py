"""Named, ordered schema migrations. Append only: never edit a migration that has shipped."""

MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_core",
        """
        CREATE TABLE streams (
            tenant TEXT NOT NULL,
            name TEXT NOT NULL,
            turn_count INTEGER NOT NULL DEFAULT 0,
            last_summarized_turn INTEGER NOT NULL DEFAULT 0,
            summary_enqueued_through INTEGER NOT NULL DEFAULT 0,
            unsummarized_tokens INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            PRIMARY KEY (tenant, name)
        );

        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            seq INTEGER NOT NULL,
            user_text TEXT NOT NULL,
            assistant_text TEXT NOT NULL,
            at TEXT NOT NULL,
            page_context TEXT,
            model_variant TEXT,
            source TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            recorded_at TEXT NOT NULL,
            UNIQUE (tenant, stream, seq),
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );

        CREATE TABLE facts (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            text TEXT NOT NULL,
            category TEXT NOT NULL,
            subject TEXT NOT NULL,
            slot TEXT NOT NULL,
            value TEXT NOT NULL,
            confidence REAL NOT NULL,
            status TEXT NOT NULL,
            supersedes INTEGER REFERENCES facts (id),
            superseded_by INTEGER REFERENCES facts (id),
            mention_count INTEGER NOT NULL DEFAULT 1,
            source_kind TEXT NOT NULL,
            source_id TEXT NOT NULL,
            source_at TEXT,
            recorded_at TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX facts_by_stream ON facts (tenant, stream, status);
        CREATE INDEX facts_by_slot ON facts (tenant, stream, subject, slot);

        CREATE TABLE fact_history (
            id INTEGER PRIMARY KEY,
            fact_id INTEGER NOT NULL REFERENCES facts (id),
            action TEXT NOT NULL,
            related_fact_id INTEGER REFERENCES facts (id),
            at TEXT NOT NULL,
            note TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX fact_history_by_fact ON fact_history (fact_id);

        CREATE TABLE summaries (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            period_start TEXT,
            period_end TEXT,
            item_count INTEGER NOT NULL,
            generation INTEGER NOT NULL DEFAULT 0,
            parents TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX summaries_by_kind ON summaries (tenant, stream, kind, period_end);

        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            priority INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'pending',
            attempts INTEGER NOT NULL DEFAULT 0,
            run_after REAL NOT NULL,
            last_error TEXT,
            created_at REAL NOT NULL,
            finished_at REAL
        );
        -- Done jobs pile up; the queue only ever looks at pending ones.
        CREATE INDEX jobs_pending ON jobs (id) WHERE status = 'pending';
        CREATE INDEX jobs_pending_by_stream ON jobs (tenant, stream, priority DESC, id)
            WHERE status = 'pending';
        CREATE INDEX jobs_pending_by_kind ON jobs (tenant, stream, kind)
            WHERE status = 'pending';

        CREATE TABLE stream_leases (
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL,
            PRIMARY KEY (tenant, stream)
        );
        """,
    ),
    (
        # FTS5 reads text as C strings, so NULs are indexed as spaces.
        "0002_full_text",
        """
        CREATE VIRTUAL TABLE turns_fts USING fts5(
            user_text, assistant_text, content='turns', content_rowid='id'
        );
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, user_text, assistant_text)
            VALUES (new.id, replace(new.user_text, char(0), ' '),
                    replace(new.assistant_text, char(0), ' '));
        END;

        CREATE VIRTUAL TABLE facts_fts USING fts5(text, content='facts', content_rowid='id');
        CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN
            INSERT INTO facts_fts (rowid, text) VALUES (new.id, replace(new.text, char(0), ' '));
        END;

        CREATE VIRTUAL TABLE summaries_fts USING fts5(
            text, content='summaries', content_rowid='id'
        );
        CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
            INSERT INTO summaries_fts (rowid, text)
            VALUES (new.id, replace(new.text, char(0), ' '));
        END;
        """,
    ),
    (
        "0003_recall",
        """
        ALTER TABLE turns ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private';
        ALTER TABLE facts ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private';
        ALTER TABLE summaries ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private';
        ALTER TABLE facts ADD COLUMN content_hash TEXT;
        CREATE INDEX facts_by_hash ON facts (tenant, stream, content_hash);
        ALTER TABLE fact_history ADD COLUMN before TEXT;
        ALTER TABLE fact_history ADD COLUMN after TEXT;

        -- A fact's text may be updated in place (reconcile: UPDATE), so its index follows.
        CREATE TRIGGER facts_fts_update AFTER UPDATE OF text ON facts BEGIN
            INSERT INTO facts_fts (facts_fts, rowid, text)
            VALUES ('delete', old.id, replace(old.text, char(0), ' '));
            INSERT INTO facts_fts (rowid, text) VALUES (new.id, replace(new.text, char(0), ' '));
        END;

        -- Vectors are derived data: one per item, tagged with the model that made it.
        CREATE TABLE vectors (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vector BLOB NOT NULL,
            UNIQUE (kind, item_id)
        );
        CREATE INDEX vectors_by_kind ON vectors (tenant, kind, id);
        """,
    ),
    (
        "0004_api_keys",
        """
        CREATE TABLE api_keys (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            trust TEXT NOT NULL,
            label TEXT NOT NULL DEFAULT '',
            secret_hash TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        );
        """,
    ),
    (
        "0005_maintenance",
        """
        -- Retention may delete archived summaries; their index entries go with them.
        CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
            INSERT INTO summaries_fts (summaries_fts, rowid, text)
            VALUES ('delete', old.id, replace(old.text, char(0), ' '));
        END;
        CREATE INDEX facts_by_category ON facts (status, category);
        """,
    ),
    (
        "0006_sources",
        """
        -- Raw messages and rows from outside sources, never changed once stored.
        CREATE TABLE records (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            source TEXT NOT NULL,
            channel TEXT NOT NULL,
            external_id TEXT NOT NULL,
            thread TEXT,
            author TEXT NOT NULL,
            text TEXT NOT NULL,
            kind TEXT NOT NULL,
            at TEXT NOT NULL,
            route_method TEXT NOT NULL,
            route_confidence REAL NOT NULL,
            visibility TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            processed INTEGER NOT NULL DEFAULT 0,
            data TEXT NOT NULL DEFAULT '{}',
            recorded_at TEXT NOT NULL,
            UNIQUE (tenant, source, channel, external_id),
            FOREIGN KEY (tenant, stream) REFERENCES streams (tenant, name)
        );
        CREATE INDEX records_by_stream ON records (tenant, stream, at);
        CREATE INDEX records_unprocessed ON records (tenant, stream, at) WHERE processed = 0;

        -- A record that names several projects lives in one and is cross-referenced here.
        CREATE TABLE record_streams (
            record_id INTEGER NOT NULL REFERENCES records (id),
            tenant TEXT NOT NULL,
            stream TEXT NOT NULL,
            PRIMARY KEY (record_id, stream)
        );
        CREATE INDEX record_streams_by_stream ON record_streams (tenant, stream);

        CREATE VIRTUAL TABLE records_fts USING fts5(text, content='records', content_rowid='id');
        CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
            INSERT INTO records_fts (rowid, text) VALUES (new.id, replace(new.text, char(0), ' '));
        END;

        -- Who and what an item is about, for timelines: 'person:priya', 'channel:general',
        -- or a stream name.
        CREATE TABLE entity_events (
            tenant TEXT NOT NULL,
            entity TEXT NOT NULL,
            item_kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (tenant, entity, item_kind, item_id)
        ) WITHOUT ROWID;
        CREATE INDEX entity_events_by_time ON entity_events (tenant, entity, at);
        """,
    ),
    (
        "0007_turn_context",
        """
        -- Turns are found by word stems ("painted" matches "painting") and by the turn
        -- before them as well as their own words: a reply ("Bailey, our new cat") is often
        -- only findable through the question it answers ("how are your pets?"). The
        -- earlier turn's words count for less; see the weights in the store's search.
        DROP TRIGGER turns_fts_insert;
        DROP TABLE turns_fts;
        CREATE VIEW turns_indexed AS
            SELECT t.id,
                replace(t.user_text, char(0), ' ') AS user_text,
                replace(t.assistant_text, char(0), ' ') AS assistant_text,
                coalesce((
                    SELECT replace(p.user_text || char(10) || p.assistant_text, char(0), ' ')
                    FROM turns p
                    WHERE p.tenant = t.tenant AND p.stream = t.stream AND p.seq = t.seq - 1
                ), '') AS before_text
            FROM turns t;
        CREATE VIRTUAL TABLE turns_fts USING fts5(
            user_text, assistant_text, before_text,
            content='turns_indexed', content_rowid='id', tokenize='porter unicode61'
        );
        INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, user_text, assistant_text, before_text)
            SELECT id, user_text, assistant_text, before_text FROM turns_indexed
            WHERE id = new.id;
        END;
        """,
    ),
    (
        "0008_shared_server_state",
        """
        -- Imports taken by the HTTP API, so that any of its processes can answer a status.
        CREATE TABLE imports (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL,
            status TEXT NOT NULL,
            report TEXT,
            error TEXT,
            created_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE INDEX imports_by_status ON imports (status);

        -- Work that one process at a time may do, such as the maintenance loop: a row is
        -- held by its owner until expires_at (seconds since the epoch).
        CREATE TABLE leases (
            name TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL
        );
        """,
    ),
    (
        "0009_import_owners",
        """
        -- The process that took an import, so that the others can tell when it died: a
        -- live process holds the lease 'imports:<owner>' while it has imports unfinished.
        -- Imports taken before this have none; the sweep at a server's start covers them.
        ALTER TABLE imports ADD COLUMN owner TEXT;
        """,
    ),
    (
        "0010_speakers_and_entities",
        """
        -- Who wrote each side of a turn; NULL: the user, or an unnamed assistant.
        ALTER TABLE turns ADD COLUMN speaker TEXT;
        ALTER TABLE turns ADD COLUMN assistant_speaker TEXT;

        -- People, projects and organisations of a tenant. Facts name an entity by its key
        -- (its full name, lowercase), which every alias resolves to.
        CREATE TABLE entities (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (tenant, key)
        );
        -- An alias may name several entities ("lena" for two Lenas): then it resolves to
        -- none, and the text has to tell them apart.
        CREATE TABLE entity_aliases (
            tenant TEXT NOT NULL,
            alias TEXT NOT NULL,
            entity_id INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (tenant, alias, entity_id)
        ) WITHOUT ROWID;
        CREATE INDEX facts_by_value ON facts (tenant, stream, slot, value);

        -- A turn is found by who said it too: "what did Caroline adopt?" names the speaker,
        -- not the words of her turn.
        DROP TRIGGER turns_fts_insert;
        DROP VIEW turns_indexed;
        CREATE VIEW turns_indexed AS
            SELECT t.id,
                replace(coalesce(t.speaker || ': ', '') || t.user_text, char(0), ' ')
                    AS user_text,
                replace(coalesce(t.assistant_speaker || ': ', '') || t.assistant_text,
                    char(0), ' ') AS assistant_text,
                coalesce((
                    SELECT replace(coalesce(p.speaker || ': ', '') || p.user_text || char(10)
                        || p.assistant_text, char(0), ' ')
                    FROM turns p
                    WHERE p.tenant = t.tenant AND p.stream = t.stream AND p.seq = t.seq - 1
                ), '') AS before_text
            FROM turns t;
        INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, user_text, assistant_text, before_text)
            SELECT id, user_text, assistant_text, before_text FROM turns_indexed
            WHERE id = new.id;
        END;
        """,
    ),
    (
        "0011_erasures",
        """
        -- Privacy erasures: what was asked and how much went, never the content itself.
        CREATE TABLE erasures (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            target TEXT NOT NULL,
            removed TEXT NOT NULL,
            at TEXT NOT NULL
        );
        -- Bumped by every erasure that touches a stream, so that a job which read the
        -- stream before the erasure does not write what it read back.
        ALTER TABLE streams ADD COLUMN erasures INTEGER NOT NULL DEFAULT 0;
        """,
    ),
    (
        "0012_summary_records",
        """
        -- A session summary's structured record, as JSON: intent, key facts, decisions,
        -- open questions, compression ratio and the model that wrote it.
        ALTER TABLE summaries ADD COLUMN record TEXT;
        """,
    ),
    (
        "0014_writer_trust",
        """
        -- Who wrote each turn and fact: the writer's trust, and the API key it came with
        -- (NULL: the Python API or a face without keys). Rows from before were the owner's.
        ALTER TABLE turns ADD COLUMN writer_trust TEXT NOT NULL DEFAULT 'full';
        ALTER TABLE turns ADD COLUMN writer_key INTEGER;
        ALTER TABLE facts ADD COLUMN writer_trust TEXT NOT NULL DEFAULT 'full';
        ALTER TABLE facts ADD COLUMN writer_key INTEGER;
        """,
    ),
    (
        "0015_search_indexes",
        """
        -- Vector search keeps one index per (tenant, stream, kind) and catches each up on
        -- the rows written after the last it holds.
        CREATE INDEX vectors_by_stream ON vectors (tenant, stream, kind, id);
        -- A context reads the stream's pinned facts and its superseded ones, a few among
        -- tens of thousands: these find them without reading the rest.
        CREATE INDEX facts_by_confidence ON facts (tenant, stream, status, confidence);
        CREATE INDEX facts_superseded ON facts (tenant, stream) WHERE superseded_by IS NOT NULL;
        """,
    ),
    (
        "0018_team",
        """
        -- Team intelligence: one profile per entity, actions keyed by what they found (so a
        -- rebuild keeps their status), and one digest per stream, day and time zone.
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
            id INTEGER PRIMARY KEY,
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
        """,
    ),
    (
        "0020_import_progress",
        """
        -- How far a running import has come (JSON: step, done, total), so that every
        -- process of a server can show its progress.
        ALTER TABLE imports ADD COLUMN progress TEXT;
        """,
    ),
    (
        "0021_live_sources",
        """
        -- Live sources: the deliveries of an outside event already taken (Slack retries an
        -- event it thinks was lost; its id is stored once), and what a source keeps
        -- between calls: how far a backfill has read each list, so that one killed
        -- resumes where it stopped, and the names of the ids its events carry.
        CREATE TABLE deliveries (
            tenant TEXT NOT NULL,
            source TEXT NOT NULL,
            event_id TEXT NOT NULL,
            received_at REAL NOT NULL,
            PRIMARY KEY (tenant, source, event_id)
        );
        CREATE TABLE source_state (
            tenant TEXT NOT NULL,
            source TEXT NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (tenant, source, name)
        );
        """,
    ),
    (
        "0022_facts_stated_at",
        """
        -- When a fact was last stated (a mention's event time); NULL: when first stated.
        ALTER TABLE facts ADD COLUMN stated_at TEXT;
        """,
    ),
    (
        "0023_ids_never_reused",
        """
        -- SQLite gives a new row the highest id plus one, so an erase of the newest rows
        -- would hand their ids out again, and a retried forget or DELETE would hit another
        -- memory. The highest id ever deleted is kept, and the store starts past it.
        CREATE TABLE retired_ids (tbl TEXT PRIMARY KEY, high INTEGER NOT NULL);
        CREATE TRIGGER turns_ids_retired AFTER DELETE ON turns BEGIN
            INSERT INTO retired_ids (tbl, high) VALUES ('turns', old.id)
            ON CONFLICT (tbl) DO UPDATE SET high = MAX(high, excluded.high);
        END;
        CREATE TRIGGER facts_ids_retired AFTER DELETE ON facts BEGIN
            INSERT INTO retired_ids (tbl, high) VALUES ('facts', old.id)
            ON CONFLICT (tbl) DO UPDATE SET high = MAX(high, excluded.high);
        END;
        CREATE TRIGGER summaries_ids_retired AFTER DELETE ON summaries BEGIN
            INSERT INTO retired_ids (tbl, high) VALUES ('summaries', old.id)
            ON CONFLICT (tbl) DO UPDATE SET high = MAX(high, excluded.high);
        END;
        CREATE TRIGGER records_ids_retired AFTER DELETE ON records BEGIN
            INSERT INTO retired_ids (tbl, high) VALUES ('records', old.id)
            ON CONFLICT (tbl) DO UPDATE SET high = MAX(high, excluded.high);
        END;
        """,
    ),
    (
        "0024_facts_doubted",
        """
        -- The newest message that may have changed a fact, read too unsurely to store as
        -- a fact of its own: the context shows the fact as possibly outdated, naming it.
        ALTER TABLE facts ADD COLUMN doubt_kind TEXT;
        ALTER TABLE facts ADD COLUMN doubt_id TEXT;
        ALTER TABLE facts ADD COLUMN doubt_at TEXT;
        """,
    ),
    (
        "0025_facts_by_source",
        """
        -- The facts read from one turn or record: asked several times for every turn read
        -- (restatements, twins, guesses), each a scan of the stream's active facts without it.
        CREATE INDEX facts_by_source ON facts (tenant, stream, source_kind, source_id);
        """,
    ),
]
