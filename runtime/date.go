package runtime

import (
	"errors"
	"strconv"
	"time"
)

// Date is a calendar date encoded as yyyymmdd, so that integer order is
// chronological order and EXTRACT is arithmetic.
type Date int32

// MakeDate returns the date y-m-d. It does not validate.
func MakeDate(y, m, d int) Date { return Date(y*10000 + m*100 + d) }

// Year, Month and Day return the date's parts.
func (d Date) Year() int64  { return int64(d) / 10000 }
func (d Date) Month() int64 { return int64(d) / 100 % 100 }
func (d Date) Day() int64   { return int64(d) % 100 }

func (d Date) String() string {
	b := make([]byte, 0, 10)
	y := int(d.Year())
	if y < 1000 {
		b = append(b, '0')
	}
	if y < 100 {
		b = append(b, '0')
	}
	if y < 10 {
		b = append(b, '0')
	}
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, '-', byte('0'+d.Month()/10), byte('0'+d.Month()%10), '-', byte('0'+d.Day()/10), byte('0'+d.Day()%10))
	return string(b)
}

func (d Date) time() time.Time {
	return time.Date(int(d.Year()), time.Month(d.Month()), int(d.Day()), 0, 0, 0, 0, time.UTC)
}

func fromTime(t time.Time) Date { return MakeDate(t.Year(), int(t.Month()), t.Day()) }

// AddDays, AddMonths and AddYears shift a date, normalizing as Go's time package does.
func (d Date) AddDays(n int64) Date   { return fromTime(d.time().AddDate(0, 0, int(n))) }
func (d Date) AddMonths(n int64) Date { return fromTime(d.time().AddDate(0, int(n), 0)) }
func (d Date) AddYears(n int64) Date  { return fromTime(d.time().AddDate(int(n), 0, 0)) }

var errDate = errors.New("expected a date yyyy-mm-dd")

// ParseDate parses yyyy-mm-dd without allocating.
func ParseDate(b []byte) (Date, error) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, errDate
	}
	n := 0
	for i, c := range b {
		if i == 4 || i == 7 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, errDate
		}
		n = n*10 + int(c-'0')
	}
	d := Date(n)
	if d.Month() < 1 || d.Month() > 12 || d.Day() < 1 || d.Day() > 31 {
		return 0, errDate
	}
	return d, nil
}
