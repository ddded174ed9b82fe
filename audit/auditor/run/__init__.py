"""The audit of a whole source: one report, in one process or in parallel, and the state kept between audits."""
