"""Where the ledgers are kept: one interface over SQLite (the embedded default) and PostgreSQL (several hosts).

The ledger's rules — seats, counters, checks, what a view shows — are `taihu.ledger`'s; this module only
stores and reads, through SQLAlchemy Core (one set of queries for both databases) with Alembic revisions
(`taihu/store/migrations/`) that every open brings forward first.

- Which database: `--db` (the command line reads `$TAIHU_DB` for it). A URL (`postgresql://…`, `postgresql+psycopg://…`,
  `sqlite:///path`) names it; anything else is a SQLite file's path; nothing, the user data dir's file.
- "Settle and append deal N" is one transaction on both: SQLite takes the write lock before the first read
  (`BEGIN IMMEDIATE`, so writers queue in order); PostgreSQL locks the ledger's row (`SELECT … FOR
  UPDATE`), so adds and undos of one ledger queue while other ledgers go on. The primary key (ledger,
  number) stores each deal N once whatever a host does.
- Each deal row keeps the standings after it, so an add or an undo reads O(1) rows at any deal number.
- Migrations run under the same lock (PostgreSQL: an advisory lock), so hosts starting together migrate
  one after the other; a database from a newer taihu (a revision this one does not know) is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from taihu import ledger as ledger_rules
from taihu.ledger import (
    DB_ENV,
    Change,
    Deal,
    Ledger,
    LedgerFull,
    LedgerView,
    NewLedger,
    Standing,
    check_name,
    check_new,
    check_text,
    default_path,
    hash_token,
    make_private,
    make_private_folder,
    next_deal,
    opening,
)
from taihu.messages import LANGUAGES, Language
from taihu.scorer import HandError
from taihu.scorer.errors import Text, quote

BUSY_TIMEOUT_S = 30.0  # how long a SQLite writer waits for another writer's transaction
MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x7461_6968  # PostgreSQL advisory lock key while migrating ("taih")
KEY_HOURS = 24  # how long an Idempotency-Key's first answer is kept
MAX_KEY = 200  # characters of an Idempotency-Key
LAST_HAND_WRITTEN = 3  # the `schema_version` of the last taihu before Alembic (revision 0001 takes it over)

metadata = sa.MetaData()
ledgers = sa.Table(
    "ledgers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("public_id", sa.Text),
    sa.Column("token_sha256", sa.Text),
    sa.Column("changes", sa.Integer, nullable=False),
    sa.Column("title", sa.Text),  # revision 0005
    sa.Column("expires", sa.Text),
)
idempotency = sa.Table(
    "idempotency",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("key", sa.Text, nullable=False),
    sa.Column("request_sha256", sa.Text, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
)
deals = sa.Table(
    "deals",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("deal_table", sa.Text, nullable=False),
    sa.Column("settlement", sa.Text, nullable=False),
    sa.Column("added", sa.Text, nullable=False),
    sa.Column("taihu_version", sa.Text),
    # the standings after the deal (revision 0004): an add or an undo reads them from the last row alone
    sa.Column("totals", sa.Text),
    sa.Column("next_dealer", sa.Text),
    sa.Column("next_honba", sa.Integer),
    sa.Column("next_pot", sa.Integer),
)
STANDING_COLUMNS = (deals.c.number, deals.c.totals, deals.c.next_dealer, deals.c.next_honba, deals.c.next_pot)
DEAL_COLUMNS = (deals.c.number, deals.c.seats, deals.c.deal_table, deals.c.settlement, deals.c.taihu_version)
LEDGER_COLUMNS = (
    *(ledgers.c.id, ledgers.c.name, ledgers.c.rules, ledgers.c.players, ledgers.c.options),
    *(ledgers.c.title, ledgers.c.expires),
)
EACH = len(LEDGER_COLUMNS)
# Made once: `column + 1` made anew for each change leaves a reference cycle in SQLAlchemy's bound parameter
# (its comparator), which only the garbage collector frees.
ONE_MORE_CHANGE = ledgers.c.changes + 1


def database_url(where: str | Path | None = None) -> sa.URL:
    """The database `--db` names: a URL as given (plain `postgresql://` is psycopg 3), else a file; None: the user
    data dir's file."""
    return url_of(str(where) if where is not None else str(default_path()))


