"""Where records come from -- a file, JSON lines, stdin, a ledger, an operator's URL -- and what a
whole source shows across its hands."""
