"""Log evidence: is a record's hand in the operator's log, and the log views an auditor holds."""
