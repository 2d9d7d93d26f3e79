package benchcmp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/listbench"
)

// Every loop reads the benchmarks' pages as the SDK's listing does: the
// same records, fields and cursors, so that they do the same work.
func TestLoopsReadWhatTheSDKReads(t *testing.T) {
	for name, page := range map[string]func(first, n int, more bool) []byte{
		"usual": func(first, n int, more bool) []byte { return listbench.Page(first, n, 12, more) },
		"mixed": listbench.MixedPage,
	} {
		t.Run(name, func(t *testing.T) {
			fx := listbench.NewFixture(3, 60, page)
			srv := listbench.StartServer(t, fx)
			var want []workflow.RecordItem
			for it, err := range newClient(t, srv).Records.All(t.Context(), workflow.Tasks, "bench", &workflow.ListOptions{First: fx.PerPage}) {
				require.NoError(t, err)
				want = append(want, it)
			}
			require.Len(t, want, fx.Records())
			for _, l := range loops {
				var got []workflow.RecordItem
				for _, body := range fx.Pages {
					var p listbench.BaselinePage
					require.NoError(t, l.newDecoder(bytes.NewReader(body)).Decode(&p), l.name)
					for _, it := range p.Items {
						got = append(got, workflow.RecordItem{Data: it.Data, Cursor: it.Cursor})
					}
				}
				assert.Equal(t, want, got, l.name)
			}
		})
	}
}
