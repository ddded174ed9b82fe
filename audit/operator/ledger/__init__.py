"""The append-only hand ledger (SQLite through sqlite-utils).

Use the facade :class:`Ledger`; ``docs/ledger.md`` describes the state machine, the
statement kinds and their fields, key storage and backups.

Modules: :mod:`.store` (connections, the ledger-file checks, :func:`atomic`, the migration
machinery), :mod:`.migrations` (the schema), :mod:`.opening` (:func:`open_db`: check, connect,
migrate), :mod:`.lifecycle` (the state machine), :mod:`.statements` (signed statements),
:mod:`.views` (public reads), :mod:`.secret_store` (server seeds and stored keys),
:mod:`.inputs` (checks of ids, names, seats, seeds), :mod:`.hands` (a hand's lifecycle verbs),
:mod:`.ledger` (the facade, :class:`Ledger`, whose base :class:`.hands.HandLifecycle` is).
"""
from .inputs import check_id, check_player_name
from .ledger import Ledger
from .lifecycle import ALLOWED, HandState
from .statements import KINDS, StoredStatement, format_time
from .opening import open_db
from .store import atomic
from .views import HandView, OperatorView, RecordEntry, SeatView, TableView

__all__ = ["Ledger", "check_id", "check_player_name", "ALLOWED", "HandState", "KINDS", "StoredStatement", "format_time",
           "atomic", "open_db", "HandView", "OperatorView", "RecordEntry", "SeatView", "TableView"]
