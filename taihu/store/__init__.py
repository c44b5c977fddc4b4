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
import hmac
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
ROTATE_GRACE_HOURS = 1.0  # how long the owner token before a rotation stays good if the new one is not used
KEPT_EVENTS = 2000  # the changes of a ledger a stream can resume from (`Last-Event-ID`); older ones are dropped
INVITE_HOURS = 12  # how long an invite (a join link) answers unless the owner says otherwise
MAX_INVITE_HOURS = 7 * 24
MAX_DEVICES = 32  # scorer devices of one ledger: a table's four phones, and room for a club's spares
MAX_INVITES = 16  # open invites of one ledger
MAX_READ_LINKS = 16  # read links of one ledger
CHANGES_CHANNEL = "taihu_ledger_changes"  # PostgreSQL: NOTIFY names the ledger changed (its key) to every host
OWNER, SCORER = "owner", "scorer"  # the roles a token gives
ADD, UNDO, ROTATE = "add", "undo", "rotate"  # what an Idempotency-Key was first sent with
DEAL_ADDED, DEAL_UNDONE, LEDGER_EDITED = "deal-added", "deal-undone", "ledger-edited"
# changes of the table's room, events of the ledger's stream too: the owner's page follows its devices by them,
# and a stream its access was taken from ends (taihu/api/events.py)
DEVICE_JOINED, DEVICE_REVOKED = "device-joined", "device-revoked"
READ_LINK_MADE, READ_LINK_REVOKED = "read-link-made", "read-link-revoked"
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
    sa.Column("old_token_sha256", sa.Text),  # revision 0007: the owner token before a rotation, for a while
    sa.Column("old_token_until", sa.Text),
    # revision 0008: the id alone no longer reads, only the tokens and the read links
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
)
idempotency = sa.Table(
    "idempotency",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("key", sa.Text, nullable=False),
    sa.Column("request_sha256", sa.Text, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("action", sa.Text),  # revision 0007: ADD (or null), UNDO, ROTATE
)
creation_keys = sa.Table(
    "creation_keys",
    metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("request_sha256", sa.Text, nullable=False),
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
)
invites = sa.Table(
    "invites",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("public_id", sa.Text, nullable=False),
    sa.Column("code_sha256", sa.Text, nullable=False),
    sa.Column("name", sa.Text),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("expires", sa.Text, nullable=False),
)
read_links = sa.Table(
    "read_links",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("public_id", sa.Text, nullable=False),
    sa.Column("code_sha256", sa.Text, nullable=False),
    sa.Column("name", sa.Text),
    sa.Column("created", sa.Text, nullable=False),
)
devices = sa.Table(
    "devices",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("public_id", sa.Text, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("token_sha256", sa.Text, nullable=False),
    sa.Column("invite", sa.Text),
    sa.Column("created", sa.Text, nullable=False),
)
ledger_events = sa.Table(
    "ledger_events",
    metadata,
    sa.Column("ledger_id", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
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
    *(ledgers.c.title, ledgers.c.expires, ledgers.c.private),
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


def request_hash(request: Any) -> str:
    """What an Idempotency-Key was first sent with, to tell a retry from another request under the same key."""
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


def new_public_id() -> str:
    """A new ledger's public id: random, URL-safe, and never starting with `-`, which a command line reads as an
    option (`taihu ledger export -Te…` was refused as the option `-T`); one draw in 64 is made again."""
    while True:
        drawn = secrets.token_urlsafe(ID_BYTES)
        if not drawn.startswith("-"):
            return drawn


class DealConflict(HandError):
    """The deal a client expected to create (`"deal": N`, `If-Match`) is not the next: another got there first."""

    def __init__(self, text: Text, current: int, tag: str, precondition: bool = False) -> None:
        super().__init__(code="deal_conflict", text=text)
        self.current = current
        self.etag = tag
        self.precondition = precondition  # an undo's If-Match that failed: HTTP's 412, not a 409

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy (`HandError.replaced`) is made as this was, its attributes kept."""
        return DealConflict, (self.text, self.current, self.etag, self.precondition), dict(self.__dict__)

    def tagged(self, tag: str) -> HandError:
        """The same conflict, its message naming the ETag as an answer in another language has it (`"3.5.zh"`)."""
        return self.replaced(tag=tag) if "tag" in self.params else self


class DatabaseUnavailable(HandError):
    """A database server that cannot be reached (down, restarting, refusing the user): the HTTP API answers 503
    and its client tries again; the message names where it is, for the command line and the server's log."""


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
        except (sa.exc.OperationalError, sa.exc.InterfaceError) as exc:
            if self.sqlite:
                raise HandError.of(
                    "error.store.cannot_open", code="bad_database", where=self.where, why=str(exc.orig)
                ) from None
            raise DatabaseUnavailable.of(
                "error.store.cannot_open", code="database_unavailable", where=self.where, why=str(exc.orig)
            ) from exc
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

    def ping(self) -> None:
        """One query of one row: whether the database answers now (a pooled connection is checked first)."""
        with self.reading() as db:
            db.execute(sa.select(ledgers.c.id).limit(1)).first()

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
        """A ledger kept over HTTP: its public id (≥ 128 random bits) and owner token; only the hash is kept."""
        ledger_id, token, _ = self.create_once(rules, players, options)
        return ledger_id, token

    def create_once(
        self, rules: str, players: list[str], options: Mapping[str, Any] | None = None, key: str | None = None
    ) -> tuple[str, str, bool]:
        """`create_shared`, and whether this is a replay: `key` (an Idempotency-Key) sent again with the same
        request within ROTATE_GRACE_HOURS answers the first ledger's id and token, and makes none."""
        ledger_id, token = new_public_id(), secrets.token_urlsafe(32)
        checked = check_new(ledger_id, rules, players, options or {})
        asked = request_hash([checked.rules, checked.players, checked.options])
        self.purge_expired()  # so that ledgers nobody touches again do not fill the database
        with self.transaction() as db:
            if key is not None:
                db.execute(creation_keys.delete().where(creation_keys.c.created < now(hours_ago=ROTATE_GRACE_HOURS)))
                query = sa.select(creation_keys.c.request_sha256, creation_keys.c.answer)
                first = db.execute(query.where(creation_keys.c.key == key)).first()
                if first is not None:
                    if first[0] != asked:
                        raise HandError.of("error.store.key_reused", code="key_reused", key=key)
                    kept = json.loads(first[1])
                    return kept["id"], kept["token"], True
            made = self._insert_ledger(db, checked, ledger_id, hash_token(token))
            if key is not None:
                answer = json.dumps({"id": ledger_id, "token": token})
                db.execute(
                    creation_keys.insert().values(
                        key=key, request_sha256=asked, ledger_id=made, answer=answer, created=now()
                    )
                )
        return ledger_id, token, False

    # -- the room: invites and scorer devices ---------------------------------------------------

    def invite(self, ledger: Ledger, name: str | None, hours: float) -> dict[str, Any]:
        """A new invite (a join link's code): answers it with its `code`, shown once (only its hash is kept)."""
        if name is not None:
            check_text(name, "name", Text("error.name.device"))
        code, public_id = secrets.token_urlsafe(24), secrets.token_urlsafe(6)
        shown = {"id": public_id, "name": name, "created": now(), "expires": hours_from_now(hours)}
        with self.transaction() as db:
            self._lock(db, ledger)
            db.execute(invites.delete().where(invites.c.ledger_id == ledger.key, invites.c.expires <= now()))
            count = db.execute(
                sa.select(sa.func.count()).select_from(invites).where(invites.c.ledger_id == ledger.key)
            ).scalar_one()
            if count >= MAX_INVITES:
                raise LedgerFull.of("error.store.too_many_invites", code="too_many_invites", most=MAX_INVITES)
            db.execute(
                invites.insert().values(
                    ledger_id=ledger.key,
                    public_id=public_id,
                    code_sha256=hash_token(code),
                    name=name,
                    created=shown["created"],
                    expires=shown["expires"],
                )
            )
        return shown | {"code": code}

    def invites_of(self, ledger: Ledger) -> list[dict[str, Any]]:
        """The ledger's open invites, oldest first (never their codes)."""
        query = (
            sa.select(invites.c.public_id, invites.c.name, invites.c.created, invites.c.expires)
            .where(invites.c.ledger_id == ledger.key, invites.c.expires > now())
            .order_by(invites.c.created, invites.c.public_id)
        )
        with self.reading() as db:
            rows = db.execute(query).all()
        return [{"id": i, "name": n, "created": c, "expires": e} for i, n, c, e in rows]

    def revoke_invite(self, ledger: Ledger, public_id: str) -> bool:
        """Ends an invite (no phone joins by it from now on); the devices it made stay. False: no such invite."""
        with self.transaction() as db:
            where = sa.and_(invites.c.ledger_id == ledger.key, invites.c.public_id == public_id)
            return db.execute(invites.delete().where(where)).rowcount > 0

    def join(self, ledger: Ledger, code: str, name: str) -> tuple[dict[str, Any], str] | None:
        """A scorer device made by an open invite's `code`: answers it and its token (shown once); None: the code
        is no open invite of this ledger."""
        check_text(name, "name", Text("error.name.device"))
        token, public_id = secrets.token_urlsafe(32), secrets.token_urlsafe(6)
        with self.transaction() as db:
            self._lock(db, ledger)
            where = sa.and_(
                invites.c.ledger_id == ledger.key, invites.c.code_sha256 == hash_token(code), invites.c.expires > now()
            )
            invite = db.execute(sa.select(invites.c.public_id).where(where)).scalar()
            if invite is None:
                return None
            count = db.execute(
                sa.select(sa.func.count()).select_from(devices).where(devices.c.ledger_id == ledger.key)
            ).scalar_one()
            if count >= MAX_DEVICES:
                raise LedgerFull.of("error.store.too_many_devices", code="too_many_devices", most=MAX_DEVICES)
            shown = {"id": public_id, "name": name, "role": SCORER, "invite": invite, "created": now()}
            db.execute(
                devices.insert().values(
                    ledger_id=ledger.key,
                    public_id=public_id,
                    name=name,
                    token_sha256=hash_token(token),
                    invite=invite,
                    created=shown["created"],
                )
            )
            self._room_changed(db, ledger, DEVICE_JOINED, {"device": public_id})
        return shown, token

    def devices_of(self, ledger: Ledger) -> list[dict[str, Any]]:
        """The ledger's scorer devices, oldest first (never their tokens)."""
        query = (
            sa.select(devices.c.public_id, devices.c.name, devices.c.invite, devices.c.created)
            .where(devices.c.ledger_id == ledger.key)
            .order_by(devices.c.created, devices.c.public_id)
        )
        with self.reading() as db:
            rows = db.execute(query).all()
        return [{"id": i, "name": n, "role": SCORER, "invite": v, "created": c} for i, n, v, c in rows]

    def revoke_device(self, ledger: Ledger, public_id: str) -> bool:
        """Ends a device's token at once (an event of the ledger: its streams look again at who reads). False: no
        such device."""
        with self.transaction() as db:
            self._lock(db, ledger)
            where = sa.and_(devices.c.ledger_id == ledger.key, devices.c.public_id == public_id)
            if db.execute(devices.delete().where(where)).rowcount == 0:
                return False
            self._room_changed(db, ledger, DEVICE_REVOKED, {"device": public_id})
            return True

    # -- read links and privacy -------------------------------------------------------------------

    def new_read_link(self, ledger: Ledger, name: str | None) -> dict[str, Any]:
        """A new read link: answers it with its `code`, shown once (only its hash is kept)."""
        if name is not None:
            check_text(name, "name", Text("error.name.read_link"))
        code, public_id = secrets.token_urlsafe(24), secrets.token_urlsafe(6)
        shown = {"id": public_id, "name": name, "created": now()}
        with self.transaction() as db:
            self._lock(db, ledger)
            count = db.execute(
                sa.select(sa.func.count()).select_from(read_links).where(read_links.c.ledger_id == ledger.key)
            ).scalar_one()
            if count >= MAX_READ_LINKS:
                raise LedgerFull.of("error.store.too_many_read_links", code="too_many_read_links", most=MAX_READ_LINKS)
            db.execute(
                read_links.insert().values(
                    ledger_id=ledger.key,
                    public_id=public_id,
                    code_sha256=hash_token(code),
                    name=name,
                    created=shown["created"],
                )
            )
            self._room_changed(db, ledger, READ_LINK_MADE, {"read_link": public_id})
        return shown | {"code": code}

    def read_links_of(self, ledger: Ledger) -> list[dict[str, Any]]:
        """The ledger's read links, oldest first (never their codes)."""
        query = (
            sa.select(read_links.c.public_id, read_links.c.name, read_links.c.created)
            .where(read_links.c.ledger_id == ledger.key)
            .order_by(read_links.c.created, read_links.c.public_id)
        )
        with self.reading() as db:
            rows = db.execute(query).all()
        return [{"id": i, "name": n, "created": c} for i, n, c in rows]

    def revoke_read_link(self, ledger: Ledger, public_id: str) -> bool:
        """Ends a read link at once (an event of the ledger: its streams look again at who reads). False: no such
        link."""
        with self.transaction() as db:
            self._lock(db, ledger)
            where = sa.and_(read_links.c.ledger_id == ledger.key, read_links.c.public_id == public_id)
            if db.execute(read_links.delete().where(where)).rowcount == 0:
                return False
            self._room_changed(db, ledger, READ_LINK_REVOKED, {"read_link": public_id})
            return True

    def reads_by(self, ledger: Ledger, code: str) -> bool:
        """Whether `code` is a read link of this ledger (one revoked is none)."""
        where = sa.and_(read_links.c.ledger_id == ledger.key, read_links.c.code_sha256 == hash_token(code))
        with self.reading() as db:
            return db.execute(sa.select(read_links.c.public_id).where(where)).first() is not None

    def set_private(self, ledger: Ledger, private: bool) -> Ledger:
        """Whether the id alone reads the ledger (False) or only its tokens and read links do (True)."""
        with self.transaction() as db:
            self._lock(db, ledger)
            db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(private=private))
        return replace(ledger, private=private)

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
        key, name, rules, players, options, title, expires, private = row
        return Ledger(key, name, rules, json.loads(players), json.loads(options), title, expires, bool(private))

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
            standing = self._standing(db, ledger)
            self._changed(db, ledger, body={"standings": standing.to_json(), "title": title, "expires": expires})
        return replace(ledger, title=title, expires=expires)

    def rotate(self, ledger: Ledger, key: str | None = None) -> tuple[str, bool]:
        """A new owner token (answered once) and whether it is a replay of `key`'s first answer.

        The token before stays good until the new one is first used, or for ROTATE_GRACE_HOURS: an answer lost
        on the way cannot lock the owner out. A repeated `key` answers the same token while it is kept (as
        long as the grace); nothing more is changed."""
        token = secrets.token_urlsafe(32)
        with self.transaction() as db:
            self._lock(db, ledger)
            first = self._kept(db, ledger, key, ROTATE, "", ROTATE_GRACE_HOURS)
            if first is not None:
                return str(first["token"]), True
            current = db.execute(sa.select(ledgers.c.token_sha256).where(ledgers.c.id == ledger.key)).scalar()
            db.execute(
                ledgers.update()
                .where(ledgers.c.id == ledger.key)
                .values(
                    token_sha256=hash_token(token),
                    old_token_sha256=current,
                    old_token_until=hours_from_now(ROTATE_GRACE_HOURS),
                )
            )
            self._keep(db, ledger, key, ROTATE, "", {"token": token})
        return token, False

    def role(self, ledger: Ledger, token: str) -> str | None:
        """What `token` may do with the ledger: OWNER (its owner token, or the one before a rotation, within its
        grace), SCORER (a device's token), or None. The new owner token's first use ends the old one's grace."""
        given = hash_token(token)
        query = sa.select(ledgers.c.token_sha256, ledgers.c.old_token_sha256, ledgers.c.old_token_until)
        with self.reading() as db:
            row = db.execute(query.where(ledgers.c.id == ledger.key)).first()
            if row is None:
                return None
            current, old, until = row
            if current is None or not hmac.compare_digest(given, current):
                if old is not None and until is not None and until > now() and hmac.compare_digest(given, old):
                    return OWNER
                where = sa.and_(devices.c.ledger_id == ledger.key, devices.c.token_sha256 == given)
                return SCORER if db.execute(sa.select(devices.c.public_id).where(where)).first() else None
        if old is not None:
            with self.transaction() as db:
                db.execute(
                    ledgers.update()
                    .where(ledgers.c.id == ledger.key, ledgers.c.token_sha256 == current)
                    .values(old_token_sha256=None, old_token_until=None)
                )
                # the new token is in the owner's hands: its answer need not be kept any longer
                db.execute(
                    idempotency.delete().where(idempotency.c.ledger_id == ledger.key, idempotency.c.action == ROTATE)
                )
        return OWNER

    def delete(self, ledger: Ledger) -> None:
        """Removes the ledger with its deals, devices, read links and kept answers; a stream of it then ends."""
        with self.transaction() as db:
            self._lock(db, ledger)
            self._remove(db, [ledger.key])
            self._notify(db, ledger.key)

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
            for table in (idempotency, creation_keys, invites, devices, read_links, ledger_events):
                db.execute(table.delete().where(table.c.ledger_id.in_(keys)))
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
        asked = request_hash([table, expect, if_match])
        with self.transaction() as db:
            changes = self._lock(db, ledger)
            first = self._kept(db, ledger, key, ADD, asked)
            before = self._standing(db, ledger)
            count = before.deal_count
            tag = etag(count, changes)
            if first is not None:
                return Added(first, replayed=True, etag=tag)
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
            self._keep(db, ledger, key, ADD, asked, answer)
        return Added(answer, replayed=False, etag=etag(deal.number, changes + 1))

    def undo_once(
        self, ledger: Ledger, expect: int | None = None, if_match: str | None = None, key: str | None = None
    ) -> Added:
        """`undo_with_standing`, safe to retry: `expect` names the deal to remove (the last), or `if_match` the
        ledger's ETag; either no longer so is a DealConflict (`precondition` says it was If-Match), and nothing
        is removed. A repeated `key` answers the first answer and removes nothing more."""
        asked = request_hash([expect, if_match])
        with self.transaction() as db:
            changes = self._lock(db, ledger)
            first = self._kept(db, ledger, key, UNDO, asked)
            last = self._last_deal(db, ledger)
            count = last.number if last is not None else 0
            tag = etag(count, changes)
            if first is not None:
                return Added(first, replayed=True, etag=tag)
            if expect is not None and expect != count:
                raise DealConflict(
                    Text("error.store.undo_taken", deal=expect, ledger=ledger.name, count=count), count, tag
                )
            if if_match is not None and if_match.strip() != "*" and tag not in state_tags(if_match):
                given = quote(if_match)
                raise DealConflict(
                    Text("error.store.etag", given=given, tag=tag, count=count), count, tag, precondition=True
                )
            if last is None:
                raise HandError.of("error.store.nothing_to_undo", code="no_deals", ledger=ledger.name)
            change = self._remove_last(db, ledger, last)
            answer = change.stored_json()
            self._keep(db, ledger, key, UNDO, asked, answer)
        return Added(answer, replayed=False, etag=etag(count - 1, changes + 1))

    def _kept(
        self, db: Connection, ledger: Ledger, key: str | None, action: str, asked: str, hours: float = KEY_HOURS
    ) -> dict[str, Any] | None:
        """The first answer to `key` for this ledger, kept `hours`; the key sent before with another request (or
        another action) is refused; None: a key not seen (or none)."""
        if key is None:
            return None
        db.execute(idempotency.delete().where(idempotency.c.created < now(hours_ago=KEY_HOURS)))
        query = sa.select(
            idempotency.c.request_sha256, idempotency.c.answer, idempotency.c.action, idempotency.c.created
        )
        first = db.execute(query.where(idempotency.c.ledger_id == ledger.key, idempotency.c.key == key)).first()
        if first is None:
            return None
        if first[0] != asked or (first[2] or ADD) != action:
            raise HandError.of("error.store.key_reused", code="key_reused", key=key)
        if first[3] < now(hours_ago=hours):  # kept no longer (an answer that holds a token)
            db.execute(idempotency.delete().where(idempotency.c.ledger_id == ledger.key, idempotency.c.key == key))
            return None
        answer: dict[str, Any] = json.loads(first[1])
        return answer

    @staticmethod
    def _keep(db: Connection, ledger: Ledger, key: str | None, action: str, asked: str, answer: dict[str, Any]) -> None:
        if key is not None:
            db.execute(
                idempotency.insert().values(
                    ledger_id=ledger.key,
                    key=key,
                    request_sha256=asked,
                    answer=json.dumps(answer, ensure_ascii=False),
                    created=now(),
                    action=action,
                )
            )

    def _append(self, db: Connection, ledger: Ledger, table: Any, before: Standing) -> tuple[Deal, Standing]:
        """Settles and inserts the deal after `before` with the standings after it; answers both."""
        from taihu import __version__

        deal = next_deal(ledger, before, table, __version__, self.max_deals)
        after = before.after(deal, counters=ledger.counters)
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
                # each counter a deal leaves in its column `next_<field>` (the columns of honba and pot;
                # another counter would need its column, by a migration)
                **{f"next_{field}": deal.settlement.get(key) for field, key in ledger.counters.items()},
            )
        )
        self._changed(db, ledger, DEAL_ADDED, Change(deal, after).stored_json())
        return deal, after

    def _changed(self, db: Connection, ledger: Ledger, kind: str = LEDGER_EDITED, body: Any = None) -> int:
        """Counts a change of the ledger and keeps it as its event (KEPT_EVENTS of them); answers its number."""
        db.execute(ledgers.update().where(ledgers.c.id == ledger.key).values(changes=ONE_MORE_CHANGE))
        number = int(db.execute(sa.select(ledgers.c.changes).where(ledgers.c.id == ledger.key)).scalar_one())
        if body is None:
            standing = self._standing(db, ledger)
            body = {"standings": standing.to_json()}
        db.execute(
            ledger_events.insert().values(
                ledger_id=ledger.key, number=number, kind=kind, body=json.dumps(body, ensure_ascii=False), created=now()
            )
        )
        if number > KEPT_EVENTS:
            gone = sa.and_(ledger_events.c.ledger_id == ledger.key, ledger_events.c.number <= number - KEPT_EVENTS)
            db.execute(ledger_events.delete().where(gone))
        self._notify(db, ledger.key)
        return number

    def _room_changed(self, db: Connection, ledger: Ledger, kind: str, about: dict[str, str]) -> None:
        """A change of the table's room as the ledger's event: what changed (an id, never a name or a code, as
        whoever reads the ledger reads its stream) beside the standings every event carries."""
        self._changed(db, ledger, kind, {"standings": self._standing(db, ledger).to_json()} | about)

    def _notify(self, db: Connection, key: int) -> None:
        """PostgreSQL: every host listening hears of the change when it is committed (and not if it is not)."""
        if not self.sqlite:
            db.execute(sa.select(sa.func.pg_notify(CHANGES_CHANNEL, str(key))))

    def events_after(self, key: int, after: int, limit: int = 100) -> tuple[int | None, list[tuple[int, str, Any]]]:
        """The ledger's count of changes (None: the ledger is gone) and its events numbered after `after`, in order,
        at most `limit`: read together, so none is missed between them."""
        query = (
            sa.select(ledger_events.c.number, ledger_events.c.kind, ledger_events.c.body)
            .where(ledger_events.c.ledger_id == key, ledger_events.c.number > after)
            .order_by(ledger_events.c.number)
            .limit(limit)
        )
        with self.reading() as db:
            changes = db.execute(sa.select(ledgers.c.changes).where(ledgers.c.id == key)).scalar()
            if changes is None or changes <= after:
                return changes, []
            rows = db.execute(query).all()
        return int(changes), [(number, kind, json.loads(body)) for number, kind, body in rows]

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
            return self._remove_last(db, ledger, last)

    def _remove_last(self, db: Connection, ledger: Ledger, last: Deal) -> Change:
        db.execute(deals.delete().where(deals.c.ledger_id == ledger.key, deals.c.number == last.number))
        change = Change(last, self._standing(db, ledger))
        self._changed(db, ledger, DEAL_UNDONE, change.stored_json())
        return change

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
        return opening(ledger.players, counters=ledger.counters)
    kept = dict(zip((column.name for column in STANDING_COLUMNS), row, strict=True))
    carried = {field: kept.get(f"next_{field}") or 0 for field in ledger.counters} or None
    totals = json.loads(kept["totals"])
    return Standing(list(ledger.players), totals, kept["next_dealer"], carried, kept["number"])
