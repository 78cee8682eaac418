package kafka

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// DefaultReachTimeout is how long Reach waits for a broker by default.
const DefaultReachTimeout = 15 * time.Second

// Reach checks that a seed broker of cfg answers, within cfg.ReachTimeout
// (DefaultReachTimeout when zero): toastgen run -kafka, produce and merge
// call it first, so that an unreachable broker is a clear error in
// bounded time rather than a client that retries silently.
func Reach(ctx context.Context, cfg Config) error {
	timeout := cfg.ReachTimeout
	if timeout <= 0 {
		timeout = DefaultReachTimeout
	}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(cfg.Brokers...)}, cfg.Opts...)...)
	if err != nil {
		return fmt.Errorf("kafka: %w", err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := cl.Ping(ctx); err != nil {
		brokers := strings.Join(cfg.Brokers, ",")
		if ctx.Err() != nil {
			return fmt.Errorf("kafka: no broker of %s answered within %v: is Kafka running there? (toastgen's -kafka-timeout sets the wait)", brokers, timeout)
		}
		return fmt.Errorf("kafka: no broker of %s answered (%v): is Kafka running there?", brokers, err)
	}
	return nil
}