@lru_cache(maxsize=64)
def url_of(text: str) -> sa.URL:
    """`database_url` of a name, made once per name (a URL is immutable): SQLAlchemy's `URL.create` leaves a
    reference cycle (a closure of its own) each time, and a server opens the store for each request."""
    if "://" not in text:
        return sa.URL.create("sqlite", database=text)
    try:
        url = sa.make_url(text)
    except (sa.exc.ArgumentError, ValueError):
        raise HandError.of("error.store.not_a_url", code="bad_database", env=DB_ENV, given=repr(text)) from None
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise HandError.of("error.store.backend", code="bad_database", env=DB_ENV, backend=url.get_backend_name())
    return url


def shown(url: sa.URL) -> str:
    """Where the ledgers are, for messages: the file, or the URL without its password."""
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.render_as_string(hide_password=True)


def exists(where: str | Path | None = None) -> bool:
    """Whether opening would find a database (a SQLite file that is not there yet: no)."""
    url = database_url(where)
    return url.get_backend_name() != "sqlite" or bool(url.database and Path(url.database).exists())


_engines: dict[str, Engine] = {}
_current: set[str] = set()  # the engines whose database this process found at the newest revision
_lock = threading.Lock()


def engine_for(url: sa.URL) -> Engine:
    """One engine (and connection pool) per database per process."""
    key = url.render_as_string(hide_password=False)
    with _lock:
        if key not in _engines:
            _engines[key] = make_engine(url)
        return _engines[key]


def dispose_engines() -> None:
    """Closes every pooled connection and forgets what was checked (a new process would)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
        _current.clear()


def make_engine(url: sa.URL) -> Engine:
    if url.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True)
    engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def on_connect(connection: Any, _record: Any) -> None:
        connection.isolation_level = None  # SQLAlchemy's documented recipe: the BEGIN below is ours
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")  # a committed deal survives a power cut too
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get("taihu_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


@cache
def alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def known_revisions() -> tuple[str, ...]:
    """This taihu's revisions, the newest first."""
    from alembic.script import ScriptDirectory

    return tuple(script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions())


def newest_revision() -> str:
    return known_revisions()[0]


