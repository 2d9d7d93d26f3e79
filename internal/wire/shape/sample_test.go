package shape_test

import (
	"testing"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
	"github.com/seed-a15e58aa/workflow-go/internal/wire/shape"
)

// Every operation's sample is a body its schema accepts, by the
// document's rules and by the project's; an operation without a JSON
// body has none.
func TestSampleIsAValidBody(t *testing.T) {
	for _, o := range op.All() {
		b := shape.Sample(o.ID)
		if !wire.Takes(o.ID) {
			if b != nil {
				t.Errorf("%s takes no JSON body, but has the sample %s", o.ID, b)
			}
			continue
		}
		for _, opts := range []wire.Options{{Published: true}, {}} {
			if err := wire.Check(o.ID, b, opts); err != nil {
				t.Errorf("%s: the sample %s (%+v): %v", o.ID, b, opts, err)
			}
		}
	}
}
