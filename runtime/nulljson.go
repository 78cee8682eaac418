package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// JSON forms of the values of view and relation rows, so that a row
// marshals as a service sends it: a Null as its value or null, a Date as
// "yyyy-mm-dd".

// MarshalJSON encodes n as its value, or null for NULL.
func (n Null[T]) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(n.V)
}

// UnmarshalJSON decodes null as NULL and anything else as the value.
func (n *Null[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = Null[T]{}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = Some(v)
	return nil
}

// MarshalJSON encodes d as the string "yyyy-mm-dd" (String).
func (d Date) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.String())
}

// UnmarshalJSON decodes the string "yyyy-mm-dd" (ParseDate).
func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a date is a string \"yyyy-mm-dd\": %w", err)
	}
	v, err := ParseDate([]byte(s))
	if err != nil {
		return fmt.Errorf("date %q: %w", s, err)
	}
	*d = v
	return nil
}
