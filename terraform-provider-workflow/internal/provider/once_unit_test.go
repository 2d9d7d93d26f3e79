package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// outcomes returns a create's failure whose outcome is unknown (a 503)
// and one whose outcome is known (a 422), as the SDK reports them.
func outcomes(t *testing.T) (unknown, known error) {
	t.Helper()
	srv := workflowtest.Start(t)
	c := srv.Client(workflow.WithRetryPolicy(workflow.RetryPolicy{MaxAttempts: 1}))
	srv.Inject(workflowtest.Fault{Operation: "createGroup", Status: 503})
	_, unknown = c.Groups.Create(t.Context(), workflow.GroupRequest{Name: new("A")})
	srv.ClearFaults()
	srv.Inject(workflowtest.Fault{Operation: "createGroup", Status: 422})
	_, known = c.Groups.Create(t.Context(), workflow.GroupRequest{Name: new("A")})
	if !workflow.OutcomeUnknown(unknown) || known == nil || workflow.OutcomeUnknown(known) {
		t.Fatalf("the outcomes are not what the test needs: %v; %v", unknown, known)
	}
	return unknown, known
}

// noPause makes createOnce and resend send again at once, for the test t.
func noPause(t *testing.T) {
	was := againAfter
	againAfter = 0
	t.Cleanup(func() { againAfter = was })
}

func TestCreateOnce(t *testing.T) {
	noPause(t)
	unknown, known := outcomes(t)
	lookupErr := errors.New("the list failed")
	existing, made, written := "existing", "made", "written over"
	tests := []struct {
		name     string
		finds    []*string // what each look-up finds, in turn (the last one repeats)
		findErrs []error   // the look-ups' errors, in turn
		creates  []error   // each create's failure, in turn (nil: made)
		noAdopt  bool      // adopt is nil
		want     *string
		wantErr  error // matched with errors.Is; nil: none
		errText  string
		creates_ int    // how many creates are sent
		finds_   int    // how many look-ups
		warning  string // in the warning's detail; "" for none
	}{
		{name: "found before the create: adopted, written over", finds: []*string{&existing},
			want: &written, finds_: 1, warning: "made outside this state"},
		{name: "found before the create, kept as found", finds: []*string{&existing}, noAdopt: true,
			want: &existing, finds_: 1, warning: "made outside this state"},
		{name: "none: created", finds: []*string{nil}, creates: []error{nil},
			want: &made, creates_: 1, finds_: 1},
		{name: "an unknown outcome, then found: adopted", finds: []*string{nil, &existing}, creates: []error{unknown},
			want: &written, creates_: 1, finds_: 2, warning: "answer was lost"},
		{name: "an unknown outcome, none found: created again", finds: []*string{nil}, creates: []error{unknown, nil},
			want: &made, creates_: 2, finds_: 2},
		{name: "unknown outcomes each time: createTries creates, then the failure", finds: []*string{nil},
			creates: []error{unknown, unknown, unknown, nil}, wantErr: unknown, creates_: createTries, finds_: 1 + createTries},
		{name: "a refusal, none found: the refusal", finds: []*string{nil}, creates: []error{known, nil},
			wantErr: known, creates_: 1, finds_: 2},
		{name: "a refusal, then found (it exists): adopted", finds: []*string{nil, &existing}, creates: []error{known},
			want: &written, creates_: 1, finds_: 2, warning: "answer was lost"},
		{name: "the first look-up fails: nothing is created", findErrs: []error{lookupErr},
			wantErr: lookupErr, errText: "looking up the thing \"x\" before creating it", finds_: 1},
		{name: "the look-up after a failed create fails: both are said", finds: []*string{nil}, findErrs: []error{nil, lookupErr},
			creates: []error{unknown}, wantErr: lookupErr, errText: "and looking the thing \"x\" up after it", creates_: 1, finds_: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var finds, creates int
			find := func() (*string, error) {
				finds++
				var err error
				if finds <= len(tt.findErrs) {
					err = tt.findErrs[finds-1]
				}
				if err != nil {
					return nil, err
				}
				return tt.finds[min(finds, len(tt.finds))-1], nil
			}
			create := func() (*string, error) {
				creates++
				if err := tt.creates[min(creates, len(tt.creates))-1]; err != nil {
					return nil, err
				}
				return &made, nil
			}
			adopt := func(found *string) (*string, error) {
				if found != &existing {
					t.Errorf("adopt got %v, want what the look-up found", found)
				}
				return &written, nil
			}
			if tt.noAdopt {
				adopt = nil
			}
			var d diag.Diagnostics
			got, err := createOnce(t.Context(), &d, `thing "x"`, find, create, adopt)
			switch {
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			case tt.wantErr == nil && err != nil:
				t.Fatalf("err = %v", err)
			case tt.errText != "" && !strings.Contains(err.Error(), tt.errText):
				t.Errorf("err = %q, want it to say %q", err, tt.errText)
			case got != tt.want:
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if creates != tt.creates_ || finds != tt.finds_ {
				t.Errorf("%d creates and %d look-ups, want %d and %d", creates, finds, tt.creates_, tt.finds_)
			}
			warnings := d.Warnings()
			switch {
			case tt.warning == "" && len(warnings) != 0:
				t.Errorf("warnings %v, want none", warnings)
			case tt.warning != "" && (len(warnings) != 1 || warnings[0].Summary() != `Adopted the existing thing "x"` ||
				!strings.Contains(warnings[0].Detail(), tt.warning)):
				t.Errorf("warnings %v, want one saying %q", warnings, tt.warning)
			}
		})
	}
}

