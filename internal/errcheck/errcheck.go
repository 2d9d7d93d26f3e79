// Package errcheck holds the checks the tests of every package make on the
// errors a public method returns: that a caller can reach a type or a
// sentinel of its own with errors.As or errors.Is, and that no text of
// the error holds a value the request sent.
package errcheck

import (
	"fmt"
	"go/token"
	"reflect"
	"strings"
)

// Reachable reports whether err is of an exported type, or wraps (at any
// depth, through Unwrap() error and Unwrap() []error) an error of an
// exported type or one of sentinels: what a caller can match with
// errors.As or errors.Is. It returns the chain it walked, for a failure's
// message.
func Reachable(err error, sentinels ...error) (bool, string) {
	var chain []string
	var walk func(error) bool
	walk = func(e error) bool {
		if e == nil {
			return false
		}
		t := reflect.TypeOf(e)
		chain = append(chain, t.String())
		for _, s := range sentinels {
			if e == s {
				return true
			}
		}
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if token.IsExported(t.Name()) && !strings.Contains(t.PkgPath(), "/internal") {
			return true
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			return walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				if walk(inner) {
					return true
				}
			}
		}
		return false
	}
	ok := walk(err)
	return ok, strings.Join(chain, " > ")
}

// Texts returns the texts a caller may print or log of err: Error() and
// the fmt verbs %v, %+v, %s and %q.
func Texts(err error) []string {
	out := []string{err.Error()}
	for _, verb := range []string{"%v", "%+v", "%s", "%q"} {
		out = append(out, fmt.Sprintf(verb, err))
	}
	return out
}
