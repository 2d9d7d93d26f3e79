// Package op is the table of the API's operations, generated from the
// contract document (internal/contract/openapi.yaml) by `go generate` and
// held equal to it by a test: for each operation its id, method, path
// template, path and query parameters, request body, success statuses
// and whether it pages. Everything that names an operation (the SDK's
// methods and their telemetry, the fake's routes, the body checks of
// package wire) names it by its ID here.
package op

import (
	"context"
	"slices"
	"strings"
	"sync"
)

//go:generate go run ./gen ../contract/openapi.yaml ops.go

// ID is an operation's operationId in the contract document, such as
// updateView.
type ID string

// Operation is one operation of the contract document.
type Operation struct {
	ID     ID
	Method string // http.MethodGet, ...
	// Path is the path template, relative to the API base URL (ending in
	// "/v1"), or to the token host when AuthHost: "/apps/{alias}/views/{id}".
	Path     string
	AuthHost bool
	// PathParams are the parameters of Path, in the order they appear.
	PathParams []Param
	Query      []string // the query parameters' names
	// Body is the name of the schema of the JSON request body ("" when the
	// operation takes none, or a body of another media type only); Media
	// are the media types of the request body, none when it takes none.
	Body  string
	Media []string
	// Success are the success statuses; a one-digit entry is a class (2:
	// any 2xx).
	Success []int
	Paged   bool // the answer is one page of a paged list (items, total, paging)
}

// Param is a path parameter: its name and, when the document gives one,
// the values it may take.
type Param struct {
	Name string
	Enum []string
}

// String returns the id.
func (id ID) String() string { return string(id) }

// Op returns the operation of id; it panics when the document has none,
// for an ID is a constant of this package.
func (id ID) Op() *Operation {
	if o := Lookup(id); o != nil {
		return o
	}
	panic("op: no operation " + string(id))
}

// Lookup returns the operation of id, or nil when the document has none.
func Lookup(id ID) *Operation {
	i, ok := slices.BinarySearchFunc(table[:], id, func(o Operation, id ID) int { return strings.Compare(string(o.ID), string(id)) })
	if !ok {
		return nil
	}
	return &table[i]
}

// All returns every operation, by id.
func All() []*Operation {
	out := make([]*Operation, len(table))
	for i := range table {
		out[i] = &table[i]
	}
	return out
}

// Fill builds the operation's path relative to its base URL, without a
// leading slash, from args: pairs of a field name (what an error calls the
// argument) and a value, one pair for each of PathParams, in their order.
// Each value goes through check, which returns it escaped or the error
// that refuses it.
func (o *Operation) Fill(check func(field, value string) (string, error), args ...string) (string, error) {
	if len(args) != 2*len(o.PathParams) {
		panic("op: " + string(o.ID) + " takes " + strings.Join(o.paramNames(), ", "))
	}
	var b strings.Builder
	b.Grow(len(o.Path) + 16)
	k := 0
	for _, w := range o.segments() {
		b.WriteByte('/') // the leading one is cut below
		if w[0] != '{' {
			b.WriteString(w)
			continue
		}
		v, err := check(args[k], args[k+1])
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		k += 2
	}
	return b.String()[1:], nil
}

func (o *Operation) paramNames() []string {
	var s []string
	for _, p := range o.PathParams {
		s = append(s, p.Name)
	}
	return s
}

// segments are the words of Path.
func (o *Operation) segments() []string { return words()[o] }

// words holds the words of each operation's Path.
var words = sync.OnceValue(func() map[*Operation][]string {
	m := make(map[*Operation][]string, len(table))
	for i := range table {
		m[&table[i]] = strings.Split(table[i].Path[1:], "/")
	}
	return m
})

// Match finds the operation under the API base of method and the path
// segs (relative to the base URL, split at "/"). A parameter with an enum
// takes only its values; where several templates fit, a word beats a
// parameter at the first place they differ. When the path fits only
// operations of other methods, it returns their methods instead, the
// most specific template's first.
func Match(method string, segs []string) (*Operation, []string) {
	var allow []string
	for _, o := range order {
		if !fits(o, o.segments(), segs) {
			continue
		}
		if o.Method == method {
			return o, nil
		}
		if !slices.Contains(allow, o.Method) {
			allow = append(allow, o.Method)
		}
	}
	return nil, allow
}

func fits(o *Operation, words, segs []string) bool {
	if len(words) != len(segs) {
		return false
	}
	k := 0
	for i, w := range words {
		if w[0] != '{' {
			if w != segs[i] {
				return false
			}
			continue
		}
		p := o.PathParams[k]
		k++
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, segs[i]) {
			return false
		}
	}
	return true
}

// Fits reports whether a request of method for the path segs (relative to
// the base URL, split at "/") is one of the operation.
func (o *Operation) Fits(method string, segs []string) bool {
	return o.Method == method && !o.AuthHost && fits(o, o.segments(), segs)
}

type ctxKey struct{}

// NewContext returns ctx naming the operation id: the request built with
// it is one of that operation (see FromContext).
func NewContext(ctx context.Context, id ID) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// FromContext returns the operation ctx names, or nil.
func FromContext(ctx context.Context) *Operation {
	id, _ := ctx.Value(ctxKey{}).(ID)
	return Lookup(id)
}

// Body is the JSON request body of an operation as the package that made
// it encoded it (admin, with its JSON library): Value is what was
// encoded, which names the members a check refuses, and JSON its bytes,
// which are checked and sent as they are.
type Body struct {
	Value any
	JSON  []byte
}
