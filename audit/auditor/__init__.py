"""The auditor's side: what anyone holding an operator's publications runs to judge them -- log
evidence (``evidence/``), one record's verdict (``verdict/``), where records come from
(``sources/``), the audit of a whole source (``run/``), the log monitor (``monitor/``), the deal
statistics (``stats/``) and the collusion review (``collusion/``) (docs/architecture.md)."""
