package runtime

import (
	"errors"
	"strconv"
	"time"
)

// Date is a calendar date of the proleptic Gregorian calendar encoded as
// y*10000 + m*100 + d (yyyymmdd for the years 1 to 9999), so that integer
// order is chronological order and EXTRACT is arithmetic.
//
// Input (ParseDate, and so data files and DATE('…') literals) accepts the
// dates 0001-01-01 to 9999-12-31 (MinDate to MaxDate) that exist: the month
// in 01–12 and the day within the month, leap years included. Date
// arithmetic (AddDays, AddMonths, AddYears) may leave that range; its results
// stay exact and ordered as long as the year fits the encoding's int32
// (|year| < 214748), and String prints them in ISO 8601's expanded form
// ("-0001-12-31" for 2 BC, "10000-01-01").
type Date int32

// MinDate and MaxDate are the first and last dates that ParseDate accepts.
const (
	MinDate Date = 1_01_01
	MaxDate Date = 9999_12_31
)

// MakeDate returns the date y-m-d. It does not validate; ValidDate does.
func MakeDate(y, m, d int) Date { return Date(y*10000 + m*100 + d) }

// ValidDate reports whether y-m-d is a date that exists and lies between
// MinDate and MaxDate: this is the check ParseDate applies.
func ValidDate(y, m, d int) bool {
	return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

// daysIn returns the number of days of month m (1–12) of year y.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Year, Month and Day return the date's parts. The year is floored, so that
// a date before year 1 (from date arithmetic) still has a month in 1–12.
func (d Date) Year() int64 {
	y := int64(d) / 10000
	if int64(d)-y*10000 < 0 {
		y--
	}
	return y
}
func (d Date) Month() int64 { return (int64(d) - d.Year()*10000) / 100 }
func (d Date) Day() int64   { return (int64(d) - d.Year()*10000) % 100 }

// String formats the date as yyyy-mm-dd, with at least four year digits and
// a minus sign before a year below 0 ("0000-03-01", "-0044-03-15").
func (d Date) String() string {
	b := make([]byte, 0, 12)
	y := d.Year()
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	for p := int64(1000); p > 1 && y < p; p /= 10 {
		b = append(b, '0')
	}
	b = strconv.AppendInt(b, y, 10)
	m, dd := d.Month(), d.Day()
	b = append(b, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+dd/10), byte('0'+dd%10))
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

var (
	// ErrDate is returned by ParseDate for a field that is not of the form
	// yyyy-mm-dd (ten characters, digits and two dashes).
	ErrDate = errors.New("expected DATE")
	// ErrDateInvalid is returned by ParseDate for a yyyy-mm-dd field that
	// names no date: a month outside 01–12, a day outside the month
	// ("2024-02-30", "2023-02-29"), or the year 0000 (the range starts at
	// 0001-01-01).
	ErrDateInvalid = errors.New("no such DATE")
)

// ParseDate parses yyyy-mm-dd without allocating. It accepts exactly the
// dates for which ValidDate holds; anything else is ErrDate (the form is
// wrong) or ErrDateInvalid (the form is right but the date does not exist).
func ParseDate(b []byte) (Date, error) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, ErrDate
	}
	n := 0
	for i, c := range b {
		if i == 4 || i == 7 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, ErrDate
		}
		n = n*10 + int(c-'0')
	}
	d := Date(n)
	if !ValidDate(int(d.Year()), int(d.Month()), int(d.Day())) {
		return 0, ErrDateInvalid
	}
	return d, nil
}

// Time returns midnight UTC of the date's day.
func (d Date) Time() time.Time { return d.time() }

// DateOf returns the calendar date of t in t's location (its year, month
// and day as t.Date reports them).
func DateOf(t time.Time) Date { return fromTime(t) }
