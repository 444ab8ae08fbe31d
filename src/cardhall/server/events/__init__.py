"""Tournaments on the server (issue 50): the store's events made into running events.

- :mod:`~cardhall.server.events.shapes`: request bodies, their checks, the JSON of events and tables.
- :mod:`~cardhall.server.events.scoring`: the stored rows made into the pure formats' inputs
  (:mod:`cardhall.events`: points, matchpoints, standings, seating, schedules): the standings.
- :mod:`~cardhall.server.events.director`: one process seats and scores an event, under a lease.
- :mod:`~cardhall.server.events.service`: what routes and messages ask; the directors this process
  runs; followers and the bus; the operator's schedules.
- :mod:`~cardhall.server.events.routes`: the HTTP routes.

``docs/tournaments.md`` says the formats to players and operators; ``docs/protocol.md`` ("Tournaments") the
routes and frames.
"""
