package kafka

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// endOffsets returns, per partition of topics ("topic:partition"), its
// last stable offset now: every record below it is committed or aborted,
// so a read-committed reader that has read up to it has read all there
// is.
func endOffsets(ctx context.Context, cl *kgo.Client, topics []string) (map[string]int64, error) {
	meta := kmsg.NewPtrMetadataRequest()
	for _, topic := range topics {
		mt := kmsg.NewMetadataRequestTopic()
		mt.Topic = kmsg.StringPtr(topic)
		meta.Topics = append(meta.Topics, mt)
	}
	mresp, err := meta.RequestWith(ctx, cl)
	if err != nil {
		return nil, fmt.Errorf("kafka: reading the topics' metadata: %w", err)
	}
	req := kmsg.NewPtrListOffsetsRequest()
	req.IsolationLevel = 1 // read committed: the last stable offset
	for _, t := range mresp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			return nil, fmt.Errorf("kafka: topic %s: %w", *t.Topic, err)
		}
		lt := kmsg.NewListOffsetsRequestTopic()
		lt.Topic = *t.Topic
		for _, p := range t.Partitions {
			lp := kmsg.NewListOffsetsRequestTopicPartition()
			lp.Partition = p.Partition
			lp.Timestamp = -1 // the end
			lt.Partitions = append(lt.Partitions, lp)
		}
		req.Topics = append(req.Topics, lt)
	}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return nil, fmt.Errorf("kafka: reading the topics' end offsets: %w", err)
	}
	ends := map[string]int64{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return nil, fmt.Errorf("kafka: the end offset of %s partition %d: %w", t.Topic, p.Partition, err)
			}
			ends[sourceName(t.Topic, p.Partition)] = p.Offset
		}
	}
	return ends, nil
}

// noteRead records in read, per partition ("topic:partition"), the
// offset after the last record of fs, transaction markers included (the
// clients keep them for this: a read-committed reader's position is past
// the marker that ends a partition's last transaction).
func noteRead(read map[string]int64, fs kgo.Fetches) {
	fs.EachPartition(func(p kgo.FetchTopicPartition) {
		if n := len(p.Records); n > 0 {
			src := sourceName(p.Topic, p.Partition)
			read[src] = max(read[src], p.Records[n-1].Offset+1)
		}
	})
}

// readTo reports whether read reaches ends on every partition of ends.
func readTo(read, ends map[string]int64) bool {
	for src, o := range ends {
		if read[src] < o {
			return false
		}
	}
	return true
}

// unstableRetry is how long committedOffsets waits before it asks again
// while a transaction that commits the group's offsets is completing.
const unstableRetry = 50 * time.Millisecond

// committedOffsets returns the offsets that group has committed for
// partition p of topics ("topic:partition" → offset; a partition
// without a commit is absent), read from the group's coordinator and
// stable: an offset committed by a transaction still completing is
// waited for. A member asks when it starts a task: the client's own
// CommittedOffsets may not hold the partition yet, since the client
// fetches the offsets of a partition after the assignment callback,
// concurrently with the polls, and a task restored from the state of
// older offsets than those the consumer resumes from would never apply
// the records in between.
func committedOffsets(ctx context.Context, cl *kgo.Client, group string, topics []string, p int32) (map[string]int64, error) {
	for {
		req := kmsg.NewPtrOffsetFetchRequest()
		req.Group = group
		req.RequireStable = true
		for _, topic := range topics {
			rt := kmsg.NewOffsetFetchRequestTopic()
			rt.Topic = topic
			rt.Partitions = []int32{p}
			req.Topics = append(req.Topics, rt)
		}
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			return nil, fmt.Errorf("kafka: reading group %s's committed offsets: %w", group, err)
		}
		if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
			return nil, fmt.Errorf("kafka: reading group %s's committed offsets: %w", group, err)
		}
		offsets, unstable := map[string]int64{}, false
		for _, t := range resp.Topics {
			for _, rp := range t.Partitions {
				err := kerr.ErrorForCode(rp.ErrorCode)
				switch {
				case errors.Is(err, kerr.UnstableOffsetCommit):
					unstable = true
				case err != nil:
					return nil, fmt.Errorf("kafka: group %s's committed offset of %s partition %d: %w", group, t.Topic, rp.Partition, err)
				case rp.Offset >= 0:
					offsets[sourceName(t.Topic, rp.Partition)] = rp.Offset
				}
			}
		}
		if !unstable {
			return offsets, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(unstableRetry):
		}
	}
}