func TestCreateOnceStopsWithTheContext(t *testing.T) {
	unknown, _ := outcomes(t)
	ctx, cancel := context.WithCancel(t.Context())
	creates := 0
	_, err := createOnce(ctx, &diag.Diagnostics{}, "thing",
		func() (*int, error) { return nil, nil },
		func() (*int, error) { creates++; cancel(); return nil, unknown }, nil)
	if !errors.Is(err, unknown) || creates != 1 {
		t.Fatalf("after the context ended: %d creates, err %v", creates, err)
	}
}

func TestOnly(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		items   []int
		err     error
		want    int // 0: none
		wantErr error
	}{
		{name: "none", items: []int{1, 3}},
		{name: "one", items: []int{1, 2, 3}, want: 2},
		{name: "several", items: []int{2, 1, 2}, wantErr: errSeveral},
		{name: "the walk fails", items: []int{1}, err: boom, wantErr: boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := func(yield func(int, error) bool) {
				for _, i := range tt.items {
					if !yield(i, nil) {
						return
					}
				}
				if tt.err != nil {
					yield(0, tt.err)
				}
			}
			got, err := only(all, func(i int) bool { return i == 2 }, "twos")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == errSeveral && !strings.HasPrefix(err.Error(), "twos: ") {
				t.Errorf("err = %q: it does not say what", err)
			}
			if (got == nil) != (tt.want == 0) || got != nil && *got != tt.want {
				t.Errorf("got %v, want %d", got, tt.want)
			}
		})
	}
	if got, _ := only(each([]int{5, 2, 7}), func(i int) bool { return i > 6 }, "big"); got == nil || *got != 7 {
		t.Errorf("each: %v", got)
	}
	n := 0
	for range each([]int{1, 2, 3}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("each went on after its consumer stopped")
	}
}

func TestResend(t *testing.T) {
	noPause(t)
	unknown, known := outcomes(t)
	tests := []struct {
		name  string
		errs  []error
		sends int
		want  error
	}{
		{name: "done", errs: []error{nil}, sends: 1},
		{name: "an unknown outcome, then done", errs: []error{unknown, nil}, sends: 2},
		{name: "a refusal is not sent again", errs: []error{known}, sends: 1, want: known},
		{name: "unknown each time: createTries sends", errs: []error{unknown}, sends: createTries, want: unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sends := 0
			err := resend(t.Context(), func() error {
				sends++
				return tt.errs[min(sends, len(tt.errs))-1]
			})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) || sends != tt.sends {
				t.Fatalf("%d sends, err %v; want %d, %v", sends, err, tt.sends, tt.want)
			}
		})
	}
}

func TestBlind(t *testing.T) {
	unknown, known := outcomes(t)
	if blind("flow", "<id>", nil) != nil {
		t.Error("blind(nil) is not nil")
	}
	if err := blind("flow", "<id>", known); err != known {
		t.Errorf("a known outcome is explained: %v", err)
	}
	err := blind("flow", "<the flow's id>", unknown)
	if !errors.Is(err, unknown) {
		t.Errorf("the unknown outcome is not wrapped: %v", err)
	}
	for _, want := range []string{"the flow may have been made", "not sent again", "import it (an import block with id = <the flow's id>)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

func TestPause(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := pause(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("pause after the context ended: %v", err)
	}
	noPause(t)
	if err := pause(t.Context(), 2); err != nil {
		t.Fatalf("pause: %v", err)
	}
}
