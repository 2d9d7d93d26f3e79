package workflow_test

// End-to-end tests of AllItemsAs: resuming from an item's cursor, and the
// cursor of an item that does not decode.

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestAllItemsAsResumes(t *testing.T) {
	type task struct {
		N int `workflow:"n"`
	}
	for _, prefetch := range []bool{false, true} {
		srv := workflowtest.Start(t)
		const total = 23
		seedNumbered(srv, workflow.Tasks, "it", total)
		c := srv.Client()
		opts := &workflow.ListOptions{First: 4, Prefetch: prefetch}

		// The first run stops after 10 records, in the middle of a page,
		// and saves the cursor of the last record it handled.
		var got []int
		var saved string
		for it, err := range workflow.AllItemsAs[task](t.Context(), c.Records, workflow.Tasks, "it", opts) {
			require.NoError(t, err)
			got = append(got, it.Value.N)
			saved = it.Cursor
			if len(got) == 10 {
				break
			}
		}
		require.NotEmpty(t, saved)

		// The second run, from the saved cursor only, gets the rest.
		resume := &workflow.ListOptions{First: 4, After: saved, Prefetch: prefetch}
		for it, err := range workflow.AllItemsAs[*task](t.Context(), c.Records, workflow.Tasks, "it", resume) {
			require.NoError(t, err)
			got = append(got, it.Value.N)
		}
		want := make([]int, total)
		for i := range want {
			want[i] = i
		}
		assert.Equal(t, want, got, "prefetch=%v: every record once, none lost, in order", prefetch)
	}
}

func TestAllItemsAsDecodeErrorCursor(t *testing.T) {
	type task struct {
		N int `workflow:"n"`
	}
	srv := workflowtest.Start(t)
	srv.Seed(workflow.Tasks, "it", workflow.Record{"n": "1"}, workflow.Record{"n": "x"}, workflow.Record{"n": "3"})
	c := srv.Client()
	var last workflow.Item[task]
	var derr error
	for it, err := range workflow.AllItemsAs[task](t.Context(), c.Records, workflow.Tasks, "it", nil) {
		if err != nil {
			last, derr = it, err
			break
		}
	}
	var de *workflow.DecodeError
	require.True(t, errors.As(derr, &de))
	assert.Equal(t, de.Cursor, last.Cursor, "the failing item carries its cursor")
	var rest []int
	for it, err := range workflow.AllItemsAs[task](t.Context(), c.Records, workflow.Tasks, "it", &workflow.ListOptions{After: last.Cursor}) {
		require.NoError(t, err)
		rest = append(rest, it.Value.N)
	}
	assert.Equal(t, []int{3}, rest, "resuming skips the bad record")
}