def now(hours_ago: float = 0) -> str:
    """The time as stored (ISO 8601, UTC, to the second): it sorts as text."""
    return (datetime.now(UTC) - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def hours_from_now(hours: float) -> str:
    """A time `hours` ahead, as stored (an expiry)."""
    return now(hours_ago=-hours)


def split_tags(header: str) -> set[str]:
    """The entity tags of an If-Match header (weak ones compared as strong: a ledger has no weak tags)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def etag(deal_count: int, changes: int) -> str:
    """The ledger's entity tag: its deal count and how many changes it has had (one state of the ledger)."""
    return f'"{deal_count}.{changes}"'


def etag_in(tag: str, lang: Language) -> str:
    """The tag of an answer in `lang`: the state's tag in English (`"3.5"`), the language after it otherwise
    (`"3.5.zh"`). Its texts differ, so no cache may take one answer for the other (a strong ETag names one
    representation); `state_tags` reads any of them as the state they share."""
    return tag if lang == "en" else f'{tag[:-1]}.{lang}"'


_LANGUAGE_IN_TAG = re.compile(rf'\.(?:{"|".join(LANGUAGES)})"$')


def state_tags(header: str) -> set[str]:
    """The ledger states an If-Match header names, each tag read without the language of the answer it came
    with (`"3.5.zh"` is the state `"3.5"`): the condition of a change is the ledger's state, not a language."""
    return {_LANGUAGE_IN_TAG.sub('"', tag) for tag in split_tags(header)}


ID_BYTES = 18  # a ledger's public id: 144 random bits, 24 URL-safe characters


def new_public_id() -> str:
    """A new ledger's public id: random, URL-safe, and never starting with `-`, which a command line reads as an
    option (`taihu ledger export -Te…` was refused as the option `-T`); one draw in 64 is made again."""
    while True:
        drawn = secrets.token_urlsafe(ID_BYTES)
        if not drawn.startswith("-"):
            return drawn


class DealConflict(HandError):
    """The deal a client expected to create (`"deal": N`, `If-Match`) is not the next: another got there first."""

    def __init__(self, text: Text, current: int, tag: str) -> None:
        super().__init__(code="deal_conflict", text=text)
        self.current = current
        self.etag = tag

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy (`HandError.replaced`) is made as this was, its attributes kept."""
        return DealConflict, (self.text, self.current, self.etag), dict(self.__dict__)

    def tagged(self, tag: str) -> HandError:
        """The same conflict, its message naming the ETag as an answer in another language has it (`"3.5.zh"`)."""
        return self.replaced(tag=tag) if "tag" in self.params else self


@dataclass(frozen=True)
class Added:
    """An add's answer (the deal and the standings right after it) and whether it is a replay of a key's first."""

    answer: dict[str, Any]  # as kept (`Change.stored_json`): `taihu.ledger.shown_change` shows it in a language
    replayed: bool
    etag: str  # the ledger's ETag after the add (for a replay: as it stands now)


class LedgerStore:
    """The ledgers of one database. Cheap to open (the engine and its pool are kept per process)."""

    def __init__(
        self,
        where: str | Path | None = None,
        create: bool = True,
        max_deals: int | None = None,
        max_ledgers: int | None = None,
    ) -> None:
        """Opens the database `where` names (else the user data dir's file); with
        `create`, makes a SQLite file that is not there yet (0600); brings the schema to the newest revision.

        `max_deals` and `max_ledgers` default to MAX_DEALS and MAX_LEDGERS (a test gives small ones).
        """
        self.max_deals = ledger_rules.MAX_DEALS if max_deals is None else max_deals  # read now: a test may lower them
        self.max_ledgers = ledger_rules.MAX_LEDGERS if max_ledgers is None else max_ledgers
        self.url = database_url(where)
        self.where = shown(self.url)
        self.sqlite = self.url.get_backend_name() == "sqlite"
        self.path = Path(self.where) if self.sqlite else None
        if self.path is not None and self.url.database:
            if not create and not self.path.exists():
                raise HandError.of("error.store.no_database", code="no_database", where=str(self.path))
            try:
                make_private_folder(self.path.parent)
                make_private(self.path)
            except OSError as exc:
                raise HandError.of(
                    "error.store.cannot_open", code="bad_database", where=str(self.path), why=str(exc)
                ) from None
        self.engine = engine_for(self.url)
        try:
            self.migrate()
        except sa.exc.DatabaseError as exc:
            raise HandError.of(
                "error.store.not_taihu", code="bad_database", where=self.where, why=str(exc.orig)
            ) from None
        except sa.exc.DBAPIError as exc:
            raise HandError.of(
                "error.store.cannot_open", code="bad_database", where=self.where, why=str(exc.orig)
            ) from None

    def _taken(self, name: str) -> HandError:
        """The refusal of a name another ledger of this database has."""
        hint = Text("error.hint.another_name")
        return HandError.of("error.store.name_taken", code="name_taken", hint=hint, name=name, where=self.where)

    def close(self) -> None:
        """Nothing to close: connections go back to the engine's pool after each call."""

    def __enter__(self) -> LedgerStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """One read transaction: the queries inside see one state of the database."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction; on SQLite the write lock is taken before the first read."""
        with self.engine.connect() as connection:
            connection.execution_options(taihu_write=True)
            with connection.begin():
                yield connection

    # -- schema --------------------------------------------------------------------------------

    def revision(self) -> str | None:
        """The Alembic revision the database is at (None: not made yet)."""
        from alembic.runtime.migration import MigrationContext

        with self.reading() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def migrate(self) -> None:
        """Brings the database to the newest revision under the write lock (a current one is only read)."""
        key = self.url.render_as_string(hide_password=False)
        if key in _current:
            return
        newest = newest_revision()
        if self.revision() != newest:
            from alembic import command

            with self.transaction() as connection:
                if not self.sqlite:
                    connection.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
                self.refuse_newer(connection)
                config = alembic_config()
                config.attributes["connection"] = connection
                try:
                    command.upgrade(config, "head")
                finally:
                    del config.attributes["connection"]
        with _lock:
            _current.add(key)

    def refuse_newer(self, connection: Connection) -> None:
        """A revision this taihu does not know (or a hand-written schema past the last) is a newer taihu's."""
        from alembic.runtime.migration import MigrationContext

        current = MigrationContext.configure(connection).get_current_revision()
        legacy = None
        if current is None and sa.inspect(connection).has_table("schema_version"):
            legacy = connection.execute(sa.text("SELECT version FROM schema_version")).scalar()
        if (current is not None and current not in known_revisions()) or (legacy or 0) > LAST_HAND_WRITTEN:
            found = (
                Text("error.store.revision", revision=current) if current else Text("error.store.schema", schema=legacy)
            )
            raise HandError.of(
                "error.store.newer", code="newer_database", where=self.where, found=found, newest=newest_revision()
            )

    # -- ledgers -------------------------------------------------------------------------------

    def create(self, name: str, rules: str, players: list[str], options: Mapping[str, Any] | None = None) -> Ledger:
        """A new local ledger (the CLI's); refused if the name is taken."""
        checked = check_new(name, rules, players, options or {})
        taken = self._taken(name)
        try:
            with self.transaction() as db:
                if db.execute(sa.select(ledgers.c.id).where(ledgers.c.name == name)).first():
                    raise taken
                key = self._insert_ledger(db, checked, None, None)
        except sa.exc.IntegrityError:  # another client took the name between the look and the insert
            raise taken from None
        return Ledger(key, name, checked.rules, checked.players, checked.options)

    def create_shared(
        self, rules: str, players: list[str], options: Mapping[str, Any] | None = None
    ) -> tuple[str, str]:
        """A ledger kept over HTTP: its public id (≥ 128 random bits) and edit token; only the hash is kept."""
        ledger_id, token = new_public_id(), secrets.token_urlsafe(32)
        checked = check_new(ledger_id, rules, players, options or {})
        self.purge_expired()  # so that ledgers nobody touches again do not fill the database
        with self.transaction() as db:
            self._insert_ledger(db, checked, ledger_id, hash_token(token))
        return ledger_id, token

    def _insert_ledger(self, db: Connection, new: NewLedger, public_id: str | None, token_sha256: str | None) -> int:
        """Inserts a checked ledger, unless the database holds max_ledgers already (LedgerFull)."""
        count = db.execute(sa.select(sa.func.count()).select_from(ledgers)).scalar_one()
        if count >= self.max_ledgers:
            # not where the database is: over HTTP this answers anyone
            raise LedgerFull.of(
                "error.store.too_many_ledgers", code="too_many_ledgers", count=count, most=self.max_ledgers
            )
        result = db.execute(
            ledgers.insert().values(
                name=new.name,
                rules=new.rules,
                players=json.dumps(new.players, ensure_ascii=False),
                options=json.dumps(new.options),
                created=now(),
                public_id=public_id,
                token_sha256=token_sha256,
            )
        )
        assert result.inserted_primary_key is not None
        return int(result.inserted_primary_key[0])

    def names(self) -> list[tuple[Ledger, int]]:
        """Every ledger with its number of deals, oldest first."""
        query = (
            sa.select(*LEDGER_COLUMNS, sa.func.count(deals.c.number))
            .select_from(ledgers.outerjoin(deals, deals.c.ledger_id == ledgers.c.id))
            .group_by(*LEDGER_COLUMNS)
            .order_by(ledgers.c.id)
        )
        with self.reading() as db:
            rows = db.execute(query).all()
        return [(self._ledger(row[:EACH]), row[EACH]) for row in rows]

    def ledger(self, name: str) -> Ledger:
        check_name(name)  # a name that could not be stored is not looked up (a lone surrogate cannot even be sent)
        with self.reading() as db:
            found = db.execute(sa.select(*LEDGER_COLUMNS).where(ledgers.c.name == name)).first()
        if found is None:
            hint = Text("error.hint.ledger_list")
            raise HandError.of("error.store.not_found", code="ledger_not_found", hint=hint, name=name, where=self.where)
        return self._ledger(found)

    def shared(self, public_id: str) -> tuple[Ledger, str | None] | None:
        """The ledger behind a public id and its token hash, or None; one past its expiry is removed (None)."""
        query = sa.select(*LEDGER_COLUMNS, ledgers.c.token_sha256).where(ledgers.c.public_id == public_id)
        with self.reading() as db:
            found = db.execute(query).first()
        if found is None:
            return None
        ledger = self._ledger(found[:EACH])
        if ledger.expires is not None and ledger.expires <= now():
            self.purge_expired()
            return None
        return ledger, found[EACH]

    @staticmethod
    def _ledger(row: Any) -> Ledger:
        key, name, rules, players, options, title, expires = row
        return Ledger(key, name, rules, json.loads(players), json.loads(options), title, expires)

    # -- owner actions -------------------------------------------------------------------------

    def rename(self, ledger: Ledger, name: str) -> Ledger:
        """A local ledger's new name (the CLI's key for it); refused if another ledger has it."""
        check_name(name)
        taken = self._taken(name)
        try:
            with self.transaction() as db:
                self._lock(db, ledger)
                if db.execute(
                    sa.select(ledgers.c.id).where(ledgers.c.name == name, ledgers.c.id != ledger.key)
                ).first():
                    raise taken
                db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(name=name))
                self._changed(db, ledger)
        except sa.exc.IntegrityError:
            raise taken from None
        return replace(ledger, name=name)

    def retitle(self, ledger: Ledger, title: str | None, expires: str | None) -> Ledger:
        """Sets a ledger's title (a display name; None: none) and its expiry (None: kept until deleted)."""
        if title is not None:
            check_text(title, "title", Text("error.name.title"))
        with self.transaction() as db:
            self._lock(db, ledger)
            db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(title=title, expires=expires))
            self._changed(db, ledger)
        return replace(ledger, title=title, expires=expires)

    def rotate(self, ledger: Ledger) -> str:
        """A new edit token for the ledger: answers it (shown once); the old one stops working at once."""
        token = secrets.token_urlsafe(32)
        with self.transaction() as db:
            self._lock(db, ledger)
            db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(token_sha256=hash_token(token)))
        return token

    def delete(self, ledger: Ledger) -> None:
        """Removes the ledger with its deals and kept answers."""
        with self.transaction() as db:
            self._lock(db, ledger)
            self._remove(db, [ledger.key])

    def purge_expired(self) -> int:
        """Removes every ledger past its expiry; answers how many."""
        with self.transaction() as db:
            query = sa.select(ledgers.c.id).where(ledgers.c.expires.is_not(None), ledgers.c.expires <= now())
            keys = list(db.execute(query).scalars())
            self._remove(db, keys)
        return len(keys)

    @staticmethod
    def _remove(db: Connection, keys: list[int]) -> None:
        """The ledgers' rows and all that hangs on them (written out, not left to ON DELETE CASCADE)."""
        if keys:
            db.execute(idempotency.delete().where(idempotency.c.ledger_id.in_(keys)))
            db.execute(deals.delete().where(deals.c.ledger_id.in_(keys)))
            db.execute(ledgers.delete().where(ledgers.c.id.in_(keys)))

    # -- deals ---------------------------------------------------------------------------------

    def add(self, ledger: Ledger, table: Any) -> Deal:
        """Settles the deal with the seats as they stand and records it; a refused table changes nothing."""
        with self.transaction() as db:
            self._lock(db, ledger)
            return self._append(db, ledger, table, self._standing(db, ledger))[0]

    def add_once(
        self,
        ledger: Ledger,
        table: Any,
        expect: int | None = None,
        if_match: str | None = None,
        key: str | None = None,
    ) -> Added:
        """`add`, safe to retry (docs/ledger.md, "Exactly once"): answers the deal and the standings after it.

        `key` (an Idempotency-Key) seen for this ledger within KEY_HOURS: its first answer again, and
        nothing stored (the same key with another deal is refused). `expect` (the number the deal is to
        get) or `if_match` (the ledger's ETag) that is no longer so: DealConflict with the current count.
        """
        asked = hashlib.sha256(json.dumps([table, expect, if_match], sort_keys=True).encode()).hexdigest()
        with self.transaction() as db:
            changes = self._lock(db, ledger)
            if key is not None:
                db.execute(idempotency.delete().where(idempotency.c.created < now(hours_ago=KEY_HOURS)))
                first = db.execute(
                    sa.select(idempotency.c.request_sha256, idempotency.c.answer).where(
                        idempotency.c.ledger_id == ledger.key, idempotency.c.key == key
                    )
                ).first()
                if first is not None:
                    if first[0] != asked:
                        raise HandError.of("error.store.key_reused", code="key_reused", key=key)
            before = self._standing(db, ledger)
            count = before.deal_count
            tag = etag(count, changes)
            if key is not None and first is not None:
                return Added(json.loads(first[1]), replayed=True, etag=tag)
            if expect is not None and expect != count + 1:
                raise DealConflict(
                    Text("error.store.deal_taken", deal=expect, ledger=ledger.name, count=count, next=count + 1),
                    count,
                    tag,
                )
            if if_match is not None and if_match.strip() != "*" and tag not in state_tags(if_match):
                raise DealConflict(Text("error.store.etag", given=quote(if_match), tag=tag, count=count), count, tag)
            deal, after = self._append(db, ledger, table, before)
            answer = Change(deal, after).stored_json()  # shown in each replay's language (`shown_change`)
            if key is not None:
                db.execute(
                    idempotency.insert().values(
                        ledger_id=ledger.key,
                        key=key,
                        request_sha256=asked,
                        answer=json.dumps(answer, ensure_ascii=False),
                        created=now(),
                    )
                )
        return Added(answer, replayed=False, etag=etag(deal.number, changes + 1))

    def _append(self, db: Connection, ledger: Ledger, table: Any, before: Standing) -> tuple[Deal, Standing]:
        """Settles and inserts the deal after `before` with the standings after it; answers both."""
        from taihu import __version__

        deal = next_deal(ledger, before, table, __version__, self.max_deals)
        after = before.after(deal, counters=ledger.carries_counters)
        db.execute(
            deals.insert().values(
                ledger_id=ledger.key,
                number=deal.number,
                seats=json.dumps(deal.seats, ensure_ascii=False),
                deal_table=json.dumps(deal.table, ensure_ascii=False),
                settlement=json.dumps(deal.settlement, ensure_ascii=False),
                added=now(),
                taihu_version=__version__,
                totals=json.dumps(after.totals, ensure_ascii=False),
                next_dealer=after.next_dealer,
                next_honba=deal.settlement.get("next_honba"),
                next_pot=deal.settlement.get("pot_after"),
            )
        )
        self._changed(db, ledger)
        return deal, after

    @staticmethod
    def _changed(db: Connection, ledger: Ledger) -> None:
        db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(changes=ONE_MORE_CHANGE))

    def etag(self, ledger: Ledger) -> str:
        """The ledger's ETag as it stands."""
        return self.state(ledger)[1]

    def undo(self, ledger: Ledger) -> Deal:
        """Removes the last deal and answers it."""
        return self.undo_with_standing(ledger).deal

    def undo_with_standing(self, ledger: Ledger) -> Change:
        """`undo`, answering the standings after it too, read in its transaction (no other change between)."""
        with self.transaction() as db:
            self._lock(db, ledger)
            last = self._last_deal(db, ledger)
            if last is None:
                raise HandError.of("error.store.nothing_to_undo", code="no_deals", ledger=ledger.name)
            db.execute(deals.delete().where(deals.c.ledger_id == ledger.key, deals.c.number == last.number))
            self._changed(db, ledger)
            return Change(last, self._standing(db, ledger))

    def view(self, ledger: Ledger) -> LedgerView:
        query = sa.select(*DEAL_COLUMNS).where(deals.c.ledger_id == ledger.key).order_by(deals.c.number)
        with self.reading() as db:
            rows = db.execute(query).all()
        return LedgerView(ledger, [self._deal(row) for row in rows])

    def state(self, ledger: Ledger) -> tuple[Standing, str]:
        """The standings and the ETag, read together (two rows, however many deals)."""
        with self.reading() as db:
            return self._tagged(db, ledger)

    def _tagged(self, db: Connection, ledger: Ledger) -> tuple[Standing, str]:
        changes = db.execute(sa.select(ledgers.c.changes).where(ledgers.c.id == ledger.key)).scalar()
        if changes is None:
            raise HandError.of("error.store.gone", code="ledger_not_found", ledger=ledger.name)
        standing = self._standing(db, ledger)
        return standing, etag(standing.deal_count, changes)

    def page(self, ledger: Ledger, after: int, limit: int) -> tuple[list[Deal], Standing, str]:
        """The deals numbered after `after`, at most `limit`, with the standings and the ETag they were read with."""
        query = (
            sa.select(*DEAL_COLUMNS)
            .where(deals.c.ledger_id == ledger.key, deals.c.number > after)
            .order_by(deals.c.number)
            .limit(limit)
        )
        with self.reading() as db:
            standing, tag = self._tagged(db, ledger)
            rows = db.execute(query).all()
        return [self._deal(row) for row in rows], standing, tag

    def standing(self, ledger: Ledger) -> Standing:
        """The totals and next dealer as the last deal keeps them (cheaper than a whole view)."""
        with self.reading() as db:
            return self._standing(db, ledger)

    def _standing(self, db: Connection, ledger: Ledger) -> Standing:
        """The standings the last deal row keeps (one row, however many deals)."""
        query = sa.select(*STANDING_COLUMNS).where(deals.c.ledger_id == ledger.key).order_by(deals.c.number.desc())
        row = db.execute(query.limit(1)).first()
        return standing_row(ledger, row)

    @staticmethod
    def _lock(db: Connection, ledger: Ledger) -> int:
        """PostgreSQL: the ledger's row stays locked until the commit, so its changes queue (SQLite: the file lock).

        Answers the ledger's count of changes."""
        query = sa.select(ledgers.c.changes).where(ledgers.c.id == ledger.key).with_for_update()
        changes = db.execute(query).scalar()
        if changes is None:
            raise HandError.of("error.store.gone", code="ledger_not_found", ledger=ledger.name)
        return int(changes)

    def _last_deal(self, db: Connection, ledger: Ledger) -> Deal | None:
        query = sa.select(*DEAL_COLUMNS).where(deals.c.ledger_id == ledger.key).order_by(deals.c.number.desc())
        row = db.execute(query.limit(1)).first()
        return self._deal(row) if row else None

    @staticmethod
    def _deal(row: Any) -> Deal:
        number, seats, table, settlement, version = row
        return Deal(number, json.loads(seats), json.loads(table), json.loads(settlement), version)


def standing_row(ledger: Ledger, row: Any) -> Standing:
    """The standings kept in a deal row (`STANDING_COLUMNS`); no row: before the first deal."""
    if row is None:
        return opening(ledger.players, counters=ledger.carries_counters)
    number, totals, next_dealer, honba, pot = row
    if not ledger.carries_counters:
        return Standing(list(ledger.players), json.loads(totals), next_dealer, deal_count=number)
    return Standing(list(ledger.players), json.loads(totals), next_dealer, honba or 0, pot or 0, number)
