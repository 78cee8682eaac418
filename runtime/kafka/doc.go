/*
Package kafka runs the partitions of a generated engine (runtime.Partitioned)
on Kafka: input from topics, state and changes to topics, exactly once.

In: a query's partitioned engine, Kafka brokers and a consumer group. Out:
Members that maintain the views of the partitions assigned to them, and a
Merger that keeps the views of the whole stream. Generated packages do not
import this package: it drives any runtime.Partitioned from outside.

# Topics

Names are Config.Prefix followed by a lower-case name:

  - one input topic per relation (Prefix + "lineitem"). A record is one
    event: its key the canonical text of the event's partition column
    (runtime.PartitionKey, so that 7 and +7 meet), its value the
    relation's fields as one CSV line (encoding/csv; NULL is \N), and a
    header "op" with value "delete" for a delete (no header: an insert).
    NewRecord builds them. Kafka's default partitioner sends equal keys
    to equal partitions, so the topics of co-partitioned relations must
    have equal partition counts: partition p of every partitioned topic
    is one task, with its own engine. A member checks both (the counts
    when it starts, each record's key and partition when it applies it):
    events that join and do not meet would make the views silently wrong.
  - Prefix + "state": per task, its last committed state, keyed by the
    task's partition number (decimal): the engine's snapshot
    (runtime.Snapshotter) whose sources are the next offset of each input
    topic-partition it covers ("lineitem:3" → 1200). Compact it
    (cleanup.policy=compact): only the last record per key matters.
  - Prefix + "changes": the row changes of each task's views
    (runtime.ChangeStreamer), one record per change, keyed by the task,
    valued as a line of toastgen run -changes (runtime.WriteChangeJSON)
    with event number 0. A view whose rows a partition owns (the plan's
    partition-local views) changes as the union of these streams; others
    are sums of the partitions' and are read from a Merger.

# Exactly once

A Member consumes the partitioned topics in a consumer group whose
balancer gives partition p of every topic to one member
(kgo.RangeBalancer over equal partition counts), in a
kgo.GroupTransactSession. It applies a polled batch of records to the
tasks' engines, then, in one Kafka transaction, publishes each changed
task's changes and snapshot and commits the group's offsets. So the
snapshot of a task and the group's committed offsets of its partitions
always agree: the snapshot's sources equal the committed offsets.

  - A record at an offset below its task's next offset is one the task has
    already applied (a redelivery after an abort or a rebalance): it is
    skipped. Duplicate deliveries leave no trace.
  - A transaction that aborts (a rebalance began, a commit failed) rolls
    every task back to its last committed snapshot; the session rewinds
    the consumer to the committed offsets, so the same records are
    applied again.
  - A task newly assigned to a member (its partitions moved after a crash
    or a rebalance) is restored from the state topic: the member reads it
    until it holds a snapshot of the task whose sources cover the group's
    committed offsets of the task's partitions (asked of the group's
    coordinator when the task starts, stable under KIP-447: the client's
    own copy may not hold them yet; it reads only the snapshots' headers,
    runtime.ReadSnapshotHeader), then applies records from there. A task
    whose partitions have no committed offset starts empty.
  - A state record that covers less than one already read for its task
    (sources not all ≥: a stale retry, an out-of-order write) is ignored
    by every reader.

The Merger reads the state topic (read committed) and keeps, per task, an
engine restored from its latest snapshot; its Views are the partitions'
merged (runtime.Partitioned.MergeViews). Every task's state covers a
prefix of each of its input partitions, so the merged views are those of
one engine fed those prefixes: nothing lost, nothing counted twice.
Merger.CatchUp reads the state topic up to its last stable offset at the
call, so a merger that prints once (toastgen merge) holds every state
committed before it started however slow its first fetch.

Both readers keep the transaction markers the client would drop: a
read-committed reader has read a partition to its end when its position
(after the last record, markers included) reaches the partition's last
stable offset. A member with an idle timeout (toastgen run -exit-idle)
stops only then, for every partition it holds and every broadcast one:
a member whose fetches are slower than its idle timeout would otherwise
stop with input unread.

# Broadcast relations

A relation that the plan broadcasts (a dimension table joined on another
column than the partition column) is read in full by every task. A
member reads its topics with one more client, from the start and only
forward, applies each record to every task it runs, and keeps the
records read: a task restored from an older state or rolled back
applies those it has not (the same skip rule), so the client never
rewinds. A task's snapshot holds its offsets of the broadcast
partitions too. Tasks start when assigned, not at their first record,
so that each follows the broadcast topics even while its partitions are
quiet. The merged views are the whole stream's once every task has read
the broadcast topics as far (Merger.Offsets gives the least offset).

# Costs

A snapshot is written per changed task per transaction, so its cost
grows with the task's state: Config.CommitEvery trades it against the
latency of the merged views. A transaction that commits no consumer
offset makes franz-go hold the next one for 500 ms, so broadcast records
that arrive alone are applied at once but committed with the next
partitioned batch, or after 500 ms without one. A member keeps every
broadcast record it has read.
*/
package kafka
