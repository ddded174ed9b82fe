"""The monitor: watch an operator's transparency log and report every way it can misbehave."""
