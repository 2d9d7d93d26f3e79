package workflow_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// ExampleUsersService_Deactivate deactivates a user. The service may answer
// with the user or with no body; in the second case Deactivate returns a
// nil user and the example reads it back with Get.
func ExampleUsersService_Deactivate() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	bo := srv.AddUser("bo@example.com", "Bo", "Berg").UserID
	c := srv.Client()
	ctx := context.Background()

	u, err := c.Users.Deactivate(ctx, bo)
	if err != nil {
		log.Fatal(err)
	}
	if u == nil { // no body in the response
		if u, err = c.Users.Get(ctx, bo); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(u.Email, u.Status, "active:", u.Active())

	_, err = c.Users.Deactivate(ctx, "00000000-0000-4000-8000-00000000beef")
	var apiErr *workflow.APIError
	if errors.Is(err, workflow.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println("...beef:", apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// bo@example.com INACTIVE active: false
	// ...beef: 404 no user with id "00000000-0000-4000-8000-00000000beef"
}

// ExampleMembersService_Add makes a group's members exactly a wanted list
// of users: it reads the current members, computes who to add and who to
// remove, and applies both changes.
func ExampleMembersService_Add() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	// The fake numbers its users' UUIDs: ...0001 (its default user),
	// ...0002, ...0003 and so on.
	ann := srv.AddUser("ann@example.com", "Ann", "Adams").UserID // ...0002
	bo := srv.AddUser("bo@example.com", "Bo", "Berg").UserID     // ...0003
	cy := srv.AddUser("cy@example.com", "Cy", "Cole").UserID     // ...0004
	dee := srv.AddUser("dee@example.com", "Dee", "Dunn").UserID  // ...0005
	eve := srv.AddUser("eve@example.com", "Eve", "Eng").UserID   // ...0006
	group := srv.AddGroup("ops", ann, bo, eve)
	c := srv.Client()
	ctx := context.Background()
	wanted := []string{ann, cy, dee}

	current := map[string]bool{}
	for u, err := range c.Groups.Members.All(ctx, group, nil) {
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
		if err := c.Groups.Members.Add(ctx, group, add); err != nil {
			log.Fatal(err)
		}
	}
	if len(remove) > 0 {
		if err := c.Groups.Members.Remove(ctx, group, remove); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("added:", add)
	fmt.Println("removed:", remove)

	var members []string
	for u, err := range c.Groups.Members.All(ctx, group, nil) {
		if err != nil {
			log.Fatal(err)
		}
		members = append(members, u.Email)
	}
	fmt.Println("members:", members)
	// Output:
	// added: [00000000-0000-4000-8000-000000000004 00000000-0000-4000-8000-000000000005]
	// removed: [00000000-0000-4000-8000-000000000003 00000000-0000-4000-8000-000000000006]
	// members: [ann@example.com cy@example.com dee@example.com]
}

// ExampleUsersService_Create creates a user with the fields the service
// requires (e-mail, first and last name) and the optional ones.
func ExampleUsersService_Create() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	c := srv.Client()
	ctx := context.Background()

	u, err := c.Users.Create(ctx, workflow.NewUser{
		Email: "grace@example.com", FirstName: "Grace", LastName: "Hopper",
		JobTitle: new("Rear Admiral"), NeverNotify: new(true), // no welcome e-mail
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.ID, u.Email, u.JobTitle, u.Status, u.Active())

	// An address the document's email format refuses is refused before
	// anything is sent.
	_, err = c.Users.Create(ctx, workflow.NewUser{Email: "Ada <ada@example.com>", FirstName: "Ada", LastName: "Lovelace"})
	var ve *workflow.ValidationError
	if errors.As(err, &ve) {
		fmt.Println("refused:", ve.Field)
	}
	// Output:
	// 00000000-0000-4000-8000-000000000002 grace@example.com Rear Admiral ACTIVE true
	// refused: NewUser.Email
}

// ExampleGroupsService_Create creates a group, then makes it dynamic: its
// members then follow an e-mail domain.
func ExampleGroupsService_Create() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ann := srv.AddUser("ann@example.com", "Ann", "Adams").UserID
	c := srv.Client()
	ctx := context.Background()

	g, err := c.Groups.Create(ctx, workflow.GroupRequest{
		Name: new("Approvers"), Approver: new(true), Assignable: new(true), UserIDs: []string{ann},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.ID, g.Name, "assignable:", g.Assignable, "dynamic:", g.Dynamic)

	// Update sends only what is set: here two flags and the domains.
	g, err = c.Groups.Update(ctx, g.ID, workflow.GroupRequest{
		Assignable: new(false), Dynamic: new(true), Domains: []string{"example.com"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.ID, g.Name, "assignable:", g.Assignable, "dynamic:", g.Dynamic, "domain:", g.Domains[0].Domain)
	// Output:
	// 10000000-0000-4000-8000-000000000001 Approvers assignable: true dynamic: false
	// 10000000-0000-4000-8000-000000000001 Approvers assignable: false dynamic: true domain: example.com
}

// ExampleMembersService_All walks a group's members, here one per page.
// The service publishes no filter for this list: a Filter is refused
// before anything is sent.
func ExampleMembersService_All() {
	srv := workflowtest.NewServer() // stands in for the service; in production use workflow.NewClient with your credentials and endpoints
	defer srv.Close()
	ann := srv.AddUser("ann@example.com", "Ann", "Adams").UserID
	bo := srv.AddUser("bo@example.com", "Bo", "Berg").UserID
	group := srv.AddGroup("IT Support", ann, bo)
	c := srv.Client()
	ctx := context.Background()

	for u, err := range c.Groups.Members.All(ctx, group, &workflow.ListOptions{First: 1}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u.Email, u.FirstName, u.LastName, u.Status)
	}

	_, err := c.Groups.Members.List(ctx, group, &workflow.ListOptions{Filter: rsql.Field("email").Eq("ann@example.com")})
	fmt.Println(err)
	// Output:
	// ann@example.com Ann Adams ACTIVE
	// bo@example.com Bo Berg ACTIVE
	// workflow: invalid ListOptions.Filter: must be nil: the service publishes no filter for groups/10000000-0000-4000-8000-000000000001/users
}
