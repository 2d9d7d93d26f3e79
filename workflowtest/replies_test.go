package workflowtest

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A table's categoryId, description, icon and color are taken by its
// create body but named by no response schema: the documented mode leaves
// them out of every reply, the generous mode sends what the server holds.
func TestRepliesModes(t *testing.T) {
	const body = `{"name":"Orders","handle":"ORD","source":"50000000-0000-4000-8000-000000000001","categoryId":"50000000-0000-4000-8000-000000000002",` +
		`"description":"d","icon":"i","color":"c","fields":[{"cloud":{"name":"Status","snowflake":{"columnName":"STATUS","type":"TEXT"}}}]}`
	notPromised := []string{"categoryId", "description", "icon", "color"}
	tests := []struct {
		name  string
		env   string
		opts  []Option
		holds bool
	}{
		{name: "documented by default", holds: false},
		{name: "generous by the option", opts: []Option{WithReplies(Generous)}, holds: true},
		{name: "documented by the option", opts: []Option{WithReplies(Documented)}, env: "generous", holds: false},
		{name: "generous by the environment", env: "generous", holds: true},
		{name: "documented by the environment", env: "documented", holds: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(RepliesEnv, tt.env)
			a := newAPI(t, tt.opts...)
			created := a.do(http.MethodPost, "/tables", []byte(body))
			require.Equal(t, http.StatusCreated, created.status, "body: %s", created.body)
			var c map[string]any
			created.decode(&c)
			got := a.do(http.MethodGet, "/tables/"+c["id"].(string), nil)
			list := a.do(http.MethodGet, "/tables", nil)
			for _, res := range []*result{created, got} {
				var m map[string]any
				require.NoError(t, json.Unmarshal(res.body, &m))
				assert.Equal(t, "Orders", m["name"], "the promised members are there")
				for _, k := range notPromised {
					_, ok := m[k]
					assert.Equal(t, tt.holds, ok, "%s in %s", k, res.body)
				}
			}
			var l struct{ Items []map[string]any }
			require.NoError(t, json.Unmarshal(list.body, &l))
			require.Len(t, l.Items, 1)
			_, ok := l.Items[0]["categoryId"]
			assert.Equal(t, tt.holds, ok, "in the list too")
		})
	}
}

// Errors are not success replies: their body is sent as the server
// makes it, in either mode.
func TestRepliesKeepErrors(t *testing.T) {
	a := newAPI(t)
	res := a.do(http.MethodGet, "/tables/50000000-0000-4000-8000-0000000000ff", nil)
	require.Equal(t, http.StatusNotFound, res.status)
	var m map[string]any
	require.NoError(t, json.Unmarshal(res.body, &m))
	assert.NotEmpty(t, m["message"])
}

func TestRepliesEnvRefusesOtherValues(t *testing.T) {
	t.Setenv(RepliesEnv, "generus")
	assert.PanicsWithValue(t, `workflowtest: WORKFLOWTEST_REPLIES is "generus"; it must be "documented" or "generous"`, func() { NewServer().Close() })
	assert.Equal(t, "generous", Generous.String())
	assert.Equal(t, "documented", Documented.String())
}
