"""One table on the server (:class:`TableHost`), and its owner task: every change to the table (a seat taken,
an action, a bot's move, a timer running out, a chat line) is applied by that one task, in order, so
nothing needs a lock. One job per module:

- ``queue``: the owner task and its queue of work;
- ``audience``: the connections at the table (the one part that holds live connection objects);
- ``frames``: what each seat's frames hold, as pure functions of the table at one moment;
- ``timers``: turn and away timers, on the event loop;
- ``seating``: joining, watching, leaving, bots seated, seats stored before they are held;
- ``play``: a person's move, each action committed before it is shown, undone when the store fails;
- ``bots``: bots' turns, at the table's pace, thinking in a worker when they search;
- ``finishing``: a match's end stored before it is held, a table stopped;
- ``hints``: at a casual table, the search's move suggested to a person on his turn;
- ``writes``: store writes tried again, and whether a cut-off commit landed;
- ``table_host``: the parts put together, a restart's restore, the chat.

The life of a table: ``waiting`` (seats being taken; no match yet), ``playing`` (every seat holds a
person or a bot: the match is dealt), ``finished``; ``abandoned`` when its last person leaves before it
starts. The match (a :class:`~cardhall.table.Table`) is created only when play starts, from the seats and
the seed: so its events are numbered by the first seats and the record alone, and a restarted server
rebuilds it, events and numbers included, by replaying the stored actions.

Choices:

- Every applied action is committed (group commit, :mod:`cardhall.server.committer`) before any frame
  shows it, as the next number after those stored (:attr:`TableHost.stored`, counted from what the
  store holds, never from the length of the match in memory).
- **A store that fails** never leaves the match in memory ahead of it. A write that fails is tried
  :data:`WRITE_ATTEMPTS` times (after each failure the store is asked whether the write landed after
  all: a commit cut off may have); then the action is undone (the match is dealt again from its seed
  and replayed to what the store holds, or, when even reading fails, to what it last committed), the
  table pauses (a ``paused`` frame; moves refused with ``store_unavailable``, no bot moves, no
  timers) and goes on (``resumed``) once :class:`~cardhall.server.outage.StoreWatch` sees the store
  take writes again. A person whose move was undone is told so (``store_unavailable``) and plays it
  again. Seats are stored before they are held, and a match is finished in memory only once its
  end is stored: a failed write of either changes nothing.
- Each connection watching the table gets frames built for its seat alone: its observation, its legal
  actions and the events as its seat may see them (spectators: seat None); every frame carries the
  table's event number ``n``.
- A person has ``turn_seconds`` for each decision (0: no limit); when it runs out, or ``away_seconds``
  after his last connection to the table dropped, the ``stand_in`` bot plays for him until he acts,
  says he is ``back``, or joins again. Who is away is shown in the ``seats`` of every frame.
- Bots wait ``bot_pace_ms`` before each move so people can follow; a bot that searches thinks in a worker
  process (the server's event loop never runs a search), the others here (well under a millisecond).
- A person who leaves during the match leaves for good: the stand-in bot plays his seat to the end,
  and the match counts for him as a loss, as it does when the stand-in made more than half of his
  seat's decisions (each committed action says whether a stand-in made it: :mod:`cardhall.server.ratings`).
"""

from cardhall.server.host.audience import Listener
from cardhall.server.host.base import STORE_UNAVAILABLE, Services
from cardhall.server.host.table_host import TableHost

__all__ = ["STORE_UNAVAILABLE", "Listener", "Services", "TableHost"]
