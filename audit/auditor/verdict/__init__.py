"""One record's verdict: every check of a hand record, on what trust, into a :class:`Verdict`."""
