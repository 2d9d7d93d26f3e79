package workflowtest

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

func TestComments(t *testing.T) {
	a := newAPI(t, WithClock(fixedClock()))
	seedTasks(a.srv, 1)
	bob := a.srv.AddUser("bob@example.com", "Bob", "B")
	eve := a.srv.AddUser("eve@example.com", "Eve", "E")
	a.srv.Deny(eve.UserID, workflow.Tasks, "it")

	res := a.doText(http.MethodPost, "/tasks/it/1/comment", "text/plain", "first\nline two")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	assert.Equal(t, "text/plain; charset=utf-8", res.header.Get("Content-Type"))
	firstID := string(res.body)
	assert.Equal(t, "c0000000-0000-4000-8000-000000000001", firstID, "the reply is the new comment's id, as text")
	a.srv.Advance(time.Minute)
	res = a.as(bob).doText(http.MethodPost, "/tasks/it/1/comment", "text/plain; charset=UTF-8", "second")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	secondID := string(res.body)

	type commentWire struct {
		ID        string         `json:"id"`
		CreatedAt string         `json:"createdAt"`
		Source    string         `json:"source"`
		Contents  string         `json:"contents"`
		CreatedBy map[string]any `json:"createdBy"`
	}
	p := getPage[commentWire](a, "/tasks/it/1/comment", nil)
	require.Len(t, p.Items, 2)
	assert.Equal(t, 2, p.Total)
	assert.Equal(t, firstID, p.Items[0].ID)
	assert.Equal(t, "2024-03-01T09:00:00.000Z", p.Items[0].CreatedAt)
	assert.Equal(t, "API", p.Items[0].Source)
	assert.Equal(t, "first\nline two", p.Items[0].Contents)
	assert.Equal(t, DefaultUserID, p.Items[0].CreatedBy["id"])
	assert.Equal(t, DefaultUserEmail, p.Items[0].CreatedBy["email"])
	assert.Equal(t, secondID, p.Items[1].ID)
	assert.Equal(t, "2024-03-01T09:01:00.000Z", p.Items[1].CreatedAt)
	assert.Equal(t, bob.UserID, p.Items[1].CreatedBy["id"])
	assert.Equal(t, []string{"first\nline two", "second"}, a.srv.Comments(workflow.Tasks, "it", "1"))

	back := getPage[commentWire](a, "/tasks/it/1/comment", url.Values{"last": {"1"}})
	require.Len(t, back.Items, 1)
	assert.Equal(t, secondID, back.Items[0].ID)
	assert.True(t, back.Paging.HasPreviousPage)

	tests := []struct {
		name, ct, body string
		a              *api
		path           string
		status         int
	}{
		{"JSON body", "application/json", `{"text":"x"}`, a, "/tasks/it/1/comment", 400},
		{"blank", "text/plain", " \n ", a, "/tasks/it/1/comment", 400},
		{"empty", "text/plain", "", a, "/tasks/it/1/comment", 400},
		{"other charset", "text/plain; charset=iso-8859-1", "caf\xe9", a, "/tasks/it/1/comment", 400},
		{"not UTF-8", "text/plain", "caf\xe9", a, "/tasks/it/1/comment", 400},
		{"no record", "text/plain", "x", a, "/tasks/it/2/comment", 404},
		{"denied", "text/plain", "x", a.as(eve), "/tasks/it/1/comment", 403},
		{"no token", "text/plain", "x", &api{t: t, srv: a.srv}, "/tasks/it/1/comment", 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectError(t, tc.a.doText(http.MethodPost, tc.path, tc.ct, tc.body), tc.status)
		})
	}
	assert.Len(t, a.srv.Comments(workflow.Tasks, "it", "1"), 2, "nothing refused was added")
	res = a.doText(http.MethodPost, "/tasks/it/1/comment", "", "no Content-Type is read as text")
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)

	expectError(t, a.get("/tasks/it/2/comment"), 404)
	expectError(t, a.get("/tasks/it/1/comment?filter=source%3D%3DAPI"), 400)
	expectError(t, a.as(eve).get("/tasks/it/1/comment"), 403)
	expectError(t, (&api{t: t, srv: a.srv}).get("/tasks/it/1/comment"), 401)
	expectError(t, a.get("/tasks/it/1/comments"), 404)
}
