"""Kitti: nine cards, three sets, one decision (rules ``K-1`` ... ``K-22``, ``D-12`` ... ``D-17``).

See ``docs/kitti.md``.  Modules: :mod:`.ranking` (sets), :mod:`.arrangement` (the 280
splits), :mod:`.showdown` (settling a deal in points), :mod:`.moves`, :mod:`.engine`
(the :class:`replay.game.Engine` protocol), :mod:`.strategy` (default arrangement),
:mod:`.table` (a sequence of deals, money), :mod:`.bot`, :mod:`.ops` (``tiplu eval kitti``).
"""
