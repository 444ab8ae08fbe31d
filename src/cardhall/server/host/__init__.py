"""One table on the server (:class:`TableHost`), and its owner task: every change to the table (a seat taken,
an action, a bot's move, a timer running out, a chat line) is applied by that one task, in order, so
nothing needs a lock. One job per module, in the order one action goes through them:

- ``queue``: the owner task and its queue of work;
- ``table_host``: the actor the server holds (:class:`TableHost`): runs each command through the machine,
  commits the writes it asks for, then sends its frames, sets its timers, starts its bot and hint jobs;
- ``machine``: the table's owner as a pure state machine: each command (join, act, leave, a timer run
  out, a bot's move, the store failing or back, the lease lost) changes the table and returns its
  ``effects``, without asyncio, a store or a socket;
- ``status``: the table's life as one status with checked transitions, and what each command may do
  in each status;
- ``effects``: the writes, frames, timers and jobs a command asks for, as plain data;
- ``frames``: what each seat's frames hold, as pure functions of the table at one moment;
- ``audience``: the connections at the table, and what each was sent;
- ``timers``: the loop's handles of the turn and away timers the machine set;
- ``writes``: store writes tried again, and whether a cut-off commit landed;
- ``chat``: the table's chat lines, stored, sent, and sent again to whoever arrives.

The life of a table (:class:`~cardhall.server.host.status.TableStatus`): ``waiting`` (seats being taken; no
match yet), ``playing`` (every seat holds a person or a bot: the match is dealt), ``paused`` (its store
failed), ``finished``; ``abandoned`` when its last person leaves before it starts or it is stopped; ``moved``
when another process owns it now. The match (a :class:`~cardhall.table.Table`) is created only when play
starts, from the seats and the seed: so its events are numbered by the first seats and the record alone, and a
restarted server rebuilds it, events and numbers included, by replaying the stored actions.

Choices:

- Every applied action is committed (group commit, :mod:`cardhall.server.committer`) before any frame
  shows it, as the next number after those stored (:attr:`TableHost.stored`, counted from what the
  store holds, never from the length of the match in memory).
- **A store that fails** never leaves the match in memory ahead of it. A write that fails is tried
  :data:`~cardhall.server.host.writes.WRITE_ATTEMPTS` times (after each failure the store is asked whether the
  write landed after all: a commit cut off may have); then the action is undone (the match is dealt again from
  its seed and replayed to what the store holds, or, when even reading fails, to what it last committed), the
  table pauses (a ``paused`` frame; moves refused with ``store_unavailable``, no bot moves, no timers) and
  goes on (``resumed``) once :class:`~cardhall.server.outage.StoreWatch` sees the store take writes again. A
  person whose move was undone is told so (``store_unavailable``) and plays it again. Seats are stored before
  they are held, and a match is finished in memory only once its end is stored: a failed write of either
  changes nothing.
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
- **A bot's seat given to a person** (Play now, :mod:`cardhall.server.playnow`): promised first
  (``take_seat_later``, nothing written), given when a deal starts (the action after which the match's
  finished deals changed): stored first, the seat with the number of actions played before it and the
  bot it replaces (``SeatRow.since``, ``before``), then held (a ``seat`` event with ``replaces``). A
  replay deals that bot in and seats the person after that many actions, so a restart numbers the
  events the same. A promise the match ends before (or the store refuses) is given back to Play now.
"""

from cardhall.server.host.audience import Listener
from cardhall.server.host.machine import STORE_UNAVAILABLE
from cardhall.server.host.table_host import Services, TableHost

__all__ = ["STORE_UNAVAILABLE", "Listener", "Services", "TableHost"]
