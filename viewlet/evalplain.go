package viewlet

import (
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// plainCall evaluates the scalar functions SQLite and PostgreSQL share
// (lang/plainsql.go) with the runtime's SQLite semantics, as generated code
// does; args are the evaluated arguments, none NULL. It reports whether x
// is one of them.
func plainCall(x *lang.Call, args []any) (any, bool) {
	str := func(i int) string { return args[i].(string) }
	switch x.Name {
	case "ABS":
		if i, ok := args[0].(int64); ok {
			return runtime.AbsInt(i), true
		}
		return runtime.AbsFloat(toFloat(args[0])), true
	case "ROUND":
		return runtime.Round(toFloat(args[0]), toInt(args[1])), true
	case "LENGTH":
		return runtime.Length(str(0)), true
	case "UPPER":
		return runtime.Upper(str(0)), true
	case "LOWER":
		return runtime.Lower(str(0)), true
	case "TRIM", "LTRIM", "RTRIM":
		set := " "
		if len(args) == 2 {
			set = str(1)
		}
		switch x.Name {
		case "LTRIM":
			return runtime.LTrimSet(str(0), set), true
		case "RTRIM":
			return runtime.RTrimSet(str(0), set), true
		}
		return runtime.TrimSet(str(0), set), true
	case "SQL_SUBSTR":
		if len(args) == 2 {
			return runtime.Substr(str(0), toInt(args[1])), true
		}
		return runtime.SubstrLen(str(0), toInt(args[1]), toInt(args[2])), true
	case "CONCAT":
		return str(0) + str(1), true
	case "SQL_CAST_INT":
		switch v := args[0].(type) {
		case string:
			return runtime.IntFromText(v), true
		case float64:
			return runtime.IntFromReal(v), true
		}
		return toInt(args[0]), true
	case "SQL_CAST_FLOAT":
		if s, ok := args[0].(string); ok {
			return runtime.RealFromText(s), true
		}
		return toFloat(args[0]), true
	case "SQL_CAST_STRING":
		switch v := args[0].(type) {
		case int64:
			return runtime.CastStringFromInt(v), true
		case float64:
			return runtime.RealText(v), true
		case runtime.Date:
			return runtime.CastStringFromDate(v), true
		}
		return args[0], true
	}
	return nil, false
}
