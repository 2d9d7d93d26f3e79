package errcheck

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"testing"
)

type hidden struct{ err error }

func (h *hidden) Error() string { return "hidden" }
func (h *hidden) Unwrap() error { return h.err }

var errPlain = errors.New("plain")

func TestReachable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"exported type", &url.Error{Err: errPlain}, true},
		{"plain text", errPlain, false},
		{"plain text wrapped", fmt.Errorf("x: %w", errPlain), false},
		{"sentinel", context.Canceled, true},
		{"sentinel wrapped twice", fmt.Errorf("a: %w", &hidden{fmt.Errorf("b: %w", context.Canceled)}), true},
		{"unexported wrapping an exported one", &hidden{&url.Error{}}, true},
		{"unexported wrapping nothing", &hidden{}, false},
		{"joined, one reachable", errors.Join(errPlain, context.Canceled), true},
		{"joined, none reachable", errors.Join(errPlain, &hidden{}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, chain := Reachable(tc.err, context.Canceled)
			if got != tc.want {
				t.Errorf("Reachable = %v, want %v (chain %s)", got, tc.want, chain)
			}
		})
	}
}

func TestTexts(t *testing.T) {
	got := Texts(errPlain)
	want := []string{"plain", "plain", "plain", "plain", `"plain"`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Texts = %q, want %q", got, want)
	}
}
