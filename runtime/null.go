package runtime

import "cmp"

// Null is a value of a nullable column in generated code: V when Valid, SQL
// NULL otherwise (V is then T's zero value, so that two NULLs are equal as
// map keys — one NULL group, as GROUP BY and DISTINCT want). It is
// comparable whenever T is, like database/sql.Null, without its driver
// methods.
type Null[T comparable] struct {
	V     T
	Valid bool
}

// Some returns the non-NULL value v. Its type is v's: runtime.Some(1) is a Null[int];
// for an INT column (int64) write runtime.Some[int64](1) or runtime.Some(int64(1)).
func Some[T comparable](v T) Null[T] { return Null[T]{V: v, Valid: true} }

// Unbox returns the view value x as a T (generated code turning a change's
// cells back into a row): T's zero value when x is not one.
func Unbox[T any](x any) T {
	v, _ := x.(T)
	return v
}

// UnboxNull returns the view value x of a nullable column as a Null[T]:
// NULL for nil, the value otherwise (a Null[T] as it is).
func UnboxNull[T comparable](x any) Null[T] {
	switch v := x.(type) {
	case T:
		return Some(v)
	case Null[T]:
		return v
	}
	return Null[T]{}
}

// Box returns the value as a view value: V boxed, or nil for NULL.
func (n Null[T]) Box() any {
	if !n.Valid {
		return nil
	}
	return n.V
}

// NullField is the field that spells NULL in any nullable column (as
// PostgreSQL's COPY and MySQL write it).
const NullField = `\N`

// IsNullField reports whether field b of a nullable column of type t is
// NULL: \N in any column, or an empty field in an INT, FLOAT or DATE column
// (an empty string is a value).
func IsNullField(b []byte, t ColumnType) bool {
	if len(b) == 0 {
		return t != String
	}
	return len(b) == 2 && b[0] == '\\' && b[1] == 'N'
}

// ParseNullable parses field b of a nullable column with parse, the
// column type's parser: NULL fields give an invalid Null.
func ParseNullable[T comparable](b []byte, t ColumnType, parse func([]byte) (T, error)) (Null[T], error) {
	if IsNullField(b, t) {
		return Null[T]{}, nil
	}
	v, err := parse(b)
	return Null[T]{V: v, Valid: err == nil}, err
}

// Value returns V, or T's zero value for NULL (whatever V holds).
func (n Null[T]) Value() T {
	if !n.Valid {
		var zero T
		return zero
	}
	return n.V
}

// Flag returns 1 for a value, 0 for NULL: the presence flag generated
// code keys its maps by.
func (n Null[T]) Flag() int64 {
	if n.Valid {
		return 1
	}
	return 0
}

// MakeNull returns v where flag is not 0, else NULL.
func MakeNull[T comparable](v T, flag int64) Null[T] {
	if flag == 0 {
		return Null[T]{}
	}
	return Null[T]{V: v, Valid: true}
}

// CompareNull orders nullable values as SQLite sorts them: NULL first.
func CompareNull[T cmp.Ordered](a, b Null[T]) int {
	switch {
	case !a.Valid && !b.Valid:
		return 0
	case !a.Valid:
		return -1
	case !b.Valid:
		return 1
	}
	return cmp.Compare(a.V, b.V)
}
