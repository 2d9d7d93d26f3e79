package shape_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire/shape"
)

func TestPromised(t *testing.T) {
	const u = "00000000-0000-4000-8000-000000000001"
	tests := []struct {
		name      string
		op        op.ID
		reply     string
		want      string
		unchanged bool // the reply comes back byte for byte
	}{
		{name: "a member the schema does not name is left out", op: op.GetTable,
			reply: `{"id":"` + u + `","name":"T","categoryId":"` + u + `","description":"d","icon":"i","color":"c"}`,
			want:  `{"id":"` + u + `","name":"T"}`},
		{name: "at any depth: an array's items and a member's object", op: op.GetTable,
			reply: `{"id":"` + u + `","fields":[{"id":"` + u + `","x":1,"calculation":{"text":"a","y":2}},{"id":"` + u + `"}],"source":{"id":"` + u + `","z":[]}}`,
			want:  `{"id":"` + u + `","fields":[{"id":"` + u + `","calculation":{"text":"a"}},{"id":"` + u + `"}],"source":{"id":"` + u + `"}}`},
		{name: "an object the document leaves free-form is whole", op: op.GetTable,
			reply: `{"id":"` + u + `","filter":{"any":{"thing":[1,{"at":"all"}]}}}`,
			want:  `{"id":"` + u + `","filter":{"any":{"thing":[1,{"at":"all"}]}}}`},
		{name: "a Passthrough reply is whole", op: op.ComposeApp,
			reply: `{"id":"` + u + `","anything":{"goes":true}}`, unchanged: true},
		{name: "a record keeps its fields (additionalProperties)", op: op.GetRecord,
			reply: `{"id":"` + u + `","Title":"x","Owner":{"a":1}}`,
			want:  `{"id":"` + u + `","Title":"x","Owner":{"a":1}}`},
		{name: "a paged list's envelope and items", op: op.ListUsers,
			reply: `{"items":[{"id":"` + u + `","email":"a@example.com","extra":1}],"total":1,"paging":{"has_next_page":false,"secret":1},"more":2}`,
			want:  `{"items":[{"id":"` + u + `","email":"a@example.com"}],"total":1,"paging":{"has_next_page":false}}`},
		{name: "a oneOf is read as the alternative whose required members are there", op: op.ListRecordWatchers,
			reply: `{"items":[{"id":"` + u + `","target":{"type":"Group","id":"` + u + `","name":"G","email":"not a group's"}}],"total":1,"extra":0}`,
			want:  `{"items":[{"id":"` + u + `","target":{"type":"Group","id":"` + u + `","name":"G"}}],"total":1}`},
		{name: "a oneOf is read as its first alternative whose required members are there", op: op.ListRecordWatchers,
			reply: `{"items":[{"id":"` + u + `","target":{"type":"User","id":"` + u + `","email":"a@example.com","firstName":"A","lastName":"B","name":"not a user's"}}],"total":1}`,
			want:  `{"items":[{"id":"` + u + `","target":{"type":"User","id":"` + u + `","email":"a@example.com","firstName":"A","lastName":"B"}}],"total":1}`},
		{name: "a value of another type than its schema's is kept", op: op.GetTable,
			reply: `{"id":"` + u + `","fields":"not a list","source":7}`,
			want:  `{"id":"` + u + `","fields":"not a list","source":7}`},
		{name: "an operation with no JSON reply: unchanged", op: op.DeleteTable, reply: `{"x":1}`, unchanged: true},
		{name: "an unknown operation: unchanged", op: "noSuchOperation", reply: `not json`, unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := shape.Promised(tt.op, []byte(tt.reply))
			require.NoError(t, err)
			if tt.unchanged {
				if tt.op == op.ComposeApp {
					assert.JSONEq(t, tt.reply, string(got))
					return
				}
				assert.Equal(t, tt.reply, string(got))
				return
			}
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

func TestPromisedMalformed(t *testing.T) {
	for _, reply := range []string{`{"id":`, `{"id":"x"`, `[`, ``} {
		_, err := shape.Promised(op.GetTable, []byte(reply))
		assert.Error(t, err, "%q", reply)
	}
}
