package wire

import (
	"testing"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Every operation's sample is a body its schema accepts, by the
// document's rules and by the project's; an operation without a JSON
// body has none.
func TestSampleIsAValidBody(t *testing.T) {
	for _, o := range op.All() {
		b := Sample(o.ID)
		if !Takes(o.ID) {
			if b != nil {
				t.Errorf("%s takes no JSON body, but has the sample %s", o.ID, b)
			}
			continue
		}
		for _, opts := range []Options{{Published: true}, {}} {
			if err := Check(o.ID, b, opts); err != nil {
				t.Errorf("%s: the sample %s (%+v): %v", o.ID, b, opts, err)
			}
		}
	}
}
