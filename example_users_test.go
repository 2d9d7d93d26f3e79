package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// ExampleUsersService_Deactivate deactivates a user. The service may answer
// with the user or with no body; in the second case Deactivate returns a
// nil user and the example reads it back with Get.
func ExampleUsersService_Deactivate() {
	srv := newUsersExampleServer() // stands in for the service
	defer srv.Close()
	c, err := workflow.NewClient(
		workflow.WithCredentials("client-id", "client-secret"),
		workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithHTTPClient(srv.Client()),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	u, err := c.Users.Deactivate(ctx, "u-bo")
	if err != nil {
		log.Fatal(err)
	}
	if u == nil { // no body in the response
		if u, err = c.Users.Get(ctx, "u-bo"); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(u.Email, "active:", u.Active)

	_, err = c.Users.Deactivate(ctx, "u-nobody")
	var apiErr *workflow.APIError
	if errors.Is(err, workflow.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println("u-nobody:", apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// bo@example.com active: false
	// u-nobody: 404 user not found
}

// ExampleGroupsService_syncMembers makes a group's members exactly a wanted
// list of users: it reads the current members, computes who to add and who
// to remove, and applies both changes.
func ExampleGroupsService_syncMembers() {
	srv := newUsersExampleServer() // stands in for the service
	defer srv.Close()
	c, err := workflow.NewClient(
		workflow.WithCredentials("client-id", "client-secret"),
		workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithHTTPClient(srv.Client()),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	const group = "ops"
	wanted := []string{"u-ann", "u-cy", "u-dee"}

	current := map[string]bool{}
	for u, err := range c.Groups.AllUsers(ctx, group, nil) {
		if err != nil {
			log.Fatal(err)
		}
		current[u.ID] = true
	}
	var add, remove []string
	for _, id := range wanted {
		if !current[id] {
			add = append(add, id)
		}
	}
	for id := range current {
		if !slices.Contains(wanted, id) {
			remove = append(remove, id)
		}
	}
	slices.Sort(remove) // map order is random; keep the output stable

	if len(add) > 0 {
		if err := c.Groups.AddUsers(ctx, group, add...); err != nil {
			log.Fatal(err)
		}
	}
	if len(remove) > 0 {
		if err := c.Groups.RemoveUsers(ctx, group, remove...); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("added:", add)
	fmt.Println("removed:", remove)

	var members []string
	for u, err := range c.Groups.AllUsers(ctx, group, nil) {
		if err != nil {
			log.Fatal(err)
		}
		members = append(members, u.ID)
	}
	fmt.Println("members:", members)
	// Output:
	// added: [u-cy u-dee]
	// removed: [u-bo u-eve]
	// members: [u-ann u-cy u-dee]
}

// newUsersExampleServer starts a small stand-in for the service on
// 127.0.0.1: a token endpoint, users u-ann, u-bo, u-cy, u-dee and u-eve,
// and a group "ops" whose members are u-ann, u-bo and u-eve. It answers
// user lists in the paged {items: [{data, cursor}], total, paging} shape.
func newUsersExampleServer() *httptest.Server {
	var mu sync.Mutex
	users := map[string]map[string]any{}
	for _, name := range []string{"ann", "bo", "cy", "dee", "eve"} {
		users["u-"+name] = map[string]any{"id": "u-" + name, "email": name + "@example.com", "active": true}
	}
	members := map[string]map[string]bool{"ops": {"u-ann": true, "u-bo": true, "u-eve": true}}

	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusOK, map[string]any{"access_token": "token", "token_type": "bearer", "expires_in": 86400})
	})
	userRoute := func(h func(w http.ResponseWriter, u map[string]any)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			if u, ok := users[r.PathValue("id")]; ok {
				h(w, u)
				return
			}
			reply(w, http.StatusNotFound, map[string]any{"status": 404, "message": "user not found"})
		}
	}
	mux.HandleFunc("GET /v1/users/{id}", userRoute(func(w http.ResponseWriter, u map[string]any) {
		reply(w, http.StatusOK, u)
	}))
	mux.HandleFunc("POST /v1/users/{id}/deactivate", userRoute(func(w http.ResponseWriter, u map[string]any) {
		u["active"] = false
		reply(w, http.StatusOK, u)
	}))
	groupRoute := func(h func(w http.ResponseWriter, r *http.Request, m map[string]bool)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			if m, ok := members[r.PathValue("id")]; ok {
				h(w, r, m)
				return
			}
			reply(w, http.StatusNotFound, map[string]any{"status": 404, "message": "group not found"})
		}
	}
	mux.HandleFunc("GET /v1/groups/{id}/users", groupRoute(func(w http.ResponseWriter, _ *http.Request, m map[string]bool) {
		items := []map[string]any{}
		for _, id := range slices.Sorted(maps.Keys(m)) {
			items = append(items, map[string]any{"data": users[id], "cursor": id})
		}
		reply(w, http.StatusOK, map[string]any{"items": items, "total": len(items), "paging": map[string]any{}})
	}))
	changeMembers := func(add bool) http.HandlerFunc {
		return groupRoute(func(w http.ResponseWriter, r *http.Request, m map[string]bool) {
			var body struct {
				UserIDs []string `json:"userIds"`
			}
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.UserIDs) == 0 {
				reply(w, http.StatusBadRequest, map[string]any{"status": 400, "message": "userIds required"})
				return
			}
			for _, id := range body.UserIDs {
				if add {
					m[id] = true
				} else {
					delete(m, id)
				}
			}
			w.WriteHeader(http.StatusNoContent)
		})
	}
	mux.HandleFunc("POST /v1/groups/{id}/users", changeMembers(true))
	mux.HandleFunc("DELETE /v1/groups/{id}/users", changeMembers(false))
	return httptest.NewServer(mux)
}
