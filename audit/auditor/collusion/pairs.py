"""Who sits with whom, and where the tokens go: the pair graph (networkx).

Descriptive, not a test: an edge joins two accounts that sat at one hand, weighted by the
hands they shared, and carries the net tokens that moved between them
(:func:`audit.auditor.collusion.observe._add_flows`: each hand's net losses split among its net
winners by gain).  Colluding accounts often sit together far more than their other
opponents and move tokens one way; the graph shows both for a person to review.
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    import networkx as nx  # untyped (pyproject's ignore_missing_imports): nx.Graph is Any to the checker


def pair_graph(together: Mapping[tuple[str, str], int], flows: Mapping[tuple[str, str], Decimal]) -> "nx.Graph":
    """A ``networkx.Graph``: nodes are accounts, edges ``hands`` together and ``net_flow``
    (tokens the first-named account of the sorted pair received from the other)."""
    import networkx as nx

    g = nx.Graph()
    for (a, b), n in together.items():
        received = flows.get((b, a), Decimal(0)) - flows.get((a, b), Decimal(0))
        g.add_edge(a, b, hands=n, net_flow=received)
    return g


def pair_rows(together: Mapping[tuple[str, str], int], flows: Mapping[tuple[str, str], Decimal],
              *, top: int = 20) -> list[dict[str, Any]]:
    """The pairs that sat together most, with the net flow between them, as JSON rows."""
    g = pair_graph(together, flows)
    edges = sorted(g.edges(data=True), key=lambda e: (-e[2]["hands"], sorted((e[0], e[1]))))
    rows = []
    for a, b, data in edges[:top]:
        first, second = sorted((a, b))
        flow = data["net_flow"] if first == a else -data["net_flow"]
        rows.append({"accounts": [first, second], "hands_together": data["hands"],
                     "net_flow_to_first": str(flow.quantize(Decimal("0.01")))})
    return rows


def components(together: Mapping[tuple[str, str], int]) -> list[list[str]]:
    """Groups of accounts linked by having sat together (connected components)."""
    import networkx as nx

    g = nx.Graph(list(together))
    return sorted(sorted(c) for c in nx.connected_components(g))
