package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/lang"
)

// plainCall emits the scalar functions SQLite and PostgreSQL share
// (lang/plainsql.go) as calls of the runtime's SQLite implementations, and
// || as Go's string concatenation; args are the emitted arguments. It
// reports whether x is one of them.
func plainCall(x *lang.Call, args []*jen.Statement) (*jen.Statement, bool) {
	rt := func(name string, as ...jen.Code) *jen.Statement { return jen.Qual(runtimePkg, name).Call(as...) }
	typ := func(i int) lang.Type { return x.Args[i].Type() }
	switch x.Name {
	case "ABS":
		if typ(0) == lang.TInt {
			return rt("AbsInt", args[0]), true
		}
		return rt("AbsFloat", args[0]), true
	case "ROUND":
		return rt("Round", convert(args[0], typ(0), lang.TFloat), args[1]), true
	case "LENGTH":
		return rt("Length", args[0]), true
	case "UPPER":
		return rt("Upper", args[0]), true
	case "LOWER":
		return rt("Lower", args[0]), true
	case "TRIM", "LTRIM", "RTRIM":
		name := map[string]string{"TRIM": "Trim", "LTRIM": "LTrim", "RTRIM": "RTrim"}[x.Name]
		if len(args) == 2 {
			return rt(name+"Set", args[0], args[1]), true
		}
		return rt(name, args[0]), true
	case "SQL_SUBSTR":
		if len(args) == 2 {
			return rt("Substr", args[0], args[1]), true
		}
		return rt("SubstrLen", args[0], args[1], args[2]), true
	case "CONCAT":
		return jen.Parens(args[0]).Op("+").Parens(args[1]), true
	case "SQL_CAST_INT":
		switch typ(0) {
		case lang.TString:
			return rt("IntFromText", args[0]), true
		case lang.TFloat:
			return rt("IntFromReal", args[0]), true
		}
		return args[0], true
	case "SQL_CAST_FLOAT":
		if typ(0) == lang.TString {
			return rt("RealFromText", args[0]), true
		}
		return convert(args[0], typ(0), lang.TFloat).(*jen.Statement), true
	case "SQL_CAST_STRING":
		switch typ(0) {
		case lang.TInt:
			return rt("CastStringFromInt", args[0]), true
		case lang.TFloat:
			return rt("RealText", args[0]), true
		case lang.TDate:
			return rt("CastStringFromDate", args[0]), true
		}
		return args[0], true
	}
	return nil, false
}
