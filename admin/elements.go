package admin

import (
	"context"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// ElementsService is the elements of the workspace: their definitions
// (the service calls them aspects), created by importing a table of a
// connected cloud source or natively: POST /elements, GET and
// PUT /elements/{alias}. The service publishes no list and no delete of
// element definitions.
//
// GET /elements/{alias} overlaps the record list of the elements of that
// alias: see the package documentation.
type ElementsService struct {
	client *workflow.Client
}

// AspectSourceType says where an aspect's data lives.
type AspectSourceType string

// The source types the service publishes.
const (
	// SourceElementum: the data is native to the service.
	SourceElementum AspectSourceType = "ELEMENTUM"
	// SourceSnowflake: the data is imported from a connected Snowflake
	// table.
	SourceSnowflake AspectSourceType = "SNOWFLAKE"
)

// AspectStatus is an aspect's lifecycle status. The service names DRAFT,
// ACTIVE and ARCHIVED and leaves the list open: a status it adds later is
// kept as sent.
type AspectStatus string

// The aspect statuses the service names.
const (
	AspectDraft    AspectStatus = "DRAFT"
	AspectActive   AspectStatus = "ACTIVE"
	AspectArchived AspectStatus = "ARCHIVED"
)

// Request returns the update body of the element as read (for
// ElementsService.Update, in this workspace or another), with every
// member as it was read: its name, description, icon, color, its
// category's id as categoryId, and the members of Extra (the element
// settings the update body takes, such as allowForwardedEmailIngestion,
// when the service sends them). What it cannot carry: the read-only id,
// __typename, namespace, handle, status, configured, readOnly and
// sourceType (an element's source and fields are fixed when it is
// created), and the category's name. A member read as null is an error
// naming it.
func (a Aspect) Request() (ElementUpdate, error) {
	return writeBody[ElementUpdate](a, []string{"id", "__typename", "namespace", "handle", "status", "configured", "readOnly", "sourceType"},
		map[string]any{"category": nil, "categoryId": a.Category.Value().ID})
}

// Create creates an element and returns its definition (201):
// POST /elements with n as the body. A body that breaks a rule of the
// document (Name and CategoryID are required, CategoryID and CloudLinkID
// are UUIDs), or a Namespace that is not a usable path segment, is a
// *workflow.ValidationError naming the member, and nothing is sent.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have created the element.
func (s *ElementsService) Create(ctx context.Context, n NewElement, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	var err error
	if n.Namespace != nil {
		_, err = workflow.Segment("NewElement.namespace", *n.Namespace)
	}
	return aspectAt(ctx, s.client, at(op.CreateElement).or(err), n, reqOpts)
}

// Get returns the definition of the element alias (its namespace or its
// UUID): GET /elements/{alias}, with no query string. An answer without an
// element id, such as the record list of the elements of that alias (see
// ElementsService), is an error matching workflow.ErrUnexpectedResponse.
func (s *ElementsService) Get(ctx context.Context, alias string, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	return aspectAt(ctx, s.client, at(op.GetElement, "alias", alias), nil, reqOpts)
}

// Update changes the element alias (its namespace or its UUID) and returns
// its definition: PUT /elements/{alias} with u as the body (200). Only what
// u sets is sent and changed.
func (s *ElementsService) Update(ctx context.Context, alias string, u ElementUpdate, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	return aspectAt(ctx, s.client, at(op.UpdateElement, "alias", alias), u, reqOpts)
}

// aspectAt sends one element operation and reads its Aspect, which must
// carry an id.
func aspectAt(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (*Aspect, error) {
	a, err := call[Aspect](ctx, c, t, body, reqOpts)
	if err == nil && a.ID.Value() == "" {
		what := "an answer"
		if _, ok := a.Extra["items"]; ok {
			what = "a record list"
		}
		return nil, unexpected(t, what+", not an element definition with an id")
	}
	return a, err
}
