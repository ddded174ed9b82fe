"""Suite-wide test settings.

Hypothesis' per-example deadline is a timing assertion, and speed is never asserted by unit
tests here (bench/ measures it): on a loaded 2-core machine an honest example can take 300 ms.
"""
from hypothesis import settings

settings.register_profile("tiplu", deadline=None)
settings.load_profile("tiplu")
