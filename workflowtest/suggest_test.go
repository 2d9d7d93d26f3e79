package workflowtest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestRoute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, path, want string
	}{
		{"GET", "/tasks/it/1/comments", "GET /v1/tasks/it/1/comment"},
		{"POST", "/tasks/it/1/comments", "POST /v1/tasks/it/1/comment"},
		{"GET", "/tasks/it/1/watcher", "GET /v1/tasks/it/1/watchers"},
		{"GET", "/apps/crm/7/relateditems", "GET /v1/apps/crm/7/related-items"},
		{"GET", "/tasks/it/1/attachment/a1", "GET /v1/tasks/it/1/attachments/a1"},
		{"GET", "/user", "GET /v1/users"},
		{"GET", "/groups/g1/user", "GET /v1/groups/g1/users"},
		{"GET", "/task/it", "GET /v1/tasks/it"},
		{"PUT", "/task/it/5", "PUT /v1/tasks/it/5"},
		// A route of another method only when none of the request's is near.
		{"PATCH", "/tasks/it/1/comments", "GET /v1/tasks/it/1/comment"},
		// The request's values are kept, escaped.
		{"GET", "/tasks/it%20requests/a%2Fb/comments", "GET /v1/tasks/it%20requests/a%2Fb/comment"},
		// Nothing near.
		{"GET", "/tasks/it/1/history", ""},
		{"GET", "/widgets/it", ""},
		{"GET", "/tasks/it/1/comments/extra/segments", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			u, err := url.Parse("http://x/v1" + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			segs, perr := splitPath(u.EscapedPath()[len("/v1/"):])
			if perr != nil {
				t.Fatal(perr)
			}
			assert.Equal(t, tt.want, nearestRoute(tt.method, segs))
		})
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"comment", "comment", 0}, {"comments", "comment", 1}, {"", "abc", 3},
		{"kitten", "sitting", 3}, {"watchres", "watchers", 2},
	} {
		assert.Equal(t, tt.want, editDistance(tt.a, tt.b), "%q %q", tt.a, tt.b)
		assert.Equal(t, tt.want, editDistance(tt.b, tt.a), "%q %q", tt.b, tt.a)
	}
}

// The fake's 404 for an unknown route names the nearest route.
func TestUnknownRouteNamesTheNearest(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	seedTasks(a.srv, 1)
	for path, want := range map[string]string{
		"/tasks/it/1/comments": "no such route: GET /v1/tasks/it/1/comments; did you mean GET /v1/tasks/it/1/comment?",
		"/task/it":             `unknown record type "task" (one of apps, elements, tasks, transactions); did you mean GET /v1/tasks/it?`,
		"/tasks/it/1/history":  "no such route: GET /v1/tasks/it/1/history",
	} {
		assert.Equal(t, want, expectError(t, a.get(path), http.StatusNotFound), path)
	}
}
